-- SPDX-License-Identifier: MIT
-- jointer_eig_check_mask: condition checker, combinational:
-- match = ((data and mask_g) = value_g). Paper block: EIG condition checker.
--   ev_w_g  : width of data, mask and value (32; up to 64)
--   mask_g  : bits of data that are compared
--   value_g : expected value of those bits (bits outside mask_g must be 0)

library ieee;
use ieee.std_logic_1164.all;
use work.jointer_pkg.all;

entity jointer_eig_check_mask is
  generic (
    ev_w_g  : positive := data_w_c;
    mask_g  : std_logic_vector(ev_w_g - 1 downto 0) := (others => '1');
    value_g : std_logic_vector(ev_w_g - 1 downto 0) := (others => '0'));
  port (
    data  : in  std_logic_vector(ev_w_g - 1 downto 0);
    match : out std_logic);
end entity jointer_eig_check_mask;

architecture rtl of jointer_eig_check_mask is
  signal mask, value : std_logic_vector(ev_w_g - 1 downto 0);
begin

  g_32 : if ev_w_g <= 32 generate
    mask  <= mask_g;
    value <= value_g;
  end generate;
  g_wide : if ev_w_g > 32 generate   -- GHDL 2.0.0's synth zeroes a wide constant whose low word is 0: jointer_pkg_wide_const
    u_mask : entity work.jointer_pkg_wide_const
      generic map (width_g => ev_w_g, value_g => mask_g) port map (q => mask);
    u_value : entity work.jointer_pkg_wide_const
      generic map (width_g => ev_w_g, value_g => value_g) port map (q => value);
  end generate;

  assert (value_g and not mask_g) = (value_g'range => '0')
    report "jointer_eig_check_mask: value_g has bits outside mask_g (never matches)"
    severity failure;

  match <= to_sl((data and mask) = value);

end architecture rtl;
