-- SPDX-License-Identifier: MIT
-- jointer_dcapf_counter: the Counter of a DCAPF (paper fig. 7; the sum
-- aggregator): count += inc when en. A true sum above 2^width_g - 1
-- saturates at 2^width_g - 1 (wrap_g false) or wraps modulo 2^width_g
-- (wrap_g true); either way it sets the sticky overflow. clear (wins over
-- en) and reset set count and overflow to 0. Only the inc bits the width
-- needs are added; higher inc bits only count as an overflow.
-- How it saturates costs nothing per bit: with an increment of at most 1
-- (inc_w_g = 1) the carry-out of count + 1 gates the enable (the count stops
-- at all ones); with a wider increment the register wraps and the sticky
-- overflow forces every output bit to 1 (count = register or overflow), a
-- term the LMIC's read mux and the threshold compare absorb.
--   width_g : counter width (1..64)
--   wrap_g  : wrap instead of saturating
--   inc_w_g : bits of inc that can be non-zero (1: count events or cycles)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_counter is
  generic (
    width_g : positive := 32;
    wrap_g  : boolean  := false;
    inc_w_g : positive := max_result_w_c);
  port (
    clk      : in  std_logic;
    rst      : in  std_logic;
    en       : in  std_logic;
    inc      : in  std_logic_vector(max_result_w_c - 1 downto 0);
    clear    : in  std_logic;
    count    : out std_logic_vector(width_g - 1 downto 0);
    overflow : out std_logic);
end entity jointer_dcapf_counter;

architecture rtl of jointer_dcapf_counter is
  -- '1' when a bit of v at position w or above is set
  function upper_set(v : std_logic_vector; w : natural) return std_logic is
    variable r : std_logic := '0';
  begin
    for i in w to v'high loop
      r := r or v(i);
    end loop;
    return r;
  end function;

  constant iw_c   : positive := minimum(inc_w_g, width_g);  -- inc bits added
  constant hold_c : boolean := inc_w_g = 1 and not wrap_g;  -- saturate by holding
  signal count_r : unsigned(width_g - 1 downto 0);
  signal ovf_r   : std_logic;
  signal sum     : unsigned(width_g downto 0);
  signal too_big : std_logic;
begin

  assert width_g <= max_result_w_c and inc_w_g <= max_result_w_c
    report "jointer_dcapf_counter: width_g and inc_w_g must be 1..64" severity failure;

  sum     <= ('0' & count_r) + resize(unsigned(inc(iw_c - 1 downto 0)), width_g + 1);
  too_big <= sum(width_g) or upper_set(inc(inc_w_g - 1 downto 0), width_g);

  process (clk)
  begin
    if rising_edge(clk) then
      if en = '1' then
        if too_big = '0' or not hold_c then
          count_r <= sum(width_g - 1 downto 0);
        end if;
        if too_big = '1' then
          ovf_r <= '1';
        end if;
      end if;
      if clear = '1' or rst = '1' then
        count_r <= (others => '0');
        ovf_r   <= '0';
      end if;
    end if;
  end process;

  count    <= std_logic_vector(count_r) when wrap_g or hold_c
              else std_logic_vector(count_r) or (width_g - 1 downto 0 => ovf_r);
  overflow <= ovf_r;

end architecture rtl;
