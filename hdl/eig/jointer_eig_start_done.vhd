-- SPDX-License-Identifier: MIT
-- jointer_eig_start_done: interfacer for the start/done (or busy) lines of a
-- hardware task (paper section 4, task level). Every observed input is
-- registered once; the candidate comes one cycle after the occurrence.
--   pulses: start -> candidate with data 1, done -> data 0; start and done
--           in the same cycle -> one candidate, data 1 (done, then start)
--   busy  : rising edge of sd_busy -> data 1, falling edge -> data 0 (the
--           history register resets to 0)
-- A time DCAPF then counts exactly the cycles from start to done (busy
-- cycles). cand_bytes = 1. Paper block: EIG interfacer for coprocessors.
--   mode_g : start_done_pulses_c (sd_start/sd_done used, sd_busy ignored) or
--            start_done_busy_c (sd_busy used, sd_start/sd_done ignored)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_start_done is
  generic (
    mode_g : natural := start_done_pulses_c);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    sd_start   : in  std_logic;
    sd_done    : in  std_logic;
    sd_busy    : in  std_logic;
    cand_valid : out std_logic_vector(0 downto 0);
    cand_data  : out std_logic_vector(data_w_c - 1 downto 0);
    cand_bytes : out std_logic_vector(inc_w_c - 1 downto 0));
end entity jointer_eig_start_done;

architecture rtl of jointer_eig_start_done is
  signal start_r, done_r, busy_r, busy_d : std_logic;
  signal valid, level : std_logic;
begin

  assert mode_g = start_done_pulses_c or mode_g = start_done_busy_c
    report "jointer_eig_start_done: mode_g must be start_done_pulses_c or start_done_busy_c"
    severity failure;

  process (clk)
  begin
    if rising_edge(clk) then
      start_r <= sd_start;
      done_r  <= sd_done;
      busy_r  <= sd_busy;
      busy_d  <= busy_r;
      if rst = '1' then
        start_r <= '0';
        done_r  <= '0';
        busy_r  <= '0';
        busy_d  <= '0';
      end if;
    end if;
  end process;

  valid <= (start_r or done_r) when mode_g = start_done_pulses_c else (busy_r xor busy_d);
  level <= start_r when mode_g = start_done_pulses_c else busy_r;

  cand_valid(0) <= valid;
  cand_data     <= (data_w_c - 1 downto 1 => '0') & level;
  cand_bytes    <= std_logic_vector(to_unsigned(1, inc_w_c));

end architecture rtl;
