-- SPDX-License-Identifier: MIT
-- jointer_dcapf_init: the Init DCAPF block (paper fig. 7): holds the filter
-- bounds low/high of one DCAPF. The sniffer's dispenser loads them one INIT
-- write at a time (init_we with init_sel = index_g; init_hi '0' low, '1'
-- high; init_word: which 32-bit word of a 64-bit bound, ev_w_g = 64 only);
-- the new bound (word) is used from the next cycle on. Hard reset restores
-- the reset values; the DCAPF's clear does not touch the bounds.
-- width_g narrower than the bound (the event data is that wide): each bound
-- keeps width_g bits plus one bit that says "some bit above was set", and
-- shows it on every upper output bit, so the comparison against
-- zero-extended data is the same as with the full bound.
-- ev_w_g = 64 (an address of 33..64 bits): a bound is two INIT words, bits
-- 31..0 (init_word '0') then bits 63..32 (init_word '1'); the "above" bit
-- comes from the second word alone (width_g >= 32), so the two words may be
-- written in either order and each write is exact.
--   index_g      : position of the DCAPF in its sniffer (0..255)
--   ev_w_g       : width of a bound and of the event data: 32 (one INIT word
--                  per bound) or 64 (two)
--   width_g      : bits of the event data the bounds are compared with
--                  (1..32 for ev_w_g 32; 32..64 for ev_w_g 64: a narrower
--                  source of a wide sniffer keeps 32 bits)
--   low_reset_g  : low bound after reset (default 0)
--   high_reset_g : high bound after reset (default all ones)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_init is
  generic (
    index_g      : natural  := 0;
    ev_w_g       : positive := data_w_c;
    width_g      : positive := data_w_c;
    low_reset_g  : std_logic_vector(ev_w_g - 1 downto 0) := (others => '0');
    high_reset_g : std_logic_vector(ev_w_g - 1 downto 0) := (others => '1'));
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    init_we   : in  std_logic;
    init_sel  : in  std_logic_vector(7 downto 0);
    init_hi   : in  std_logic;
    init_word : in  std_logic := '0';
    init_data : in  std_logic_vector(31 downto 0);
    low       : out std_logic_vector(ev_w_g - 1 downto 0);
    high      : out std_logic_vector(ev_w_g - 1 downto 0));
end entity jointer_dcapf_init;

architecture rtl of jointer_dcapf_init is
  constant kw_c : positive := minimum(width_g + 1, ev_w_g);  -- bits kept
  -- a bound as kept: the low width_g bits, then OR of the bits above
  function keep(v : std_logic_vector(ev_w_g - 1 downto 0)) return std_logic_vector is
    variable r : std_logic_vector(kw_c - 1 downto 0);
  begin
    if kw_c = ev_w_g then
      return v;
    end if;
    r(width_g - 1 downto 0) := v(width_g - 1 downto 0);
    r(width_g) := or v(ev_w_g - 1 downto width_g);
    return r;
  end function;
  -- and shown: the top kept bit on every bit above
  function show(r : std_logic_vector(kw_c - 1 downto 0)) return std_logic_vector is
    variable v : std_logic_vector(ev_w_g - 1 downto 0) := (others => r(kw_c - 1));
  begin
    v(kw_c - 1 downto 0) := r;
    return v;
  end function;
  -- a kept bound with one INIT word written into it (ev_w_g 64: the other word stays)
  function load(r : std_logic_vector(kw_c - 1 downto 0); word : std_logic;
                d : std_logic_vector(31 downto 0)) return std_logic_vector is
    variable v : std_logic_vector(ev_w_g - 1 downto 0);
  begin
    if ev_w_g = 32 then
      return keep(d);
    end if;
    v := show(r);
    if word = '0' then
      v(31 downto 0) := d;
    else
      v(ev_w_g - 1 downto 32) := d;
    end if;
    return keep(v);
  end function;
  signal low_r, high_r : std_logic_vector(kw_c - 1 downto 0);
  signal hit : std_logic;
  signal low_rv, high_rv : std_logic_vector(ev_w_g - 1 downto 0);  -- the reset values
begin

  g_32 : if ev_w_g = 32 generate
    low_rv  <= low_reset_g;
    high_rv <= high_reset_g;
  end generate;
  g_wide : if ev_w_g > 32 generate   -- GHDL 2.0.0's synth zeroes a wide constant whose low word is 0: jointer_pkg_wide_const
    u_low : entity work.jointer_pkg_wide_const
      generic map (width_g => ev_w_g, value_g => low_reset_g) port map (q => low_rv);
    u_high : entity work.jointer_pkg_wide_const
      generic map (width_g => ev_w_g, value_g => high_reset_g) port map (q => high_rv);
  end generate;

  assert (ev_w_g = 32 and width_g <= 32) or (ev_w_g = 64 and width_g >= 32 and width_g <= 64)
    report "jointer_dcapf_init: ev_w_g must be 32 (width_g 1..32) or 64 (width_g 32..64)" severity failure;
  assert index_g <= 255
    report "jointer_dcapf_init: index_g must be 0..255 (init_sel is 8 bits)" severity failure;

  hit <= init_we and to_sl(unsigned(init_sel) = index_g mod 256);

  process (clk)
  begin
    if rising_edge(clk) then
      if hit = '1' and init_hi = '0' then
        low_r <= load(low_r, init_word, init_data);
      end if;
      if hit = '1' and init_hi = '1' then
        high_r <= load(high_r, init_word, init_data);
      end if;
      if rst = '1' then
        low_r  <= keep(low_rv);
        high_r <= keep(high_rv);
      end if;
    end if;
  end process;

  low  <= show(low_r);
  high <= show(high_r);

end architecture rtl;
