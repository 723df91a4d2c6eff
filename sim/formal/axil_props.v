// SPDX-License-Identifier: MIT
// axil_props: the AXI4-Lite rules of a slave, for formal verification only
// (SymbiYosys: scripts/formal.py instantiates it inside the top it checks).
// Written from the protocol's rules (AMBA AXI4-Lite): the master's side is
// assumed, the slave's side asserted. Every signal is sampled on the rising
// edge of clk into registers, and every rule reads those samples only (the
// view of the slave's own flip-flops; sound with other clocks around, in
// SymbiYosys' multiclock mode too). A reset counts at an edge when aresetn
// is low there or was low at any time since the edge before (an
// asynchronous assertion between edges, which a reset bridge catches).
//
// Assumed (the master):
//   - in reset (aresetn low), AWVALID, WVALID, ARVALID are low;
//   - a VALID, once high, stays high with its payload stable until READY;
//   - FIRST_IDLE = 1 only: no VALID in the first cycle after the reset. The
//     protocol allows a master to rely on the slave for this; the checks of
//     this project run with FIRST_IDLE = 0 (the slave must not need it).
//   - reset may come at any cycle (aresetn is free after the first cycle).
// Asserted (the slave):
//   - no BVALID/RVALID in a cycle after a cycle with aresetn low (during the
//     reset, and in the first cycle after it);
//   - BVALID/RVALID, once high, stay high with BRESP / RRESP+RDATA stable
//     until BREADY/RREADY;
//   - no response without a request: BVALID only while an AW and a W
//     handshake are owed a B, RVALID only while an AR is owed an R; at most
//     MAX_OUT requests of a kind owed at a time (the counts never wrap);
//     responses have no ID in AXI4-Lite, so the count is the order;
//   - a response bound: the slave never stalls more than BOUND cycles in a
//     row while it owes progress (an AW+W pair or an AR waiting for READY,
//     or a request owed its response) and the master does not hold it off
//     (a BVALID/RVALID waiting for its READY). Each handshake restarts it.
// Parameters:
//   AW         : address bits
//   BOUND      : cycles of the response bound
//   MAX_OUT    : requests of one kind owed at a time (AXI4-Lite slaves: 1..)
//   FIRST_IDLE : 1 assumes the master idle in the first cycle after reset
//   DATA       : 0 leaves RDATA unchecked (a proof of the control rules alone:
//                the read data's cone, every LMIC's results, drops out)

`default_nettype none

module axil_props #(
  parameter integer AW = 12,
  parameter integer BOUND = 16,
  parameter integer MAX_OUT = 1,
  parameter integer FIRST_IDLE = 0,
  parameter integer DATA = 1
) (
  input wire          clk,
  input wire          aresetn,
  input wire [AW-1:0] awaddr,
  input wire [2:0]    awprot,
  input wire          awvalid,
  input wire          awready,
  input wire [31:0]   wdata,
  input wire [3:0]    wstrb,
  input wire          wvalid,
  input wire          wready,
  input wire [1:0]    bresp,
  input wire          bvalid,
  input wire          bready,
  input wire [AW-1:0] araddr,
  input wire [2:0]    arprot,
  input wire          arvalid,
  input wire          arready,
  input wire [31:0]   rdata,
  input wire [1:0]    rresp,
  input wire          rvalid,
  input wire          rready
);
  localparam integer CW = 4;   // outstanding counters
  localparam integer SW = 16;  // stall counter

  // Every check reads samples taken at the rising edge of clk (s_*: the last
  // edge, p_*: the one before), never the wires between edges: the same
  // view as the slave's flip-flops, also with other clocks (multiclock).
  reg [1:0]    n = 2'd0;       // edges seen (saturating at 2)
  reg          s_rstn, p_rstn;
  reg [AW-1:0] s_awaddr, p_awaddr, s_araddr, p_araddr;
  reg [2:0]    s_awprot, p_awprot, s_arprot, p_arprot;
  reg [31:0]   s_wdata, p_wdata, s_rdata, p_rdata;
  reg [3:0]    s_wstrb, p_wstrb;
  reg [1:0]    s_bresp, p_bresp, s_rresp, p_rresp;
  reg          s_awvalid, p_awvalid, s_awready, p_awready, s_wvalid, p_wvalid, s_wready, p_wready;
  reg          s_bvalid, p_bvalid, s_bready, p_bready, s_arvalid, p_arvalid, s_arready, p_arready;
  reg          s_rvalid, p_rvalid, s_rready, p_rready;
  reg [CW-1:0] aw_owed = 0, w_owed = 0, ar_owed = 0;   // through the edge before the last
  reg [SW-1:0] stall = 0;
  reg          low_q = 1'b1;   // aresetn low at the last edge or since (set at once, as a reset bridge)
  reg          raw_q = 1'b0;   // aresetn at the last edge

  always @(posedge clk or negedge aresetn)
    if (!aresetn)
      low_q <= 1'b1;
    else
      low_q <= 1'b0;

  always @(posedge clk) begin
    n <= (n == 2'd2) ? n : n + 2'd1;
    raw_q <= aresetn;
    {s_rstn, s_awaddr, s_awprot, s_awvalid, s_awready, s_wdata, s_wstrb, s_wvalid, s_wready} <=
      {aresetn && !(low_q && raw_q), awaddr, awprot, awvalid, awready, wdata, wstrb, wvalid, wready};
    {s_bresp, s_bvalid, s_bready, s_araddr, s_arprot, s_arvalid, s_arready, s_rdata, s_rresp, s_rvalid,
     s_rready} <= {bresp, bvalid, bready, araddr, arprot, arvalid, arready, rdata, rresp, rvalid, rready};
    {p_rstn, p_awaddr, p_awprot, p_awvalid, p_awready, p_wdata, p_wstrb, p_wvalid, p_wready} <=
      {s_rstn, s_awaddr, s_awprot, s_awvalid, s_awready, s_wdata, s_wstrb, s_wvalid, s_wready};
    {p_bresp, p_bvalid, p_bready, p_araddr, p_arprot, p_arvalid, p_arready, p_rdata, p_rresp, p_rvalid,
     p_rready} <= {s_bresp, s_bvalid, s_bready, s_araddr, s_arprot, s_arvalid, s_arready, s_rdata, s_rresp,
                   s_rvalid, s_rready};
    if (n != 0) begin     // count the handshakes of the last sample
      if (!s_rstn) begin
        aw_owed <= 0;
        w_owed  <= 0;
        ar_owed <= 0;
      end else begin
        aw_owed <= aw_owed + (s_awvalid && s_awready) - (s_bvalid && s_bready);
        w_owed  <= w_owed + (s_wvalid && s_wready) - (s_bvalid && s_bready);
        ar_owed <= ar_owed + (s_arvalid && s_arready) - (s_rvalid && s_rready);
      end
      if (!s_rstn || hs || !owes || held_off)
        stall <= 0;
      else if (stall != {SW{1'b1}})
        stall <= stall + 1;
    end
  end

  // of the last sample (the owed counts are those before it)
  wire hs = (s_awvalid && s_awready) || (s_wvalid && s_wready) || (s_bvalid && s_bready)
            || (s_arvalid && s_arready) || (s_rvalid && s_rready);
  wire held_off = (s_bvalid && !s_bready) || (s_rvalid && !s_rready);
  wire owes = (s_awvalid && s_wvalid) || s_arvalid || (aw_owed != 0 && w_owed != 0 && !s_bvalid)
              || (ar_owed != 0 && !s_rvalid);
  wire one = n != 0;           // s_* hold a sample
  wire two = n == 2'd2;        // p_* too

  // ---- the master (assumed) --------------------------------------------
  always @(*) begin
    if (one && !two)
      assume (!s_rstn);                         // the run starts in reset
    if (one && !s_rstn)
      assume (!s_awvalid && !s_wvalid && !s_arvalid);
    if (two && p_rstn && s_rstn) begin
      if (p_awvalid && !p_awready)
        assume (s_awvalid && s_awaddr == p_awaddr && s_awprot == p_awprot);
      if (p_wvalid && !p_wready)
        assume (s_wvalid && s_wdata == p_wdata && s_wstrb == p_wstrb);
      if (p_arvalid && !p_arready)
        assume (s_arvalid && s_araddr == p_araddr && s_arprot == p_arprot);
    end
    if (FIRST_IDLE != 0 && two && !p_rstn)
      assume (!s_awvalid && !s_wvalid && !s_arvalid);
  end

  // ---- the slave (asserted) --------------------------------------------
  always @(*) begin
    if (two && !p_rstn) begin
      assert (!s_bvalid);                       // reset: no response, also in the first cycle after
      assert (!s_rvalid);
    end
    if (two && p_rstn && s_rstn) begin
      if (p_bvalid && !p_bready)
        assert (s_bvalid && s_bresp == p_bresp);
      if (p_rvalid && !p_rready)
        assert (s_rvalid && s_rresp == p_rresp && (DATA == 0 || s_rdata == p_rdata));
    end
    if (two && p_rstn) begin
      assert (!s_bvalid || (aw_owed != 0 && w_owed != 0));   // no B without AW and W
      assert (!s_rvalid || ar_owed != 0);                    // no R without AR
      assert (aw_owed <= MAX_OUT && w_owed <= MAX_OUT && ar_owed <= MAX_OUT);
      assert (stall < BOUND);
    end
  end
endmodule

`default_nettype wire
