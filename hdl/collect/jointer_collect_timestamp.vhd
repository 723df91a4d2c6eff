-- SPDX-License-Identifier: MIT
-- jointer_collect_timestamp: free-running cycle counter of one clock domain.
-- Feeds the global TIMESTAMP registers and the trace records (doc/design.md).
-- Cleared only by the hard reset; wraps after 2^width_g cycles.
--   width_g : counter width (1..64)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity jointer_collect_timestamp is
  generic (
    width_g : positive := 64);
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    timestamp : out std_logic_vector(width_g - 1 downto 0));
end entity jointer_collect_timestamp;

architecture rtl of jointer_collect_timestamp is
  signal count : unsigned(width_g - 1 downto 0);
begin

  assert width_g <= 64
    report "jointer_collect_timestamp: width_g must be 1..64" severity failure;

  process (clk)
  begin
    if rising_edge(clk) then
      count <= count + 1;
      if rst = '1' then
        count <= (others => '0');
      end if;
    end if;
  end process;

  timestamp <= std_logic_vector(count);

end architecture rtl;
