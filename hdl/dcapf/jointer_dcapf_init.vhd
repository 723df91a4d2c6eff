-- SPDX-License-Identifier: MIT
-- jointer_dcapf_init: the Init DCAPF block (paper fig. 7): holds the filter
-- bounds low/high of one DCAPF. The sniffer's dispenser loads them one INIT
-- write at a time (init_we with init_sel = index_g; init_hi '0' low, '1'
-- high); the new bound is used from the next cycle on. Hard reset restores
-- the reset values; the DCAPF's clear does not touch the bounds.
-- width_g narrower than 32 (the event data is that wide): each bound keeps
-- width_g bits plus one bit that says "some bit above was set", and shows
-- it on every upper output bit, so the comparison against zero-extended
-- data is the same as with the full 32-bit bound.
--   index_g      : position of the DCAPF in its sniffer (0..255)
--   width_g      : bits of the event data the bounds are compared with (1..32)
--   low_reset_g  : low bound after reset (default 0)
--   high_reset_g : high bound after reset (default all ones)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_init is
  generic (
    index_g      : natural := 0;
    width_g      : positive := data_w_c;
    low_reset_g  : std_logic_vector(data_w_c - 1 downto 0) := (others => '0');
    high_reset_g : std_logic_vector(data_w_c - 1 downto 0) := (others => '1'));
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    init_we   : in  std_logic;
    init_sel  : in  std_logic_vector(7 downto 0);
    init_hi   : in  std_logic;
    init_data : in  std_logic_vector(data_w_c - 1 downto 0);
    low       : out std_logic_vector(data_w_c - 1 downto 0);
    high      : out std_logic_vector(data_w_c - 1 downto 0));
end entity jointer_dcapf_init;

architecture rtl of jointer_dcapf_init is
  constant kw_c : positive := minimum(width_g + 1, data_w_c);  -- bits kept
  -- a bound as kept: the low width_g bits, then OR of the bits above
  function keep(v : std_logic_vector(data_w_c - 1 downto 0)) return std_logic_vector is
    variable r : std_logic_vector(kw_c - 1 downto 0);
  begin
    if kw_c = data_w_c then
      return v;
    end if;
    r(width_g - 1 downto 0) := v(width_g - 1 downto 0);
    r(width_g) := or v(data_w_c - 1 downto width_g);
    return r;
  end function;
  -- and shown: the top kept bit on every bit above
  function show(r : std_logic_vector(kw_c - 1 downto 0)) return std_logic_vector is
    variable v : std_logic_vector(data_w_c - 1 downto 0) := (others => r(kw_c - 1));
  begin
    v(kw_c - 1 downto 0) := r;
    return v;
  end function;
  signal low_r, high_r : std_logic_vector(kw_c - 1 downto 0);
  signal hit : std_logic;
begin

  assert width_g <= data_w_c
    report "jointer_dcapf_init: width_g must be 1..32" severity failure;
  assert index_g <= 255
    report "jointer_dcapf_init: index_g must be 0..255 (init_sel is 8 bits)" severity failure;

  hit <= init_we and to_sl(unsigned(init_sel) = index_g mod 256);

  process (clk)
  begin
    if rising_edge(clk) then
      if hit = '1' and init_hi = '0' then
        low_r <= keep(init_data);
      end if;
      if hit = '1' and init_hi = '1' then
        high_r <= keep(init_data);
      end if;
      if rst = '1' then
        low_r  <= keep(low_reset_g);
        high_r <= keep(high_reset_g);
      end if;
    end if;
  end process;

  low  <= show(low_r);
  high <= show(high_r);

end architecture rtl;
