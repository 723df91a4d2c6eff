-- jointer_collect_lmic: Local Monitoring Information Collector (paper fig. 5
-- and 6a/6b, section 3.1.1): the register file of one local area, on the
-- area's clock. It drives the sniffers' control lines (PROG, RUN,
-- SOFT_RESET, INIT), collects the DCAPF results, trace status and trace RAM,
-- and raises the area's interrupt (threshold crossings, trace watermark and
-- full). Register map: doc/internals.md section 3 (offsets come from the
-- generator's layout, passed as generics).
--   word 0 CONTROL (rw): bit 0 RUN, bit 1 SOFT_RESET (write-1 pulse, reads 0),
--          bits 2+2i..3+2i PROG of sniffer i
--   word 1 STATUS (ro): bit i VALID (a result DCAPF of sniffer i caught
--          since the last clear), bit 16+i OVERFLOW (a result DCAPF of sniffer
--          i overflowed); traces report in their own STATUS register
--   word 2 IRQ_STATUS (w1c), word 3 IRQ_ENABLE (rw), word 4+i INIT[i] (wo)
--   RESULT words (ro): reading the least significant word of a two-word
--          result snapshots its upper word; the upper word reads the snapshot.
--          A histogram DCAPF (dcapf_buckets_g N > 1) has N buckets of
--          ceil(width/32) words each, bucket 0 first: reading its first word
--          snapshots every other word of all N buckets, which then read the
--          snapshot (one consistent histogram, whatever the sample rate)
--   THRESHOLD words (rw): a lower-word write is staged, the most significant
--          word's write commits the whole value; reads return the committed
--          value; reset all ones (the staged word: 0). IRQ source on the
--          rising edge of result >= threshold.
--   TRACE (per trace): +0 WPTR, +1 FILL, +2 STATUS (bit 0 FULL, bit 1
--          OVERFLOW), +3 WATERMARK (rw, holds log2(depth)+1 bits, 0 = off;
--          IRQ source when FILL rises to >= WATERMARK; bit + 1 on the rising
--          edge of FULL), +4 DEPTH (records); a relay trace (trace_relay_g
--          item 1) also has +5 RPTR (ro, slot of the oldest unread record),
--          +6 ACK (wo, reads 0: a write of N releases min(N, FILL) records;
--          tr_ack pulses for one cycle with tr_ack_n = N) and +7 LOST (ro,
--          records dropped because the buffer was full); then the RAM
--          window (ro).
-- Register port: every request is answered one cycle after rp_req (rp_rdata
-- includes the trace RAM word, read with one cycle of latency, through an
-- AND-OR mux of registers). The request pipeline is not reset, so an LMIC
-- held in reset still answers (the DCI never hangs on it). sn_init_data is
-- rp_wdata, used in the acknowledge cycle: the rp master (DCI, CDC bridge)
-- holds it from the request through that cycle.
-- Unmapped words read 0 (SLVERR when strict_g); read-only writes are ignored.
-- Ports per DCAPF / trace are sized for maximum(count, 1) items: with a count
-- of 0 they carry one dummy item (tie it to '0'), because GHDL 2.0.0 writes
-- null vectors as Verilog that yosys/Verilator reject.
-- Generics (integer_vector items in DCAPF / trace order; a vector may hold
-- one dummy item when its count is 0):
--   addr_w_g                word-address bits of the LMIC window
--   strict_g                SLVERR on unmapped words
--   num_sniffers_g          1..15
--   num_dcapfs_g            result DCAPFs (0..)
--   num_traces_g            trace DCAPFs (0..)
--   dcapf_sniffer_g         owning sniffer of each DCAPF
--   dcapf_width_g           result width (1..64)
--   dcapf_result_word_g     word offset of the least significant result word
--   dcapf_threshold_word_g  word offset of the threshold (-1: none)
--   dcapf_irq_bit_g         IRQ source bit of the threshold (-1: none)
--   dcapf_buckets_g         result slots of each DCAPF (1; a histogram: its
--                           buckets, 2..64, no threshold); default: all 1.
--                           dc_result carries 64 bits per slot, slots in
--                           DCAPF order
--   trace_sniffer_g         owning sniffer of each trace
--   trace_reg_word_g        word offset of the 5 trace registers
--   trace_ram_word_g        first word of the RAM window (aligned to its size)
--   trace_depth_log2_g      log2 of the depth in records (1..16)
--   trace_irq_bit_g         watermark IRQ bit (full = bit + 1)
--   trace_relay_g           1: relay trace (8 registers: + RPTR, ACK, LOST), else 0
--   num_irq_g               IRQ source bits (0..32)

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity jointer_collect_lmic is
  generic (
    addr_w_g               : positive := 6;
    strict_g               : boolean := false;
    num_sniffers_g         : positive := 2;
    num_dcapfs_g           : natural := 3;
    num_traces_g           : natural := 1;
    dcapf_sniffer_g        : integer_vector := (0, 0, 1);
    dcapf_width_g          : integer_vector := (10, 53, 32);
    dcapf_result_word_g    : integer_vector := (6, 7, 9);
    dcapf_threshold_word_g : integer_vector := (-1, 10, -1);
    dcapf_irq_bit_g        : integer_vector := (-1, 0, -1);
    dcapf_buckets_g        : integer_vector := (0 => 1);
    trace_sniffer_g        : integer_vector := (0 => 1);
    trace_reg_word_g       : integer_vector := (0 => 12);
    trace_ram_word_g       : integer_vector := (0 => 32);
    trace_depth_log2_g     : integer_vector := (0 => 4);
    trace_irq_bit_g        : integer_vector := (0 => 1);
    trace_relay_g          : integer_vector := (0 => 0);
    num_irq_g              : natural := 3);
  port (
    clk           : in  std_logic;
    rst           : in  std_logic;
    -- register port
    rp_req        : in  std_logic;
    rp_we         : in  std_logic;
    rp_addr       : in  std_logic_vector(addr_w_g - 1 downto 0);
    rp_wdata      : in  std_logic_vector(31 downto 0);
    rp_ack        : out std_logic;
    rp_rdata      : out std_logic_vector(31 downto 0);
    rp_err        : out std_logic;
    -- to the sniffers' dispensers
    sn_prog       : out std_logic_vector(2 * num_sniffers_g - 1 downto 0);
    sn_run        : out std_logic;
    sn_soft_reset : out std_logic;
    sn_ctrl_we    : out std_logic;
    sn_init_we    : out std_logic_vector(num_sniffers_g - 1 downto 0);
    sn_init_data  : out std_logic_vector(31 downto 0);
    -- from the result DCAPFs
    dc_result     : in  std_logic_vector(64 * maximum(sum_items(dcapf_buckets_g, num_dcapfs_g, 1), 1) - 1
                                         downto 0);
    dc_overflow   : in  std_logic_vector(maximum(num_dcapfs_g, 1) - 1 downto 0);
    dc_caught     : in  std_logic_vector(maximum(num_dcapfs_g, 1) - 1 downto 0);
    -- trace extractors
    tr_wptr       : in  std_logic_vector(32 * maximum(num_traces_g, 1) - 1 downto 0);
    tr_fill       : in  std_logic_vector(32 * maximum(num_traces_g, 1) - 1 downto 0);
    tr_full       : in  std_logic_vector(maximum(num_traces_g, 1) - 1 downto 0);
    tr_overflow   : in  std_logic_vector(maximum(num_traces_g, 1) - 1 downto 0);
    tr_rd_addr    : out std_logic_vector(31 downto 0);
    tr_rd_data    : in  std_logic_vector(32 * maximum(num_traces_g, 1) - 1 downto 0);
    -- relay traces (trace_relay_g item 1): release pulse + count, read pointer, lost records
    tr_ack        : out std_logic_vector(maximum(num_traces_g, 1) - 1 downto 0);
    tr_ack_n      : out std_logic_vector(31 downto 0);
    tr_rptr       : in  std_logic_vector(32 * maximum(num_traces_g, 1) - 1 downto 0) := (others => '0');
    tr_lost       : in  std_logic_vector(32 * maximum(num_traces_g, 1) - 1 downto 0) := (others => '0');
    -- interrupt (level)
    irq           : out std_logic);
end entity jointer_collect_lmic;

architecture rtl of jointer_collect_lmic is
  constant s_c  : positive := num_sniffers_g;
  constant d_c  : natural  := num_dcapfs_g;
  constant t_c  : natural  := num_traces_g;
  constant dn_c : positive := maximum(d_c, 1);
  constant tn_c : positive := maximum(t_c, 1);
  constant in_c : positive := maximum(num_irq_g, 1);
  constant words_c : positive := 2 ** addr_w_g;

  type w32_arr_t is array (natural range <>) of std_logic_vector(31 downto 0);
  type int_arr_t is array (natural range <>) of integer;

  -- generics as functions with safe values for the dummy items
  function width_of(d : natural) return positive is
  begin
    return maximum(1, minimum(64, elem(dcapf_width_g, d, 1)));
  end function;
  function words_of(d : natural) return positive is
  begin
    return (width_of(d) + 31) / 32;
  end function;
  function buckets_of(d : natural) return positive is
  begin
    return maximum(1, elem(dcapf_buckets_g, d, 1));
  end function;
  function slot_of(d : natural) return natural is   -- first 64-bit slot in dc_result
    variable r : natural := 0;
  begin
    for e in 0 to d - 1 loop
      r := r + buckets_of(e);
    end loop;
    return r;
  end function;
  function mask_of(d : natural) return std_logic_vector is
    variable m : std_logic_vector(63 downto 0) := (others => '0');
  begin
    m(width_of(d) - 1 downto 0) := (others => '1');
    return m;
  end function;
  function dl_of(t : natural) return positive is
  begin
    return maximum(1, minimum(16, elem(trace_depth_log2_g, t, 1)));
  end function;

  -- sniffer owning each IRQ source bit (-1: none)
  function irq_owner_f return int_arr_t is
    variable r : int_arr_t(0 to in_c - 1) := (others => -1);
    variable b : integer;
  begin
    for d in 0 to d_c - 1 loop
      b := elem(dcapf_irq_bit_g, d, -1);
      if b >= 0 and b < in_c then
        r(b) := elem(dcapf_sniffer_g, d, 0);
      end if;
    end loop;
    for t in 0 to t_c - 1 loop
      b := elem(trace_irq_bit_g, t, -1);
      if b >= 0 and b + 1 < in_c then
        r(b)     := elem(trace_sniffer_g, t, 0);
        r(b + 1) := elem(trace_sniffer_g, t, 0);
      end if;
    end loop;
    return r;
  end function;
  constant irq_owner_c : int_arr_t(0 to in_c - 1) := irq_owner_f;

  -- word-address match against a generic offset (-1 never matches)
  function at(a : std_logic_vector; w : integer) return std_logic is
  begin
    if w < 0 or w >= words_c then
      return '0';
    end if;
    return to_sl(unsigned(a) = w);
  end function;
  -- word address inside the aligned window of 2**size_log2 words at base
  function in_window(a : std_logic_vector; base, size_log2 : natural) return std_logic is
    constant m : unsigned(a'length - 1 downto 0) := to_unsigned(2 ** size_log2 - 1, a'length);
  begin
    return to_sl((unsigned(a) and not m) = base);
  end function;

  signal rd, wr      : std_logic;  -- the request of this cycle
  -- control
  signal run_r       : std_logic;
  signal prog_r      : std_logic_vector(2 * s_c - 1 downto 0);
  signal soft_r      : std_logic;
  signal ctrl_we_r   : std_logic;
  signal init_we_r   : std_logic_vector(s_c - 1 downto 0);
  -- interrupts
  signal irq_en_r    : std_logic_vector(in_c - 1 downto 0);
  signal irq_set     : std_logic_vector(in_c - 1 downto 0);
  signal irq_clr     : std_logic_vector(in_c - 1 downto 0);
  signal irq_clr_we  : std_logic;
  signal irq_status  : std_logic_vector(in_c - 1 downto 0);
  signal irq_o       : std_logic;
  signal valid_sn    : std_logic_vector(s_c - 1 downto 0);
  signal ovf_sn      : std_logic_vector(s_c - 1 downto 0);
  -- per result DCAPF / per trace: read contribution, address hit, irq sets
  signal dc_rdata    : w32_arr_t(0 to dn_c - 1);
  signal dc_hit      : std_logic_vector(dn_c - 1 downto 0);
  signal dc_set      : std_logic_vector(dn_c - 1 downto 0);
  signal tr_rdata    : w32_arr_t(0 to tn_c - 1);
  signal tr_hit      : std_logic_vector(tn_c - 1 downto 0);
  signal tr_ram_hit  : std_logic_vector(tn_c - 1 downto 0);
  signal tr_set_wm   : std_logic_vector(tn_c - 1 downto 0);
  signal tr_set_full : std_logic_vector(tn_c - 1 downto 0);
  signal tr_ack_r    : std_logic_vector(tn_c - 1 downto 0);
  -- request pipeline (not reset, see the header)
  signal v1_r        : std_logic := '0';
  signal rdata1_r    : std_logic_vector(31 downto 0);
  signal err1_r      : std_logic;
  signal ramsel1_r   : std_logic_vector(tn_c - 1 downto 0);
begin

  ---------------------------------------------------------------------------
  -- generic checks
  ---------------------------------------------------------------------------
  assert num_sniffers_g <= max_sniffers_c
    report "jointer_collect_lmic: num_sniffers_g must be 1..15 (32-bit CONTROL)" severity failure;
  assert num_irq_g <= 32
    report "jointer_collect_lmic: num_irq_g must be 0..32" severity failure;
  assert addr_w_g <= 30 and 4 + num_sniffers_g <= words_c
    report "jointer_collect_lmic: addr_w_g must be 1..30 and hold the fixed registers"
    severity failure;
  assert d_c = 0 or (dcapf_sniffer_g'length >= d_c and dcapf_width_g'length >= d_c
                     and dcapf_result_word_g'length >= d_c and dcapf_threshold_word_g'length >= d_c
                     and dcapf_irq_bit_g'length >= d_c)
    report "jointer_collect_lmic: a dcapf_*_g vector is shorter than num_dcapfs_g" severity failure;
  assert t_c = 0 or (trace_sniffer_g'length >= t_c and trace_reg_word_g'length >= t_c
                     and trace_ram_word_g'length >= t_c and trace_depth_log2_g'length >= t_c
                     and trace_irq_bit_g'length >= t_c)
    report "jointer_collect_lmic: a trace_*_g vector is shorter than num_traces_g" severity failure;

  rd <= rp_req and not rp_we;
  wr <= rp_req and rp_we;

  ---------------------------------------------------------------------------
  -- result DCAPFs: RESULT words (with the upper-word snapshot), THRESHOLD
  ---------------------------------------------------------------------------
  g_dcapf : for d in 0 to d_c - 1 generate
    constant rw_c : integer := elem(dcapf_result_word_g, d, -1);
    constant tw_c : integer := elem(dcapf_threshold_word_g, d, -1);
    constant nb_c : positive := buckets_of(d);     -- 1, or the buckets of a histogram
    constant one_c : std_logic := to_sl(nb_c = 1);
    signal res     : std_logic_vector(63 downto 0);
    signal m_hit   : std_logic;                    -- histogram words
    signal m_rdata : std_logic_vector(31 downto 0);
    signal hit_lo  : std_logic;
    signal hit_hi  : std_logic;
    signal shadow  : std_logic_vector(31 downto 0);
    signal thr     : std_logic_vector(63 downto 0);
    signal thit_lo : std_logic;
    signal thit_hi : std_logic;
  begin
    assert elem(dcapf_width_g, d, 0) >= 1 and elem(dcapf_width_g, d, 0) <= 64
      report "jointer_collect_lmic: dcapf_width_g items must be 1..64" severity failure;
    assert elem(dcapf_sniffer_g, d, -1) >= 0 and elem(dcapf_sniffer_g, d, -1) < s_c
      report "jointer_collect_lmic: dcapf_sniffer_g item out of 0..num_sniffers_g-1" severity failure;
    assert rw_c >= 4 + s_c and rw_c + nb_c * words_of(d) <= words_c
      report "jointer_collect_lmic: dcapf_result_word_g item outside the window" severity failure;
    assert nb_c = 1 or (nb_c <= 64 and tw_c = -1)
      report "jointer_collect_lmic: dcapf_buckets_g items must be 1..64, and 1 with a threshold"
      severity failure;
    assert tw_c = -1 or (tw_c >= 4 + s_c and tw_c + words_of(d) <= words_c)
      report "jointer_collect_lmic: dcapf_threshold_word_g item outside the window" severity failure;
    assert (tw_c = -1) = (elem(dcapf_irq_bit_g, d, -1) = -1)
      report "jointer_collect_lmic: a threshold needs an IRQ bit and vice versa" severity failure;
    assert elem(dcapf_irq_bit_g, d, -1) < num_irq_g
      report "jointer_collect_lmic: dcapf_irq_bit_g item >= num_irq_g" severity failure;

    res    <= dc_result(64 * slot_of(d) + 63 downto 64 * slot_of(d)) and mask_of(d);
    hit_lo <= at(rp_addr, rw_c) and one_c;

    g_one : if words_of(d) = 1 generate
      hit_hi <= '0';
      shadow <= (others => '0');
    end generate;

    g_two : if words_of(d) = 2 generate
      hit_hi <= at(rp_addr, rw_c + 1) and one_c;
      -- reading the least significant word snapshots the upper word
      process (clk)
      begin
        if rising_edge(clk) then
          if rd = '1' and hit_lo = '1' then
            shadow <= res(63 downto 32);
          end if;
          if rst = '1' then
            shadow <= (others => '0');
          end if;
        end if;
      end process;
    end generate;

    g_no_thr : if tw_c < 0 generate
      thit_lo   <= '0';
      thit_hi   <= '0';
      thr       <= (others => '0');
      dc_set(d) <= '0';
    end generate;

    g_thr : if tw_c >= 0 generate
      signal stage : std_logic_vector(31 downto 0);
      signal ge    : std_logic;
      signal ge_r  : std_logic;
    begin
      thit_lo <= at(rp_addr, tw_c);
      thit_hi <= at(rp_addr, tw_c + 1) when words_of(d) = 2 else '0';
      ge      <= to_sl(unsigned(res) >= unsigned(thr));
      dc_set(d) <= ge and not ge_r;  -- rising edge of result >= threshold

      process (clk)
      begin
        if rising_edge(clk) then
          ge_r <= ge;
          if words_of(d) = 1 then
            if wr = '1' and thit_lo = '1' then
              thr <= (x"00000000" & rp_wdata) and mask_of(d);
            end if;
          else
            if wr = '1' and thit_lo = '1' then
              stage <= rp_wdata;  -- staged until the upper word commits it
            end if;
            if wr = '1' and thit_hi = '1' then
              thr <= (rp_wdata & stage) and mask_of(d);
            end if;
          end if;
          if rst = '1' then
            thr   <= mask_of(d);
            stage <= (others => '0');  -- a lone upper-word write after reset is defined
            ge_r  <= '0';
          end if;
        end if;
      end process;
    end generate;

    g_single : if nb_c = 1 generate
      m_hit   <= '0';
      m_rdata <= (others => '0');
    end generate;

    -- histogram: N buckets x W words; the first word snapshots all the others
    g_multi : if nb_c > 1 generate
      constant wpb_c : positive := words_of(d);
      constant nw_c  : positive := nb_c * wpb_c;
      type words_t is array (0 to 2 ** clog2(nw_c) - 1) of std_logic_vector(31 downto 0);
      signal live    : words_t;                    -- word j of the live buckets
      signal snap  : words_t;                    -- snap(0) unused
      signal off     : unsigned(addr_w_g - 1 downto 0);
      signal first   : std_logic;
      signal word    : std_logic_vector(31 downto 0);
    begin
      g_live : for j in 0 to 2 ** clog2(nw_c) - 1 generate
        g_word : if j < nw_c generate
          constant b_c : natural := slot_of(d) + j / wpb_c;   -- the bucket's slot
          constant p_c : natural := j mod wpb_c;               -- word of the bucket
          constant lo_c : natural := 64 * b_c + 32 * p_c;
          constant m_c : std_logic_vector(63 downto 0) := mask_of(d);
        begin
          live(j) <= dc_result(lo_c + 31 downto lo_c) and m_c(32 * p_c + 31 downto 32 * p_c);
        end generate;
        g_pad : if j >= nw_c generate
          live(j) <= (others => '0');
        end generate;
      end generate g_live;

      off    <= unsigned(rp_addr) - to_unsigned(rw_c, addr_w_g);
      m_hit  <= to_sl(unsigned(rp_addr) >= rw_c and off < nw_c);
      first  <= at(rp_addr, rw_c);
      word   <= live(0) when first = '1' else snap(to_integer(off(clog2(nw_c) - 1 downto 0)));
      m_rdata <= (31 downto 0 => m_hit) and word;

      process (clk)
      begin
        if rising_edge(clk) then
          if rd = '1' and first = '1' then
            snap <= live;
          end if;
          if rst = '1' then
            snap <= (others => (others => '0'));
          end if;
        end if;
      end process;
    end generate;

    dc_hit(d)   <= hit_lo or hit_hi or thit_lo or thit_hi or m_hit;
    dc_rdata(d) <= m_rdata
                or ((31 downto 0 => hit_lo) and res(31 downto 0))
                or ((31 downto 0 => hit_hi) and shadow)
                or ((31 downto 0 => thit_lo) and thr(31 downto 0))
                or ((31 downto 0 => thit_hi) and thr(63 downto 32));
  end generate;

  g_dcapf_none : if d_c = 0 generate
    dc_hit   <= (others => '0');
    dc_rdata <= (others => (others => '0'));
    dc_set   <= (others => '0');
  end generate;

  ---------------------------------------------------------------------------
  -- traces: registers, watermark/full sources, RAM window
  ---------------------------------------------------------------------------
  g_trace : for t in 0 to t_c - 1 generate
    constant rw_c : integer := elem(trace_reg_word_g, t, -1);
    constant dl_c : positive := dl_of(t);
    constant relay_c : boolean := elem(trace_relay_g, t, 0) = 1;
    constant nreg_c  : positive := 5 + 3 * boolean'pos(relay_c);  -- relay: + RPTR, ACK, LOST
    signal fill   : unsigned(31 downto 0);
    signal hit    : std_logic_vector(7 downto 0);
    signal wm     : std_logic_vector(dl_c downto 0);  -- 0..depth
    signal wm_ge  : std_logic;
    signal wm_ge_r, full_r : std_logic;
    signal word2, word3, word4 : std_logic_vector(31 downto 0);
  begin
    assert elem(trace_depth_log2_g, t, 0) >= 1 and elem(trace_depth_log2_g, t, 0) <= 16
      report "jointer_collect_lmic: trace_depth_log2_g items must be 1..16" severity failure;
    assert elem(trace_sniffer_g, t, -1) >= 0 and elem(trace_sniffer_g, t, -1) < s_c
      report "jointer_collect_lmic: trace_sniffer_g item out of 0..num_sniffers_g-1" severity failure;
    assert rw_c >= 4 + s_c and rw_c + nreg_c <= words_c
      report "jointer_collect_lmic: trace_reg_word_g item outside the window" severity failure;
    assert elem(trace_ram_word_g, t, -1) >= 0
           and elem(trace_ram_word_g, t, -1) mod 2 ** (dl_c + 1) = 0
           and elem(trace_ram_word_g, t, -1) + 2 ** (dl_c + 1) <= words_c
      report "jointer_collect_lmic: trace_ram_word_g item unaligned or outside the window"
      severity failure;
    assert elem(trace_irq_bit_g, t, -1) >= 0 and elem(trace_irq_bit_g, t, -1) + 1 < num_irq_g
      report "jointer_collect_lmic: trace_irq_bit_g item (and bit + 1) must be < num_irq_g"
      severity failure;

    fill <= unsigned(tr_fill(32 * t + 31 downto 32 * t));
    g_hit : for k in 0 to 7 generate
      hit(k) <= at(rp_addr, rw_c + k) when k < nreg_c else '0';
    end generate;
    tr_ram_hit(t) <= in_window(rp_addr, elem(trace_ram_word_g, t, 0), dl_c + 1);
    tr_hit(t)     <= (or hit) or tr_ram_hit(t);

    word2 <= (31 downto 2 => '0') & tr_overflow(t) & tr_full(t);
    word3 <= std_logic_vector(resize(unsigned(wm), 32));
    word4 <= std_logic_vector(to_unsigned(2 ** dl_c, 32));
    tr_rdata(t) <= ((31 downto 0 => hit(0)) and tr_wptr(32 * t + 31 downto 32 * t))
                or ((31 downto 0 => hit(1)) and tr_fill(32 * t + 31 downto 32 * t))
                or ((31 downto 0 => hit(2)) and word2)
                or ((31 downto 0 => hit(3)) and word3)
                or ((31 downto 0 => hit(4)) and word4)
                or ((31 downto 0 => hit(5)) and tr_rptr(32 * t + 31 downto 32 * t))
                or ((31 downto 0 => hit(7)) and tr_lost(32 * t + 31 downto 32 * t));

    wm_ge          <= to_sl(unsigned(wm) /= 0 and fill >= unsigned(wm));
    tr_set_wm(t)   <= wm_ge and not wm_ge_r;          -- FILL rises to >= WATERMARK
    tr_set_full(t) <= tr_full(t) and not full_r;      -- FULL rises

    process (clk)
    begin
      if rising_edge(clk) then
        wm_ge_r <= wm_ge;
        full_r  <= tr_full(t);
        tr_ack_r(t) <= wr and hit(6);  -- ACK (write only): release the written count
        if wr = '1' and hit(3) = '1' then
          wm <= rp_wdata(dl_c downto 0);
        end if;
        if rst = '1' then
          wm      <= (others => '0');
          wm_ge_r <= '0';
          full_r  <= '0';
          tr_ack_r(t) <= '0';
        end if;
      end if;
    end process;
  end generate;

  g_trace_none : if t_c = 0 generate
    tr_hit      <= (others => '0');
    tr_ram_hit  <= (others => '0');
    tr_rdata    <= (others => (others => '0'));
    tr_set_wm   <= (others => '0');
    tr_set_full <= (others => '0');
    tr_ack_r    <= (others => '0');
  end generate;

  -- trace RAM read address: the offset inside the addressed RAM window
  process (all)
    variable a : std_logic_vector(31 downto 0);
  begin
    a := (others => '0');
    for t in 0 to t_c - 1 loop
      a := a or ((31 downto 0 => tr_ram_hit(t))
                 and std_logic_vector(resize(unsigned(rp_addr(dl_of(t) downto 0)), 32)));
    end loop;
    tr_rd_addr <= a;
  end process;

  ---------------------------------------------------------------------------
  -- per-sniffer STATUS bits
  ---------------------------------------------------------------------------
  process (all)
    variable v, o : std_logic_vector(s_c - 1 downto 0);
  begin
    v := (others => '0');
    o := (others => '0');
    for d in 0 to d_c - 1 loop
      for i in 0 to s_c - 1 loop
        if elem(dcapf_sniffer_g, d, 0) = i then
          v(i) := v(i) or dc_caught(d);
          o(i) := o(i) or dc_overflow(d);
        end if;
      end loop;
    end loop;
    valid_sn <= v;
    ovf_sn   <= o;
  end process;

  ---------------------------------------------------------------------------
  -- interrupts
  ---------------------------------------------------------------------------
  process (all)
    variable s : std_logic_vector(in_c - 1 downto 0);
    variable c : std_logic_vector(in_c - 1 downto 0);
    variable b : integer;
  begin
    s := (others => '0');
    for d in 0 to d_c - 1 loop
      b := elem(dcapf_irq_bit_g, d, -1);
      if b >= 0 and b < in_c then
        s(b) := dc_set(d);
      end if;
    end loop;
    for t in 0 to t_c - 1 loop
      b := elem(trace_irq_bit_g, t, -1);
      if b >= 0 and b + 1 < in_c then
        s(b)     := tr_set_wm(t);
        s(b + 1) := tr_set_full(t);
      end if;
    end loop;
    -- soft reset clears the sources of every sniffer that is not IDLE
    c := (others => '0');
    for k in 0 to in_c - 1 loop
      if irq_owner_c(k) >= 0 then
        c(k) := soft_r and (prog_r(2 * irq_owner_c(k)) or prog_r(2 * irq_owner_c(k) + 1));
      end if;
    end loop;
    irq_set <= s;
    irq_clr <= c;
  end process;

  irq_clr_we <= wr and at(rp_addr, 2);

  u_irq : entity work.jointer_collect_irq
    generic map (num_g => in_c)
    port map (
      clk      => clk,
      rst      => rst,
      set      => irq_set,
      clr_we   => irq_clr_we,
      clr_data => rp_wdata,
      clr_src  => irq_clr,
      en       => irq_en_r,
      status   => irq_status,
      irq      => irq_o);

  irq <= irq_o when num_irq_g > 0 else '0';

  ---------------------------------------------------------------------------
  -- fixed registers and the request pipeline
  ---------------------------------------------------------------------------
  process (clk)
    variable h    : std_logic;
    variable any  : std_logic;
    variable data : std_logic_vector(31 downto 0);
    variable word : std_logic_vector(31 downto 0);
  begin
    if rising_edge(clk) then
      -- CONTROL
      h    := at(rp_addr, 0);
      any  := h;
      word := (others => '0');
      word(0) := run_r;
      word(2 * s_c + 1 downto 2) := prog_r;
      data := (31 downto 0 => h) and word;
      ctrl_we_r <= wr and h;
      soft_r    <= wr and h and rp_wdata(1);
      if wr = '1' and h = '1' then
        run_r  <= rp_wdata(0);
        prog_r <= rp_wdata(2 * s_c + 1 downto 2);
      end if;
      -- STATUS
      h    := at(rp_addr, 1);
      any  := any or h;
      word := (others => '0');
      word(s_c - 1 downto 0) := valid_sn;
      word(16 + s_c - 1 downto 16) := ovf_sn;
      data := data or ((31 downto 0 => h) and word);
      -- IRQ_STATUS (w1c through irq_clr_we) and IRQ_ENABLE
      h    := at(rp_addr, 2);
      any  := any or h;
      word := (others => '0');
      if num_irq_g > 0 then
        word(in_c - 1 downto 0) := irq_status;
      end if;
      data := data or ((31 downto 0 => h) and word);
      h    := at(rp_addr, 3);
      any  := any or h;
      word := (others => '0');
      if num_irq_g > 0 then
        word(in_c - 1 downto 0) := irq_en_r;
      end if;
      data := data or ((31 downto 0 => h) and word);
      if wr = '1' and h = '1' then
        irq_en_r <= rp_wdata(in_c - 1 downto 0);
      end if;
      -- INIT[i] (write only)
      for i in 0 to s_c - 1 loop
        h   := at(rp_addr, 4 + i);
        any := any or h;
        init_we_r(i) <= wr and h;
      end loop;
      -- results, thresholds, trace registers
      for d in 0 to d_c - 1 loop
        data := data or dc_rdata(d);
      end loop;
      for t in 0 to t_c - 1 loop
        data := data or tr_rdata(t);
      end loop;
      any := any or (or dc_hit) or (or tr_hit);

      -- answered one cycle later; the trace RAM word joins then (its read
      -- latency is one cycle)
      v1_r      <= rp_req;
      rdata1_r  <= (31 downto 0 => rd) and data;
      err1_r    <= rp_req and not any and to_sl(strict_g);
      ramsel1_r <= (tn_c - 1 downto 0 => rd) and tr_ram_hit;

      if rst = '1' then
        run_r     <= '0';
        prog_r    <= (others => '0');
        soft_r    <= '0';
        ctrl_we_r <= '0';
        init_we_r <= (others => '0');
        irq_en_r  <= (others => '0');
      end if;
    end if;
  end process;

  process (all)
    variable data : std_logic_vector(31 downto 0);
  begin
    data := rdata1_r;
    for t in 0 to t_c - 1 loop
      data := data or ((31 downto 0 => ramsel1_r(t)) and tr_rd_data(32 * t + 31 downto 32 * t));
    end loop;
    rp_rdata <= data;
  end process;
  rp_ack <= v1_r;
  rp_err <= err1_r;

  sn_prog       <= prog_r;
  sn_run        <= run_r;
  sn_soft_reset <= soft_r;
  sn_ctrl_we    <= ctrl_we_r;
  sn_init_we    <= init_we_r;
  sn_init_data  <= rp_wdata;  -- held by the rp master until the acknowledge
  tr_ack        <= tr_ack_r;  -- one-cycle pulse in the acknowledge cycle,
  tr_ack_n      <= rp_wdata;  -- with the count still held

end architecture rtl;
