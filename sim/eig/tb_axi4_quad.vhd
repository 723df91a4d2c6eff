-- SPDX-License-Identifier: MIT
-- tb_axi4_quad: five jointer_eig_axi4 taps on one observed AXI4 bus (test
-- bench for sim/eig/test_jointer_eig_axi4.py): write per burst (wb_*), write
-- per beat (wp_*), read per burst (rb_*), read per beat (rp_*), and a fifth,
-- write per burst evaluating two address ranges where it captures AWADDR
-- and dropping the address (wr_*: ranges_g 2, keep_data_g false; wr_data =
-- its cand_data, which must be 0, or the two in-range bits in bits 1..0;
-- range 0 = [2^(a-2), 3 x 2^(a-2) - 1], range 1 = [0, 2^(a-1) + 5], a =
-- min(addr_w_g, ev_w_g)). One simulation checks both directions and both modes
-- on the same traffic.
--   data_w_g, addr_w_g, id_w_g, max_outstanding_g : passed to every tap

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity tb_axi4_quad is
  generic (
    addr_w_g          : positive := 32;
    data_w_g          : positive := 32;
    id_w_g            : positive := 4;
    max_outstanding_g : positive := 8;
    ev_w_g            : positive := 32);
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    mon_awid    : in  std_logic_vector(id_w_g - 1 downto 0);
    mon_awaddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    mon_awlen   : in  std_logic_vector(7 downto 0);
    mon_awsize  : in  std_logic_vector(2 downto 0);
    mon_awburst : in  std_logic_vector(1 downto 0);
    mon_awlock  : in  std_logic;
    mon_awcache : in  std_logic_vector(3 downto 0);
    mon_awprot  : in  std_logic_vector(2 downto 0);
    mon_awqos   : in  std_logic_vector(3 downto 0);
    mon_awvalid : in  std_logic;
    mon_awready : in  std_logic;
    mon_wdata   : in  std_logic_vector(data_w_g - 1 downto 0);
    mon_wstrb   : in  std_logic_vector(data_w_g / 8 - 1 downto 0);
    mon_wlast   : in  std_logic;
    mon_wvalid  : in  std_logic;
    mon_wready  : in  std_logic;
    mon_bid     : in  std_logic_vector(id_w_g - 1 downto 0);
    mon_bresp   : in  std_logic_vector(1 downto 0);
    mon_bvalid  : in  std_logic;
    mon_bready  : in  std_logic;
    mon_arid    : in  std_logic_vector(id_w_g - 1 downto 0);
    mon_araddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    mon_arlen   : in  std_logic_vector(7 downto 0);
    mon_arsize  : in  std_logic_vector(2 downto 0);
    mon_arburst : in  std_logic_vector(1 downto 0);
    mon_arlock  : in  std_logic;
    mon_arcache : in  std_logic_vector(3 downto 0);
    mon_arprot  : in  std_logic_vector(2 downto 0);
    mon_arqos   : in  std_logic_vector(3 downto 0);
    mon_arvalid : in  std_logic;
    mon_arready : in  std_logic;
    mon_rid     : in  std_logic_vector(id_w_g - 1 downto 0);
    mon_rdata   : in  std_logic_vector(data_w_g - 1 downto 0);
    mon_rresp   : in  std_logic_vector(1 downto 0);
    mon_rlast   : in  std_logic;
    mon_rvalid  : in  std_logic;
    mon_rready  : in  std_logic;
    wb_valid    : out std_logic_vector(0 downto 0);
    wb_data     : out std_logic_vector(ev_w_g - 1 downto 0);
    wb_bytes    : out std_logic_vector(15 downto 0);
    wp_valid    : out std_logic_vector(0 downto 0);
    wp_data     : out std_logic_vector(ev_w_g - 1 downto 0);
    wp_bytes    : out std_logic_vector(15 downto 0);
    rb_valid    : out std_logic_vector(0 downto 0);
    rb_data     : out std_logic_vector(ev_w_g - 1 downto 0);
    rb_bytes    : out std_logic_vector(15 downto 0);
    rp_valid    : out std_logic_vector(0 downto 0);
    rp_data     : out std_logic_vector(ev_w_g - 1 downto 0);
    rp_bytes    : out std_logic_vector(15 downto 0);
    wr_valid    : out std_logic_vector(0 downto 0);
    wr_data     : out std_logic_vector(ev_w_g - 1 downto 0);
    wr_bytes    : out std_logic_vector(15 downto 0));
end entity tb_axi4_quad;

architecture tb of tb_axi4_quad is
  constant a_c : positive := minimum(addr_w_g, ev_w_g);
  -- 2**(a_c - 2) etc. without overflowing natural at a_c >= 32
  constant q_c : unsigned(ev_w_g - 1 downto 0) := shift_left(to_unsigned(1, ev_w_g), a_c - 2);
  constant rng_low_c  : std_logic_vector(2 * ev_w_g - 1 downto 0) :=
    std_logic_vector(to_unsigned(0, ev_w_g)) & std_logic_vector(q_c);
  constant rng_high_c : std_logic_vector(2 * ev_w_g - 1 downto 0) :=
    std_logic_vector(q_c + q_c + 5) & std_logic_vector(q_c + q_c + q_c - 1);
begin
  -- taps 0, 1: write; 2, 3: read (per burst, per beat); 4: write per burst with the ranges
  g_tap : for i in 0 to 4 generate
    constant ranges_c : natural  := 2 * (i / 4);
    constant rng_w_c  : positive := maximum(ranges_c, 1);
    signal valid : std_logic_vector(0 downto 0);
    signal data  : std_logic_vector(ev_w_g - 1 downto 0);
    signal bytes : std_logic_vector(15 downto 0);
    signal rng   : std_logic_vector(rng_w_c - 1 downto 0);
  begin
    u_tap : entity work.jointer_eig_axi4
      generic map (
        dir_g             => dir_write_c + (i mod 4) / 2,
        addr_w_g          => addr_w_g,
        data_w_g          => data_w_g,
        id_w_g            => id_w_g,
        per_beat_g        => i mod 2 = 1,
        max_outstanding_g => max_outstanding_g,
        ranges_g          => ranges_c,
        keep_data_g       => i /= 4,
        ev_w_g            => ev_w_g)
      port map (
        clk => clk, rst => rst,
        mon_awid => mon_awid, mon_awaddr => mon_awaddr, mon_awlen => mon_awlen,
        mon_awsize => mon_awsize, mon_awburst => mon_awburst, mon_awlock => mon_awlock,
        mon_awcache => mon_awcache, mon_awprot => mon_awprot, mon_awqos => mon_awqos,
        mon_awvalid => mon_awvalid, mon_awready => mon_awready, mon_wdata => mon_wdata,
        mon_wstrb => mon_wstrb, mon_wlast => mon_wlast, mon_wvalid => mon_wvalid,
        mon_wready => mon_wready, mon_bid => mon_bid, mon_bresp => mon_bresp,
        mon_bvalid => mon_bvalid, mon_bready => mon_bready, mon_arid => mon_arid,
        mon_araddr => mon_araddr, mon_arlen => mon_arlen, mon_arsize => mon_arsize,
        mon_arburst => mon_arburst, mon_arlock => mon_arlock, mon_arcache => mon_arcache,
        mon_arprot => mon_arprot, mon_arqos => mon_arqos, mon_arvalid => mon_arvalid,
        mon_arready => mon_arready, mon_rid => mon_rid, mon_rdata => mon_rdata,
        mon_rresp => mon_rresp, mon_rlast => mon_rlast, mon_rvalid => mon_rvalid,
        mon_rready => mon_rready,
        rng_low => rng_low_c(ev_w_g * rng_w_c - 1 downto 0),
        rng_high => rng_high_c(ev_w_g * rng_w_c - 1 downto 0),
        cand_in_range => rng, cand_valid => valid, cand_data => data, cand_bytes => bytes);
    g0 : if i = 0 generate
      wb_valid <= valid; wb_data <= data; wb_bytes <= bytes;
    end generate g0;
    g1 : if i = 1 generate
      wp_valid <= valid; wp_data <= data; wp_bytes <= bytes;
    end generate g1;
    g2 : if i = 2 generate
      rb_valid <= valid; rb_data <= data; rb_bytes <= bytes;
    end generate g2;
    g3 : if i = 3 generate
      rp_valid <= valid; rp_data <= data; rp_bytes <= bytes;
    end generate g3;
    g4 : if i = 4 generate
      wr_valid <= valid; wr_bytes <= bytes;
      wr_data  <= data or (ev_w_g - 1 downto 2 => '0') & rng;
    end generate g4;
  end generate g_tap;
end architecture tb;
