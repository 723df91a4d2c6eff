-- SPDX-License-Identifier: MIT
-- jointer_dcapf_time: the Time Monitor extractor's Time Capture (paper
-- fig. 7, right): measures the cycles spent while the data in effect is in
-- the filter range (NO_FILTERING: while it is non-zero).
--   cur_data  = ev_data in a cycle with ev_good, else the last event's data
--               (register, reset 0, tracked whatever run_en/use_filter are,
--               not cleared by clear: it mirrors the observed IP)
--   active    = run_en and (use_filter ? in_range : cur_data /= 0), with
--               in_range from a jointer_dcapf_filter looking at cur_data.
--               Start (data 1) at cycle s, done (data 0) at cycle d: cycles
--               s..d-1 are active, exactly d - s.
--   interval_g false: smp_valid = active, smp_value = 1 (for a sum)
--   interval_g true : one sample per active interval, its length, in the
--               first inactive cycle (RUN dropping ends an interval).
-- clear: no sample in that cycle, an interval in progress is abandoned
-- (active cycles after the clear start a new one).
--   interval_g : see above
--   ev_w_g     : width of ev_data and cur_data (32; up to 64)
--   data_w_g   : bits of the event data that can be non-zero (1..ev_w_g):
--                the data in effect is kept that wide (1 for start/done)
--   width_g    : result width of the DCAPF (1..64); the interval length
--                counter has min(width_g + 1, 64) bits and saturates, so a
--                length above 2^width_g - 1 still reaches the aggregator as
--                too large (clipped there, overflow set)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_time is
  generic (
    interval_g : boolean  := false;
    ev_w_g     : positive := data_w_c;
    data_w_g   : positive := data_w_c;
    width_g    : positive := 64);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    ev_good    : in  std_logic;
    ev_data    : in  std_logic_vector(ev_w_g - 1 downto 0);
    run_en     : in  std_logic;
    use_filter : in  std_logic;
    in_range   : in  std_logic;
    clear      : in  std_logic;
    cur_data   : out std_logic_vector(ev_w_g - 1 downto 0);
    smp_valid  : out std_logic;
    smp_value  : out std_logic_vector(max_result_w_c - 1 downto 0));
end entity jointer_dcapf_time;

architecture rtl of jointer_dcapf_time is
  constant len_w_c : positive := minimum(width_g + 1, max_result_w_c);
  signal last_r : std_logic_vector(data_w_g - 1 downto 0);
  signal cur    : std_logic_vector(data_w_g - 1 downto 0);
  signal active : std_logic;
  signal len_r  : unsigned(len_w_c - 1 downto 0);  -- interval_g: cycles so far
  signal len_nz : std_logic;
begin

  assert width_g <= max_result_w_c and ev_w_g <= max_data_w_c and data_w_g <= ev_w_g
    report "jointer_dcapf_time: width_g must be 1..64, ev_w_g 1..64, data_w_g 1..ev_w_g" severity failure;

  cur    <= ev_data(data_w_g - 1 downto 0) when ev_good = '1' else last_r;
  active <= run_en and ((use_filter and in_range) or (not use_filter and (or cur)));
  len_nz <= or len_r;

  process (clk)
  begin
    if rising_edge(clk) then
      last_r <= cur;
      if interval_g then
        if active = '1' then
          if len_r /= ones(len_w_c) then
            len_r <= len_r + 1;
          end if;
        else
          len_r <= (others => '0');
        end if;
        if clear = '1' then
          len_r <= (others => '0');
        end if;
      end if;
      if rst = '1' then
        last_r <= (others => '0');
        len_r  <= (others => '0');
      end if;
    end if;
  end process;

  cur_data  <= std_logic_vector(resize(unsigned(cur), ev_w_g));
  smp_valid <= (not active and len_nz and not clear) when interval_g else (active and not clear);
  smp_value <= std_logic_vector(resize(len_r, max_result_w_c)) when interval_g
               else std_logic_vector(to_unsigned(1, max_result_w_c));

end architecture rtl;
