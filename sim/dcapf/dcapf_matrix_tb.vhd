-- SPDX-License-Identifier: MIT
-- Test bench for jointer_dcapf: one DCAPF per configuration, all fed with the
-- same control and event inputs; DCAPF k has index_g = k, so INIT loads pick
-- one of them. Configuration k = item k of the integer_vector generics
-- (written by test_jointer_dcapf.py); bounds -1 mean all ones; filters_g =
-- filter_g (jointer_pkg: 0 none, 1 run time, 2 constant, 3 capture, 4
-- capture with constant bounds); data_ws_g / inc_ws_g = data_w_g / inc_w_g:
-- the bench zeroes the event data and increment bits above them, as an
-- interfacer of that width would (the DCAPF's contract). ev_in_range(k) is
-- DCAPF k's in-range bit for the capture modes. Results packed 64 bits per
-- DCAPF (zero-padded), bounds 32 bits per DCAPF.

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity dcapf_matrix_tb is
  generic (
    width_g       : positive := 32;
    extractors_g  : integer_vector := (0, 1);
    aggregators_g : integer_vector := (0, 0);
    samples_g     : integer_vector := (0, 0);
    wraps_g       : integer_vector := (0, 0);
    lows_g        : integer_vector := (0, 0);
    highs_g       : integer_vector := (-1, -1);
    filters_g     : integer_vector := (1, 1);
    data_ws_g     : integer_vector := (32, 32);
    inc_ws_g      : integer_vector := (16, 16);
    split_g       : natural := 0;       -- the fast variants, for every DCAPF
    smp_reg_g     : boolean := false);
  port (
    clk         : in  std_logic;
    rst         : in  std_logic;
    run_en      : in  std_logic;
    use_filter  : in  std_logic;
    clear       : in  std_logic;
    init_we     : in  std_logic;
    init_sel    : in  std_logic_vector(7 downto 0);
    init_hi     : in  std_logic;
    init_data   : in  std_logic_vector(31 downto 0);
    ev_good     : in  std_logic;
    ev_data     : in  std_logic_vector(31 downto 0);
    ev_inc      : in  std_logic_vector(15 downto 0);
    ev_in_range : in  std_logic_vector(extractors_g'length - 1 downto 0);
    result      : out std_logic_vector(64 * extractors_g'length - 1 downto 0);
    overflow    : out std_logic_vector(extractors_g'length - 1 downto 0);
    caught      : out std_logic_vector(extractors_g'length - 1 downto 0);
    lows        : out std_logic_vector(32 * extractors_g'length - 1 downto 0);
    highs       : out std_logic_vector(32 * extractors_g'length - 1 downto 0));
end entity dcapf_matrix_tb;

architecture tb of dcapf_matrix_tb is
  function bound(v : integer) return std_logic_vector is
  begin
    if v < 0 then
      return x"FFFFFFFF";
    end if;
    return std_logic_vector(to_unsigned(v, 32));
  end function;
  function low_mask(n, w : natural) return std_logic_vector is
    variable m : std_logic_vector(w - 1 downto 0) := (others => '0');
  begin
    m(minimum(n, w) - 1 downto 0) := (others => '1');
    return m;
  end function;
begin

  g_dcapf : for k in 0 to extractors_g'length - 1 generate
    constant dw_c : positive := data_ws_g(data_ws_g'low + k);
    constant iw_c : positive := inc_ws_g(inc_ws_g'low + k);
    signal res : std_logic_vector(width_g - 1 downto 0);
  begin
    u_dcapf : entity work.jointer_dcapf
      generic map (
        index_g      => k,
        extractor_g  => extractors_g(extractors_g'low + k),
        aggregator_g => aggregators_g(aggregators_g'low + k),
        sample_g     => samples_g(samples_g'low + k),
        width_g      => width_g,
        wrap_g       => wraps_g(wraps_g'low + k) /= 0,
        filter_g     => filters_g(filters_g'low + k),
        low_reset_g  => bound(lows_g(lows_g'low + k)),
        high_reset_g => bound(highs_g(highs_g'low + k)),
        data_w_g     => dw_c,
        inc_w_g      => iw_c,
        split_g      => split_g,
        smp_reg_g    => smp_reg_g)
      port map (
        clk => clk, rst => rst, run_en => run_en, use_filter => use_filter, clear => clear,
        init_we => init_we, init_sel => init_sel, init_hi => init_hi, init_data => init_data,
        ev_good => ev_good, ev_data => ev_data and low_mask(dw_c, 32),
        ev_inc => ev_inc and low_mask(iw_c, 16), ev_in_range => ev_in_range(k),
        low => lows(32 * k + 31 downto 32 * k), high => highs(32 * k + 31 downto 32 * k),
        result => res, overflow => overflow(k), caught => caught(k));
    result(64 * k + 63 downto 64 * k) <= std_logic_vector(resize(unsigned(res), 64));
  end generate;

end architecture tb;
