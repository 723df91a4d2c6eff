-- jointer_collect_cdc: request/acknowledge bridge of the register port from
-- the DCI (s side, bus clock) to an LMIC on another clock (m side): the one
-- place where the monitor crosses clock domains (DESIGN.md section 4,
-- doc/internals.md section 3).
-- Four-phase level handshake (req up, ack up, req down, ack down); only the
-- two levels cross, each through a two-flop synchroniser
-- (jointer_collect_sync, ASYNC_REG). The multi-bit values cross stable:
-- we/addr/wdata are latched on the s side before req rises and held until
-- the handshake ends; rdata/err are latched on the m side when ack rises and
-- held until it rises again.
-- - m-side reset adopts the synchronised req as ack (the access is answered
--   SLVERR with 0, and never repeated).
-- - s-side reset drops the pending answer but not the handshake, which
--   completes silently (an access already under way on the m side may still
--   take effect); a request after the reset waits for it (`own` tells the
--   handshake of the pending request from an older one).
-- - When the m side does not answer within timeout_g s cycles (its clock
--   stopped, or an older handshake that does not finish), the bridge
--   answers SLVERR with 0;
--   the orphan handshake completes silently later (the access may then take
--   effect). Until then further requests are answered SLVERR at once.
-- The handshake levels start at 0 through initial values (FPGA INIT), not
-- through a reset: neither side's reset may break a handshake in flight.
-- Same clock: the generator wires the LMIC to the DCI directly (no bridge).
-- Generics:
--   addr_w_g  : word-address bits of the register port
--   timeout_g : s cycles without an answer before SLVERR (>= 16)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_cdc is
  generic (
    addr_w_g  : positive := 6;
    timeout_g : positive := 4096);
  port (
    -- s side: from the DCI, bus clock
    s_clk   : in  std_logic;
    s_rst   : in  std_logic;
    s_req   : in  std_logic;
    s_we    : in  std_logic;
    s_addr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    s_wdata : in  std_logic_vector(31 downto 0);
    s_ack   : out std_logic;
    s_rdata : out std_logic_vector(31 downto 0);
    s_err   : out std_logic;
    -- m side: to the LMIC, its clock
    m_clk   : in  std_logic;
    m_rst   : in  std_logic;
    m_req   : out std_logic;
    m_we    : out std_logic;
    m_addr  : out std_logic_vector(addr_w_g - 1 downto 0);
    m_wdata : out std_logic_vector(31 downto 0);
    m_ack   : in  std_logic;
    m_rdata : in  std_logic_vector(31 downto 0);
    m_err   : in  std_logic);
end entity jointer_collect_cdc;

architecture rtl of jointer_collect_cdc is
  -- s side
  signal req_l   : std_logic := '0';  -- handshake level (s -> m)
  signal ack_s   : std_logic_vector(0 downto 0);  -- ack synchronised to s_clk
  signal pend    : std_logic := '0';  -- a request is owed an answer
  signal orphan  : std_logic := '0';  -- a timed-out handshake is still running
  signal own     : std_logic := '0';  -- the handshake in flight carries the pending request
  signal cnt     : unsigned(clog2(timeout_g + 1) - 1 downto 0) := (others => '0');
  signal ack_o   : std_logic := '0';
  signal local_o : std_logic := '0';  -- the answer is the bridge's own SLVERR
  signal lat_we    : std_logic := '0';
  signal lat_addr  : std_logic_vector(addr_w_g - 1 downto 0) := (others => '0');
  signal lat_wdata : std_logic_vector(31 downto 0) := (others => '0');
  -- m side
  signal req_m   : std_logic_vector(0 downto 0);  -- req synchronised to m_clk
  signal ack_m   : std_logic := '0';  -- handshake level (m -> s)
  signal busy_m  : std_logic := '0';  -- m_req issued, waiting for m_ack
  signal req_o   : std_logic := '0';
  signal rdata_l : std_logic_vector(31 downto 0) := (others => '0');
  signal err_l   : std_logic := '0';
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
    variable done    : std_logic;
  begin
    if rising_edge(s_clk) then
      hs_busy := req_l or ack_s(0);
      done    := req_l and ack_s(0);  -- the m side answered the handshake in flight
      ack_o   <= '0';
      local_o <= '0';
      if done = '1' then
        req_l <= '0';
        own   <= '0';
        if pend = '1' and own = '1' then
          -- the answer to this request (rdata_l/err_l are stable while ack is up)
          ack_o <= '1';
          pend  <= '0';
        end if;
        -- otherwise an orphan (timed out, or cut by s_rst) completes silently
      elsif pend = '1' then
        if orphan = '1' and hs_busy = '1' then
          -- an orphan handshake is still running: refuse at once
          ack_o   <= '1';
          local_o <= '1';
          pend    <= '0';
        elsif hs_busy = '0' then
          -- handshake idle: latch the values, then raise req
          req_l     <= '1';
          own       <= '1';
          lat_we    <= s_we;
          lat_addr  <= s_addr;
          lat_wdata <= s_wdata;
        elsif cnt = timeout_g then
          -- no answer in time: SLVERR now, the handshake completes silently later
          ack_o   <= '1';
          local_o <= '1';
          pend    <= '0';
          own     <= '0';
          orphan  <= '1';
        else
          cnt <= cnt + 1;
        end if;
      end if;
      if hs_busy = '0' then
        orphan <= '0';
      end if;
      if s_req = '1' then
        pend <= '1';
        cnt  <= (others => '0');
      end if;
      if s_rst = '1' then
        pend    <= '0';
        own     <= '0';
        orphan  <= '0';
        ack_o   <= '0';
        local_o <= '0';
      end if;
    end if;
  end process;

  s_ack   <= ack_o;
  s_rdata <= rdata_l and (31 downto 0 => not local_o);
  s_err   <= err_l or local_o;

  m_we    <= lat_we;
  m_addr  <= lat_addr;
  m_wdata <= lat_wdata;

  ---------------------------------------------------------------------------
  -- m side
  ---------------------------------------------------------------------------
  u_req_sync : entity work.jointer_collect_sync
    generic map (width_g => 1, stages_g => 2, reset_g => '0')
    port map (clk => m_clk, rst => '0', d(0) => req_l, q => req_m);

  process (m_clk)
  begin
    if rising_edge(m_clk) then
      req_o <= '0';
      if req_m(0) = '1' and ack_m = '0' and busy_m = '0' then
        req_o  <= '1';
        busy_m <= '1';
      end if;
      if busy_m = '1' and m_ack = '1' then
        busy_m  <= '0';
        ack_m   <= '1';
        rdata_l <= m_rdata;
        err_l   <= m_err;
      end if;
      if req_m(0) = '0' and ack_m = '1' then
        ack_m <= '0';
      end if;
      if m_rst = '1' then
        -- adopt req as ack: a request meanwhile is answered SLVERR, not made
        req_o  <= '0';
        busy_m <= '0';
        if req_m(0) = '1' and ack_m = '0' then
          ack_m   <= '1';
          rdata_l <= (others => '0');
          err_l   <= '1';
        elsif req_m(0) = '0' then
          ack_m <= '0';
        end if;
      end if;
    end if;
  end process;

  m_req <= req_o;

end architecture rtl;
