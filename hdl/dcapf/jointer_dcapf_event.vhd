-- SPDX-License-Identifier: MIT
-- jointer_dcapf_event: the Event Monitor extractor's Event Capture (paper
-- fig. 7, left): one sample per good event while running and, with the
-- filter in use, when the event data is in range. Combinational.
--   smp_valid = ev_good and run_en and (not use_filter or in_range)
--   smp_value = ev_inc (sample_increment_c) or ev_data (sample_data_c),
--               zero-extended to 64 bits
-- in_range comes from a jointer_dcapf_filter looking at ev_data.
--   sample_g : sample_increment_c | sample_data_c
--   ev_w_g   : width of ev_data (32; up to 64)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_event is
  generic (
    sample_g : natural  := sample_increment_c;
    ev_w_g   : positive := data_w_c);
  port (
    ev_good    : in  std_logic;
    ev_data    : in  std_logic_vector(ev_w_g - 1 downto 0);
    ev_inc     : in  std_logic_vector(inc_w_c - 1 downto 0);
    run_en     : in  std_logic;
    use_filter : in  std_logic;
    in_range   : in  std_logic;
    smp_valid  : out std_logic;
    smp_value  : out std_logic_vector(max_result_w_c - 1 downto 0));
end entity jointer_dcapf_event;

architecture rtl of jointer_dcapf_event is
begin

  assert sample_g = sample_increment_c or sample_g = sample_data_c
    report "jointer_dcapf_event: sample_g must be sample_increment_c or sample_data_c"
    severity failure;

  smp_valid <= ev_good and run_en and (not use_filter or in_range);
  smp_value <= std_logic_vector(resize(unsigned(ev_data), max_result_w_c)) when sample_g = sample_data_c
               else std_logic_vector(resize(unsigned(ev_inc), max_result_w_c));

end architecture rtl;
