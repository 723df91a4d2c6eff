-- SPDX-License-Identifier: MIT
-- jointer_collect_lmic_wsel: the write decode of a run of consecutive words
-- of an LMIC window (doc/internals/collect.md): wsel(k) = (wr_addr =
-- first_g + k), for the register blocks of jointer_collect_lmic (CONTROL,
-- IRQ_STATUS, IRQ_ENABLE, INIT[i]) and jointer_collect_lmic_results (the
-- THRESHOLD words). A large window (pipelined_g, the LMIC's rule: jointer_pkg
-- lmic_result_words > lmic_pipelined_min_c) decodes a cycle ahead into one
-- flip-flop per word: wr_addr, the port's captured address, holds from the
-- cycle after rp_req, and the commit (wr) comes with the answer at the
-- earliest, two cycles after rp_req, so the flip-flops hold the decode of
-- that address by then and the commit path is `wr and wsel(k)`, one flag,
-- not a compare of every address bit. A small window decodes wr_addr as it
-- is (no flip-flops where the compare is shallow).
-- Generics:
--   addr_w_g    : word-address bits of the LMIC window
--   first_g     : the first word decoded
--   words_g     : words decoded (wsel'length)
--   pipelined_g : decode a cycle ahead (a large window)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_lmic_wsel is
  generic (
    addr_w_g    : positive := 6;
    first_g     : natural := 0;
    words_g     : positive := 4;
    pipelined_g : boolean := false);
  port (
    clk     : in  std_logic;
    wr_addr : in  std_logic_vector(addr_w_g - 1 downto 0);   -- the captured word address
    wsel    : out std_logic_vector(0 to words_g - 1));       -- wsel(k): wr_addr = first_g + k
end entity jointer_collect_lmic_wsel;

architecture rtl of jointer_collect_lmic_wsel is
  signal wsel_r : std_logic_vector(0 to words_g - 1) := (others => '0');   -- a cycle ahead
begin

  p_wsel : process (clk)
  begin
    if rising_edge(clk) then
      for k in wsel_r'range loop
        wsel_r(k) <= word_at(wr_addr, first_g + k);
      end loop;
    end if;
  end process;

  g_wsel : for k in wsel'range generate
    wsel(k) <= wsel_r(k) when pipelined_g else word_at(wr_addr, first_g + k);
  end generate;

end architecture rtl;
