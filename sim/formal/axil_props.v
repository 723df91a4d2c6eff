// axil_props: the AXI4-Lite rules of a slave, for formal verification only
// (SymbiYosys: scripts/formal.py instantiates it inside the top it checks).
// Written from the protocol's rules (AMBA AXI4-Lite): the master's side is
// assumed, the slave's side asserted. Every signal is sampled on the rising
// edge of clk; aresetn is sampled too (a reset seen at an edge).
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

`default_nettype none

module axil_props #(
  parameter integer AW = 12,
  parameter integer BOUND = 16,
  parameter integer MAX_OUT = 1,
  parameter integer FIRST_IDLE = 0
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

  reg          past_valid = 1'b0;
  reg          past_rstn;
  reg [CW-1:0] aw_owed = 0, w_owed = 0, ar_owed = 0;
  reg [SW-1:0] stall = 0;

  wire aw_hs = awvalid && awready;
  wire w_hs  = wvalid && wready;
  wire b_hs  = bvalid && bready;
  wire ar_hs = arvalid && arready;
  wire r_hs  = rvalid && rready;
  wire held_off = (bvalid && !bready) || (rvalid && !rready);
  wire owes = (awvalid && wvalid) || arvalid || (aw_owed != 0 && w_owed != 0 && !bvalid)
              || (ar_owed != 0 && !rvalid);

  always @(posedge clk) begin
    past_valid <= 1'b1;
    past_rstn  <= aresetn;
    if (!aresetn) begin
      aw_owed <= 0;
      w_owed  <= 0;
      ar_owed <= 0;
    end else begin
      aw_owed <= aw_owed + aw_hs - b_hs;
      w_owed  <= w_owed + w_hs - b_hs;
      ar_owed <= ar_owed + ar_hs - r_hs;
    end
    if (!aresetn || aw_hs || w_hs || b_hs || ar_hs || r_hs || !owes || held_off)
      stall <= 0;
    else if (stall != {SW{1'b1}})
      stall <= stall + 1;
  end

  // ---- the master (assumed) --------------------------------------------
  always @(*) begin
    if (!past_valid)
      assume (!aresetn);                        // the run starts in reset
    if (!aresetn)
      assume (!awvalid && !wvalid && !arvalid);
  end

  always @(posedge clk) begin
    if (past_valid && past_rstn && aresetn) begin
      if ($past(awvalid && !awready))
        assume (awvalid && awaddr == $past(awaddr) && awprot == $past(awprot));
      if ($past(wvalid && !wready))
        assume (wvalid && wdata == $past(wdata) && wstrb == $past(wstrb));
      if ($past(arvalid && !arready))
        assume (arvalid && araddr == $past(araddr) && arprot == $past(arprot));
    end
    if (FIRST_IDLE != 0 && past_valid && !past_rstn)
      assume (!awvalid && !wvalid && !arvalid);
  end

  // ---- the slave (asserted) --------------------------------------------
  always @(posedge clk) begin
    if (past_valid && !past_rstn) begin
      assert (!bvalid);                         // reset: no response, also in the first cycle after
      assert (!rvalid);
    end
    if (past_valid && past_rstn && aresetn) begin
      if ($past(bvalid && !bready))
        assert (bvalid && bresp == $past(bresp));
      if ($past(rvalid && !rready))
        assert (rvalid && rresp == $past(rresp) && rdata == $past(rdata));
    end
  end

  always @(*) begin
    if (past_valid && past_rstn) begin
      assert (!bvalid || (aw_owed != 0 && w_owed != 0));   // no B without AW and W
      assert (!rvalid || ar_owed != 0);                    // no R without AR
      assert (aw_owed <= MAX_OUT && w_owed <= MAX_OUT && ar_owed <= MAX_OUT);
      assert (stall < BOUND);
    end
  end
endmodule

`default_nettype wire
