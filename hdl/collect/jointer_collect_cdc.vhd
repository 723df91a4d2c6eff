-- SPDX-License-Identifier: MIT
-- jointer_collect_cdc: request/acknowledge bridge of the register port from
-- the DCI (s side, bus clock) to an LMIC on another clock (m side): the one
-- place where the register path crosses clock domains (doc/internals/collect.md). It stores no data: the LMIC captures and holds.
-- Four-phase level handshake; req_l and ack_m are the only signals that
-- cross through two-flop synchronisers (jointer_collect_sync, ASYNC_REG):
--   req up   : phase 1. The m side pulses m_req; the LMIC captures the access
--              (a read: its answer into its held word; a write: address and
--              data into the same held word, not yet performed).
--   ack up   : the LMIC answered (m_ack); its held m_rdata/m_err stay stable
--              until its next m_req. The s side answers s_ack with them.
--   req down : for a write, one s cycle after the answer, commit_l tells
--              whether the DCI committed it (s_commit, which the DCI pulses
--              with the answer, and no s_rst since the request); reads and
--              refused accesses: 0.
--   ack down : the m side pulses m_commit when commit_l was 1 (the LMIC
--              performs the captured write), then drops ack.
-- Values that cross without a synchroniser, each stable while sampled:
--   s_we/s_addr/s_wdata (-> m_*): held by the DCI (the AXI master's payload:
--   READY stays low until the answer) from before req rises until the m side
--   answered, which is before ack rises; m_rdata/m_err/rflag: loaded at m_req,
--   held until the next one, so from before ack rises until the DCI's next
--   access; commit_l: set in the s edge that drops req, read by the m side
--   when it sees req low (two synchroniser stages later).
-- Why two phases: a bus reset (s_rst) resets the AXI master too, which may
-- change its held payload at once; a write whose data was sampled around that
-- moment must not land. The s side commits only when no s_rst came between
-- req up and the answer (commit_l = 0 otherwise), so a write lands only with
-- data sampled while the master still held it. No 32-bit latch is needed.
-- - m-side reset adopts the synchronised req as ack: the access is answered
--   SLVERR (rflag) and nothing is captured; it is never committed.
-- With s_err, s_rdata is not defined (the DCI answers SLVERR with 0).
-- - s-side reset answers the pending request (or one arriving during the
--   reset) SLVERR in the next cycle; the handshake completes silently
--   (commit_l = 0); a request after the reset waits for it (`own` tells the
--   handshake of the pending request from an older one).
-- - When the m side does not answer within timeout_g s cycles (its clock
--   stopped, or a handshake that does not finish), the bridge answers SLVERR
--   (loc_r); the orphan handshake completes silently later (never
--   committed). Until then further requests are answered SLVERR at once.
-- The handshake levels start at 0 through initial values (FPGA INIT), not
-- through a reset: neither side's reset may break a handshake in flight.
-- Same clock: the generator wires the LMIC to the DCI directly (no bridge).
-- Generics:
--   addr_w_g  : word-address bits of the register port
--   timeout_g : s cycles without an answer before SLVERR (>= 16); a power of
--               two keeps the counter at log2(timeout_g) + 1 bits

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_cdc is
  generic (
    addr_w_g  : positive := 6;
    timeout_g : positive := 256);
  port (
    -- s side: from the DCI, bus clock
    s_clk    : in  std_logic;
    s_rst    : in  std_logic;
    s_req    : in  std_logic;
    s_commit : in  std_logic;
    s_we     : in  std_logic;
    s_addr   : in  std_logic_vector(addr_w_g - 1 downto 0);
    s_wdata  : in  std_logic_vector(31 downto 0);
    s_ack    : out std_logic;
    s_rdata  : out std_logic_vector(31 downto 0);
    s_err    : out std_logic;
    -- m side: to the LMIC, its clock
    m_clk    : in  std_logic;
    m_rst    : in  std_logic;
    m_req    : out std_logic;
    m_commit : out std_logic;
    m_we     : out std_logic;
    m_addr   : out std_logic_vector(addr_w_g - 1 downto 0);
    m_wdata  : out std_logic_vector(31 downto 0);
    m_ack    : in  std_logic;
    m_rdata  : in  std_logic_vector(31 downto 0);
    m_err    : in  std_logic);
end entity jointer_collect_cdc;

architecture rtl of jointer_collect_cdc is
  -- s side
  signal req_l    : std_logic := '0';  -- handshake level (s -> m)
  signal commit_l : std_logic := '0';  -- (s -> m) the answered write is committed
  signal ack_s    : std_logic_vector(0 downto 0);  -- ack synchronised to s_clk
  signal pend     : std_logic := '0';  -- a request is owed an answer
  signal own      : std_logic := '0';  -- the handshake in flight carries the pending request
  signal orphan   : std_logic := '0';  -- a timed-out handshake is still running
  signal dec      : std_logic := '0';  -- an answered write waits for the DCI's commit
  -- timeout: counts up from 2**tl_c - timeout_g, expires when its top bit sets
  constant tl_c   : natural := clog2(timeout_g);
  signal cnt      : unsigned(tl_c downto 0) := (others => '0');
  signal ack_o    : std_logic := '0';
  signal loc_r    : std_logic := '0';  -- the last answer was the bridge's own SLVERR
  -- m side
  signal req_m    : std_logic_vector(0 downto 0);  -- req synchronised to m_clk
  signal ack_m    : std_logic := '0';  -- handshake level (m -> s)
  signal busy_m   : std_logic := '0';  -- m_req issued, waiting for m_ack
  signal req_o    : std_logic := '0';
  signal commit_o : std_logic := '0';
  signal rflag    : std_logic := '0';  -- the last access was answered by the m-side reset
begin

  assert timeout_g >= 16
    report "jointer_collect_cdc: timeout_g must be at least 16 bus cycles" severity failure;

  ---------------------------------------------------------------------------
  -- s side
  ---------------------------------------------------------------------------
  u_ack_sync : entity work.jointer_collect_sync
    generic map (width_g => 1, stages_g => 2, reset_g => '0')
    port map (clk => s_clk, rst => '0', d(0) => ack_m, q => ack_s);

  process (s_clk)
    variable hs_busy : std_logic;
  begin
    if rising_edge(s_clk) then
      hs_busy := req_l or ack_s(0);
      ack_o   <= '0';
      if dec = '1' then
        -- the cycle after answering a write: the DCI's decision (s_commit came
        -- with the answer, in the cycle just ended) ends phase 1
        dec      <= '0';
        req_l    <= '0';
        commit_l <= s_commit;     -- (s_rst below overrides it)
      elsif req_l = '1' and ack_s(0) = '1' then
        -- the m side answered the handshake in flight
        if pend = '1' and own = '1' then
          ack_o <= '1';           -- m_rdata/m_err are held by the LMIC
          loc_r <= '0';
          pend  <= '0';
        end if;
        if pend = '1' and own = '1' and s_we = '1' then
          dec <= '1';             -- req stays up one more cycle
        else
          req_l    <= '0';        -- a read, or an orphan: never committed
          commit_l <= '0';
        end if;
        own <= '0';
      elsif pend = '1' then
        if orphan = '1' and hs_busy = '1' then
          -- an orphan handshake is still running: refuse at once
          ack_o <= '1';
          loc_r <= '1';
          pend  <= '0';
        elsif hs_busy = '0' then
          req_l <= '1';           -- s_we/s_addr/s_wdata are held by the DCI
          own   <= '1';
        elsif cnt(cnt'high) = '1' then
          -- no answer in time: SLVERR now, the handshake completes silently later
          ack_o  <= '1';
          loc_r  <= '1';
          pend   <= '0';
          own    <= '0';
          orphan <= '1';
        else
          cnt <= cnt + 1;
        end if;
      end if;
      if hs_busy = '0' then
        orphan <= '0';
      end if;
      if s_req = '1' then
        pend <= '1';
        cnt  <= to_unsigned(2 ** tl_c - timeout_g, tl_c + 1);
      end if;
      if s_rst = '1' then
        -- a pending request, or one arriving now, is answered SLVERR (never
        -- dropped); its handshake, if any, completes silently
        pend  <= '0';
        own   <= '0';
        ack_o <= pend or s_req;
        loc_r <= pend or s_req;
        if dec = '1' then
          dec      <= '0';
          req_l    <= '0';
          commit_l <= '0';
        end if;
      end if;
    end if;
  end process;

  s_ack   <= ack_o;
  s_rdata <= m_rdata;  -- meaningless with s_err: the DCI then answers 0 (doc)
  s_err   <= m_err or rflag or loc_r;

  m_we    <= s_we;
  m_addr  <= s_addr;
  m_wdata <= s_wdata;

  ---------------------------------------------------------------------------
  -- m side
  ---------------------------------------------------------------------------
  u_req_sync : entity work.jointer_collect_sync
    generic map (width_g => 1, stages_g => 2, reset_g => '0')
    port map (clk => m_clk, rst => '0', d(0) => req_l, q => req_m);

  process (m_clk)
  begin
    if rising_edge(m_clk) then
      req_o    <= '0';
      commit_o <= '0';
      if req_m(0) = '1' and ack_m = '0' and busy_m = '0' then
        req_o  <= '1';
        busy_m <= '1';
      end if;
      if busy_m = '1' and m_ack = '1' then
        busy_m <= '0';
        ack_m  <= '1';
        rflag  <= '0';
      end if;
      if req_m(0) = '0' and ack_m = '1' then
        ack_m    <= '0';
        commit_o <= commit_l and not rflag;
      end if;
      if m_rst = '1' then
        -- adopt req as ack: the access is answered SLVERR, nothing captured
        req_o    <= '0';
        busy_m   <= '0';
        commit_o <= '0';
        if req_m(0) = '1' and ack_m = '0' then
          ack_m <= '1';
          rflag <= '1';
        elsif req_m(0) = '0' then
          ack_m <= '0';
        end if;
      end if;
    end if;
  end process;

  m_req    <= req_o;
  m_commit <= commit_o;

end architecture rtl;
