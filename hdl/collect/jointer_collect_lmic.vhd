-- SPDX-License-Identifier: MIT
-- jointer_collect_lmic: Local Monitoring Information Collector (paper fig. 5
-- and 6a/6b, section 3.1.1): the register file of one local area, on the
-- area's clock. It drives the sniffers' control lines (PROG, RUN, SOFT_RESET,
-- INIT), collects the DCAPF results, trace status and trace RAM, and raises
-- the area's interrupt (thresholds, trace watermark/full, sink watermark/error).
-- Register map, ports, generics, blocks: doc/internals/collect.md (the
-- generator's layout passes the word offsets). Blocks jointer_collect_lmic_*:
-- port (the two-phase register port; not reset: an LMIC held in reset still
-- answers), results (RESULT, THRESHOLD), trace (TRACE, RAM windows), sink
-- (num_sinks_g > 0), wsel (write decodes); and jointer_collect_irq. A window
-- of more than lmic_pipelined_min_c result/threshold words (jointer_pkg) is
-- large: its read and write decodes are registered (pipelined_c). This
-- entity holds CONTROL, STATUS, IRQ_STATUS/ENABLE and INIT (one state record)
-- and ORs the blocks' read contributions into the held word. sn_init_data and
-- tr_ack_n are the held word: stable from the write's commit until the next
-- request. Unmapped words read 0 (SLVERR when strict_g); writes to read-only
-- words are ignored. Ports per DCAPF / trace / sink carry maximum(count, 1)
-- items: with a count of 0, one dummy item tied to '0' (GHDL 2.0.0 writes
-- null vectors as Verilog that yosys/Verilator reject). Generic vectors hold
-- items in DCAPF / trace / sink order; dc_result carries 64 bits per result
-- slot (dcapf_buckets_g: 1, or a histogram's 2..64 buckets); init_w_g: the
-- bits of an INIT write some sniffer takes (0..32).

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
    sk_sync       : out std_logic_vector(maximum(num_sinks_g, 1) - 1 downto 0);
    -- interrupt (level)
    irq           : out std_logic);
end entity jointer_collect_lmic;

architecture rtl of jointer_collect_lmic is
  constant sniffers_c : positive := num_sniffers_g;
  constant dcapfs_c   : natural  := num_dcapfs_g;
  constant traces_c   : natural  := num_traces_g;
  constant sinks_c    : natural  := num_sinks_g;
  constant dcapf_n_c  : positive := maximum(dcapfs_c, 1);   -- port items (a dummy when 0)
  constant trace_n_c  : positive := maximum(traces_c, 1);
  constant sink_n_c   : positive := maximum(sinks_c, 1);
  constant irq_n_c    : positive := maximum(num_irq_g, 1);

  -- the bits of a write that some register takes (the held word keeps only those)
  function low_bits(n : natural) return std_logic_vector is
    variable mask : std_logic_vector(31 downto 0) := (others => '0');
  begin
    mask(minimum(n, 32) - 1 downto 0) := (others => '1');
    return mask;
  end function;
  function write_mask_f return std_logic_vector is
    variable mask : std_logic_vector(31 downto 0);
  begin
    mask := low_bits(2 * sniffers_c + 2) or low_bits(num_irq_g) or low_bits(init_w_g);
    for d in 0 to dcapfs_c - 1 loop
      if elem(dcapf_threshold_word_g, d, -1) >= 0 then
        mask := mask or low_bits(elem(dcapf_width_g, d, 32));
      end if;
    end loop;
    for t in 0 to traces_c - 1 loop
      mask := mask or low_bits(elem(trace_depth_log2_g, t, 1) + 1);
      if elem(trace_relay_g, t, 0) = 1 then
        mask := mask or low_bits(32);   -- ACK count
      end if;
    end loop;
    return mask or low_bits(32 * boolean'pos(sinks_c > 0));   -- sink registers: 32 bits
  end function;

  -- the registers of this entity (CONTROL, IRQ_ENABLE and the sniffer strobes)
  type reg_t is record
    run        : std_logic;
    prog       : std_logic_vector(2 * sniffers_c - 1 downto 0);
    soft_reset : std_logic;                                   -- pulse
    soft_late  : std_logic;                                   -- soft_reset, a cycle later
    ctrl_we    : std_logic;                                   -- pulse: CONTROL written
    init_we    : std_logic_vector(sniffers_c - 1 downto 0);   -- pulse: INIT[i] written
    irq_en     : std_logic_vector(irq_n_c - 1 downto 0);
  end record;
  constant reg_reset_c : reg_t := (
    run => '0', prog => (others => '0'), soft_reset => '0', soft_late => '0', ctrl_we => '0',
    init_we => (others => '0'), irq_en => (others => '0'));

  -- a soft reset clears the IRQ sources of every sniffer that is not IDLE, in its
  -- cycle and the next (threshold, watermark sources set a cycle after their compare)
  function soft_clear(reg : reg_t; sniffer : natural) return std_logic is
  begin
    return (reg.soft_reset or reg.soft_late) and (reg.prog(2 * sniffer) or reg.prog(2 * sniffer + 1));
  end function;

  -- the interrupt sources of the blocks
  type irq_sources_t is record
    threshold  : std_logic_vector(dcapf_n_c - 1 downto 0);   -- result >= threshold rises
    watermark  : std_logic_vector(trace_n_c - 1 downto 0);   -- FILL rises to >= WATERMARK
    full       : std_logic_vector(trace_n_c - 1 downto 0);   -- FULL rises
    sink_wm    : std_logic_vector(sink_n_c - 1 downto 0);    -- sink watermark reached
    sink_error : std_logic_vector(sink_n_c - 1 downto 0);    -- sink STATUS.ERROR rises
  end record;

  signal r, rin : reg_t;
  signal src    : irq_sources_t;   -- driven by the blocks

  -- the register port, as the blocks see it
  signal rd, rd_take, wr, rd_hit, rd_ram : std_logic;
  signal rd_addr, wr_addr       : std_logic_vector(addr_w_g - 1 downto 0);
  signal wr_data, ram_data      : std_logic_vector(31 downto 0);
  signal rd_data                : std_logic_vector(31 downto 0);   -- OR of the contributions
  -- the blocks' read contributions (0 where they do not map rd_addr)
  signal fixed_data, result_data, trace_data, sink_data : std_logic_vector(31 downto 0);
  signal fixed_hit, result_hit, trace_hit, sink_hit     : std_logic;
  -- interrupt controller
  signal irq_set, irq_clr, irq_status : std_logic_vector(irq_n_c - 1 downto 0);
  signal irq_status_we                : std_logic;
  signal wsel : std_logic_vector(0 to 3 + sniffers_c);   -- wr_addr = k (fixed words), u_wsel
  -- a large window: the results' read and the write decodes are registered
  constant pipelined_c : boolean := lmic_result_words(dcapfs_c, dcapf_width_g, dcapf_result_word_g,
                                      dcapf_threshold_word_g, dcapf_buckets_g) > lmic_pipelined_min_c;
begin

  -- generic checks (the blocks check their own items)
  assert num_sniffers_g <= max_sniffers_c
    report "jointer_collect_lmic: num_sniffers_g must be 1..15 (32-bit CONTROL)" severity failure;
  assert num_irq_g <= 32
    report "jointer_collect_lmic: num_irq_g must be 0..32" severity failure;
  assert addr_w_g <= 30 and 4 + num_sniffers_g <= 2 ** addr_w_g
    report "jointer_collect_lmic: addr_w_g must be 1..30 and hold the fixed registers" severity failure;
  assert dcapfs_c = 0 or (dcapf_sniffer_g'length >= dcapfs_c and dcapf_width_g'length >= dcapfs_c
                          and dcapf_result_word_g'length >= dcapfs_c
                          and dcapf_threshold_word_g'length >= dcapfs_c
                          and dcapf_irq_bit_g'length >= dcapfs_c)
    report "jointer_collect_lmic: a dcapf_*_g vector is shorter than num_dcapfs_g" severity failure;
  assert traces_c = 0 or (trace_sniffer_g'length >= traces_c and trace_reg_word_g'length >= traces_c
                          and trace_ram_word_g'length >= traces_c
                          and trace_depth_log2_g'length >= traces_c
                          and trace_irq_bit_g'length >= traces_c)
    report "jointer_collect_lmic: a trace_*_g vector is shorter than num_traces_g" severity failure;
  g_check_dcapf : for d in 0 to dcapfs_c - 1 generate
    assert elem(dcapf_sniffer_g, d, -1) >= 0 and elem(dcapf_sniffer_g, d, -1) < sniffers_c
      report "jointer_collect_lmic: dcapf_sniffer_g item out of 0..num_sniffers_g-1" severity failure;
    assert elem(dcapf_result_word_g, d, -1) >= 4 + sniffers_c
      report "jointer_collect_lmic: dcapf_result_word_g item inside the fixed registers" severity failure;
    assert (elem(dcapf_threshold_word_g, d, -1) = -1) = (elem(dcapf_irq_bit_g, d, -1) = -1)
      report "jointer_collect_lmic: a threshold needs an IRQ bit and vice versa" severity failure;
    assert elem(dcapf_irq_bit_g, d, -1) < num_irq_g
      report "jointer_collect_lmic: dcapf_irq_bit_g item >= num_irq_g" severity failure;
  end generate;
  g_check_trace : for t in 0 to traces_c - 1 generate
    assert elem(trace_sniffer_g, t, -1) >= 0 and elem(trace_sniffer_g, t, -1) < sniffers_c
      report "jointer_collect_lmic: trace_sniffer_g item out of 0..num_sniffers_g-1" severity failure;
    assert elem(trace_reg_word_g, t, -1) >= 4 + sniffers_c
      report "jointer_collect_lmic: trace_reg_word_g item inside the fixed registers" severity failure;
    assert elem(trace_irq_bit_g, t, -1) >= 0 and elem(trace_irq_bit_g, t, -1) + 1 < num_irq_g
      report "jointer_collect_lmic: trace_irq_bit_g item (and bit + 1) must be < num_irq_g" severity failure;
  end generate;
  g_check_sink : for k in 0 to sinks_c - 1 generate
    assert elem(sink_sniffer_g, k, -1) >= 0 and elem(sink_sniffer_g, k, -1) < sniffers_c
      report "jointer_collect_lmic: sink_sniffer_g item out of 0..num_sniffers_g-1" severity failure;
    assert elem(sink_reg_word_g, k, -1) >= 4 + sniffers_c
      report "jointer_collect_lmic: sink_reg_word_g item inside the fixed registers" severity failure;
    assert elem(sink_irq_bit_g, k, -1) >= 0 and elem(sink_irq_bit_g, k, -1) + 1 < num_irq_g
      report "jointer_collect_lmic: sink_irq_bit_g item (and bit + 1) must be < num_irq_g" severity failure;
  end generate;

  u_port : entity work.jointer_collect_lmic_port
    generic map (addr_w_g => addr_w_g, strict_g => strict_g, wmask_g => write_mask_f)
    port map (
      clk => clk, rst => rst, rp_req => rp_req, rp_commit => rp_commit, rp_we => rp_we,
      rp_addr => rp_addr, rp_wdata => rp_wdata, rp_ack => rp_ack, rp_rdata => rp_rdata,
      rp_err => rp_err, rd => rd, rd_take => rd_take, rd_addr => rd_addr, rd_data => rd_data, rd_hit => rd_hit,
      rd_ram => rd_ram, ram_data => ram_data, wr => wr, wr_addr => wr_addr, wr_data => wr_data);

  u_results : entity work.jointer_collect_lmic_results
    generic map (
      addr_w_g => addr_w_g, num_dcapfs_g => dcapfs_c, dcapf_width_g => dcapf_width_g,
      dcapf_result_word_g => dcapf_result_word_g, dcapf_threshold_word_g => dcapf_threshold_word_g,
      dcapf_buckets_g => dcapf_buckets_g, pipelined_g => pipelined_c)
    port map (
      clk => clk, rst => rst, rd => rd, rd_take => rd_take, rd_addr => rd_addr, rd_data => result_data,
      rd_hit => result_hit, wr => wr, wr_addr => wr_addr, wr_data => wr_data,
      dc_result => dc_result, thr_set => src.threshold);

  u_trace : entity work.jointer_collect_lmic_trace
    generic map (
      addr_w_g => addr_w_g, num_traces_g => traces_c, trace_reg_word_g => trace_reg_word_g,
      trace_ram_word_g => trace_ram_word_g, trace_depth_log2_g => trace_depth_log2_g,
      trace_relay_g => trace_relay_g)
    port map (
      clk => clk, rst => rst, rd => rd, rd_addr => rd_addr, rd_data => trace_data,
      rd_hit => trace_hit, rd_ram => rd_ram, ram_data => ram_data, wr => wr, wr_addr => wr_addr,
      wr_data => wr_data, tr_wptr => tr_wptr, tr_fill => tr_fill, tr_full => tr_full,
      tr_overflow => tr_overflow, tr_rd_addr => tr_rd_addr, tr_rd_data => tr_rd_data,
      tr_ack => tr_ack, tr_ack_n => tr_ack_n, tr_rptr => tr_rptr, tr_lost => tr_lost,
      wm_set => src.watermark, full_set => src.full);

  g_sink : if sinks_c > 0 generate
    u_sink : entity work.jointer_collect_lmic_sink
      generic map (addr_w_g => addr_w_g, num_sinks_g => sinks_c, sink_reg_word_g => sink_reg_word_g)
      port map (
        clk => clk, rst => rst, rd_addr => rd_addr, rd_data => sink_data, rd_hit => sink_hit,
        wr => wr, wr_addr => wr_addr, wr_data => wr_data, sk_wptr => sk_wptr, sk_lost => sk_lost,
        sk_status => sk_status, sk_irq_wm => sk_irq_wm, sk_base => sk_base, sk_size => sk_size,
        sk_rptr => sk_rptr, sk_watermark => sk_watermark, sk_enable => sk_enable,
        sk_clear => sk_clear, sk_sync => sk_sync, wm_set => src.sink_wm, err_set => src.sink_error);
  end generate;
  g_no_sink : if sinks_c = 0 generate
    sink_data      <= (others => '0');
    sink_hit       <= '0';
    sk_base        <= (others => '0');
    sk_size        <= (others => '0');
    sk_rptr        <= (others => '0');
    sk_watermark   <= (others => '0');
    sk_enable      <= (others => '0');
    sk_clear       <= (others => '0');
    sk_sync        <= (others => '0');
    src.sink_wm    <= (others => '0');
    src.sink_error <= (others => '0');
  end generate;

  rd_data <= fixed_data or result_data or trace_data or sink_data;   -- one AND-OR level
  rd_hit  <= fixed_hit or result_hit or trace_hit or sink_hit;

  g_irq : if num_irq_g > 0 generate
    u_irq : entity work.jointer_collect_irq
      generic map (num_g => irq_n_c)
      port map (
        clk => clk, rst => rst, set => irq_set, clr_we => irq_status_we, clr_data => wr_data,
        clr_src => irq_clr, en => r.irq_en, status => irq_status, irq => irq);
  end generate;
  g_no_irq : if num_irq_g = 0 generate
    irq_status <= (others => '0');
    irq        <= '0';
  end generate;

  -- the fixed registers: next state, read contribution, IRQ sources
  p_comb : process (all)
    variable v                   : reg_t;
    variable control, status     : std_logic_vector(31 downto 0);
    variable irq_status_word, irq_enable_word : std_logic_vector(31 downto 0);
    variable set, clear          : std_logic_vector(irq_n_c - 1 downto 0);
    variable bit_pos, owner      : integer;
  begin
    -- writes (wr: the commit of a captured write; wsel: its word, decoded)
    v := r;
    v.ctrl_we    := wr and wsel(0);
    v.soft_reset := wr and wsel(0) and wr_data(1);
    v.soft_late  := r.soft_reset;
    if wr = '1' and wsel(0) = '1' then
      v.run  := wr_data(0);
      v.prog := wr_data(2 * sniffers_c + 1 downto 2);
    end if;
    if wr = '1' and wsel(3) = '1' then
      v.irq_en := wr_data(irq_n_c - 1 downto 0);
    end if;
    for i in 0 to sniffers_c - 1 loop
      v.init_we(i) := wr and wsel(4 + i);
    end loop;
    rin <= v;

    -- reads: CONTROL, STATUS (VALID / OVERFLOW per sniffer), IRQ_STATUS, IRQ_ENABLE
    control := (others => '0');
    control(0) := r.run;
    control(2 * sniffers_c + 1 downto 2) := r.prog;
    status := (others => '0');
    for d in 0 to dcapfs_c - 1 loop
      owner := elem(dcapf_sniffer_g, d, 0);
      status(owner)      := status(owner) or dc_caught(d);
      status(16 + owner) := status(16 + owner) or dc_overflow(d);
    end loop;
    irq_status_word := std_logic_vector(resize(unsigned(irq_status), 32));   -- 0 without IRQ bits
    irq_enable_word := std_logic_vector(resize(unsigned(r.irq_en), 32))
                       and (31 downto 0 => to_sl(num_irq_g > 0));
    fixed_data <= ((31 downto 0 => word_at(rd_addr, 0)) and control)
               or ((31 downto 0 => word_at(rd_addr, 1)) and status)
               or ((31 downto 0 => word_at(rd_addr, 2)) and irq_status_word)
               or ((31 downto 0 => word_at(rd_addr, 3)) and irq_enable_word);
    fixed_hit <= to_sl(unsigned(rd_addr) < 4 + sniffers_c);   -- INIT[i] are write-only: read 0

    -- IRQ sources to their bits; soft reset clears those of every sniffer not IDLE
    set   := (others => '0');
    clear := (others => '0');
    for d in 0 to dcapfs_c - 1 loop
      bit_pos := elem(dcapf_irq_bit_g, d, -1);
      if bit_pos >= 0 and bit_pos < irq_n_c then
        set(bit_pos)   := src.threshold(d);
        clear(bit_pos) := soft_clear(r, elem(dcapf_sniffer_g, d, 0));
      end if;
    end loop;
    for t in 0 to traces_c - 1 loop
      bit_pos := elem(trace_irq_bit_g, t, -1);
      if bit_pos >= 0 and bit_pos + 1 < irq_n_c then
        set(bit_pos + 1 downto bit_pos)   := src.full(t) & src.watermark(t);
        clear(bit_pos + 1 downto bit_pos) := (others => soft_clear(r, elem(trace_sniffer_g, t, 0)));
      end if;
    end loop;
    for k in 0 to sinks_c - 1 loop
      bit_pos := elem(sink_irq_bit_g, k, -1);
      if bit_pos >= 0 and bit_pos + 1 < irq_n_c then
        set(bit_pos + 1 downto bit_pos)   := src.sink_error(k) & src.sink_wm(k);
        clear(bit_pos + 1 downto bit_pos) := (others => soft_clear(r, elem(sink_sniffer_g, k, 0)));
      end if;
    end loop;
    irq_set       <= set;
    irq_clr       <= clear;
    irq_status_we <= wr and wsel(2);
  end process;

  -- the write decode of CONTROL, IRQ_STATUS, IRQ_ENABLE, INIT[i]
  u_wsel : entity work.jointer_collect_lmic_wsel
    generic map (addr_w_g => addr_w_g, first_g => 0, words_g => wsel'length, pipelined_g => pipelined_c)
    port map (clk => clk, wr_addr => wr_addr, wsel => wsel);

  p_reg : process (clk)
  begin
    if rising_edge(clk) then
      r <= rin;
      if rst = '1' then
        r <= reg_reset_c;
      end if;
    end if;
  end process;

  sn_prog       <= r.prog;
  sn_run        <= r.run;
  sn_soft_reset <= r.soft_reset;
  sn_ctrl_we    <= r.ctrl_we;
  sn_init_we    <= r.init_we;
  sn_init_data  <= wr_data;   -- the held word, stable until the next request
end architecture rtl;
