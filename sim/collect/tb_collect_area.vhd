-- SPDX-License-Identifier: MIT
-- tb_collect_area: test-bench composition of one local area: a
-- jointer_collect_lmic, one jointer_collect_dispenser per sniffer, real
-- jointer_dcapf / jointer_trace_extractor instances, and a local trace
-- timestamp. Each sniffer has one event lane driven by the test (the EIG is
-- not part of this bench). The sniffers' control lines and the timestamp
-- are copied to mon_* ports so the test can feed its reference model with
-- them. Generated sniffer compositions do the same wiring (doc/internals/compositions.md); this bench is built from integer_vector generics instead.
-- Generics: the jointer_collect_lmic generics (from layout.compute) plus
--   dcapf_index_g      DCAPF index inside its sniffer (INIT order)
--   dcapf_extractor_g, dcapf_aggregator_g, dcapf_sample_g, dcapf_wrap_g (0/1)
--   trace_index_g      trace index inside its sniffer (INIT order)
--   trace_mode_g       trace_stop_c | trace_ring_c
--   sniffer_units_g    DCAPFs of each sniffer, traces included

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity tb_collect_area is
  generic (
    addr_w_g               : positive := 6;
    strict_g               : boolean := false;
    num_sniffers_g         : positive := 1;
    num_dcapfs_g           : natural := 1;
    num_traces_g           : natural := 1;
    dcapf_sniffer_g        : integer_vector := (0 => 0);
    dcapf_width_g          : integer_vector := (0 => 32);
    dcapf_result_word_g    : integer_vector := (0 => 5);
    dcapf_threshold_word_g : integer_vector := (0 => 6);
    dcapf_irq_bit_g        : integer_vector := (0 => 0);
    trace_sniffer_g        : integer_vector := (0 => 0);
    trace_reg_word_g       : integer_vector := (0 => 7);
    trace_ram_word_g       : integer_vector := (0 => 16);
    trace_depth_log2_g     : integer_vector := (0 => 3);
    trace_irq_bit_g        : integer_vector := (0 => 1);
    num_irq_g              : natural := 3;
    dcapf_index_g          : integer_vector := (0 => 0);
    dcapf_extractor_g      : integer_vector := (0 => 0);
    dcapf_aggregator_g     : integer_vector := (0 => 0);
    dcapf_sample_g         : integer_vector := (0 => 0);
    dcapf_wrap_g           : integer_vector := (0 => 0);
    trace_index_g          : integer_vector := (0 => 1);
    trace_mode_g           : integer_vector := (0 => 0);
    sniffer_units_g        : integer_vector := (0 => 2));
  port (
    clk           : in  std_logic;
    rst           : in  std_logic;
    rp_req        : in  std_logic;
    rp_commit     : in  std_logic;
    rp_we         : in  std_logic;
    rp_addr       : in  std_logic_vector(addr_w_g - 1 downto 0);
    rp_wdata      : in  std_logic_vector(31 downto 0);
    rp_ack        : out std_logic;
    rp_rdata      : out std_logic_vector(31 downto 0);
    rp_err        : out std_logic;
    irq           : out std_logic;
    -- one event lane per sniffer
    ev_good       : in  std_logic_vector(num_sniffers_g - 1 downto 0);
    ev_data       : in  std_logic_vector(32 * num_sniffers_g - 1 downto 0);
    ev_inc        : in  std_logic_vector(16 * num_sniffers_g - 1 downto 0);
    -- what the sniffers see (for the reference model)
    mon_prog      : out std_logic_vector(2 * num_sniffers_g - 1 downto 0);
    mon_run       : out std_logic;
    mon_soft      : out std_logic;
    mon_ctrl_we   : out std_logic;
    mon_init_we   : out std_logic_vector(num_sniffers_g - 1 downto 0);
    mon_init_data : out std_logic_vector(31 downto 0);
    mon_ts        : out std_logic_vector(31 downto 0));
end entity tb_collect_area;

architecture bench of tb_collect_area is
  constant s_c  : positive := num_sniffers_g;
  constant dn_c : positive := maximum(num_dcapfs_g, 1);
  constant tn_c : positive := maximum(num_traces_g, 1);

  signal sn_prog      : std_logic_vector(2 * s_c - 1 downto 0);
  signal sn_run       : std_logic;
  signal sn_soft      : std_logic;
  signal sn_ctrl_we   : std_logic;
  signal sn_init_we   : std_logic_vector(s_c - 1 downto 0);
  signal sn_init_data : std_logic_vector(31 downto 0);
  signal dc_result    : std_logic_vector(64 * dn_c - 1 downto 0) := (others => '0');
  signal dc_overflow  : std_logic_vector(dn_c - 1 downto 0) := (others => '0');
  signal dc_caught    : std_logic_vector(dn_c - 1 downto 0) := (others => '0');
  signal tr_wptr      : std_logic_vector(32 * tn_c - 1 downto 0) := (others => '0');
  signal tr_fill      : std_logic_vector(32 * tn_c - 1 downto 0) := (others => '0');
  signal tr_full      : std_logic_vector(tn_c - 1 downto 0) := (others => '0');
  signal tr_overflow  : std_logic_vector(tn_c - 1 downto 0) := (others => '0');
  signal tr_rd_addr   : std_logic_vector(31 downto 0);
  signal tr_rd_data   : std_logic_vector(32 * tn_c - 1 downto 0) := (others => '0');
  signal ts           : std_logic_vector(31 downto 0);

  -- dispenser outputs per sniffer
  signal run_en, use_filter, clear, d_init_we, d_init_hi : std_logic_vector(s_c - 1 downto 0);
  type sel_arr_t is array (0 to s_c - 1) of std_logic_vector(7 downto 0);
  type data_arr_t is array (0 to s_c - 1) of std_logic_vector(31 downto 0);
  signal d_init_sel  : sel_arr_t;
  signal d_init_data : data_arr_t;
begin

  u_lmic : entity work.jointer_collect_lmic
    generic map (
      addr_w_g => addr_w_g, strict_g => strict_g, num_sniffers_g => num_sniffers_g,
      num_dcapfs_g => num_dcapfs_g, num_traces_g => num_traces_g,
      dcapf_sniffer_g => dcapf_sniffer_g, dcapf_width_g => dcapf_width_g,
      dcapf_result_word_g => dcapf_result_word_g, dcapf_threshold_word_g => dcapf_threshold_word_g,
      dcapf_irq_bit_g => dcapf_irq_bit_g, trace_sniffer_g => trace_sniffer_g,
      trace_reg_word_g => trace_reg_word_g, trace_ram_word_g => trace_ram_word_g,
      trace_depth_log2_g => trace_depth_log2_g, trace_irq_bit_g => trace_irq_bit_g,
      num_irq_g => num_irq_g)
    port map (
      clk => clk, rst => rst, rp_req => rp_req, rp_commit => rp_commit, rp_we => rp_we,
      rp_addr => rp_addr,
      rp_wdata => rp_wdata, rp_ack => rp_ack, rp_rdata => rp_rdata, rp_err => rp_err,
      sn_prog => sn_prog, sn_run => sn_run, sn_soft_reset => sn_soft, sn_ctrl_we => sn_ctrl_we,
      sn_init_we => sn_init_we, sn_init_data => sn_init_data,
      dc_result => dc_result, dc_overflow => dc_overflow, dc_caught => dc_caught,
      tr_wptr => tr_wptr, tr_fill => tr_fill, tr_full => tr_full, tr_overflow => tr_overflow,
      tr_rd_addr => tr_rd_addr, tr_rd_data => tr_rd_data, irq => irq);

  u_ts : entity work.jointer_collect_timestamp
    generic map (width_g => 32)
    port map (clk => clk, rst => rst, timestamp => ts);

  g_sniffer : for i in 0 to s_c - 1 generate
    u_dispenser : entity work.jointer_collect_dispenser
      generic map (num_dcapfs_g => elem(sniffer_units_g, i, 1))
      port map (
        clk => clk, rst => rst, prog => sn_prog(2 * i + 1 downto 2 * i), run => sn_run,
        soft_reset => sn_soft, ctrl_we => sn_ctrl_we, init_we => sn_init_we(i),
        init_data => sn_init_data, run_en => run_en(i), use_filter => use_filter(i),
        clear => clear(i), init_we_o => d_init_we(i), init_sel => d_init_sel(i),
        init_hi => d_init_hi(i), init_data_o => d_init_data(i));
  end generate;

  g_dcapf : for d in 0 to num_dcapfs_g - 1 generate
    constant sn_c : natural := elem(dcapf_sniffer_g, d, 0);
    constant w_c  : positive := elem(dcapf_width_g, d, 32);
    signal result : std_logic_vector(w_c - 1 downto 0);
  begin
    u_dcapf : entity work.jointer_dcapf
      generic map (
        index_g => elem(dcapf_index_g, d, 0), extractor_g => elem(dcapf_extractor_g, d, 0),
        aggregator_g => elem(dcapf_aggregator_g, d, 0), sample_g => elem(dcapf_sample_g, d, 0),
        width_g => w_c, wrap_g => elem(dcapf_wrap_g, d, 0) /= 0)
      port map (
        clk => clk, rst => rst, run_en => run_en(sn_c), use_filter => use_filter(sn_c),
        clear => clear(sn_c), init_we => d_init_we(sn_c), init_sel => d_init_sel(sn_c),
        init_hi => d_init_hi(sn_c), init_data => d_init_data(sn_c),
        ev_good => ev_good(sn_c), ev_data => ev_data(32 * sn_c + 31 downto 32 * sn_c),
        ev_inc => ev_inc(16 * sn_c + 15 downto 16 * sn_c),
        result => result, overflow => dc_overflow(d), caught => dc_caught(d));
    dc_result(64 * d + 63 downto 64 * d) <= std_logic_vector(resize(unsigned(result), 64));
  end generate;

  g_trace : for t in 0 to num_traces_g - 1 generate
    constant sn_c : natural := elem(trace_sniffer_g, t, 0);
  begin
    u_trace : entity work.jointer_trace_extractor
      generic map (
        index_g => elem(trace_index_g, t, 0), depth_log2_g => elem(trace_depth_log2_g, t, 1),
        mode_g => elem(trace_mode_g, t, 0))
      port map (
        clk => clk, rst => rst, run_en => run_en(sn_c), use_filter => use_filter(sn_c),
        clear => clear(sn_c), init_we => d_init_we(sn_c), init_sel => d_init_sel(sn_c),
        init_hi => d_init_hi(sn_c), init_data => d_init_data(sn_c),
        ev_good => ev_good(sn_c), ev_data => ev_data(32 * sn_c + 31 downto 32 * sn_c),
        timestamp => ts,
        tr_wptr => tr_wptr(32 * t + 31 downto 32 * t), tr_fill => tr_fill(32 * t + 31 downto 32 * t),
        tr_full => tr_full(t), tr_overflow => tr_overflow(t),
        tr_rd_addr => tr_rd_addr, tr_rd_data => tr_rd_data(32 * t + 31 downto 32 * t));
  end generate;

  mon_prog      <= sn_prog;
  mon_run       <= sn_run;
  mon_soft      <= sn_soft;
  mon_ctrl_we   <= sn_ctrl_we;
  mon_init_we   <= sn_init_we;
  mon_init_data <= sn_init_data;
  mon_ts        <= ts;

end architecture bench;
