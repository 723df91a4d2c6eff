-- SPDX-License-Identifier: MIT
-- cdc_fix_sync: a two-flop synchroniser written in the test top itself (not
-- jointer_collect_sync): the ASYNC_REG pair s1 -> s2 is recognised from the
-- attribute. Used by scripts/tests/test_cdc_check.py (planted crossings) as
-- the synchroniser of the good and of the bad tops.
--   gap_g : 0: nothing between the flops; 1: s2 <= s1 and en (logic between)
library ieee;
use ieee.std_logic_1164.all;

entity cdc_fix_sync is
  generic (gap_g : natural := 0);
  port (
    clk : in  std_logic;
    en  : in  std_logic;
    d   : in  std_logic;
    q   : out std_logic);
end entity cdc_fix_sync;

architecture rtl of cdc_fix_sync is
  signal s1, s2 : std_logic := '0';
  attribute async_reg : string;
  attribute async_reg of s1 : signal is "TRUE";
  attribute async_reg of s2 : signal is "TRUE";
begin
  process (clk)
  begin
    if rising_edge(clk) then
      s1 <= d;
      if gap_g = 0 then
        s2 <= s1;
      else
        s2 <= s1 and en;
      end if;
    end if;
  end process;
  q <= s2;
end architecture rtl;
