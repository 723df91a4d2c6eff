-- SPDX-License-Identifier: MIT
-- tb_collect_core: the collection layer as a generated monitor composes it
-- (doc/internals/compositions.md): jointer_collect_dci + jointer_collect_global
-- (every optional register: TIMESTAMP, MARK, SCRATCH) + a bus-clock
-- timestamp, area 0 (tb_collect_area) on the bus clock wired
-- directly to the DCI, area 1 on its own clock behind jointer_collect_cdc,
-- its irq through jointer_collect_sync. The global timestamp is the counter
-- plus ts_preset (a test input) so that a test reaches 2^32 quickly.
-- Generics: the DCI/global ones, the CDC timeout, and a0_* / a1_* for the
-- two areas (see tb_collect_area).

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use work.jointer_pkg.all;

entity tb_collect_core is
  generic (
    addr_w_g      : positive := 10;
    window_log2_g : positive := 8;
    strict_g      : boolean := false;
    config_hash_g : std_logic_vector(31 downto 0) := x"00000000";
    info_g        : std_logic_vector(31 downto 0) := x"00000802";
    cdc_timeout_g : positive := 256;
    rst_stages_g  : positive := 1;  -- bus reset: 1 register, or a jointer_collect_reset of that depth
    -- area 0 (bus clock)
    a0_num_sniffers_g : positive := 1;  a0_num_dcapfs_g : natural := 1;  a0_num_traces_g : natural := 1;
    a0_dcapf_sniffer_g : integer_vector := (0 => 0);  a0_dcapf_width_g : integer_vector := (0 => 32);
    a0_dcapf_result_word_g : integer_vector := (0 => 5);
    a0_dcapf_threshold_word_g : integer_vector := (0 => 6);
    a0_dcapf_irq_bit_g : integer_vector := (0 => 0);
    a0_trace_sniffer_g : integer_vector := (0 => 0);  a0_trace_reg_word_g : integer_vector := (0 => 7);
    a0_trace_ram_word_g : integer_vector := (0 => 16);
    a0_trace_depth_log2_g : integer_vector := (0 => 3);
    a0_trace_irq_bit_g : integer_vector := (0 => 1);  a0_num_irq_g : natural := 3;
    a0_dcapf_index_g : integer_vector := (0 => 0);  a0_dcapf_extractor_g : integer_vector := (0 => 0);
    a0_dcapf_aggregator_g : integer_vector := (0 => 0);  a0_dcapf_sample_g : integer_vector := (0 => 0);
    a0_dcapf_wrap_g : integer_vector := (0 => 0);  a0_trace_index_g : integer_vector := (0 => 1);
    a0_trace_mode_g : integer_vector := (0 => 0);  a0_sniffer_units_g : integer_vector := (0 => 2);
    -- area 1 (own clock, behind the CDC bridge)
    a1_num_sniffers_g : positive := 1;  a1_num_dcapfs_g : natural := 1;  a1_num_traces_g : natural := 1;
    a1_dcapf_sniffer_g : integer_vector := (0 => 0);  a1_dcapf_width_g : integer_vector := (0 => 32);
    a1_dcapf_result_word_g : integer_vector := (0 => 5);
    a1_dcapf_threshold_word_g : integer_vector := (0 => 6);
    a1_dcapf_irq_bit_g : integer_vector := (0 => 0);
    a1_trace_sniffer_g : integer_vector := (0 => 0);  a1_trace_reg_word_g : integer_vector := (0 => 7);
    a1_trace_ram_word_g : integer_vector := (0 => 16);
    a1_trace_depth_log2_g : integer_vector := (0 => 3);
    a1_trace_irq_bit_g : integer_vector := (0 => 1);  a1_num_irq_g : natural := 3;
    a1_dcapf_index_g : integer_vector := (0 => 0);  a1_dcapf_extractor_g : integer_vector := (0 => 0);
    a1_dcapf_aggregator_g : integer_vector := (0 => 0);  a1_dcapf_sample_g : integer_vector := (0 => 0);
    a1_dcapf_wrap_g : integer_vector := (0 => 0);  a1_trace_index_g : integer_vector := (0 => 1);
    a1_trace_mode_g : integer_vector := (0 => 0);  a1_sniffer_units_g : integer_vector := (0 => 2));
  port (
    s_axi_aclk    : in  std_logic;
    s_axi_aresetn : in  std_logic;
    s_axi_awaddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    s_axi_awprot  : in  std_logic_vector(2 downto 0);
    s_axi_awvalid : in  std_logic;
    s_axi_awready : out std_logic;
    s_axi_wdata   : in  std_logic_vector(31 downto 0);
    s_axi_wstrb   : in  std_logic_vector(3 downto 0);
    s_axi_wvalid  : in  std_logic;
    s_axi_wready  : out std_logic;
    s_axi_bresp   : out std_logic_vector(1 downto 0);
    s_axi_bvalid  : out std_logic;
    s_axi_bready  : in  std_logic;
    s_axi_araddr  : in  std_logic_vector(addr_w_g - 1 downto 0);
    s_axi_arprot  : in  std_logic_vector(2 downto 0);
    s_axi_arvalid : in  std_logic;
    s_axi_arready : out std_logic;
    s_axi_rdata   : out std_logic_vector(31 downto 0);
    s_axi_rresp   : out std_logic_vector(1 downto 0);
    s_axi_rvalid  : out std_logic;
    s_axi_rready  : in  std_logic;
    irq           : out std_logic;
    ts_preset     : in  std_logic_vector(63 downto 0);
    mark_valid    : out std_logic;
    mark_data     : out std_logic_vector(31 downto 0);
    -- area 0: bus clock
    a0_ev_good       : in  std_logic_vector(a0_num_sniffers_g - 1 downto 0);
    a0_ev_data       : in  std_logic_vector(32 * a0_num_sniffers_g - 1 downto 0);
    a0_ev_inc        : in  std_logic_vector(16 * a0_num_sniffers_g - 1 downto 0);
    a0_mon_prog      : out std_logic_vector(2 * a0_num_sniffers_g - 1 downto 0);
    a0_mon_run       : out std_logic;
    a0_mon_soft      : out std_logic;
    a0_mon_ctrl_we   : out std_logic;
    a0_mon_init_we   : out std_logic_vector(a0_num_sniffers_g - 1 downto 0);
    a0_mon_init_data : out std_logic_vector(31 downto 0);
    a0_mon_ts        : out std_logic_vector(31 downto 0);
    a0_rst           : out std_logic;
    -- area 1: its own clock and reset
    a1_clk           : in  std_logic;
    a1_rst           : in  std_logic;
    a1_ev_good       : in  std_logic_vector(a1_num_sniffers_g - 1 downto 0);
    a1_ev_data       : in  std_logic_vector(32 * a1_num_sniffers_g - 1 downto 0);
    a1_ev_inc        : in  std_logic_vector(16 * a1_num_sniffers_g - 1 downto 0);
    a1_mon_prog      : out std_logic_vector(2 * a1_num_sniffers_g - 1 downto 0);
    a1_mon_run       : out std_logic;
    a1_mon_soft      : out std_logic;
    a1_mon_ctrl_we   : out std_logic;
    a1_mon_init_we   : out std_logic_vector(a1_num_sniffers_g - 1 downto 0);
    a1_mon_init_data : out std_logic_vector(31 downto 0);
    a1_mon_ts        : out std_logic_vector(31 downto 0));
end entity tb_collect_core;

architecture bench of tb_collect_core is
  constant aw_c : positive := window_log2_g - 2;
  signal bus_rst   : std_logic := '1';
  signal count     : std_logic_vector(63 downto 0);
  signal timestamp : std_logic_vector(63 downto 0);
  signal t_req, t_commit, t_ack, t_err : std_logic_vector(2 downto 0);
  signal t_start : std_logic;
  signal t_we      : std_logic;
  signal t_addr    : std_logic_vector(aw_c - 1 downto 0);
  signal t_wdata   : std_logic_vector(31 downto 0);
  signal t_rdata   : std_logic_vector(95 downto 0);
  signal lmic_irq  : std_logic_vector(1 downto 0);
  signal irq0, irq1 : std_logic;
  -- area 1 register port (m side of the bridge)
  signal m_req, m_commit, m_we, m_ack, m_err : std_logic;
  signal m_addr  : std_logic_vector(aw_c - 1 downto 0);
  signal m_wdata, m_rdata : std_logic_vector(31 downto 0);
begin

  -- the bus-domain reset, registered and active high (as the generated top:
  -- a reset bridge of rst_stages_g flip-flops when that is at least 2)
  g_rst1 : if rst_stages_g = 1 generate
    process (s_axi_aclk)
    begin
      if rising_edge(s_axi_aclk) then
        bus_rst <= not s_axi_aresetn;
      end if;
    end process;
  end generate;
  g_rstn : if rst_stages_g > 1 generate
    u_rst_bus : entity work.jointer_collect_reset
      generic map (stages_g => rst_stages_g)
      port map (clk => s_axi_aclk, resetn => s_axi_aresetn, rst => bus_rst);
  end generate;
  a0_rst <= bus_rst;

  u_timestamp : entity work.jointer_collect_timestamp
    generic map (width_g => 64)
    port map (clk => s_axi_aclk, rst => bus_rst, timestamp => count);
  timestamp <= std_logic_vector(unsigned(count) + unsigned(ts_preset));

  u_dci : entity work.jointer_collect_dci
    generic map (addr_w_g => addr_w_g, num_lmics_g => 2, window_log2_g => window_log2_g,
                 strict_g => strict_g, bridged_g => 4)
    port map (
      s_axi_aclk => s_axi_aclk, s_axi_aresetn => s_axi_aresetn, rst => bus_rst,
      s_axi_awaddr => s_axi_awaddr, s_axi_awprot => s_axi_awprot, s_axi_awvalid => s_axi_awvalid,
      s_axi_awready => s_axi_awready, s_axi_wdata => s_axi_wdata, s_axi_wstrb => s_axi_wstrb,
      s_axi_wvalid => s_axi_wvalid, s_axi_wready => s_axi_wready, s_axi_bresp => s_axi_bresp,
      s_axi_bvalid => s_axi_bvalid, s_axi_bready => s_axi_bready, s_axi_araddr => s_axi_araddr,
      s_axi_arprot => s_axi_arprot, s_axi_arvalid => s_axi_arvalid, s_axi_arready => s_axi_arready,
      s_axi_rdata => s_axi_rdata, s_axi_rresp => s_axi_rresp, s_axi_rvalid => s_axi_rvalid,
      s_axi_rready => s_axi_rready,
      t_req => t_req, t_start => t_start, t_commit => t_commit, t_we => t_we, t_addr => t_addr, t_wdata => t_wdata,
      t_ack => t_ack, t_rdata => t_rdata, t_err => t_err);

  u_global : entity work.jointer_collect_global
    generic map (addr_w_g => aw_c, strict_g => strict_g, config_hash_g => config_hash_g,
                 info_g => info_g, num_lmics_g => 2, has_timestamp_g => true, has_mark_g => true,
                 has_scratch_g => true)
    port map (
      clk => s_axi_aclk, rst => bus_rst, rp_req => t_req(0), rp_start => t_start, rp_commit => t_commit(0), rp_we => t_we,
      rp_addr => t_addr,
      rp_wdata => t_wdata, rp_ack => t_ack(0), rp_rdata => t_rdata(31 downto 0), rp_err => t_err(0),
      lmic_irq => lmic_irq, irq => irq, mark_valid => mark_valid, mark_data => mark_data,
      timestamp => timestamp);

  -- area 0: same clock, wired directly (no bridge, no synchroniser)
  u_area0 : entity work.tb_collect_area
    generic map (
      addr_w_g => aw_c, strict_g => strict_g, num_sniffers_g => a0_num_sniffers_g,
      num_dcapfs_g => a0_num_dcapfs_g, num_traces_g => a0_num_traces_g,
      dcapf_sniffer_g => a0_dcapf_sniffer_g, dcapf_width_g => a0_dcapf_width_g,
      dcapf_result_word_g => a0_dcapf_result_word_g,
      dcapf_threshold_word_g => a0_dcapf_threshold_word_g, dcapf_irq_bit_g => a0_dcapf_irq_bit_g,
      trace_sniffer_g => a0_trace_sniffer_g, trace_reg_word_g => a0_trace_reg_word_g,
      trace_ram_word_g => a0_trace_ram_word_g, trace_depth_log2_g => a0_trace_depth_log2_g,
      trace_irq_bit_g => a0_trace_irq_bit_g, num_irq_g => a0_num_irq_g,
      dcapf_index_g => a0_dcapf_index_g, dcapf_extractor_g => a0_dcapf_extractor_g,
      dcapf_aggregator_g => a0_dcapf_aggregator_g, dcapf_sample_g => a0_dcapf_sample_g,
      dcapf_wrap_g => a0_dcapf_wrap_g, trace_index_g => a0_trace_index_g,
      trace_mode_g => a0_trace_mode_g, sniffer_units_g => a0_sniffer_units_g)
    port map (
      clk => s_axi_aclk, rst => bus_rst, rp_req => t_req(1), rp_commit => t_commit(1), rp_we => t_we,
      rp_addr => t_addr,
      rp_wdata => t_wdata, rp_ack => t_ack(1), rp_rdata => t_rdata(63 downto 32), rp_err => t_err(1),
      irq => irq0, ev_good => a0_ev_good, ev_data => a0_ev_data, ev_inc => a0_ev_inc,
      mon_prog => a0_mon_prog, mon_run => a0_mon_run, mon_soft => a0_mon_soft,
      mon_ctrl_we => a0_mon_ctrl_we, mon_init_we => a0_mon_init_we,
      mon_init_data => a0_mon_init_data, mon_ts => a0_mon_ts);
  lmic_irq(0) <= irq0;

  -- area 1: its own clock, through the request/acknowledge bridge
  u_cdc : entity work.jointer_collect_cdc
    generic map (addr_w_g => aw_c, timeout_g => cdc_timeout_g)
    port map (
      s_clk => s_axi_aclk, s_rst => bus_rst, s_req => t_req(2), s_commit => t_commit(2), s_we => t_we,
      s_addr => t_addr,
      s_wdata => t_wdata, s_ack => t_ack(2), s_rdata => t_rdata(95 downto 64), s_err => t_err(2),
      m_clk => a1_clk, m_rst => a1_rst, m_req => m_req, m_commit => m_commit, m_we => m_we,
      m_addr => m_addr,
      m_wdata => m_wdata, m_ack => m_ack, m_rdata => m_rdata, m_err => m_err);

  u_area1 : entity work.tb_collect_area
    generic map (
      addr_w_g => aw_c, strict_g => strict_g, num_sniffers_g => a1_num_sniffers_g,
      num_dcapfs_g => a1_num_dcapfs_g, num_traces_g => a1_num_traces_g,
      dcapf_sniffer_g => a1_dcapf_sniffer_g, dcapf_width_g => a1_dcapf_width_g,
      dcapf_result_word_g => a1_dcapf_result_word_g,
      dcapf_threshold_word_g => a1_dcapf_threshold_word_g, dcapf_irq_bit_g => a1_dcapf_irq_bit_g,
      trace_sniffer_g => a1_trace_sniffer_g, trace_reg_word_g => a1_trace_reg_word_g,
      trace_ram_word_g => a1_trace_ram_word_g, trace_depth_log2_g => a1_trace_depth_log2_g,
      trace_irq_bit_g => a1_trace_irq_bit_g, num_irq_g => a1_num_irq_g,
      dcapf_index_g => a1_dcapf_index_g, dcapf_extractor_g => a1_dcapf_extractor_g,
      dcapf_aggregator_g => a1_dcapf_aggregator_g, dcapf_sample_g => a1_dcapf_sample_g,
      dcapf_wrap_g => a1_dcapf_wrap_g, trace_index_g => a1_trace_index_g,
      trace_mode_g => a1_trace_mode_g, sniffer_units_g => a1_sniffer_units_g)
    port map (
      clk => a1_clk, rst => a1_rst, rp_req => m_req, rp_commit => m_commit, rp_we => m_we,
      rp_addr => m_addr,
      rp_wdata => m_wdata, rp_ack => m_ack, rp_rdata => m_rdata, rp_err => m_err,
      irq => irq1, ev_good => a1_ev_good, ev_data => a1_ev_data, ev_inc => a1_ev_inc,
      mon_prog => a1_mon_prog, mon_run => a1_mon_run, mon_soft => a1_mon_soft,
      mon_ctrl_we => a1_mon_ctrl_we, mon_init_we => a1_mon_init_we,
      mon_init_data => a1_mon_init_data, mon_ts => a1_mon_ts);

  u_irq_sync : entity work.jointer_collect_sync
    generic map (width_g => 1, stages_g => 2)
    port map (clk => s_axi_aclk, rst => bus_rst, d(0) => irq1, q(0) => lmic_irq(1));

end architecture bench;
