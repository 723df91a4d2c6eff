-- jointer_dcapf_filter: the Filter of a DCAPF (paper fig. 7, INF/SUP):
-- in_range = (low <= data <= high), unsigned, inclusive. Combinational.
-- No generics.

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_filter is
  port (
    data     : in  std_logic_vector(data_w_c - 1 downto 0);
    low      : in  std_logic_vector(data_w_c - 1 downto 0);
    high     : in  std_logic_vector(data_w_c - 1 downto 0);
    in_range : out std_logic);
end entity jointer_dcapf_filter;

architecture rtl of jointer_dcapf_filter is
begin

  in_range <= to_sl(unsigned(data) >= unsigned(low) and unsigned(data) <= unsigned(high));

end architecture rtl;
