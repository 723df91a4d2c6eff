-- jointer_collect_dci: the Data Collector Interface (paper fig. 5, section
-- 3.1.1), the host-facing AXI4-Lite slave over the global block (target 0)
-- and the LMICs (target i+1 = LMIC i), each seen through its register port
-- (doc/internals.md section 3).
-- - One access at a time. AW, W and AR are each accepted into a one-deep
--   buffer as soon as it is free (AW and W in any order, W may lead AW by any
--   time); a write starts when both AW and W are in, a read when AR is in;
--   when both wait, reads and writes alternate. The buffers are held (ready
--   low) until the response handshake, so t_we/t_addr/t_wdata stay stable
--   from t_req through the acknowledge.
-- - BVALID/RVALID, BRESP/RRESP and RDATA are registers, held until
--   BREADY/RREADY.
-- - Window index = addr[addr_w_g-1:window_log2_g]; a window beyond the last
--   LMIC answers at once: OKAY with 0, or SLVERR when strict_g. WSTRB and
--   the PROT signals are ignored (every write is a 32-bit write).
-- - Only a target makes it wait; every target answers (the CDC bridge times
--   out). Acknowledges of a target that is not being waited for are ignored
--   (e.g. a request cut by s_axi_aresetn).
-- Generics:
--   addr_w_g      : AXI byte-address bits (8..32)
--   num_lmics_g   : LMICs (1..16)
--   window_log2_g : log2 of the window size in bytes (6..)
--   strict_g      : SLVERR for addresses beyond the last window

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_dci is
  generic (
    addr_w_g      : positive := 9;
    num_lmics_g   : positive := 1;
    window_log2_g : positive := 8;
    strict_g      : boolean := false);
  port (
    s_axi_aclk    : in  std_logic;
    s_axi_aresetn : in  std_logic;
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
  constant ok_c     : std_logic_vector(1 downto 0) := "00";
  constant slverr_c : std_logic_vector(1 downto 0) := "10";

  signal rst       : std_logic;
  signal aw_have   : std_logic;
  signal aw_addr   : std_logic_vector(aw_c - 1 downto 0);
  signal w_have    : std_logic;
  signal w_data    : std_logic_vector(31 downto 0);
  signal ar_have   : std_logic;
  signal ar_addr   : std_logic_vector(aw_c - 1 downto 0);
  signal busy      : std_logic;                      -- waiting for a target
  signal op_we     : std_logic;                      -- the access in progress is a write
  signal last_wr   : std_logic;                      -- the last access started was a write
  signal sel       : std_logic_vector(n_c - 1 downto 0);
  signal req       : std_logic_vector(n_c - 1 downto 0);
  signal bvalid    : std_logic;
  signal rvalid    : std_logic;
  signal resp      : std_logic_vector(1 downto 0);
  signal rdata     : std_logic_vector(31 downto 0);
  signal cur_addr  : std_logic_vector(aw_c - 1 downto 0);
begin

  assert addr_w_g >= 8 and addr_w_g <= 32
    report "jointer_collect_dci: addr_w_g must be 8..32" severity failure;
  assert num_lmics_g <= 16
    report "jointer_collect_dci: num_lmics_g must be 1..16" severity failure;
  assert window_log2_g >= 6 and window_log2_g < addr_w_g
    report "jointer_collect_dci: window_log2_g must be 6..addr_w_g-1" severity failure;
  assert n_c <= 2 ** (addr_w_g - window_log2_g)
    report "jointer_collect_dci: the windows of all LMICs must fit addr_w_g" severity failure;

  rst <= not s_axi_aresetn;

  -- the address of the access in progress (buffers are held until the end)
  cur_addr <= aw_addr when op_we = '1' else ar_addr;

  process (s_axi_aclk)
    variable go_wr, go_rd : boolean;
    variable a     : std_logic_vector(aw_c - 1 downto 0);
    variable idx   : unsigned(aw_c - ww_c - 1 downto 0);
    variable hit   : std_logic_vector(n_c - 1 downto 0);
    variable acked : std_logic;
    variable data  : std_logic_vector(31 downto 0);
    variable err   : std_logic;
  begin
    if rising_edge(s_axi_aclk) then
      -- channel buffers
      if s_axi_awvalid = '1' and aw_have = '0' then
        aw_have <= '1';
        aw_addr <= s_axi_awaddr(addr_w_g - 1 downto 2);
      end if;
      if s_axi_wvalid = '1' and w_have = '0' then
        w_have <= '1';
        w_data <= s_axi_wdata;
      end if;
      if s_axi_arvalid = '1' and ar_have = '0' then
        ar_have <= '1';
        ar_addr <= s_axi_araddr(addr_w_g - 1 downto 2);
      end if;

      req <= (others => '0');
      if busy = '0' and bvalid = '0' and rvalid = '0' then
        -- start an access: reads and writes alternate when both wait
        go_wr := aw_have = '1' and w_have = '1' and (ar_have = '0' or last_wr = '0');
        go_rd := ar_have = '1' and not go_wr;
        if go_wr then
          a := aw_addr;
        else
          a := ar_addr;
        end if;
        idx := unsigned(a(aw_c - 1 downto ww_c));
        for i in 0 to n_c - 1 loop
          hit(i) := to_sl(idx = i);
        end loop;
        if go_wr or go_rd then
          op_we   <= to_sl(go_wr);
          last_wr <= to_sl(go_wr);
          sel     <= hit;
          req     <= hit;
          if hit = (hit'range => '0') then
            -- beyond the last LMIC: answer at once
            rdata <= (others => '0');
            resp  <= slverr_c when strict_g else ok_c;
            bvalid <= to_sl(go_wr);
            rvalid <= to_sl(go_rd);
          else
            busy <= '1';
          end if;
        end if;
      elsif busy = '1' then
        -- wait for the selected target (AND-OR mux over the targets)
        acked := '0';
        err   := '0';
        data  := (others => '0');
        for i in 0 to n_c - 1 loop
          acked := acked or (sel(i) and t_ack(i));
          err   := err or (sel(i) and t_err(i));
          data  := data or ((31 downto 0 => sel(i)) and t_rdata(32 * i + 31 downto 32 * i));
        end loop;
        if acked = '1' then
          busy   <= '0';
          rdata  <= data;
          resp   <= slverr_c when err = '1' else ok_c;
          bvalid <= op_we;
          rvalid <= not op_we;
        end if;
      elsif bvalid = '1' then
        if s_axi_bready = '1' then
          bvalid  <= '0';
          aw_have <= '0';
          w_have  <= '0';
        end if;
      elsif s_axi_rready = '1' then  -- rvalid = '1'
        rvalid  <= '0';
        ar_have <= '0';
      end if;

      if rst = '1' then
        aw_have <= '0';
        w_have  <= '0';
        ar_have <= '0';
        busy    <= '0';
        last_wr <= '0';
        req     <= (others => '0');
        bvalid  <= '0';
        rvalid  <= '0';
      end if;
    end if;
  end process;

  s_axi_awready <= not aw_have;
  s_axi_wready  <= not w_have;
  s_axi_arready <= not ar_have;
  s_axi_bvalid  <= bvalid;
  s_axi_bresp   <= resp;
  s_axi_rvalid  <= rvalid;
  s_axi_rresp   <= resp;
  s_axi_rdata   <= rdata;

  t_req   <= req;
  t_we    <= op_we;
  t_addr  <= cur_addr(ww_c - 1 downto 0);
  t_wdata <= w_data;

end architecture rtl;
