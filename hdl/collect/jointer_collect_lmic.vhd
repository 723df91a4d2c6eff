-- jointer_collect_lmic: Local Monitoring Information Collector (paper fig. 5
-- and 6a/6b, section 3.1.1): the register file of one local area, on the
-- area's clock. It drives the sniffers' control lines (PROG, RUN,
-- SOFT_RESET, INIT), collects the DCAPF results, trace status and trace RAM,
-- and raises the area's interrupt (threshold crossings, trace watermark and
-- full). Register map: doc/internals/collect.md (offsets come from the
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
--   SINK (per sink trace; num_sinks_g > 0 only): the 8 registers
--          of jointer_collect_lmic_sink (WPTR, RPTR, STATUS, WATERMARK, BASE,
--          SIZE, CONTROL, LOST) for a jointer_trace_sink_axi beside the LMIC
--          (sk_* ports); IRQ sources: bit sink_irq_bit_g when its watermark
--          is reached, bit + 1 when its STATUS.ERROR rises.
-- Register port (two phases, doc/internals/collect.md): a request is
-- answered one cycle after rp_req (two for a trace RAM word) from one held
-- word (jointer_collect_lmic_port); a write is captured then and performed
-- on rp_commit. Blocks: jointer_collect_lmic_port (request pipeline),
-- jointer_collect_lmic_results (RESULT, THRESHOLD), jointer_collect_lmic_trace
-- (TRACE registers, RAM windows), jointer_collect_irq; CONTROL, STATUS,
-- IRQ_STATUS/ENABLE and INIT live here. The request pipeline is not reset, so
-- an LMIC held in reset still answers (the DCI never hangs on it).
-- sn_init_data and tr_ack_n are the held word: stable from the write's
-- commit until the LMIC's next request.
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
--   num_sinks_g             sink traces (0.., default 0: no sink hardware)
--   sink_sniffer_g          owning sniffer of each sink
--   sink_reg_word_g         word offset of the 8 sink registers
--   sink_irq_bit_g          watermark IRQ bit (error = bit + 1)
--   num_irq_g               IRQ source bits (0..32)
--   init_w_g                bits of an INIT write some sniffer takes (0..32:
--                           0 when no DCAPF loads bounds; default 32)

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
    num_sinks_g            : natural := 0;
    sink_sniffer_g         : integer_vector := (0 => 0);
    sink_reg_word_g        : integer_vector := (0 => -1);
    sink_irq_bit_g         : integer_vector := (0 => -1);
    num_irq_g              : natural := 3;
    init_w_g               : natural := 32);
  port (
    clk           : in  std_logic;
    rst           : in  std_logic;
    -- register port
    rp_req        : in  std_logic;
    rp_commit     : in  std_logic;
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
    -- sink traces (num_sinks_g > 0): state in, configuration out
    sk_wptr       : in  std_logic_vector(32 * maximum(num_sinks_g, 1) - 1 downto 0) := (others => '0');
    sk_lost       : in  std_logic_vector(32 * maximum(num_sinks_g, 1) - 1 downto 0) := (others => '0');
    sk_status     : in  std_logic_vector(3 * maximum(num_sinks_g, 1) - 1 downto 0) := (others => '0');
    sk_irq_wm     : in  std_logic_vector(maximum(num_sinks_g, 1) - 1 downto 0) := (others => '0');
    sk_base       : out std_logic_vector(32 * maximum(num_sinks_g, 1) - 1 downto 0);
    sk_size       : out std_logic_vector(32 * maximum(num_sinks_g, 1) - 1 downto 0);
    sk_rptr       : out std_logic_vector(32 * maximum(num_sinks_g, 1) - 1 downto 0);
    sk_watermark  : out std_logic_vector(32 * maximum(num_sinks_g, 1) - 1 downto 0);
    sk_enable     : out std_logic_vector(maximum(num_sinks_g, 1) - 1 downto 0);
    sk_clear      : out std_logic_vector(maximum(num_sinks_g, 1) - 1 downto 0);
    -- interrupt (level)
    irq           : out std_logic);
end entity jointer_collect_lmic;

architecture rtl of jointer_collect_lmic is
  constant s_c  : positive := num_sniffers_g;
  constant d_c  : natural  := num_dcapfs_g;
  constant t_c  : natural  := num_traces_g;
  constant dn_c : positive := maximum(d_c, 1);
  constant tn_c : positive := maximum(t_c, 1);
  constant k_c  : natural  := num_sinks_g;
  constant kn_c : positive := maximum(k_c, 1);
  constant in_c : positive := maximum(num_irq_g, 1);
  constant words_c : positive := 2 ** addr_w_g;

  type int_arr_t is array (natural range <>) of integer;

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
    for k in 0 to k_c - 1 loop
      b := elem(sink_irq_bit_g, k, -1);
      if b >= 0 and b + 1 < in_c then
        r(b)     := elem(sink_sniffer_g, k, 0);
        r(b + 1) := elem(sink_sniffer_g, k, 0);
      end if;
    end loop;
    return r;
  end function;
  constant irq_owner_c : int_arr_t(0 to in_c - 1) := irq_owner_f;

  -- the bits of a write that some register takes (the held word keeps only those)
  function low_bits(n : natural) return std_logic_vector is
    variable m : std_logic_vector(31 downto 0) := (others => '0');
  begin
    m(minimum(n, 32) - 1 downto 0) := (others => '1');
    return m;
  end function;
  function wmask_f return std_logic_vector is
    variable m : std_logic_vector(31 downto 0);
  begin
    m := low_bits(2 * s_c + 2) or low_bits(num_irq_g) or low_bits(init_w_g);
    for d in 0 to d_c - 1 loop
      if elem(dcapf_threshold_word_g, d, -1) >= 0 then
        m := m or low_bits(elem(dcapf_width_g, d, 32));
      end if;
    end loop;
    for t in 0 to t_c - 1 loop
      m := m or low_bits(elem(trace_depth_log2_g, t, 1) + 1);
      if elem(trace_relay_g, t, 0) = 1 then
        m := m or low_bits(32);
      end if;
    end loop;
    if k_c > 0 then
      m := m or low_bits(32);  -- sink registers: 32 bits
    end if;
    return m;
  end function;

  -- request pipeline
  signal rd, wr       : std_logic;
  signal rd_addr      : std_logic_vector(addr_w_g - 1 downto 0);
  signal wr_addr      : std_logic_vector(addr_w_g - 1 downto 0);
  signal wr_data      : std_logic_vector(31 downto 0);
  signal rd_data      : std_logic_vector(31 downto 0);
  signal rd_hit       : std_logic;
  signal ctl_data     : std_logic_vector(31 downto 0);
  signal ctl_hit      : std_logic;
  signal res_data     : std_logic_vector(31 downto 0);
  signal res_hit      : std_logic;
  signal trc_data     : std_logic_vector(31 downto 0);
  signal trc_hit      : std_logic;
  signal trc_ram      : std_logic;
  signal ram_data     : std_logic_vector(31 downto 0);
  signal snk_data     : std_logic_vector(31 downto 0);
  signal snk_hit      : std_logic;
  -- control
  signal run_r        : std_logic;
  signal prog_r       : std_logic_vector(2 * s_c - 1 downto 0);
  signal soft_r       : std_logic;
  signal ctrl_we_r    : std_logic;
  signal init_we_r    : std_logic_vector(s_c - 1 downto 0);
  -- interrupts
  signal irq_en_r     : std_logic_vector(in_c - 1 downto 0);
  signal irq_set      : std_logic_vector(in_c - 1 downto 0);
  signal irq_clr      : std_logic_vector(in_c - 1 downto 0);
  signal irq_clr_we   : std_logic;
  signal irq_status   : std_logic_vector(in_c - 1 downto 0);
  signal irq_o        : std_logic;
  signal valid_sn     : std_logic_vector(s_c - 1 downto 0);
  signal ovf_sn       : std_logic_vector(s_c - 1 downto 0);
  signal thr_set      : std_logic_vector(dn_c - 1 downto 0);
  signal wm_set       : std_logic_vector(tn_c - 1 downto 0);
  signal full_set     : std_logic_vector(tn_c - 1 downto 0);
  signal sk_wm_set    : std_logic_vector(kn_c - 1 downto 0);
  signal sk_err_set   : std_logic_vector(kn_c - 1 downto 0);
begin

  ---------------------------------------------------------------------------
  -- generic checks (the blocks check their own items)
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
  g_check_d : for d in 0 to d_c - 1 generate
    assert elem(dcapf_sniffer_g, d, -1) >= 0 and elem(dcapf_sniffer_g, d, -1) < s_c
      report "jointer_collect_lmic: dcapf_sniffer_g item out of 0..num_sniffers_g-1" severity failure;
    assert elem(dcapf_result_word_g, d, -1) >= 4 + s_c
      report "jointer_collect_lmic: dcapf_result_word_g item inside the fixed registers" severity failure;
    assert (elem(dcapf_threshold_word_g, d, -1) = -1) = (elem(dcapf_irq_bit_g, d, -1) = -1)
      report "jointer_collect_lmic: a threshold needs an IRQ bit and vice versa" severity failure;
    assert elem(dcapf_irq_bit_g, d, -1) < num_irq_g
      report "jointer_collect_lmic: dcapf_irq_bit_g item >= num_irq_g" severity failure;
  end generate;
  g_check_t : for t in 0 to t_c - 1 generate
    assert elem(trace_sniffer_g, t, -1) >= 0 and elem(trace_sniffer_g, t, -1) < s_c
      report "jointer_collect_lmic: trace_sniffer_g item out of 0..num_sniffers_g-1" severity failure;
    assert elem(trace_reg_word_g, t, -1) >= 4 + s_c
      report "jointer_collect_lmic: trace_reg_word_g item inside the fixed registers" severity failure;
    assert elem(trace_irq_bit_g, t, -1) >= 0 and elem(trace_irq_bit_g, t, -1) + 1 < num_irq_g
      report "jointer_collect_lmic: trace_irq_bit_g item (and bit + 1) must be < num_irq_g"
      severity failure;
  end generate;
  g_check_k : for k in 0 to k_c - 1 generate
    assert elem(sink_sniffer_g, k, -1) >= 0 and elem(sink_sniffer_g, k, -1) < s_c
      report "jointer_collect_lmic: sink_sniffer_g item out of 0..num_sniffers_g-1" severity failure;
    assert elem(sink_reg_word_g, k, -1) >= 4 + s_c
      report "jointer_collect_lmic: sink_reg_word_g item inside the fixed registers" severity failure;
    assert elem(sink_irq_bit_g, k, -1) >= 0 and elem(sink_irq_bit_g, k, -1) + 1 < num_irq_g
      report "jointer_collect_lmic: sink_irq_bit_g item (and bit + 1) must be < num_irq_g"
      severity failure;
  end generate;

  ---------------------------------------------------------------------------
  -- the request pipeline and the register blocks
  ---------------------------------------------------------------------------
  u_port : entity work.jointer_collect_lmic_port
    generic map (addr_w_g => addr_w_g, strict_g => strict_g, wmask_g => wmask_f)
    port map (
      clk => clk, rst => rst, rp_req => rp_req, rp_commit => rp_commit, rp_we => rp_we,
      rp_addr => rp_addr, rp_wdata => rp_wdata, rp_ack => rp_ack, rp_rdata => rp_rdata,
      rp_err => rp_err, rd => rd, rd_addr => rd_addr, rd_data => rd_data, rd_hit => rd_hit, rd_ram => trc_ram,
      ram_data => ram_data, wr => wr, wr_addr => wr_addr, wr_data => wr_data);


  u_results : entity work.jointer_collect_lmic_results
    generic map (
      addr_w_g => addr_w_g, num_dcapfs_g => d_c, dcapf_width_g => dcapf_width_g,
      dcapf_result_word_g => dcapf_result_word_g, dcapf_threshold_word_g => dcapf_threshold_word_g,
      dcapf_buckets_g => dcapf_buckets_g)
    port map (
      clk => clk, rst => rst, rd => rd, rd_addr => rd_addr, rd_data => res_data, rd_hit => res_hit,
      wr => wr, wr_addr => wr_addr, wr_data => wr_data, dc_result => dc_result, thr_set => thr_set);

  u_trace : entity work.jointer_collect_lmic_trace
    generic map (
      addr_w_g => addr_w_g, num_traces_g => t_c, trace_reg_word_g => trace_reg_word_g,
      trace_ram_word_g => trace_ram_word_g, trace_depth_log2_g => trace_depth_log2_g,
      trace_relay_g => trace_relay_g)
    port map (
      clk => clk, rst => rst, rd => rd, rd_addr => rd_addr, rd_data => trc_data, rd_hit => trc_hit,
      rd_ram => trc_ram, ram_data => ram_data, wr => wr, wr_addr => wr_addr, wr_data => wr_data,
      tr_wptr => tr_wptr, tr_fill => tr_fill, tr_full => tr_full, tr_overflow => tr_overflow,
      tr_rd_addr => tr_rd_addr, tr_rd_data => tr_rd_data, tr_ack => tr_ack, tr_ack_n => tr_ack_n,
      tr_rptr => tr_rptr, tr_lost => tr_lost, wm_set => wm_set, full_set => full_set);

  g_sink : if k_c > 0 generate
    u_sink : entity work.jointer_collect_lmic_sink
      generic map (addr_w_g => addr_w_g, num_sinks_g => k_c, sink_reg_word_g => sink_reg_word_g)
      port map (
        clk => clk, rst => rst, rd_addr => rd_addr, rd_data => snk_data, rd_hit => snk_hit,
        wr => wr, wr_addr => wr_addr, wr_data => wr_data, sk_wptr => sk_wptr, sk_lost => sk_lost,
        sk_status => sk_status, sk_irq_wm => sk_irq_wm, sk_base => sk_base, sk_size => sk_size,
        sk_rptr => sk_rptr, sk_watermark => sk_watermark, sk_enable => sk_enable,
        sk_clear => sk_clear, wm_set => sk_wm_set, err_set => sk_err_set);
    rd_data <= ctl_data or res_data or trc_data or snk_data;
    rd_hit  <= ctl_hit or res_hit or trc_hit or snk_hit;
  end generate;
  g_no_sink : if k_c = 0 generate    -- no sink: exactly the LMIC of before
    rd_data      <= ctl_data or res_data or trc_data;
    rd_hit       <= ctl_hit or res_hit or trc_hit;
    sk_base      <= (others => '0');
    sk_size      <= (others => '0');
    sk_rptr      <= (others => '0');
    sk_watermark <= (others => '0');
    sk_enable    <= (others => '0');
    sk_clear     <= (others => '0');
    sk_wm_set    <= (others => '0');
    sk_err_set   <= (others => '0');
  end generate;

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
        s(b) := thr_set(d);
      end if;
    end loop;
    for t in 0 to t_c - 1 loop
      b := elem(trace_irq_bit_g, t, -1);
      if b >= 0 and b + 1 < in_c then
        s(b)     := wm_set(t);
        s(b + 1) := full_set(t);
      end if;
    end loop;
    for k in 0 to k_c - 1 loop
      b := elem(sink_irq_bit_g, k, -1);
      if b >= 0 and b + 1 < in_c then
        s(b)     := sk_wm_set(k);
        s(b + 1) := sk_err_set(k);
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

  irq_clr_we <= wr and word_at(wr_addr, 2);

  g_irq : if num_irq_g > 0 generate
    u_irq : entity work.jointer_collect_irq
      generic map (num_g => in_c)
      port map (
        clk      => clk,
        rst      => rst,
        set      => irq_set,
        clr_we   => irq_clr_we,
        clr_data => wr_data,
        clr_src  => irq_clr,
        en       => irq_en_r,
        status   => irq_status,
        irq      => irq_o);
    irq <= irq_o;
  end generate;
  g_no_irq : if num_irq_g = 0 generate
    irq_status <= (others => '0');
    irq        <= '0';
  end generate;

  ---------------------------------------------------------------------------
  -- fixed registers: CONTROL, STATUS, IRQ_STATUS, IRQ_ENABLE, INIT[i]
  ---------------------------------------------------------------------------
  process (all)
    variable word, sts, ist, ien : std_logic_vector(31 downto 0);
  begin
    word := (others => '0');
    word(0) := run_r;
    word(2 * s_c + 1 downto 2) := prog_r;
    sts := (others => '0');
    sts(s_c - 1 downto 0) := valid_sn;
    sts(16 + s_c - 1 downto 16) := ovf_sn;
    ist := (others => '0');
    ien := (others => '0');
    if num_irq_g > 0 then
      ist(in_c - 1 downto 0) := irq_status;
      ien(in_c - 1 downto 0) := irq_en_r;
    end if;
    ctl_data <= ((31 downto 0 => word_at(rd_addr, 0)) and word)
             or ((31 downto 0 => word_at(rd_addr, 1)) and sts)
             or ((31 downto 0 => word_at(rd_addr, 2)) and ist)
             or ((31 downto 0 => word_at(rd_addr, 3)) and ien);
    ctl_hit <= to_sl(unsigned(rd_addr) < 4 + s_c);   -- INIT[i] are write-only: read 0
  end process;

  process (clk)
  begin
    if rising_edge(clk) then
      ctrl_we_r <= wr and word_at(wr_addr, 0);
      soft_r    <= wr and word_at(wr_addr, 0) and wr_data(1);
      if wr = '1' and word_at(wr_addr, 0) = '1' then
        run_r  <= wr_data(0);
        prog_r <= wr_data(2 * s_c + 1 downto 2);
      end if;
      if wr = '1' and word_at(wr_addr, 3) = '1' then
        irq_en_r <= wr_data(in_c - 1 downto 0);
      end if;
      for i in 0 to s_c - 1 loop
        init_we_r(i) <= wr and word_at(wr_addr, 4 + i);
      end loop;
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

  sn_prog       <= prog_r;
  sn_run        <= run_r;
  sn_soft_reset <= soft_r;
  sn_ctrl_we    <= ctrl_we_r;
  sn_init_we    <= init_we_r;
  sn_init_data  <= wr_data;  -- the held word, stable until the next request

end architecture rtl;
