-- SPDX-License-Identifier: MIT
-- jointer_collect_desc_rom: the descriptor ROM of the global block (its
-- DESC_DATA register): a read-only memory holding the monitor's descriptor
-- file (<name>.jdesc, doc/descriptor-file.md) as 32-bit words, so a host
-- needs no file to learn what the monitor holds. Inferred (LUT ROM or block
-- RAM, as synthesis sees fit; no vendor primitive). The read is registered
-- with an enable: q takes the word at addr in the cycle after en, and keeps
-- it while en is low (a block RAM's output register). The memory has
-- 2**addr_w_g words: the words beyond words_g read 0.
-- Generics:
--   addr_w_g : address bits (1..16)
--   words_g  : the contents, word 0 first (1 .. 2**addr_w_g words)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_desc_rom is
  generic (
    addr_w_g : positive := 1;
    words_g  : word_array_t := (0 => x"00000000"));
  port (
    clk  : in  std_logic;
    en   : in  std_logic;
    addr : in  std_logic_vector(addr_w_g - 1 downto 0);
    q    : out std_logic_vector(31 downto 0));
end entity jointer_collect_desc_rom;

architecture rtl of jointer_collect_desc_rom is
  -- descending: GHDL then indexes the memory with addr as it is (an
  -- ascending array costs an inverter per address bit in its netlist)
  type mem_t is array (2 ** addr_w_g - 1 downto 0) of std_logic_vector(31 downto 0);
  function init_f return mem_t is
    variable m : mem_t := (others => (others => '0'));
  begin
    for i in 0 to words_g'length - 1 loop
      m(i) := words_g(words_g'low + i);
    end loop;
    return m;
  end function;
  constant mem_c : mem_t := init_f;
  signal q_r : std_logic_vector(31 downto 0) := (others => '0');
begin

  assert addr_w_g <= 16
    report "jointer_collect_desc_rom: addr_w_g must be 1..16" severity failure;
  assert words_g'length <= 2 ** addr_w_g
    report "jointer_collect_desc_rom: words_g must fit 2**addr_w_g words" severity failure;

  process (clk)
  begin
    if rising_edge(clk) then
      if en = '1' then
        q_r <= mem_c(to_integer(unsigned(addr)));
      end if;
    end if;
  end process;

  q <= q_r;

end architecture rtl;
