-- SPDX-License-Identifier: MIT
-- jointer_dcapf_aggregate: the Aggregator and Catcher of a DCAPF (paper
-- fig. 7). Folds the extractor's samples into a registered result:
--   sum  : a jointer_dcapf_counter (saturates or wraps, sticky overflow)
--   max  : largest sample, min : smallest sample, last : latest sample;
--          a sample above 2^width_g - 1 is clipped to it and sets the
--          sticky overflow (wrap_g has no effect on them)
-- Reset/clear values: sum, max, last 0; min all ones. caught (sticky): a
-- sample arrived since the last clear. clear wins over a sample of the same
-- cycle.
--   aggregator_g : aggregator_sum_c | _max_c | _min_c | _last_c
--   width_g      : result width (1..64)
--   wrap_g       : sum wraps modulo 2^width_g instead of saturating
--   inc_w_g      : bits of smp_value that can be non-zero (jointer_dcapf_counter)
--   split_g      : sum only: jointer_dcapf_counter's split_g (0: one carry
--                  chain; else the fast variant, result one cycle later;
--                  caught then follows one cycle later too, so it always
--                  describes the result shown)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_aggregate is
  generic (
    aggregator_g : natural  := aggregator_sum_c;
    width_g      : positive := 32;
    wrap_g       : boolean  := false;
    inc_w_g      : positive := max_result_w_c;
    split_g      : natural  := 0);
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    smp_valid : in  std_logic;
    smp_value : in  std_logic_vector(max_result_w_c - 1 downto 0);
    clear     : in  std_logic;
    result    : out std_logic_vector(width_g - 1 downto 0);
    overflow  : out std_logic;
    caught    : out std_logic);
end entity jointer_dcapf_aggregate;

architecture rtl of jointer_dcapf_aggregate is
  -- '1' when a bit of v at position w or above is set
  function upper_set(v : std_logic_vector; w : natural) return std_logic is
    variable r : std_logic := '0';
  begin
    for i in w to v'high loop
      r := r or v(i);
    end loop;
    return r;
  end function;

  -- reset/clear value of the result
  function reset_value(w : positive; agg : natural) return unsigned is
  begin
    if agg = aggregator_min_c then
      return ones(w);
    end if;
    return to_unsigned(0, w);
  end function;

  signal caught_r, caught_d : std_logic;
begin

  assert aggregator_g <= aggregator_last_c
    report "jointer_dcapf_aggregate: aggregator_g must be one of aggregator_{sum,max,min,last}_c"
    severity failure;
  assert width_g <= max_result_w_c
    report "jointer_dcapf_aggregate: width_g must be 1..64" severity failure;

  g_sum : if aggregator_g = aggregator_sum_c generate
    u_counter : entity work.jointer_dcapf_counter
      generic map (width_g => width_g, wrap_g => wrap_g, inc_w_g => inc_w_g, split_g => split_g)
      port map (clk => clk, rst => rst, en => smp_valid, inc => smp_value, clear => clear,
                count => result, overflow => overflow);
  end generate;

  g_cmp : if aggregator_g /= aggregator_sum_c generate
    constant reset_c : unsigned(width_g - 1 downto 0) := reset_value(width_g, aggregator_g);
    signal result_r : unsigned(width_g - 1 downto 0);
    signal ovf_r    : std_logic;
    signal too_big  : std_logic;
    signal low      : unsigned(width_g - 1 downto 0);  -- the sample's low width_g bits
    signal value    : unsigned(width_g - 1 downto 0);  -- the sample, clipped
    signal take     : std_logic;
  begin
    -- the compares see the sample's low bits straight from its source, in
    -- parallel with too_big (an OR tree): a clipped sample (all ones) is
    -- above any result but all ones, and taking it then changes nothing;
    -- it is never below one
    too_big <= upper_set(smp_value, width_g);
    low     <= unsigned(smp_value(width_g - 1 downto 0));
    value   <= ones(width_g) when too_big = '1' else low;
    take    <= smp_valid and (to_sl(aggregator_g = aggregator_last_c)
                              or (to_sl(aggregator_g = aggregator_max_c) and (too_big or to_sl(low > result_r)))
                              or (to_sl(aggregator_g = aggregator_min_c) and not too_big
                                  and to_sl(low < result_r)));

    process (clk)
    begin
      if rising_edge(clk) then
        if take = '1' then
          result_r <= value;
        end if;
        if smp_valid = '1' and too_big = '1' then
          ovf_r <= '1';
        end if;
        if clear = '1' or rst = '1' then
          result_r <= reset_c;
          ovf_r    <= '0';
        end if;
      end if;
    end process;

    result   <= std_logic_vector(result_r);
    overflow <= ovf_r;
  end generate;

  process (clk)
  begin
    if rising_edge(clk) then
      if smp_valid = '1' then
        caught_r <= '1';
      end if;
      if clear = '1' or rst = '1' then
        caught_r <= '0';
      end if;
      caught_d <= caught_r and not (clear or rst);
    end if;
  end process;

  caught <= caught_d when aggregator_g = aggregator_sum_c and split_g > 0 else caught_r;

end architecture rtl;
