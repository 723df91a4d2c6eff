-- SPDX-License-Identifier: MIT
-- tb_axi4lite_dual: jointer_eig_axi4lite taps on one observed AXI4-Lite
-- bus (test bench for sim/eig/test_jointer_eig_axi4lite.py): the write tap
-- (w_*), the read tap (r_*) and a write tap evaluating two address ranges
-- where it queues AWADDR (wr_*: ranges_g 2; wr_rng = its in-range bits) see
-- the same traffic.
--   addr_w_g, data_w_g, ev_w_g : passed to every tap (ev_w_g 64: an address
--                        wider than 32 bits reaches data and ranges whole)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity tb_axi4lite_dual is
  generic (
    addr_w_g : positive := 32;
    data_w_g : positive := 32;
    ev_w_g   : positive := 32);
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
    w_data      : out std_logic_vector(ev_w_g - 1 downto 0);
    w_bytes     : out std_logic_vector(15 downto 0);
    r_valid     : out std_logic_vector(0 downto 0);
    r_data      : out std_logic_vector(ev_w_g - 1 downto 0);
    r_bytes     : out std_logic_vector(15 downto 0);
    wr_valid    : out std_logic_vector(0 downto 0);
    wr_rng      : out std_logic_vector(1 downto 0);
    wr_data     : out std_logic_vector(ev_w_g - 1 downto 0);
    wr_bytes    : out std_logic_vector(15 downto 0));
end entity tb_axi4lite_dual;

architecture tb of tb_axi4lite_dual is
  type valid_arr_t is array (0 to 2) of std_logic_vector(0 downto 0);
  type data_arr_t is array (0 to 2) of std_logic_vector(ev_w_g - 1 downto 0);
  type bytes_arr_t is array (0 to 2) of std_logic_vector(15 downto 0);
  type rng_arr_t is array (0 to 2) of std_logic_vector(1 downto 0);
  signal valid : valid_arr_t;
  signal data  : data_arr_t;
  signal bytes : bytes_arr_t;
  signal rng   : rng_arr_t;
  constant a_c : positive := minimum(addr_w_g, ev_w_g);
  -- the ranges of tap 2 (as in tb_axi4_quad): [q, 3q - 1] and [0, 2q + 5], q = 2^(a_c - 2)
  constant q_c : unsigned(ev_w_g - 1 downto 0) := shift_left(to_unsigned(1, ev_w_g), a_c - 2);
  constant rng_low_c  : std_logic_vector(2 * ev_w_g - 1 downto 0) :=
    std_logic_vector(to_unsigned(0, ev_w_g)) & std_logic_vector(q_c);
  constant rng_high_c : std_logic_vector(2 * ev_w_g - 1 downto 0) :=
    std_logic_vector(q_c + q_c + 5) & std_logic_vector(q_c + q_c + q_c - 1);
begin
  -- taps 0: write, 1: read, 2: write with the two ranges
  g_tap : for i in 0 to 2 generate
    constant ranges_c : natural := i / 2 * 2;
  begin
    u_tap : entity work.jointer_eig_axi4lite
      generic map (dir_g => dir_write_c + i mod 2, addr_w_g => addr_w_g, data_w_g => data_w_g,
                   ranges_g => ranges_c, ev_w_g => ev_w_g)
      port map (
        clk => clk, rst => rst,
        mon_awaddr => mon_awaddr, mon_awprot => mon_awprot, mon_awvalid => mon_awvalid,
        mon_awready => mon_awready, mon_wdata => mon_wdata, mon_wstrb => mon_wstrb,
        mon_wvalid => mon_wvalid, mon_wready => mon_wready, mon_bresp => mon_bresp,
        mon_bvalid => mon_bvalid, mon_bready => mon_bready, mon_araddr => mon_araddr,
        mon_arprot => mon_arprot, mon_arvalid => mon_arvalid, mon_arready => mon_arready,
        mon_rdata => mon_rdata, mon_rresp => mon_rresp, mon_rvalid => mon_rvalid,
        mon_rready => mon_rready,
        rng_low => rng_low_c(ev_w_g * maximum(ranges_c, 1) - 1 downto 0),
        rng_high => rng_high_c(ev_w_g * maximum(ranges_c, 1) - 1 downto 0),
        cand_in_range => rng(i)(maximum(ranges_c, 1) - 1 downto 0),
        cand_valid => valid(i), cand_data => data(i), cand_bytes => bytes(i));
  end generate g_tap;
  w_valid <= valid(0); w_data <= data(0); w_bytes <= bytes(0);
  r_valid <= valid(1); r_data <= data(1); r_bytes <= bytes(1);
  wr_valid <= valid(2); wr_rng <= rng(2); wr_data <= data(2); wr_bytes <= bytes(2);
end architecture tb;
