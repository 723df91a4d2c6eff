-- sa_latency_top: the demo coprocessor (sim/cosim/accel) on its own clock,
-- its AXI4 DMA watched by the generated latency_demo monitor
-- (sim/cosim/scenarios/configs/latency_demo.yaml; issue 7 part 2): three
-- axi4_latency sniffers on the same channels, rd_* (AR -> RLAST), wr_* (AW ->
-- B) and wl_* (AW -> WLAST). Same host ports as sa_demo_top (s_axi_*, acc_axi_*).

library ieee;
use ieee.std_logic_1164.all;

entity sa_latency_top is
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
end entity sa_latency_top;

architecture rtl of sa_latency_top is
  signal acc_rst : std_logic;
  signal awaddr, wdata, araddr, rdata : std_logic_vector(31 downto 0);
  signal awlen, arlen : std_logic_vector(7 downto 0);
  signal awsize, arsize : std_logic_vector(2 downto 0);
  signal awburst, arburst, bresp, rresp : std_logic_vector(1 downto 0);
  signal wstrb : std_logic_vector(3 downto 0);
  signal awvalid, awready, wlast, wvalid, wready, bvalid, bready : std_logic;
  signal arvalid, arready, rlast, rvalid, rready : std_logic;
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
      task_start => open, task_done => open, busy => open,
      ev_forward => open, ev_mac => open);

  monitor : entity work.latency_demo_monitor
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
      rd_awaddr => awaddr, rd_awlen => awlen, rd_awsize => awsize, rd_awburst => awburst,
      rd_awlock => '0', rd_awcache => "0011", rd_awprot => "000", rd_awqos => "0000",
      rd_awvalid => awvalid, rd_awready => awready, rd_wdata => wdata, rd_wstrb => wstrb,
      rd_wlast => wlast, rd_wvalid => wvalid, rd_wready => wready, rd_bresp => bresp,
      rd_bvalid => bvalid, rd_bready => bready, rd_araddr => araddr, rd_arlen => arlen,
      rd_arsize => arsize, rd_arburst => arburst, rd_arlock => '0', rd_arcache => "0011",
      rd_arprot => "000", rd_arqos => "0000", rd_arvalid => arvalid, rd_arready => arready,
      rd_rdata => rdata, rd_rresp => rresp, rd_rlast => rlast, rd_rvalid => rvalid,
      rd_rready => rready, wr_awaddr => awaddr, wr_awlen => awlen, wr_awsize => awsize,
      wr_awburst => awburst, wr_awlock => '0', wr_awcache => "0011", wr_awprot => "000",
      wr_awqos => "0000", wr_awvalid => awvalid, wr_awready => awready, wr_wdata => wdata,
      wr_wstrb => wstrb, wr_wlast => wlast, wr_wvalid => wvalid, wr_wready => wready,
      wr_bresp => bresp, wr_bvalid => bvalid, wr_bready => bready, wr_araddr => araddr,
      wr_arlen => arlen, wr_arsize => arsize, wr_arburst => arburst, wr_arlock => '0',
      wr_arcache => "0011", wr_arprot => "000", wr_arqos => "0000", wr_arvalid => arvalid,
      wr_arready => arready, wr_rdata => rdata, wr_rresp => rresp, wr_rlast => rlast,
      wr_rvalid => rvalid, wr_rready => rready, wl_awaddr => awaddr, wl_awlen => awlen,
      wl_awsize => awsize, wl_awburst => awburst, wl_awlock => '0', wl_awcache => "0011",
      wl_awprot => "000", wl_awqos => "0000", wl_awvalid => awvalid, wl_awready => awready,
      wl_wdata => wdata, wl_wstrb => wstrb, wl_wlast => wlast, wl_wvalid => wvalid,
      wl_wready => wready, wl_bresp => bresp, wl_bvalid => bvalid, wl_bready => bready,
      wl_araddr => araddr, wl_arlen => arlen, wl_arsize => arsize, wl_arburst => arburst,
      wl_arlock => '0', wl_arcache => "0011", wl_arprot => "000", wl_arqos => "0000",
      wl_arvalid => arvalid, wl_arready => arready, wl_rdata => rdata, wl_rresp => rresp,
      wl_rlast => rlast, wl_rvalid => rvalid, wl_rready => rready);

end architecture rtl;
