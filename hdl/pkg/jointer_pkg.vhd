-- SPDX-License-Identifier: MIT
-- jointer_pkg: constants, encodings and helper functions shared by every
-- jointer entity (doc/design.md).
--
-- Event instance (paper fig. 6d): data (data_w_c bits), increment (inc_w_c
-- bits), good (one-cycle strobe). PROG encodings (paper section 3.1.1) and the
-- enumerations used as natural generics (extractor, aggregator, sample).
--
-- Naming: generics *_g, constants *_c, types *_t, ports <interface>_<signal>.

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

package jointer_pkg is

  ---------------------------------------------------------------------------
  -- Identification (global block)
  ---------------------------------------------------------------------------
  constant id_c      : std_logic_vector(31 downto 0) := x"4A4E5452";  -- "JNTR"
  constant version_c : std_logic_vector(31 downto 0) := x"00020000";  -- 2.0.0: optional global registers (INFO[19:17]), two-phase register port
  -- the contents of a read-only memory, one 32-bit word per element (the
  -- descriptor ROM of the global block: jointer_collect_desc_rom)
  type word_array_t is array (natural range <>) of std_logic_vector(31 downto 0);

  ---------------------------------------------------------------------------
  -- Event instance
  ---------------------------------------------------------------------------
  constant data_w_c : positive := 32;  -- EVENT DATA width (the ports' default)
  constant max_data_w_c : positive := 64;  -- the widest event data (an address of 33..64 bits)
  constant inc_w_c  : positive := 16;  -- EVENT INCREMENT width
  constant max_result_w_c : positive := 64;  -- widest DCAPF result

  ---------------------------------------------------------------------------
  -- PROG: two bits per sniffer in its LMIC's CONTROL register
  ---------------------------------------------------------------------------
  constant prog_idle_c         : std_logic_vector(1 downto 0) := "00";
  constant prog_init_c         : std_logic_vector(1 downto 0) := "01";
  constant prog_filtering_c    : std_logic_vector(1 downto 0) := "10";
  constant prog_no_filtering_c : std_logic_vector(1 downto 0) := "11";

  constant max_sniffers_c : positive := 15;  -- per LMIC (32-bit CONTROL)

  ---------------------------------------------------------------------------
  -- Enumerations passed as natural generics (tool-friendly across GHDL,
  -- Vivado and the Verilog that ghdl synth writes)
  ---------------------------------------------------------------------------
  -- DCAPF extractor
  constant extractor_event_c : natural := 0;  -- adds the sample of each good event
  constant extractor_time_c  : natural := 1;  -- counts cycles while data in range
  -- DCAPF aggregator
  constant aggregator_sum_c  : natural := 0;
  constant aggregator_max_c  : natural := 1;
  constant aggregator_min_c  : natural := 2;
  constant aggregator_last_c : natural := 3;
  constant aggregator_histogram_c : natural := 4;  -- jointer_dcapf_histogram
  constant aggregator_mean_c      : natural := 5;  -- sum and count, one snapshot
  -- DCAPF filter: where the range filter is and what it costs
  constant filter_none_c    : natural := 0;  -- no filter: FILTERING acts as NO_FILTERING
  constant filter_runtime_c : natural := 1;  -- INIT bounds + comparator in the DCAPF
  constant filter_const_c   : natural := 2;  -- constant bounds (the reset values), no registers
  constant filter_capture_c : natural := 3;  -- INIT bounds here, compared by the interfacer
  constant filter_capture_const_c : natural := 4;  -- constant bounds, compared by the interfacer
  -- sample taken by an event extractor
  constant sample_increment_c : natural := 0;
  constant sample_data_c      : natural := 1;
  -- emitter increment
  constant increment_one_c   : natural := 0;  -- every event weighs 1
  constant increment_bytes_c : natural := 1;  -- the interfacer's byte count
  -- AXI direction
  constant dir_write_c : natural := 0;
  constant dir_read_c  : natural := 1;
  -- AXI4-Stream count
  constant axis_beats_c   : natural := 0;  -- one event per beat, bytes = TKEEP popcount
  constant axis_packets_c : natural := 1;  -- one event per TLAST beat, bytes = packet bytes
  -- start/done interfacer
  constant start_done_pulses_c : natural := 0;  -- start and done pulses
  constant start_done_busy_c   : natural := 1;  -- a busy level
  -- trace buffer
  constant trace_stop_c : natural := 0;  -- stop when full (keeps the first records)
  constant trace_ring_c : natural := 1;  -- overwrite the oldest record
  constant trace_relay_c : natural := 2;  -- a ring the host drains (read pointer, lost counter)
  constant trace_sink_c : natural := 3;  -- no RAM: a record stream to jointer_trace_sink_axi
  -- AXI4 latency interfacer: where a transaction ends
  constant latency_end_last_c : natural := 0;  -- RLAST / WLAST beat
  constant latency_end_resp_c : natural := 1;  -- B handshake (writes)

  ---------------------------------------------------------------------------
  -- Helpers
  ---------------------------------------------------------------------------
  -- ceil(log2(n)), with clog2(1) = 0
  function clog2(n : positive) return natural;
  -- number of '1' bits, clog2(v'length + 1) wide, as an adder tree (a linear
  -- chain costs ~10x the LUTs for 128 strobes)
  function popcount(v : std_logic_vector) return unsigned;
  -- all-ones of a width (saturation value)
  function ones(w : natural) return unsigned;
  -- boolean to std_logic
  function to_sl(b : boolean) return std_logic;
  -- '1' when the word address a equals the generic offset w (the LMIC's
  -- register decoders); -1 or an offset beyond a's range never matches
  function word_at(a : std_logic_vector; w : integer) return std_logic;
  -- element i of an integer_vector, or dflt when i is out of range (lets a
  -- generic vector be shorter than its count when the count is zero)
  function elem(v : integer_vector; i : natural; dflt : integer) return integer;
  -- sum of elem(v, i, dflt) for i in 0..n-1 (result slots of the
  -- first n DCAPFs of an LMIC, a histogram taking one slot per bucket)
  function sum_items(v : integer_vector; n : natural; dflt : integer) return integer;
  -- the words of an LMIC window its results block maps (RESULT words, one
  -- per bucket word, and THRESHOLD words) for n DCAPFs with these generics
  -- (jointer_collect_lmic); above lmic_pipelined_min_c the LMIC pipelines its
  -- register port: the results block registers its read in the read's first
  -- cycle and the write decodes are registered a cycle ahead of the commit;
  -- a smaller window answers and decodes combinationally (no flip-flops
  -- where the logic is shallow)
  constant lmic_pipelined_min_c : positive := 8;
  function lmic_result_words(n : natural; width_v, result_word_v, threshold_word_v,
                             buckets_v : integer_vector) return natural;

end package jointer_pkg;

package body jointer_pkg is

  function clog2(n : positive) return natural is
    variable r : natural := 0;
    variable p : positive := 1;
  begin
    while p < n loop
      p := p * 2;
      r := r + 1;
    end loop;
    return r;
  end function;

  function add_logic(a, b : unsigned) return unsigned is
    alias aa : unsigned(a'length - 1 downto 0) is a;
    alias bb : unsigned(a'length - 1 downto 0) is b;
    variable r : unsigned(a'length - 1 downto 0);
    variable c : std_logic := '0';
  begin
    for i in 0 to a'length - 1 loop
      r(i) := aa(i) xor bb(i) xor c;
      c    := (aa(i) and bb(i)) or (aa(i) and c) or (bb(i) and c);
    end loop;
    return r;
  end function;

  function popcount(v : std_logic_vector) return unsigned is
    constant n : positive := v'length;
    constant w : positive := clog2(n + 1);
    alias x : std_logic_vector(n - 1 downto 0) is v;
  begin
    if n = 1 then
      return unsigned(x);
    elsif n = 2 then
      return unsigned'((x(1) and x(0)) & (x(1) xor x(0)));
    elsif n = 3 then
      return unsigned'(((x(2) and x(1)) or (x(2) and x(0)) or (x(1) and x(0)))
                       & (x(2) xor x(1) xor x(0)));
    elsif w <= 4 then
      return add_logic(resize(popcount(x(n - 1 downto n / 2)), w),
                       resize(popcount(x(n / 2 - 1 downto 0)), w));
    end if;
    return resize(popcount(x(n - 1 downto n / 2)), w) + resize(popcount(x(n / 2 - 1 downto 0)), w);
  end function;

  function ones(w : natural) return unsigned is
    constant r : unsigned(w - 1 downto 0) := (others => '1');
  begin
    return r;
  end function;

  function to_sl(b : boolean) return std_logic is
  begin
    if b then
      return '1';
    end if;
    return '0';
  end function;

  function word_at(a : std_logic_vector; w : integer) return std_logic is
  begin
    if w < 0 or w >= 2 ** a'length then
      return '0';
    end if;
    return to_sl(unsigned(a) = w);
  end function;

  function elem(v : integer_vector; i : natural; dflt : integer) return integer is
  begin
    if i >= v'low and i <= v'high then
      return v(i);
    end if;
    return dflt;
  end function;

  function sum_items(v : integer_vector; n : natural; dflt : integer) return integer is
    variable r : integer := 0;
  begin
    for i in 0 to n - 1 loop
      r := r + elem(v, i, dflt);
    end loop;
    return r;
  end function;

  function lmic_result_words(n : natural; width_v, result_word_v, threshold_word_v,
                             buckets_v : integer_vector) return natural is
    variable r, w : natural := 0;
  begin
    for d in 0 to n - 1 loop
      w := (maximum(1, minimum(64, elem(width_v, d, 1))) + 31) / 32;
      if elem(result_word_v, d, -1) >= 0 then
        r := r + w * maximum(1, elem(buckets_v, d, 1));
      end if;
      if elem(threshold_word_v, d, -1) >= 0 then
        r := r + w;
      end if;
    end loop;
    return r;
  end function;

end package body jointer_pkg;
