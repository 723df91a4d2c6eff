-- SPDX-License-Identifier: MIT
-- jointer_eig_check_range: condition checker, combinational:
-- match = (low_g <= data <= high_g), unsigned, inclusive.
-- Paper block: EIG condition checker.
--   ev_w_g        : width of data and of the bounds (32; up to 64)
--   low_g, high_g : inclusive bounds (low_g > high_g never matches)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_check_range is
  generic (
    ev_w_g : positive := data_w_c;
    low_g  : std_logic_vector(ev_w_g - 1 downto 0) := (others => '0');
    high_g : std_logic_vector(ev_w_g - 1 downto 0) := (others => '1'));
  port (
    data  : in  std_logic_vector(ev_w_g - 1 downto 0);
    match : out std_logic);
end entity jointer_eig_check_range;

architecture rtl of jointer_eig_check_range is
  signal low, high : std_logic_vector(ev_w_g - 1 downto 0);
begin

  g_32 : if ev_w_g <= 32 generate
    low  <= low_g;
    high <= high_g;
  end generate;
  g_wide : if ev_w_g > 32 generate   -- GHDL 2.0.0's synth zeroes a wide constant whose low word is 0: jointer_pkg_wide_const
    u_low : entity work.jointer_pkg_wide_const
      generic map (width_g => ev_w_g, value_g => low_g) port map (q => low);
    u_high : entity work.jointer_pkg_wide_const
      generic map (width_g => ev_w_g, value_g => high_g) port map (q => high);
  end generate;

  match <= to_sl(unsigned(data) >= unsigned(low) and unsigned(data) <= unsigned(high));

end architecture rtl;
