-- SPDX-License-Identifier: MIT
-- sa_soc: the demo coprocessor (sa_accel) with its data memory (sa_mem), on
-- one clock. Every signal a jointer monitor observes is an output: the AXI4
-- channels between the two (transaction level), start/done (task level) and
-- the actor-firing strobes (operation level). Demo IP, not part of the library.

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

entity sa_soc is
  port (
    clk           : in  std_logic;
    rst           : in  std_logic;
    s_axi_awaddr  : in  std_logic_vector(14 downto 0);
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
    s_axi_araddr  : in  std_logic_vector(14 downto 0);
    s_axi_arprot  : in  std_logic_vector(2 downto 0);
    s_axi_arvalid : in  std_logic;
    s_axi_arready : out std_logic;
    s_axi_rdata   : out std_logic_vector(31 downto 0);
    s_axi_rresp   : out std_logic_vector(1 downto 0);
    s_axi_rvalid  : out std_logic;
    s_axi_rready  : in  std_logic;
    -- observed: the DMA's AXI4 channels
    dma_awaddr    : out std_logic_vector(31 downto 0);
    dma_awlen     : out std_logic_vector(7 downto 0);
    dma_awsize    : out std_logic_vector(2 downto 0);
    dma_awburst   : out std_logic_vector(1 downto 0);
    dma_awvalid   : out std_logic;
    dma_awready   : out std_logic;
    dma_wdata     : out std_logic_vector(31 downto 0);
    dma_wstrb     : out std_logic_vector(3 downto 0);
    dma_wlast     : out std_logic;
    dma_wvalid    : out std_logic;
    dma_wready    : out std_logic;
    dma_bresp     : out std_logic_vector(1 downto 0);
    dma_bvalid    : out std_logic;
    dma_bready    : out std_logic;
    dma_araddr    : out std_logic_vector(31 downto 0);
    dma_arlen     : out std_logic_vector(7 downto 0);
    dma_arsize    : out std_logic_vector(2 downto 0);
    dma_arburst   : out std_logic_vector(1 downto 0);
    dma_arvalid   : out std_logic;
    dma_arready   : out std_logic;
    dma_rdata     : out std_logic_vector(31 downto 0);
    dma_rresp     : out std_logic_vector(1 downto 0);
    dma_rlast     : out std_logic;
    dma_rvalid    : out std_logic;
    dma_rready    : out std_logic;
    -- observed: task and operation level
    task_start    : out std_logic;
    task_done     : out std_logic;
    busy          : out std_logic;
    ev_forward    : out std_logic;
    ev_mac        : out std_logic);
end entity sa_soc;

architecture rtl of sa_soc is
  signal mh_req, mh_we, mh_ack : std_logic;
  signal mh_addr               : std_logic_vector(11 downto 0);
  signal mh_wdata, mh_rdata    : std_logic_vector(31 downto 0);
  signal awaddr, wdata, araddr, rdata : std_logic_vector(31 downto 0);
  signal awlen, arlen          : std_logic_vector(7 downto 0);
  signal awsize, arsize        : std_logic_vector(2 downto 0);
  signal awburst, arburst, bresp, rresp : std_logic_vector(1 downto 0);
  signal wstrb                 : std_logic_vector(3 downto 0);
  signal awvalid, awready, wlast, wvalid, wready, bvalid, bready : std_logic;
  signal arvalid, arready, rlast, rvalid, rready : std_logic;
begin

  accel : entity work.sa_accel
    port map (
      clk => clk, rst => rst,
      s_axi_awaddr => s_axi_awaddr, s_axi_awprot => s_axi_awprot, s_axi_awvalid => s_axi_awvalid,
      s_axi_awready => s_axi_awready, s_axi_wdata => s_axi_wdata, s_axi_wstrb => s_axi_wstrb,
      s_axi_wvalid => s_axi_wvalid, s_axi_wready => s_axi_wready, s_axi_bresp => s_axi_bresp,
      s_axi_bvalid => s_axi_bvalid, s_axi_bready => s_axi_bready, s_axi_araddr => s_axi_araddr,
      s_axi_arprot => s_axi_arprot, s_axi_arvalid => s_axi_arvalid, s_axi_arready => s_axi_arready,
      s_axi_rdata => s_axi_rdata, s_axi_rresp => s_axi_rresp, s_axi_rvalid => s_axi_rvalid,
      s_axi_rready => s_axi_rready,
      mh_req => mh_req, mh_we => mh_we, mh_addr => mh_addr, mh_wdata => mh_wdata,
      mh_ack => mh_ack, mh_rdata => mh_rdata,
      m_axi_awaddr => awaddr, m_axi_awlen => awlen, m_axi_awsize => awsize, m_axi_awburst => awburst,
      m_axi_awvalid => awvalid, m_axi_awready => awready, m_axi_wdata => wdata, m_axi_wstrb => wstrb,
      m_axi_wlast => wlast, m_axi_wvalid => wvalid, m_axi_wready => wready, m_axi_bresp => bresp,
      m_axi_bvalid => bvalid, m_axi_bready => bready, m_axi_araddr => araddr, m_axi_arlen => arlen,
      m_axi_arsize => arsize, m_axi_arburst => arburst, m_axi_arvalid => arvalid,
      m_axi_arready => arready, m_axi_rdata => rdata, m_axi_rresp => rresp, m_axi_rlast => rlast,
      m_axi_rvalid => rvalid, m_axi_rready => rready,
      task_start => task_start, task_done => task_done, busy => busy,
      ev_forward => ev_forward, ev_mac => ev_mac);

  mem : entity work.sa_mem
    port map (
      clk => clk, rst => rst,
      s_axi_awaddr => awaddr, s_axi_awlen => awlen, s_axi_awvalid => awvalid, s_axi_awready => awready,
      s_axi_wdata => wdata, s_axi_wlast => wlast, s_axi_wvalid => wvalid, s_axi_wready => wready,
      s_axi_bresp => bresp, s_axi_bvalid => bvalid, s_axi_bready => bready,
      s_axi_araddr => araddr, s_axi_arlen => arlen, s_axi_arvalid => arvalid, s_axi_arready => arready,
      s_axi_rdata => rdata, s_axi_rresp => rresp, s_axi_rlast => rlast, s_axi_rvalid => rvalid,
      s_axi_rready => rready,
      mh_req => mh_req, mh_we => mh_we, mh_addr => mh_addr, mh_wdata => mh_wdata,
      mh_ack => mh_ack, mh_rdata => mh_rdata);

  dma_awaddr <= awaddr;  dma_awlen <= awlen;  dma_awsize <= awsize;  dma_awburst <= awburst;
  dma_awvalid <= awvalid; dma_awready <= awready;
  dma_wdata <= wdata;  dma_wstrb <= wstrb;  dma_wlast <= wlast;  dma_wvalid <= wvalid;  dma_wready <= wready;
  dma_bresp <= bresp;  dma_bvalid <= bvalid;  dma_bready <= bready;
  dma_araddr <= araddr;  dma_arlen <= arlen;  dma_arsize <= arsize;  dma_arburst <= arburst;
  dma_arvalid <= arvalid; dma_arready <= arready;
  dma_rdata <= rdata;  dma_rresp <= rresp;  dma_rlast <= rlast;  dma_rvalid <= rvalid;  dma_rready <= rready;

end architecture rtl;
