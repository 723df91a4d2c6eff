-- SPDX-License-Identifier: MIT
-- jointer_dcapf_histogram: the histogram Aggregator of a DCAPF (the
-- paper's Aggregator block, here with one counter per bucket).
-- Every sample (smp_valid, smp_value 64 bits) adds one to the counter of the
-- bucket it falls in:
--   boundaries b(1) < b(2) < ... < b(N-1), N = buckets_g;
--   bucket 0 = [0, b(1)), bucket k = [b(k), b(k+1)), bucket N-1 = [b(N-1), 2^64)
--   pow2_g true : b(k) = 2^(k-1), so bucket 0 = {0}, bucket 1 = {1},
--                 bucket k = [2^(k-1), 2^k), the last = [2^(N-2), 2^64)
--   pow2_g false: b(k) = bounds_g(k-1) (strictly increasing, 1..2^31-1)
-- A bucket counter saturates at 2^width_g - 1 (wrap_g: wraps modulo
-- 2^width_g); either way the sample sets the sticky overflow. Counters are
-- registered: a sample of cycle n shows in cycle n+1. clear (wins over a
-- sample of the same cycle) and rst zero every counter and the flags at
-- once. caught (sticky): a sample arrived since the last clear.
-- result: bucket k is bits (k+1)*width_g-1 downto k*width_g (the LMIC reads
-- the buckets as one group of results and snapshots them together, see
-- jointer_collect_lmic dcapf_group_g).
--   buckets_g : number of buckets N (2..64)
--   width_g   : bits per bucket counter (1..64)
--   pow2_g    : power-of-two boundaries (true) or the listed bounds_g
--   bounds_g  : listed boundaries b(1)..b(N-1) (unused with pow2_g)
--   wrap_g    : wrap instead of saturating

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_dcapf_histogram is
  generic (
    buckets_g : positive       := 8;
    width_g   : positive       := 32;
    pow2_g    : boolean        := true;
    bounds_g  : integer_vector := (0 => 1);
    wrap_g    : boolean        := false);
  port (
    clk       : in  std_logic;
    rst       : in  std_logic;
    smp_valid : in  std_logic;
    smp_value : in  std_logic_vector(max_result_w_c - 1 downto 0);
    clear     : in  std_logic;
    result    : out std_logic_vector(buckets_g * width_g - 1 downto 0);
    overflow  : out std_logic;
    caught    : out std_logic);
end entity jointer_dcapf_histogram;

architecture rtl of jointer_dcapf_histogram is
  constant n_c : positive := buckets_g;

  -- listed boundaries: strictly increasing, positive
  function bounds_ok return boolean is
  begin
    if pow2_g then
      return true;
    end if;
    if bounds_g'length < n_c - 1 then
      return false;
    end if;
    for k in 0 to n_c - 2 loop
      if elem(bounds_g, bounds_g'low + k, 0) < 1 then
        return false;
      end if;
      if k > 0 and elem(bounds_g, bounds_g'low + k, 0) <= elem(bounds_g, bounds_g'low + k - 1, 0) then
        return false;
      end if;
    end loop;
    return true;
  end function;

  -- '1' when v >= b(k), k = 1..N-1
  function at_least(v : std_logic_vector(max_result_w_c - 1 downto 0); k : positive) return std_logic is
    variable r : std_logic := '0';
  begin
    if pow2_g then
      for i in k - 1 to max_result_w_c - 1 loop   -- v >= 2^(k-1)
        r := r or v(i);
      end loop;
      return r;
    end if;
    return to_sl(unsigned(v) >= to_unsigned(elem(bounds_g, bounds_g'low + k - 1, 0), max_result_w_c));
  end function;

  signal ge       : std_logic_vector(n_c downto 0);   -- ge(k): value >= b(k); ge(0) = 1, ge(N) = 0
  signal hit      : std_logic_vector(n_c - 1 downto 0);
  signal full     : std_logic_vector(n_c - 1 downto 0);
  signal ovf_r    : std_logic;
  signal caught_r : std_logic;
  type cnt_arr_t is array (0 to n_c - 1) of unsigned(width_g - 1 downto 0);
  signal cnt      : cnt_arr_t;
begin

  assert buckets_g >= 2 and buckets_g <= 64
    report "jointer_dcapf_histogram: buckets_g must be 2..64" severity failure;
  assert width_g <= max_result_w_c
    report "jointer_dcapf_histogram: width_g must be 1..64" severity failure;
  assert bounds_ok
    report "jointer_dcapf_histogram: bounds_g needs buckets_g - 1 strictly increasing positive items"
    severity failure;

  ge(0)   <= '1';
  ge(n_c) <= '0';
  g_ge : for k in 1 to n_c - 1 generate
    ge(k) <= at_least(smp_value, k);
  end generate;

  g_bucket : for k in 0 to n_c - 1 generate
    hit(k)  <= smp_valid and ge(k) and not ge(k + 1);
    full(k) <= to_sl(cnt(k) = ones(width_g));
    result((k + 1) * width_g - 1 downto k * width_g) <= std_logic_vector(cnt(k));

    process (clk)
    begin
      if rising_edge(clk) then
        if hit(k) = '1' and (full(k) = '0' or wrap_g) then
          cnt(k) <= cnt(k) + 1;
        end if;
        if clear = '1' or rst = '1' then
          cnt(k) <= (others => '0');
        end if;
      end if;
    end process;
  end generate;

  process (clk)
  begin
    if rising_edge(clk) then
      if (hit and full) /= (hit'range => '0') then
        ovf_r <= '1';
      end if;
      if smp_valid = '1' then
        caught_r <= '1';
      end if;
      if clear = '1' or rst = '1' then
        ovf_r    <= '0';
        caught_r <= '0';
      end if;
    end if;
  end process;

  overflow <= ovf_r;
  caught   <= caught_r;

end architecture rtl;
