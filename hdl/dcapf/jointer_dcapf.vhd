-- SPDX-License-Identifier: MIT
-- jointer_dcapf: one composed DCAPF (paper fig. 7): Init DCAPF (bounds) +
-- Data Gating + Filter + Extractor (Event Monitor or Time Monitor) +
-- Aggregator/Catcher. One metric of width_g bits; result, overflow and
-- caught come straight from registers (an event of cycle n shows in cycle
-- n+1). Parallel to the paper's DCAPF_<name>_CONFIG bits.
-- Control (from the sniffer's dispenser): run_en, use_filter, clear (results
-- and sticky flags to their reset values; the bounds stay), INIT loads
-- (init_we, init_sel = index_g, init_hi, init_data).
-- Data gating: the event extractor only sees events while run_en; the time
-- extractor sees every event (gate_en = '1'), because the data in effect
-- must follow the observed IP whatever RUN is (doc/internals/dcapf.md,
-- jointer_dcapf_time).
--   index_g      : position in the sniffer, matched against init_sel (0..255)
--   extractor_g  : extractor_event_c | extractor_time_c
--   aggregator_g : aggregator_sum_c | _max_c | _min_c | _last_c |
--                  _histogram_c (time extractor: sum = active cycles, others
--                  = per interval)
--   sample_g     : event extractor sample, sample_increment_c | sample_data_c
--   width_g      : result width (1..64)
--   wrap_g       : sum wraps instead of saturating (overflow still sticky)
--   filter_g     : where the range filter is (jointer_pkg):
--                  filter_runtime_c (default): Init DCAPF bounds, loaded at run
--                  time, and the comparator here; filter_const_c: the reset
--                  values as constant bounds (no registers; INIT loads
--                  ignored); filter_capture_c: Init DCAPF bounds here, shown on
--                  low/high, compared by the interfacer where it captures the
--                  data (ev_in_range; event extractor only);
--                  filter_capture_const_c: the same with the constants (low/high
--                  show them, no registers); filter_none_c: no
--                  filter (FILTERING acts as NO_FILTERING, INIT ignored)
--   low_reset_g, high_reset_g : filter bounds after reset (the constants)
--   ev_w_g       : width of ev_data, low, high and the bounds: 32, or 64 for
--                  event data of 33..64 bits (an address above 4 GB); a
--                  64-bit bound takes two INIT words (init_word)
--   data_w_g     : bits of ev_data that can be non-zero (1..32, or 33..64
--                  with ev_w_g 64; 32 for a narrower source of a wide
--                  sniffer): bounds and the time extractor's data in
--                  effect are that wide
--   inc_w_g      : bits of ev_inc that can be non-zero (1: every event weighs 1)
--   buckets_g, hist_pow2_g, hist_bounds_g : the histogram aggregator
--                  (jointer_dcapf_histogram buckets_g, pow2_g, bounds_g);
--                  result is then buckets_g x width_g bits, bucket 0 lowest;
--                  buckets_g must be 1 for the other aggregators but mean
--   split_g      : the fast counters (sum and mean): jointer_dcapf_counter's
--                  split_g (0: one carry chain; default); the result shows one
--                  cycle later, never torn
--   smp_reg_g    : the registered filter decision (fast variant; default
--                  false): the extractor's sample (valid and value, so the
--                  filter's comparison) is registered before the
--                  aggregator, which then sees it one cycle later; clear
--                  drops a sample in the register, so clear still wins over
--                  a sample of its own cycle
--   aggregator_mean_c: two counters of width_g bits, result =
--                  count & sum (sum in the low width_g bits: slot 0, count
--                  in slot 1; buckets_g must be 2). Both saturate (wrap_g:
--                  wrap); either sets the sticky overflow. The LMIC reads the
--                  two as one snapshot, so sum / count is a consistent mean

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf is
  generic (
    index_g      : natural  := 0;
    extractor_g  : natural  := extractor_event_c;
    aggregator_g : natural  := aggregator_sum_c;
    sample_g     : natural  := sample_increment_c;
    width_g      : positive := 32;
    wrap_g       : boolean  := false;
    filter_g     : natural  := filter_runtime_c;
    ev_w_g       : positive := data_w_c;
    data_w_g     : positive := data_w_c;
    inc_w_g      : positive := inc_w_c;
    low_reset_g  : std_logic_vector(ev_w_g - 1 downto 0) := (others => '0');
    high_reset_g : std_logic_vector(ev_w_g - 1 downto 0) := (others => '1');
    buckets_g     : positive       := 1;
    hist_pow2_g   : boolean        := true;
    hist_bounds_g : integer_vector := (0 => 1);
    split_g       : natural        := 0;
    smp_reg_g     : boolean        := false);
  port (
    clk        : in  std_logic;
    rst        : in  std_logic;
    -- control, from the dispenser
    run_en     : in  std_logic;
    use_filter : in  std_logic;
    clear      : in  std_logic;
    init_we    : in  std_logic;
    init_sel   : in  std_logic_vector(7 downto 0);
    init_hi    : in  std_logic;
    init_word  : in  std_logic := '0';  -- ev_w_g 64: which word of the bound
    init_data  : in  std_logic_vector(31 downto 0);
    -- event instance (one lane)
    ev_good    : in  std_logic;
    ev_data    : in  std_logic_vector(ev_w_g - 1 downto 0);
    ev_inc     : in  std_logic_vector(inc_w_c - 1 downto 0);
    ev_in_range : in std_logic := '1';  -- filter_capture_c: the interfacer's comparison
    -- filter bounds (filter_capture_c: for the interfacer; else 0)
    low        : out std_logic_vector(ev_w_g - 1 downto 0);
    high       : out std_logic_vector(ev_w_g - 1 downto 0);
    -- monitoring information
    result     : out std_logic_vector(buckets_g * width_g - 1 downto 0);
    overflow   : out std_logic;
    caught     : out std_logic);
end entity jointer_dcapf;

architecture rtl of jointer_dcapf is
  -- bits of the extractor's samples that can be non-zero (jointer_dcapf_counter)
  function sample_w return positive is
  begin
    if extractor_g = extractor_time_c and aggregator_g = aggregator_sum_c then
      return 1;                                   -- one per active cycle
    elsif extractor_g = extractor_time_c then
      return max_result_w_c;                      -- interval lengths
    elsif sample_g = sample_data_c then
      return data_w_g;
    end if;
    return inc_w_g;
  end function;
  constant smp_w_c : positive := sample_w;
  signal gate_en     : std_logic;
  signal good_g      : std_logic;
  signal data_g      : std_logic_vector(ev_w_g - 1 downto 0);
  signal filter_data : std_logic_vector(ev_w_g - 1 downto 0);
  signal in_range    : std_logic;
  signal filter_en   : std_logic;  -- use_filter, for a DCAPF that has a filter
  signal smp_valid   : std_logic;
  signal smp_value   : std_logic_vector(max_result_w_c - 1 downto 0);
  signal agg_valid   : std_logic;   -- the sample the aggregator sees (smp_reg_g: registered)
  signal agg_value   : std_logic_vector(max_result_w_c - 1 downto 0);
  signal low_k, high_k : std_logic_vector(ev_w_g - 1 downto 0);  -- the constant bounds
begin

  g_k32 : if ev_w_g = 32 generate
    low_k  <= low_reset_g;
    high_k <= high_reset_g;
  end generate;
  g_kwide : if ev_w_g > 32 generate   -- GHDL 2.0.0's synth zeroes a wide constant whose low word is 0: jointer_pkg_wide_const
    u_low : entity work.jointer_pkg_wide_const
      generic map (width_g => ev_w_g, value_g => low_reset_g) port map (q => low_k);
    u_high : entity work.jointer_pkg_wide_const
      generic map (width_g => ev_w_g, value_g => high_reset_g) port map (q => high_k);
  end generate;

  assert extractor_g = extractor_event_c or extractor_g = extractor_time_c
    report "jointer_dcapf: extractor_g must be extractor_event_c or extractor_time_c"
    severity failure;
  assert aggregator_g <= aggregator_mean_c
    report "jointer_dcapf: aggregator_g must be one of aggregator_{sum,max,min,last,histogram,mean}_c"
    severity failure;
  assert (aggregator_g = aggregator_histogram_c) = (buckets_g > 1) or aggregator_g = aggregator_mean_c
    report "jointer_dcapf: buckets_g must be 2..64 for a histogram, 1 otherwise" severity failure;
  assert aggregator_g /= aggregator_mean_c or buckets_g = 2
    report "jointer_dcapf: buckets_g must be 2 for the mean (sum, count)" severity failure;
  assert sample_g = sample_increment_c or sample_g = sample_data_c
    report "jointer_dcapf: sample_g must be sample_increment_c or sample_data_c"
    severity failure;
  assert width_g <= max_result_w_c
    report "jointer_dcapf: width_g must be 1..64" severity failure;
  assert index_g <= 255
    report "jointer_dcapf: index_g must be 0..255" severity failure;

  assert filter_g <= filter_capture_const_c
    report "jointer_dcapf: filter_g must be one of filter_{none,runtime,const,capture,capture_const}_c"
    severity failure;
  assert (filter_g /= filter_capture_c and filter_g /= filter_capture_const_c)
         or extractor_g = extractor_event_c
    report "jointer_dcapf: filter_capture_c needs the event extractor" severity failure;
  assert ((ev_w_g = 32 and data_w_g <= 32) or (ev_w_g = 64 and data_w_g >= 32 and data_w_g <= 64))
         and inc_w_g <= inc_w_c
    report "jointer_dcapf: ev_w_g must be 32 (data_w_g 1..32) or 64 (data_w_g 32..64), inc_w_g 1..16"
    severity failure;

  -- bounds loaded at run time: the Init DCAPF
  g_init : if filter_g = filter_runtime_c or filter_g = filter_capture_c generate
    signal lo, hi : std_logic_vector(ev_w_g - 1 downto 0);
  begin
    u_init : entity work.jointer_dcapf_init
      generic map (index_g => index_g, ev_w_g => ev_w_g, width_g => data_w_g,
                   low_reset_g => low_reset_g, high_reset_g => high_reset_g)
      port map (clk => clk, rst => rst, init_we => init_we, init_sel => init_sel,
                init_hi => init_hi, init_word => init_word, init_data => init_data,
                low => lo, high => hi);

    g_here : if filter_g = filter_runtime_c generate
      u_filter : entity work.jointer_dcapf_filter
        generic map (ev_w_g => ev_w_g, width_g => data_w_g)
        port map (data => filter_data, low => lo, high => hi, in_range => in_range);
      low  <= (others => '0');
      high <= (others => '0');
    end generate;
    g_there : if filter_g = filter_capture_c generate
      in_range <= ev_in_range;
      low      <= lo;
      high     <= hi;
    end generate;
    filter_en <= use_filter;
  end generate;

  -- constant bounds: a comparator against constants, no registers
  g_const : if filter_g = filter_const_c generate
    u_filter : entity work.jointer_dcapf_filter
      generic map (ev_w_g => ev_w_g, width_g => data_w_g)
      port map (data => filter_data, low => low_k, high => high_k, in_range => in_range);
    filter_en <= use_filter;
    low       <= (others => '0');
    high      <= (others => '0');
  end generate;

  -- constant bounds compared by the interfacer: nothing here but the constants
  g_capture_const : if filter_g = filter_capture_const_c generate
    in_range  <= ev_in_range;
    filter_en <= use_filter;
    low       <= low_k;
    high      <= high_k;
  end generate;

  -- no filter: no bounds, no comparator, INIT loads ignored; FILTERING = NO_FILTERING
  g_no_filter : if filter_g = filter_none_c generate
    in_range  <= '1';
    filter_en <= '0';
    low       <= (others => '0');
    high      <= (others => '0');
  end generate;

  gate_en <= run_en when extractor_g = extractor_event_c else '1';

  u_gate : entity work.jointer_dcapf_gate
    generic map (ev_w_g => ev_w_g)
    port map (good_i => ev_good, data_i => ev_data, gate_en => gate_en,
              good_o => good_g, data_o => data_g);

  g_event : if extractor_g = extractor_event_c generate
    filter_data <= data_g;
    u_event : entity work.jointer_dcapf_event
      generic map (sample_g => sample_g, ev_w_g => ev_w_g)
      port map (ev_good => good_g, ev_data => data_g, ev_inc => ev_inc, run_en => run_en,
                use_filter => filter_en, in_range => in_range,
                smp_valid => smp_valid, smp_value => smp_value);
  end generate;

  g_time : if extractor_g = extractor_time_c generate
    u_time : entity work.jointer_dcapf_time
      generic map (interval_g => aggregator_g /= aggregator_sum_c, ev_w_g => ev_w_g,
                   data_w_g => data_w_g, width_g => width_g)
      port map (clk => clk, rst => rst, ev_good => good_g, ev_data => data_g, run_en => run_en,
                use_filter => filter_en, in_range => in_range, clear => clear,
                cur_data => filter_data, smp_valid => smp_valid, smp_value => smp_value);
  end generate;

  -- the aggregator's sample: straight from the extractor, or registered (smp_reg_g)
  g_smp_direct : if not smp_reg_g generate
    agg_valid <= smp_valid;
    agg_value <= smp_value;
  end generate;
  g_smp_reg : if smp_reg_g generate
    signal valid_r : std_logic;
    signal value_r : std_logic_vector(smp_w_c - 1 downto 0);
  begin
    process (clk)
    begin
      if rising_edge(clk) then
        valid_r <= smp_valid and not (clear or rst);
        value_r <= smp_value(smp_w_c - 1 downto 0);
      end if;
    end process;
    agg_valid <= valid_r;
    agg_value <= std_logic_vector(resize(unsigned(value_r), max_result_w_c));
  end generate;

  g_aggregate : if aggregator_g /= aggregator_histogram_c and aggregator_g /= aggregator_mean_c generate
    u_aggregate : entity work.jointer_dcapf_aggregate
      generic map (aggregator_g => aggregator_g, width_g => width_g, wrap_g => wrap_g,
                   inc_w_g => smp_w_c, split_g => split_g)
      port map (clk => clk, rst => rst, smp_valid => agg_valid, smp_value => agg_value,
                clear => clear, result => result, overflow => overflow, caught => caught);
  end generate;

  -- mean: sum of the samples (slot 0) and their count (slot 1)
  g_mean : if aggregator_g = aggregator_mean_c generate
    constant one_c : std_logic_vector(max_result_w_c - 1 downto 0) :=
      std_logic_vector(to_unsigned(1, max_result_w_c));
    signal ovf_sum, ovf_cnt, caught_r, caught_d : std_logic;
  begin
    u_sum : entity work.jointer_dcapf_counter
      generic map (width_g => width_g, wrap_g => wrap_g, inc_w_g => smp_w_c, split_g => split_g)
      port map (clk => clk, rst => rst, en => agg_valid, inc => agg_value, clear => clear,
                count => result(width_g - 1 downto 0), overflow => ovf_sum);
    u_count : entity work.jointer_dcapf_counter
      generic map (width_g => width_g, wrap_g => wrap_g, inc_w_g => 1, split_g => split_g)
      port map (clk => clk, rst => rst, en => agg_valid, inc => one_c, clear => clear,
                count => result(2 * width_g - 1 downto width_g), overflow => ovf_cnt);
    overflow <= ovf_sum or ovf_cnt;

    process (clk)
    begin
      if rising_edge(clk) then
        if agg_valid = '1' then
          caught_r <= '1';
        end if;
        if clear = '1' or rst = '1' then
          caught_r <= '0';
        end if;
        caught_d <= caught_r and not (clear or rst);
      end if;
    end process;
    caught <= caught_d when split_g > 0 else caught_r;  -- describes the result shown
  end generate;

  g_histogram : if aggregator_g = aggregator_histogram_c generate
    u_histogram : entity work.jointer_dcapf_histogram
      generic map (buckets_g => buckets_g, width_g => width_g, pow2_g => hist_pow2_g,
                   bounds_g => hist_bounds_g, wrap_g => wrap_g)
      port map (clk => clk, rst => rst, smp_valid => agg_valid, smp_value => agg_value,
                clear => clear, result => result, overflow => overflow, caught => caught);
  end generate;

end architecture rtl;
