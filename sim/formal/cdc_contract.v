// SPDX-License-Identifier: MIT
// cdc_contract: what the m side of a register-port bridge
// (hdl/collect/jointer_collect_cdc.vhd) promises its s side, seen at the bus
// clock's rising edges. For formal verification only: scripts/formal_split.py
// instantiates it inside every bridge module of a multi-clock top and splits
// the top's proof in two at the bridges:
//   crossing proof  (GUARANTEE 1): asserted; every clock and every reset free
//                   (any rate, any phase, stopped), the DCI, the global block,
//                   the sniffers and the LMICs' result blocks cut points: the
//                   m side keeps the contract whatever the bus side does;
//   bus-side proof  (GUARANTEE 0): assumed; every flip-flop off the bus clock
//                   a cut point (its value free at every bus edge, but for
//                   this contract): the AXI4-Lite properties hold for any m
//                   side that keeps it.
// Together they prove the slave's properties for every ratio and phase of the
// clocks, which a model with one global step cannot reach at depth.
// The contract (f_* : the value at the last bus edge):
//   - ack and rflag are low before the first bus edge (their initial values);
//   - ack rises only while req is up, and falls only while req is down (four
//     phases: req_l falls only after the s side saw ack, rises only after it
//     saw ack low again);
//   - rflag (the m-side reset answered the access) changes only while a
//     handshake waits for its answer: req up, ack low at the last bus edge;
//   - the answer (m_rdata, m_err) changes only then too, or while rflag is
//     set: the access is then answered SLVERR and the DCI masks RDATA (an LMIC
//     port reset may still move its held word after the bridge answered).
// Parameters:
//   GUARANTEE   : 1 assert, 0 assume
//   RFLAG_MASKS : 1 the answer may move under rflag (the contract); 0 it may
//                 not (too strong: the crossing proof must find the reset that
//                 moves it, a check that its resets and clocks act)

`default_nettype none

module cdc_contract #(
  parameter integer GUARANTEE   = 1,
  parameter integer RFLAG_MASKS = 1
) (
  input wire        s_clk,
  input wire        req_l,
  input wire        ack_m,
  input wire        rflag,
  input wire [31:0] m_rdata,
  input wire        m_err
);
  reg        f_past  = 1'b0;
  reg        f_ack   = 1'b0;
  reg        f_rflag = 1'b0;
  reg [32:0] f_ans   = 33'd0;

  always @(posedge s_clk) begin
    f_past  <= 1'b1;
    f_ack   <= ack_m;
    f_rflag <= rflag;
    f_ans   <= {m_rdata, m_err};
  end

  wire waits = req_l && !f_ack;   // a handshake waits for its answer
  wire [4:0] kept = {
    f_past || (!ack_m && !rflag),
    !f_past || f_ack || !ack_m || req_l,
    !f_past || !f_ack || ack_m || !req_l,
    !f_past || rflag == f_rflag || waits,
    !f_past || {m_rdata, m_err} == f_ans || waits || (RFLAG_MASKS != 0 && rflag)};

  generate
    if (GUARANTEE != 0) begin : g_guarantee
      always @(*) assert (&kept);
    end else begin : g_assumption
      always @(*) assume (&kept);
    end
  endgenerate
endmodule

`default_nettype wire
