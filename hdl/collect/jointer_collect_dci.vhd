-- SPDX-License-Identifier: MIT
-- jointer_collect_dci: the Data Collector Interface (paper fig. 5, section
-- 3.1.1), the host-facing AXI4-Lite slave over the global block (target 0)
-- and the LMICs (target i+1 = LMIC i), each seen through its register port
-- (doc/internals/collect.md). It stores no address and no data:
-- - One access at a time. A write starts when AWVALID and WVALID are both
--   high, a read when ARVALID is; when both wait, reads and writes
--   alternate. AWREADY/WREADY/ARREADY stay low until the target has answered,
--   so the master holds AWADDR/WDATA/ARADDR, which go to the targets as they
--   are (t_addr, t_wdata): stable from t_req through the answer.
-- - The answer (t_ack of the selected target) completes the address
--   handshake one cycle later (READY pulses). For an OKAY write, t_commit of
--   that target pulses once (phase 2 of the register port: the target
--   performs the write it captured):
--   - behind a bridge (bit i of bridged_g): with the answer, combinational
--     from t_ack (the bridge samples s_commit in the answer's cycle);
--   - on the bus clock (the global block, an LMIC wired directly): one cycle
--     after the answer, from a flip-flop, so the target's acknowledge to the
--     DCI and the commit back to the target are two register-to-register
--     paths, not one. That cycle is the address handshake's: the master
--     still holds AWADDR/WDATA (t_addr, t_wdata), and the next request to any
--     target comes two cycles later at the earliest (`idle` excludes a_rdy
--     and BVALID/RVALID, and t_req is registered from go_wr/go_rd: the
--     earliest t_req is 4 cycles after the answer, 3 when a reset ends the
--     access in the handshake cycle), so the target's captured address and
--     word are still the committed write's. A reset in that cycle (rst_i)
--     drops the write; it is the targets' reset too (rst, which the
--     generated top's reset bridge asserts at once with s_axi_aresetn), and
--     it clears every register a write can set.
--   BVALID/RVALID follow one cycle after the address handshake and are held
--   until BREADY/RREADY.
-- - RDATA is the held answer of the selected target (targets keep it until
--   their next request), through an AND-OR mux; an SLVERR answer, or a
--   window beyond the last LMIC, deselects every target: RDATA = 0. Target 0
--   (the global block) gates its own answer: it shows 0 from the start of
--   any access it does not answer (t_start), so its word enters the mux
--   ungated.
-- - Window index = addr[addr_w_g-1:window_log2_g]; a window beyond the last
--   LMIC answers at once: OKAY, or SLVERR when strict_g. WSTRB and PROT are
--   ignored (every write is a 32-bit write).
-- - Only a target makes it wait, and never forever: a target behind a clock
--   crossing (bit i of bridged_g) is answered by its bridge (the CDC times
--   out); any other target that has not answered timeout_g cycles after its
--   request is answered SLVERR here (RDATA 0). Acknowledges of a target that
--   is not being waited for are ignored (a request cut by a reset, a late
--   answer). After a reset the bridge aborts a write in flight (never
--   committed).
-- - Reset: s_axi_aresetn or rst, the reset of the targets on the bus clock
--   (the output of their reset bridge). The DCI leaves reset with the last of
--   them, whatever the depth of the bridge, so an access that starts on the
--   first edge after the reset never reaches a target still in reset.
-- Generics:
--   addr_w_g      : AXI byte-address bits (8..32)
--   num_lmics_g   : LMICs (1..16)
--   window_log2_g : log2 of the window size in bytes (6..)
--   strict_g      : SLVERR for addresses beyond the last window
--   bridged_g     : bit i set: target i is behind a clock-crossing bridge
--   timeout_g     : cycles a target not behind a bridge may take (>= 4)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_dci is
  generic (
    addr_w_g      : positive := 9;
    num_lmics_g   : positive := 1;
    window_log2_g : positive := 8;
    strict_g      : boolean := false;
    bridged_g     : natural := 0;
    timeout_g     : positive := 8);
  port (
    s_axi_aclk    : in  std_logic;
    s_axi_aresetn : in  std_logic;
    rst           : in  std_logic := '0';  -- the targets' bus-clock reset (active high)
    s_axi_awaddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    s_axi_awprot  : in  std_logic_vector(2 downto 0);
    s_axi_awvalid : in  std_logic;
    s_axi_awready : out std_logic;
    s_axi_wdata   : in  std_logic_vector(31 downto 0);
    s_axi_wstrb   : in  std_logic_vector(3 downto 0);
    s_axi_wvalid  : in  std_logic;
    s_axi_wready  : out std_logic;
    s_axi_bresp   : out std_logic_vector(1 downto 0);
    s_axi_bvalid  : out std_logic;
    s_axi_bready  : in  std_logic;
    s_axi_araddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    s_axi_arprot  : in  std_logic_vector(2 downto 0);
    s_axi_arvalid : in  std_logic;
    s_axi_arready : out std_logic;
    s_axi_rdata   : out std_logic_vector(31 downto 0);
    s_axi_rresp   : out std_logic_vector(1 downto 0);
    s_axi_rvalid  : out std_logic;
    s_axi_rready  : in  std_logic;
    -- register-port targets: 0 = global block, i+1 = LMIC i
    t_req         : out std_logic_vector(num_lmics_g downto 0);
    t_start       : out std_logic;  -- an access starts (to any target, or beyond the last)
    t_commit      : out std_logic_vector(num_lmics_g downto 0);
    t_we          : out std_logic;
    t_addr        : out std_logic_vector(window_log2_g - 3 downto 0);
    t_wdata       : out std_logic_vector(31 downto 0);
    t_ack         : in  std_logic_vector(num_lmics_g downto 0);
    t_rdata       : in  std_logic_vector(32 * (num_lmics_g + 1) - 1 downto 0);
    t_err         : in  std_logic_vector(num_lmics_g downto 0));
end entity jointer_collect_dci;

architecture rtl of jointer_collect_dci is
  constant n_c  : positive := num_lmics_g + 1;        -- targets
  constant aw_c : positive := addr_w_g - 2;           -- word-address bits
  constant ww_c : positive := window_log2_g - 2;      -- word bits inside a window

  constant bridged_c : std_logic_vector(n_c - 1 downto 0) :=
    std_logic_vector(to_unsigned(bridged_g mod 2 ** n_c, n_c));
  -- timeout: counts up from 2**tl_c - timeout_g, expires when its top bit sets
  constant tl_c  : natural := clog2(timeout_g);
  signal rst_i   : std_logic;
  signal cnt     : unsigned(tl_c downto 0);
  signal same_clk : std_logic;                         -- the selected target has no bridge (sel)
  signal busy    : std_logic;                       -- waiting for the selected target
  signal op_we   : std_logic;                       -- the access in progress is a write
  signal sel     : std_logic_vector(n_c - 1 downto 0);  -- the target answering / answered
  signal req     : std_logic_vector(n_c - 1 downto 0);
  signal a_rdy   : std_logic;                       -- address (+ W) handshake of the access
  signal bvalid  : std_logic;
  signal rvalid  : std_logic;
  signal err     : std_logic;
  signal cur     : std_logic_vector(aw_c - 1 downto 0);
  signal rdata   : std_logic_vector(31 downto 0);
  signal idle    : std_logic;
  signal go_wr   : std_logic;                       -- a write starts now
  signal go_rd   : std_logic;                       -- a read starts now
  signal okay_wr  : std_logic_vector(n_c - 1 downto 0);  -- the OKAY answer of a write, now
  signal commit_r : std_logic_vector(n_c - 1 downto 0) := (others => '0');  -- that of last cycle
begin

  assert addr_w_g >= 8 and addr_w_g <= 32
    report "jointer_collect_dci: addr_w_g must be 8..32" severity failure;
  assert num_lmics_g <= 16
    report "jointer_collect_dci: num_lmics_g must be 1..16" severity failure;
  assert window_log2_g >= 6 and window_log2_g < addr_w_g
    report "jointer_collect_dci: window_log2_g must be 6..addr_w_g-1" severity failure;
  assert timeout_g >= 4
    report "jointer_collect_dci: timeout_g must be at least 4" severity failure;
  assert n_c <= 2 ** (addr_w_g - window_log2_g)
    report "jointer_collect_dci: the windows of all LMICs must fit addr_w_g" severity failure;

  rst_i <= not s_axi_aresetn or rst;

  -- the address of the access in progress, as the master holds it
  cur <= s_axi_awaddr(addr_w_g - 1 downto 2) when op_we = '1' else s_axi_araddr(addr_w_g - 1 downto 2);

  -- start an access: reads and writes alternate when both wait
  idle  <= not (busy or a_rdy or bvalid or rvalid or rst_i);
  go_wr <= idle and s_axi_awvalid and s_axi_wvalid and (not s_axi_arvalid or not op_we);
  go_rd <= idle and s_axi_arvalid and not go_wr;

  process (s_axi_aclk)
    variable idx   : unsigned(aw_c - ww_c - 1 downto 0);
    variable hit   : std_logic_vector(n_c - 1 downto 0);
    variable acked : std_logic;
    variable e     : std_logic;
  begin
    if rising_edge(s_axi_aclk) then
      req    <= (others => '0');
      a_rdy  <= '0';
      if busy = '0' and a_rdy = '0' and bvalid = '0' and rvalid = '0' then
        if go_wr = '1' then
          idx := unsigned(s_axi_awaddr(addr_w_g - 1 downto window_log2_g));
        else
          idx := unsigned(s_axi_araddr(addr_w_g - 1 downto window_log2_g));
        end if;
        for i in 0 to n_c - 1 loop
          hit(i) := to_sl(idx = i);
        end loop;
        if (go_wr or go_rd) = '1' then
          op_we <= go_wr;
          sel   <= hit;
          req   <= hit;
          if hit = (hit'range => '0') then
            -- beyond the last LMIC: answer at once (RDATA 0: nothing selected)
            err   <= to_sl(strict_g);
            a_rdy <= '1';
          else
            busy  <= '1';
            cnt   <= to_unsigned(2 ** tl_c - timeout_g, tl_c + 1);
          end if;
        end if;
      elsif busy = '1' then
        acked := or (sel and t_ack);
        e     := or (sel and t_err);
        if acked = '1' then
          busy  <= '0';
          a_rdy <= '1';
          err   <= e;
          if e = '1' then
            sel <= (others => '0');   -- SLVERR answers RDATA 0
          end if;
        elsif same_clk = '1' and cnt(cnt'high) = '1' then
          -- a target on the bus clock did not answer: SLVERR, RDATA 0
          busy  <= '0';
          a_rdy <= '1';
          err   <= '1';
          sel   <= (others => '0');
        else
          cnt <= cnt + 1;
        end if;
      elsif a_rdy = '1' then
        -- the address (+ W) handshake happens in this cycle
        bvalid <= op_we;
        rvalid <= not op_we;
      elsif bvalid = '1' then
        if s_axi_bready = '1' then
          bvalid <= '0';
        end if;
      elsif s_axi_rready = '1' then  -- rvalid = '1'
        rvalid <= '0';
      end if;

      -- the commit of a target on the bus clock, one cycle after the answer
      commit_r <= okay_wr and not bridged_c;

      if rst_i = '1' then
        busy   <= '0';
        op_we  <= '0';
        req    <= (others => '0');
        a_rdy  <= '0';
        bvalid <= '0';
        rvalid <= '0';
      end if;
    end if;
  end process;

  -- sel holds the target from the request until its answer (cleared only then)
  same_clk <= or (sel and not bridged_c);

  -- RDATA: the held answer of the selected target (AND-OR mux; the global
  -- block, target 0, gates its own)
  process (all)
    variable d : std_logic_vector(31 downto 0);
  begin
    d := t_rdata(31 downto 0);
    for i in 1 to n_c - 1 loop
      d := d or ((31 downto 0 => sel(i)) and t_rdata(32 * i + 31 downto 32 * i));
    end loop;
    rdata <= d;
  end process;

  s_axi_awready <= a_rdy and op_we;
  s_axi_wready  <= a_rdy and op_we;
  s_axi_arready <= a_rdy and not op_we;
  s_axi_bvalid  <= bvalid;
  s_axi_bresp   <= err & '0';
  s_axi_rvalid  <= rvalid;
  s_axi_rresp   <= err & '0';
  s_axi_rdata   <= rdata;

  t_req    <= req;
  t_start  <= go_wr or go_rd;
  -- phase 2 of an OKAY write: with the answer behind a bridge, a cycle later
  -- on the bus clock; never in a reset (the master drops the write then, as
  -- the CDC bridge does)
  okay_wr  <= sel and t_ack and not t_err and (n_c - 1 downto 0 => busy and op_we and not rst_i);
  t_commit <= (okay_wr and bridged_c) or (commit_r and (n_c - 1 downto 0 => not rst_i));
  t_we     <= op_we;
  t_addr   <= cur(ww_c - 1 downto 0);
  t_wdata  <= s_axi_wdata;

end architecture rtl;
