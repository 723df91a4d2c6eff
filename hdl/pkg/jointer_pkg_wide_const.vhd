-- SPDX-License-Identifier: MIT
-- jointer_pkg_wide_const: a constant of any width, q = value_g, built from
-- 32-bit words that stay nets of their own.
--
-- Why: GHDL 2.0.0's `ghdl synth` (the flow to Verilator, yosys and nextpnr)
-- turns a constant wider than 32 bits whose low 32 bits are all zero into
-- zero (x"0000000800000000", a DDR base above 4 GB, becomes 0 in the
-- netlist, the VHDL and the Verilog it writes), while simulation and other
-- synthesis tools see the right value. A constant assembled here from 32-bit
-- words, each a signal, reaches the netlist whole: GHDL keeps the words and
-- their concatenation, and the module boundary keeps its users from folding
-- it back. Wide filter bounds and condition values (an address of 33..64
-- bits) go through this entity; a constant of 32 bits or fewer is wired
-- straight through (no cell, no cost). Simulation: q = value_g, always.
--   width_g : bits of the constant (1..1024)
--   value_g : the constant

library ieee;
use ieee.std_logic_1164.all;

entity jointer_pkg_wide_const is
  generic (
    width_g : positive := 64;
    value_g : std_logic_vector(width_g - 1 downto 0) := (others => '0'));
  port (
    q : out std_logic_vector(width_g - 1 downto 0));
end entity jointer_pkg_wide_const;

architecture rtl of jointer_pkg_wide_const is
begin

  assert width_g <= 1024
    report "jointer_pkg_wide_const: width_g must be 1..1024" severity failure;

  g_narrow : if width_g <= 32 generate
    q <= value_g;
  end generate;

  g_wide : if width_g > 32 generate
    constant words_c : positive := (width_g + 31) / 32;
    type words_t is array (0 to words_c - 1) of std_logic_vector(31 downto 0);
    constant padded_c : std_logic_vector(32 * words_c - 1 downto 0) :=
      (32 * words_c - 1 downto width_g => '0') & value_g;
    signal words : words_t;                     -- one net per 32-bit word
    signal whole : std_logic_vector(32 * words_c - 1 downto 0);
  begin
    g_word : for i in 0 to words_c - 1 generate
      words(i) <= padded_c(32 * i + 31 downto 32 * i);
      whole(32 * i + 31 downto 32 * i) <= words(i);
    end generate;
    q <= whole(width_g - 1 downto 0);
  end generate;

end architecture rtl;
