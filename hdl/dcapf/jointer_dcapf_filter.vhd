-- SPDX-License-Identifier: MIT
-- jointer_dcapf_filter: the Filter of a DCAPF (paper fig. 7, INF/SUP):
-- in_range = (low <= data <= high), unsigned, inclusive. Combinational.
--   ev_w_g  : width of data, low and high (32; up to 64 for an address
--             wider than 32 bits)
--   width_g : bits of data that can be non-zero (1..ev_w_g; the bits above
--             must be '0'). The comparators are then width_g + 1 bits wide,
--             not ev_w_g: each bound is narrowed to its low width_g bits plus
--             one bit "some bit above is set", which orders the same against
--             data below 2^width_g. Shorter carry chains, the same answer.

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_filter is
  generic (
    ev_w_g  : positive := data_w_c;
    width_g : positive := data_w_c);
  port (
    data     : in  std_logic_vector(ev_w_g - 1 downto 0);
    low      : in  std_logic_vector(ev_w_g - 1 downto 0);
    high     : in  std_logic_vector(ev_w_g - 1 downto 0);
    in_range : out std_logic);
end entity jointer_dcapf_filter;

architecture rtl of jointer_dcapf_filter is
  constant kw_c : positive := minimum(width_g + 1, ev_w_g);  -- bits compared
  -- a bound narrowed to kw_c bits: the low width_g bits, then OR of the rest
  function narrow(v : std_logic_vector(ev_w_g - 1 downto 0)) return unsigned is
    variable r : unsigned(kw_c - 1 downto 0);
  begin
    if kw_c = ev_w_g then
      return unsigned(v);
    end if;
    r(width_g - 1 downto 0) := unsigned(v(width_g - 1 downto 0));
    r(width_g) := or v(ev_w_g - 1 downto width_g);
    return r;
  end function;
  signal d : unsigned(kw_c - 1 downto 0);
begin

  assert ev_w_g <= max_data_w_c and width_g <= ev_w_g
    report "jointer_dcapf_filter: ev_w_g must be 1..64, width_g 1..ev_w_g" severity failure;

  d        <= unsigned(data(kw_c - 1 downto 0));
  in_range <= to_sl(d >= narrow(low) and d <= narrow(high));

end architecture rtl;
