-- tb_axi4lite_dual: two jointer_eig_axi4lite taps on one observed AXI4-Lite
-- bus (test bench for sim/eig/test_jointer_eig_axi4lite.py): the write tap
-- (w_*) and the read tap (r_*) see the same traffic.
--   addr_w_g, data_w_g : passed to both taps

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity tb_axi4lite_dual is
  generic (
    addr_w_g : positive := 32;
    data_w_g : positive := 32);
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    mon_awaddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    mon_awprot  : in  std_logic_vector(2 downto 0);
    mon_awvalid : in  std_logic;
    mon_awready : in  std_logic;
    mon_wdata   : in  std_logic_vector(data_w_g - 1 downto 0);
    mon_wstrb   : in  std_logic_vector(data_w_g / 8 - 1 downto 0);
    mon_wvalid  : in  std_logic;
    mon_wready  : in  std_logic;
    mon_bresp   : in  std_logic_vector(1 downto 0);
    mon_bvalid  : in  std_logic;
    mon_bready  : in  std_logic;
    mon_araddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    mon_arprot  : in  std_logic_vector(2 downto 0);
    mon_arvalid : in  std_logic;
    mon_arready : in  std_logic;
    mon_rdata   : in  std_logic_vector(data_w_g - 1 downto 0);
    mon_rresp   : in  std_logic_vector(1 downto 0);
    mon_rvalid  : in  std_logic;
    mon_rready  : in  std_logic;
    w_valid     : out std_logic_vector(0 downto 0);
    w_data      : out std_logic_vector(31 downto 0);
    w_bytes     : out std_logic_vector(15 downto 0);
    r_valid     : out std_logic_vector(0 downto 0);
    r_data      : out std_logic_vector(31 downto 0);
    r_bytes     : out std_logic_vector(15 downto 0));
end entity tb_axi4lite_dual;

architecture tb of tb_axi4lite_dual is
  type valid_arr_t is array (0 to 1) of std_logic_vector(0 downto 0);
  type data_arr_t is array (0 to 1) of std_logic_vector(31 downto 0);
  type bytes_arr_t is array (0 to 1) of std_logic_vector(15 downto 0);
  signal valid : valid_arr_t;
  signal data  : data_arr_t;
  signal bytes : bytes_arr_t;
begin
  g_tap : for i in 0 to 1 generate
    u_tap : entity work.jointer_eig_axi4lite
      generic map (dir_g => dir_write_c + i, addr_w_g => addr_w_g, data_w_g => data_w_g)
      port map (
        clk => clk, rst => rst,
        mon_awaddr => mon_awaddr, mon_awprot => mon_awprot, mon_awvalid => mon_awvalid,
        mon_awready => mon_awready, mon_wdata => mon_wdata, mon_wstrb => mon_wstrb,
        mon_wvalid => mon_wvalid, mon_wready => mon_wready, mon_bresp => mon_bresp,
        mon_bvalid => mon_bvalid, mon_bready => mon_bready, mon_araddr => mon_araddr,
        mon_arprot => mon_arprot, mon_arvalid => mon_arvalid, mon_arready => mon_arready,
        mon_rdata => mon_rdata, mon_rresp => mon_rresp, mon_rvalid => mon_rvalid,
        mon_rready => mon_rready,
        cand_valid => valid(i), cand_data => data(i), cand_bytes => bytes(i));
  end generate g_tap;
  w_valid <= valid(0); w_data <= data(0); w_bytes <= bytes(0);
  r_valid <= valid(1); r_data <= data(1); r_bytes <= bytes(1);
end architecture tb;
