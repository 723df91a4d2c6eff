-- sa_demo_top: the demo system of `make demo`: the Selective Accumulations
-- coprocessor (sim/cosim/accel) on its own clock, watched by the generated
-- Y9 monitor (configs/selective_accumulations.yaml) at its three levels:
--   transaction: the coprocessor's AXI4 DMA channels -> transaction_*
--   task:        task_start / task_done               -> task_*
--   operation:   forward / mac_16 firings              -> operation_events(0 / 1)
-- Host ports: s_axi_* (the monitor, bus clock s_axi_aclk) and acc_axi_* (the
-- coprocessor's control slave, clock accel_clk). The monitor only observes.

library ieee;
use ieee.std_logic_1164.all;

entity sa_demo_top is
  port (
    s_axi_aclk     : in  std_logic;
    s_axi_aresetn  : in  std_logic;
    s_axi_awaddr   : in  std_logic_vector(11 downto 0);
    s_axi_awprot   : in  std_logic_vector(2 downto 0);
    s_axi_awvalid  : in  std_logic;
    s_axi_awready  : out std_logic;
    s_axi_wdata    : in  std_logic_vector(31 downto 0);
    s_axi_wstrb    : in  std_logic_vector(3 downto 0);
    s_axi_wvalid   : in  std_logic;
    s_axi_wready   : out std_logic;
    s_axi_bresp    : out std_logic_vector(1 downto 0);
    s_axi_bvalid   : out std_logic;
    s_axi_bready   : in  std_logic;
    s_axi_araddr   : in  std_logic_vector(11 downto 0);
    s_axi_arprot   : in  std_logic_vector(2 downto 0);
    s_axi_arvalid  : in  std_logic;
    s_axi_arready  : out std_logic;
    s_axi_rdata    : out std_logic_vector(31 downto 0);
    s_axi_rresp    : out std_logic_vector(1 downto 0);
    s_axi_rvalid   : out std_logic;
    s_axi_rready   : in  std_logic;
    accel_clk      : in  std_logic;
    accel_resetn   : in  std_logic;
    acc_axi_awaddr  : in  std_logic_vector(14 downto 0);
    acc_axi_awprot  : in  std_logic_vector(2 downto 0);
    acc_axi_awvalid : in  std_logic;
    acc_axi_awready : out std_logic;
    acc_axi_wdata   : in  std_logic_vector(31 downto 0);
    acc_axi_wstrb   : in  std_logic_vector(3 downto 0);
    acc_axi_wvalid  : in  std_logic;
    acc_axi_wready  : out std_logic;
    acc_axi_bresp   : out std_logic_vector(1 downto 0);
    acc_axi_bvalid  : out std_logic;
    acc_axi_bready  : in  std_logic;
    acc_axi_araddr  : in  std_logic_vector(14 downto 0);
    acc_axi_arprot  : in  std_logic_vector(2 downto 0);
    acc_axi_arvalid : in  std_logic;
    acc_axi_arready : out std_logic;
    acc_axi_rdata   : out std_logic_vector(31 downto 0);
    acc_axi_rresp   : out std_logic_vector(1 downto 0);
    acc_axi_rvalid  : out std_logic;
    acc_axi_rready  : in  std_logic;
    irq            : out std_logic);
end entity sa_demo_top;

architecture rtl of sa_demo_top is
  signal acc_rst : std_logic;
  signal awaddr, wdata, araddr, rdata : std_logic_vector(31 downto 0);
  signal awlen, arlen : std_logic_vector(7 downto 0);
  signal awsize, arsize : std_logic_vector(2 downto 0);
  signal awburst, arburst, bresp, rresp : std_logic_vector(1 downto 0);
  signal wstrb : std_logic_vector(3 downto 0);
  signal awvalid, awready, wlast, wvalid, wready, bvalid, bready : std_logic;
  signal arvalid, arready, rlast, rvalid, rready : std_logic;
  signal task_start, task_done, ev_forward, ev_mac : std_logic;
begin

  acc_rst <= not accel_resetn;  -- accel_resetn is synchronous to accel_clk

  soc : entity work.sa_soc
    port map (
      clk => accel_clk, rst => acc_rst,
      s_axi_awaddr => acc_axi_awaddr, s_axi_awprot => acc_axi_awprot, s_axi_awvalid => acc_axi_awvalid,
      s_axi_awready => acc_axi_awready, s_axi_wdata => acc_axi_wdata, s_axi_wstrb => acc_axi_wstrb,
      s_axi_wvalid => acc_axi_wvalid, s_axi_wready => acc_axi_wready, s_axi_bresp => acc_axi_bresp,
      s_axi_bvalid => acc_axi_bvalid, s_axi_bready => acc_axi_bready, s_axi_araddr => acc_axi_araddr,
      s_axi_arprot => acc_axi_arprot, s_axi_arvalid => acc_axi_arvalid, s_axi_arready => acc_axi_arready,
      s_axi_rdata => acc_axi_rdata, s_axi_rresp => acc_axi_rresp, s_axi_rvalid => acc_axi_rvalid,
      s_axi_rready => acc_axi_rready,
      dma_awaddr => awaddr, dma_awlen => awlen, dma_awsize => awsize, dma_awburst => awburst,
      dma_awvalid => awvalid, dma_awready => awready, dma_wdata => wdata, dma_wstrb => wstrb,
      dma_wlast => wlast, dma_wvalid => wvalid, dma_wready => wready, dma_bresp => bresp,
      dma_bvalid => bvalid, dma_bready => bready, dma_araddr => araddr, dma_arlen => arlen,
      dma_arsize => arsize, dma_arburst => arburst, dma_arvalid => arvalid, dma_arready => arready,
      dma_rdata => rdata, dma_rresp => rresp, dma_rlast => rlast, dma_rvalid => rvalid,
      dma_rready => rready,
      task_start => task_start, task_done => task_done, busy => open,
      ev_forward => ev_forward, ev_mac => ev_mac);

  monitor : entity work.selective_accumulations_monitor
    port map (
      s_axi_aclk => s_axi_aclk, s_axi_aresetn => s_axi_aresetn,
      s_axi_awaddr => s_axi_awaddr, s_axi_awprot => s_axi_awprot, s_axi_awvalid => s_axi_awvalid,
      s_axi_awready => s_axi_awready, s_axi_wdata => s_axi_wdata, s_axi_wstrb => s_axi_wstrb,
      s_axi_wvalid => s_axi_wvalid, s_axi_wready => s_axi_wready, s_axi_bresp => s_axi_bresp,
      s_axi_bvalid => s_axi_bvalid, s_axi_bready => s_axi_bready, s_axi_araddr => s_axi_araddr,
      s_axi_arprot => s_axi_arprot, s_axi_arvalid => s_axi_arvalid, s_axi_arready => s_axi_arready,
      s_axi_rdata => s_axi_rdata, s_axi_rresp => s_axi_rresp, s_axi_rvalid => s_axi_rvalid,
      s_axi_rready => s_axi_rready,
      accel_clk => accel_clk, accel_resetn => accel_resetn, irq => irq,
      transaction_awid => "0", transaction_awaddr => awaddr, transaction_awlen => awlen,
      transaction_awsize => awsize, transaction_awburst => awburst, transaction_awlock => '0',
      transaction_awcache => "0011", transaction_awprot => "000", transaction_awqos => "0000",
      transaction_awvalid => awvalid, transaction_awready => awready,
      transaction_wdata => wdata, transaction_wstrb => wstrb, transaction_wlast => wlast,
      transaction_wvalid => wvalid, transaction_wready => wready,
      transaction_bid => "0", transaction_bresp => bresp, transaction_bvalid => bvalid,
      transaction_bready => bready,
      transaction_arid => "0", transaction_araddr => araddr, transaction_arlen => arlen,
      transaction_arsize => arsize, transaction_arburst => arburst, transaction_arlock => '0',
      transaction_arcache => "0011", transaction_arprot => "000", transaction_arqos => "0000",
      transaction_arvalid => arvalid, transaction_arready => arready,
      transaction_rid => "0", transaction_rdata => rdata, transaction_rresp => rresp,
      transaction_rlast => rlast, transaction_rvalid => rvalid, transaction_rready => rready,
      task_start => task_start, task_done => task_done,
      operation_events(0) => ev_forward, operation_events(1) => ev_mac);

end architecture rtl;
