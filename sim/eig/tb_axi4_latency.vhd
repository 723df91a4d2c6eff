-- SPDX-License-Identifier: MIT
-- tb_axi4_latency: three jointer_eig_axi4_latency taps on one observed AXI4
-- bus (test bench for sim/eig/test_jointer_eig_axi4_latency.py): read
-- (rl_*, AR to RLAST), write to WLAST (wl_*), write to B (wr_*). One
-- simulation checks every variant on the same traffic.
--   data_w_g, addr_w_g, id_w_g, max_outstanding_g : passed to every tap

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity tb_axi4_latency is
  generic (
    addr_w_g          : positive := 32;
    data_w_g          : positive := 32;
    id_w_g            : positive := 4;
    max_outstanding_g : positive := 8);
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
    rl_valid    : out std_logic_vector(0 downto 0);
    rl_data     : out std_logic_vector(31 downto 0);
    rl_bytes    : out std_logic_vector(15 downto 0);
    wl_valid    : out std_logic_vector(0 downto 0);
    wl_data     : out std_logic_vector(31 downto 0);
    wl_bytes    : out std_logic_vector(15 downto 0);
    wr_valid    : out std_logic_vector(0 downto 0);
    wr_data     : out std_logic_vector(31 downto 0);
    wr_bytes    : out std_logic_vector(15 downto 0));
end entity tb_axi4_latency;

architecture tb of tb_axi4_latency is
begin
  g_tap : for i in 0 to 2 generate
    signal valid : std_logic_vector(0 downto 0);
    signal data  : std_logic_vector(31 downto 0);
    signal bytes : std_logic_vector(15 downto 0);
  begin
    u_tap : entity work.jointer_eig_axi4_latency
      generic map (
        dir_g             => dir_read_c - minimum(i, 1),   -- 0: read; 1, 2: write
        end_g             => latency_end_last_c + i / 2,   -- 2: B handshake
        addr_w_g          => addr_w_g,
        data_w_g          => data_w_g,
        id_w_g            => id_w_g,
        max_outstanding_g => max_outstanding_g)
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
        cand_valid => valid, cand_data => data, cand_bytes => bytes);
    g0 : if i = 0 generate
      rl_valid <= valid; rl_data <= data; rl_bytes <= bytes;
    end generate g0;
    g1 : if i = 1 generate
      wl_valid <= valid; wl_data <= data; wl_bytes <= bytes;
    end generate g1;
    g2 : if i = 2 generate
      wr_valid <= valid; wr_data <= data; wr_bytes <= bytes;
    end generate g2;
  end generate g_tap;
end architecture tb;
