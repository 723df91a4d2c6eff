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
begin

  match <= to_sl(unsigned(data) >= unsigned(low_g) and unsigned(data) <= unsigned(high_g));

end architecture rtl;
