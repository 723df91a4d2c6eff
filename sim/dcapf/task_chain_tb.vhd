-- SPDX-License-Identifier: MIT
-- Test bench for jointer_dcapf in its main use (paper section 4, task level,
-- the demo's "compute cycles"): jointer_eig_start_done -> jointer_eig_emitter
-- -> three time DCAPFs (sum = busy cycles, last and max = interval lengths).
--   mode_g  : start_done_pulses_c | start_done_busy_c
--   width_g : result width

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity task_chain_tb is
  generic (
    mode_g  : natural  := start_done_pulses_c;
    width_g : positive := 53);
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    sd_start    : in  std_logic;
    sd_done     : in  std_logic;
    sd_busy     : in  std_logic;
    run_en      : in  std_logic;
    result_sum  : out std_logic_vector(width_g - 1 downto 0);
    result_last : out std_logic_vector(width_g - 1 downto 0);
    result_max  : out std_logic_vector(width_g - 1 downto 0));
end entity task_chain_tb;

architecture tb of task_chain_tb is
  signal cand_valid : std_logic_vector(0 downto 0);
  signal cand_data  : std_logic_vector(31 downto 0);
  signal cand_bytes : std_logic_vector(15 downto 0);
  signal ev_good    : std_logic_vector(0 downto 0);
  signal ev_data    : std_logic_vector(31 downto 0);
  signal ev_inc     : std_logic_vector(15 downto 0);
  type aggs_t is array (0 to 2) of natural;
  constant aggs_c : aggs_t := (aggregator_sum_c, aggregator_last_c, aggregator_max_c);
  type results_t is array (0 to 2) of std_logic_vector(width_g - 1 downto 0);
  signal results : results_t;
begin

  u_if : entity work.jointer_eig_start_done
    generic map (mode_g => mode_g)
    port map (clk => clk, rst => rst, sd_start => sd_start, sd_done => sd_done, sd_busy => sd_busy,
              cand_valid => cand_valid, cand_data => cand_data, cand_bytes => cand_bytes);

  u_em : entity work.jointer_eig_emitter
    port map (clk => clk, rst => rst, cand_valid => cand_valid, cand_data => cand_data,
              cand_bytes => cand_bytes, cond => "1", ev_good => ev_good, ev_data => ev_data,
              ev_inc => ev_inc);

  g_dcapf : for k in 0 to 2 generate
    u_dcapf : entity work.jointer_dcapf
      generic map (index_g => k, extractor_g => extractor_time_c, aggregator_g => aggs_c(k),
                   width_g => width_g)
      port map (clk => clk, rst => rst, run_en => run_en, use_filter => '0', clear => '0',
                init_we => '0', init_sel => x"00", init_hi => '0', init_data => x"00000000",
                ev_good => ev_good(0), ev_data => ev_data, ev_inc => ev_inc,
                result => results(k), overflow => open, caught => open);
  end generate;

  result_sum  <= results(0);
  result_last <= results(1);
  result_max  <= results(2);

end architecture tb;
