-- SPDX-License-Identifier: MIT
-- jointer_collect_reset: the reset bridge of one clock domain (doc/internals/collect.md,
-- "CDC rules"). The monitor's *resetn inputs may be asynchronous to
-- their clock (a push button, a PS reset released at any time): rst goes high
-- as soon as resetn is low, without a clock edge (asynchronous assertion),
-- and goes low only stages_g rising edges after resetn is high again
-- (synchronous de-assertion), so every flip-flop of the domain leaves reset
-- in the same cycle. Every register of the library uses rst synchronously
-- (the clock runs during reset), so only these flip-flops see resetn.
-- The flip-flops carry ASYNC_REG: the first one may go metastable when
-- resetn rises close to an edge.
--   stages_g : flip-flops (>= 2)

library ieee;
use ieee.std_logic_1164.all;

entity jointer_collect_reset is
  generic (
    stages_g : positive := 2);
  port (
    clk    : in  std_logic;
    resetn : in  std_logic;   -- active low, asynchronous
    rst    : out std_logic);  -- active high, synchronous de-assertion
end entity jointer_collect_reset;

architecture rtl of jointer_collect_reset is
  signal stage : std_logic_vector(0 to stages_g - 1) := (others => '1');  -- FPGA INIT: in reset
  attribute async_reg : string;
  attribute async_reg of stage : signal is "TRUE";
begin

  assert stages_g >= 2
    report "jointer_collect_reset: stages_g must be at least 2" severity failure;

  process (clk, resetn)
  begin
    if resetn = '0' then
      stage <= (others => '1');
    elsif rising_edge(clk) then
      stage <= '0' & stage(0 to stages_g - 2);
    end if;
  end process;

  rst <= stage(stages_g - 1);

end architecture rtl;
