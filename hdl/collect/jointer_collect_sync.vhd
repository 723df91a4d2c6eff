-- SPDX-License-Identifier: MIT
-- jointer_collect_sync: multi-flop synchroniser for independent,
-- quasi-static single-bit levels (the per-LMIC irq towards the bus clock).
-- Never use it for a multi-bit value: those cross through
-- jointer_collect_cdc (doc/design.md, "Clocks, resets, crossings").
--   width_g  : number of independent bits
--   stages_g : flip-flops per bit (>= 2)
--   reset_g  : value of the synchroniser flops after reset

library ieee;
use ieee.std_logic_1164.all;

entity jointer_collect_sync is
  generic (
    width_g  : positive  := 1;
    stages_g : positive  := 2;
    reset_g  : std_logic := '0');
  port (
    clk   : in  std_logic;           -- destination clock
    rst   : in  std_logic;           -- destination reset
    d     : in  std_logic_vector(width_g - 1 downto 0);
    q     : out std_logic_vector(width_g - 1 downto 0));
end entity jointer_collect_sync;

architecture rtl of jointer_collect_sync is
  type stages_t is array (0 to stages_g - 1) of std_logic_vector(width_g - 1 downto 0);
  signal stage : stages_t := (others => (others => reset_g));  -- FPGA INIT
  attribute async_reg : string;
  attribute async_reg of stage : signal is "TRUE";
begin

  assert stages_g >= 2
    report "jointer_collect_sync: stages_g must be at least 2" severity failure;

  process (clk)
  begin
    if rising_edge(clk) then
      stage(0) <= d;
      for i in 1 to stages_g - 1 loop
        stage(i) <= stage(i - 1);
      end loop;
      if rst = '1' then
        stage <= (others => (others => reset_g));
      end if;
    end if;
  end process;

  q <= stage(stages_g - 1);

end architecture rtl;
