-- SPDX-License-Identifier: MIT
-- jointer_dcapf_filter: the Filter of a DCAPF (paper fig. 7, INF/SUP):
-- in_range = (low <= data <= high), unsigned, inclusive. Combinational.
--   width_g : bits of data that can be non-zero (1..32; the bits above must
--             be '0'). The comparators are then width_g + 1 bits wide, not
--             32: each bound is narrowed to its low width_g bits plus one bit
--             "some bit above is set", which orders the same against data
--             below 2^width_g. Shorter carry chains, the same answer.

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_filter is
  generic (
    width_g : positive := data_w_c);
  port (
    data     : in  std_logic_vector(data_w_c - 1 downto 0);
    low      : in  std_logic_vector(data_w_c - 1 downto 0);
    high     : in  std_logic_vector(data_w_c - 1 downto 0);
    in_range : out std_logic);
end entity jointer_dcapf_filter;

architecture rtl of jointer_dcapf_filter is
  constant kw_c : positive := minimum(width_g + 1, data_w_c);  -- bits compared
  -- a bound narrowed to kw_c bits: the low width_g bits, then OR of the rest
  function narrow(v : std_logic_vector(data_w_c - 1 downto 0)) return unsigned is
    variable r : unsigned(kw_c - 1 downto 0);
  begin
    if kw_c = data_w_c then
      return unsigned(v);
    end if;
    r(width_g - 1 downto 0) := unsigned(v(width_g - 1 downto 0));
    r(width_g) := or v(data_w_c - 1 downto width_g);
    return r;
  end function;
  signal d : unsigned(kw_c - 1 downto 0);
begin

  assert width_g <= data_w_c
    report "jointer_dcapf_filter: width_g must be 1..32" severity failure;

  d        <= unsigned(data(kw_c - 1 downto 0));
  in_range <= to_sl(d >= narrow(low) and d <= narrow(high));

end architecture rtl;
