-- SPDX-License-Identifier: MIT
-- jointer_eig_emitter: turns candidates into event instances (paper fig. 6d):
-- ev_good(i) = cand_valid(i) and every cond bit, ev_data = cand_data,
-- ev_inc = 1 or cand_bytes, ev_in_range = cand_in_range (the in-range bits
-- of the DCAPF filters an interfacer evaluated where it captured the data)
-- or, with compare_g, the emitter's own comparison of cand_data.
-- Registered (one cycle) by default; an interfacer whose candidates come
-- straight from registers needs no second stage (registered_g false: the
-- outputs are combinational, and no flip-flop is spent). Paper block: EIG
-- emitter.
--   lanes_g      : number of lanes (1..32)
--   num_cond_g   : number of condition-checker outputs ANDed in (0..8; with 0
--                  the cond port is one ignored bit)
--   increment_g  : increment_one_c (every event weighs 1) or
--                  increment_bytes_c (the interfacer's byte count)
--   registered_g : register the event instance (default true)
--   ranges_g     : in-range bits carried along (0..8; with 0 one ignored bit)
--   compare_g    : the emitter evaluates the in-range bits itself (registered_g
--                  only): bit k = rng_low(k) <= cand_data <= rng_high(k)
--                  (jointer_dcapf_filter, data_w_g bits), in parallel with the
--                  condition checkers, and registers it with the instance;
--                  cand_in_range is then ignored. The DCAPFs see the
--                  comparison of the same data as before, one register stage
--                  earlier, so their filter leaves their counters' enable path
--   ev_w_g       : width of cand_data, ev_data and each rng_low/rng_high
--                  bound: 32, or 64 for event data of 33..64 bits
--   data_w_g     : bits of cand_data that can be non-zero (compare_g;
--                  1..ev_w_g)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.jointer_pkg.all;

entity jointer_eig_emitter is
  generic (
    lanes_g      : positive := 1;
    num_cond_g   : natural  := 0;
    increment_g  : natural  := increment_one_c;
    registered_g : boolean  := true;
    ranges_g     : natural  := 0;
    compare_g    : boolean  := false;
    ev_w_g       : positive := data_w_c;
    data_w_g     : positive := data_w_c);
  port (
    clk           : in  std_logic;
    rst           : in  std_logic;
    cand_valid    : in  std_logic_vector(lanes_g - 1 downto 0);
    cand_data     : in  std_logic_vector(ev_w_g - 1 downto 0);
    cand_bytes    : in  std_logic_vector(inc_w_c - 1 downto 0);
    cand_in_range : in  std_logic_vector(maximum(ranges_g, 1) - 1 downto 0) := (others => '1');
    rng_low       : in  std_logic_vector(ev_w_g * maximum(ranges_g, 1) - 1 downto 0) := (others => '0');
    rng_high      : in  std_logic_vector(ev_w_g * maximum(ranges_g, 1) - 1 downto 0) := (others => '1');
    cond          : in  std_logic_vector(maximum(num_cond_g, 1) - 1 downto 0);
    ev_good       : out std_logic_vector(lanes_g - 1 downto 0);
    ev_data       : out std_logic_vector(ev_w_g - 1 downto 0);
    ev_inc        : out std_logic_vector(inc_w_c - 1 downto 0);
    ev_in_range   : out std_logic_vector(maximum(ranges_g, 1) - 1 downto 0));
end entity jointer_eig_emitter;

architecture rtl of jointer_eig_emitter is
  signal all_cond : std_logic;
  signal good     : std_logic_vector(lanes_g - 1 downto 0);
  signal inc      : std_logic_vector(inc_w_c - 1 downto 0);
  signal in_range : std_logic_vector(maximum(ranges_g, 1) - 1 downto 0);
begin

  assert lanes_g <= 32
    report "jointer_eig_emitter: lanes_g must be 1..32" severity failure;
  assert num_cond_g <= 8 and ranges_g <= 8
    report "jointer_eig_emitter: num_cond_g and ranges_g must be 0..8" severity failure;
  assert increment_g = increment_one_c or increment_g = increment_bytes_c
    report "jointer_eig_emitter: increment_g must be increment_one_c or increment_bytes_c"
    severity failure;
  assert not compare_g or (registered_g and ranges_g > 0 and data_w_g <= ev_w_g)
    report "jointer_eig_emitter: compare_g needs registered_g, ranges_g 1..8 and data_w_g 1..ev_w_g"
    severity failure;
  assert ev_w_g <= max_data_w_c
    report "jointer_eig_emitter: ev_w_g must be 1..64" severity failure;

  all_cond <= '1' when num_cond_g = 0 else and cond;
  good     <= cand_valid and (cand_valid'range => all_cond);
  inc      <= cand_bytes when increment_g = increment_bytes_c
              else std_logic_vector(to_unsigned(1, inc_w_c));

  g_compare : if compare_g generate
    g_k : for k in 0 to ranges_g - 1 generate
      u_filter : entity work.jointer_dcapf_filter
        generic map (ev_w_g => ev_w_g, width_g => data_w_g)
        port map (data => cand_data, low => rng_low(ev_w_g * (k + 1) - 1 downto ev_w_g * k),
                  high => rng_high(ev_w_g * (k + 1) - 1 downto ev_w_g * k), in_range => in_range(k));
    end generate;
  end generate;
  g_carry : if not compare_g generate
    in_range <= cand_in_range;
  end generate;

  g_reg : if registered_g generate
    process (clk)
    begin
      if rising_edge(clk) then
        ev_good     <= good;
        ev_data     <= cand_data;
        ev_inc      <= inc;
        ev_in_range <= in_range;
        if rst = '1' then
          ev_good <= (others => '0');
        end if;
      end if;
    end process;
  end generate;

  g_comb : if not registered_g generate
    ev_good     <= good;
    ev_data     <= cand_data;
    ev_inc      <= inc;
    ev_in_range <= cand_in_range;
  end generate;

end architecture rtl;
