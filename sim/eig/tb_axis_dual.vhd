-- SPDX-License-Identifier: MIT
-- tb_axis_dual: two jointer_eig_axis taps on one observed AXI4-Stream (test
-- bench for sim/eig/test_jointer_eig_axis.py): beats (b_*) and packets (p_*)
-- see the same traffic.
--   data_w_g, has_keep_g, dest_w_g, data_sel_g : passed to both taps

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity tb_axis_dual is
  generic (
    data_w_g   : positive := 32;
    has_keep_g : boolean  := true;
    dest_w_g   : positive := 4;
    data_sel_g : natural  := 0);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    mon_tdata  : in  std_logic_vector(data_w_g - 1 downto 0);
    mon_tkeep  : in  std_logic_vector(data_w_g / 8 - 1 downto 0);
    mon_tlast  : in  std_logic;
    mon_tvalid : in  std_logic;
    mon_tready : in  std_logic;
    mon_tdest  : in  std_logic_vector(dest_w_g - 1 downto 0);
    b_valid    : out std_logic_vector(0 downto 0);
    b_data     : out std_logic_vector(31 downto 0);
    b_bytes    : out std_logic_vector(15 downto 0);
    p_valid    : out std_logic_vector(0 downto 0);
    p_data     : out std_logic_vector(31 downto 0);
    p_bytes    : out std_logic_vector(15 downto 0));
end entity tb_axis_dual;

architecture tb of tb_axis_dual is
begin
  u_beats : entity work.jointer_eig_axis
    generic map (data_w_g => data_w_g, count_g => axis_beats_c, has_keep_g => has_keep_g,
                 dest_w_g => dest_w_g, data_sel_g => data_sel_g)
    port map (clk => clk, rst => rst, mon_tdata => mon_tdata, mon_tkeep => mon_tkeep,
              mon_tlast => mon_tlast, mon_tvalid => mon_tvalid, mon_tready => mon_tready,
              mon_tdest => mon_tdest, cand_valid => b_valid, cand_data => b_data,
              cand_bytes => b_bytes);
  u_packets : entity work.jointer_eig_axis
    generic map (data_w_g => data_w_g, count_g => axis_packets_c, has_keep_g => has_keep_g,
                 dest_w_g => dest_w_g, data_sel_g => data_sel_g)
    port map (clk => clk, rst => rst, mon_tdata => mon_tdata, mon_tkeep => mon_tkeep,
              mon_tlast => mon_tlast, mon_tvalid => mon_tvalid, mon_tready => mon_tready,
              mon_tdest => mon_tdest, cand_valid => p_valid, cand_data => p_data,
              cand_bytes => p_bytes);
end architecture tb;
