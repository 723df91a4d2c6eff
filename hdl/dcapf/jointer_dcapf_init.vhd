-- jointer_dcapf_init: the Init DCAPF block (paper fig. 7): holds the filter
-- bounds low/high of one DCAPF. The sniffer's dispenser loads them one INIT
-- write at a time (init_we with init_sel = index_g; init_hi '0' low, '1'
-- high); the new bound is used from the next cycle on. Hard reset restores
-- the reset values; the DCAPF's clear does not touch the bounds.
--   index_g      : position of the DCAPF in its sniffer (0..255)
--   low_reset_g  : low bound after reset (default 0)
--   high_reset_g : high bound after reset (default all ones)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_init is
  generic (
    index_g      : natural := 0;
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
  signal low_r, high_r : std_logic_vector(data_w_c - 1 downto 0);
  signal hit : std_logic;
begin

  assert index_g <= 255
    report "jointer_dcapf_init: index_g must be 0..255 (init_sel is 8 bits)" severity failure;

  hit <= init_we and to_sl(unsigned(init_sel) = index_g mod 256);

  process (clk)
  begin
    if rising_edge(clk) then
      if hit = '1' and init_hi = '0' then
        low_r <= init_data;
      end if;
      if hit = '1' and init_hi = '1' then
        high_r <= init_data;
      end if;
      if rst = '1' then
        low_r  <= low_reset_g;
        high_r <= high_reset_g;
      end if;
    end if;
  end process;

  low  <= low_r;
  high <= high_r;

end architecture rtl;
