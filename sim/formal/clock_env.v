// SPDX-License-Identifier: MIT
// clock_env: the bus clock of a multi-clock top in SymbiYosys' multiclock
// mode, for formal verification only (scripts/formal.py instantiates it
// inside the top it checks, on s_axi_aclk). In multiclock mode every clock
// input is free at every step of the global time: it may toggle or hold. A
// free bus clock may also stop, and a trace of D steps then holds no bus
// cycle at all. This module assumes one thing: the bus clock never holds a
// level for more than HOLD steps, so a trace of D steps holds at least
// D / (2 * HOLD) bus cycles. Every other clock stays free: any ratio up to
// HOLD times the bus frequency, any phase, jitter, or stopped; the resets
// are free inputs too.
// Parameters:
//   HOLD : the most steps a level of clk lasts (1: the bus clock toggles at
//          every step, the fastest clock of the model)

`default_nettype none

module clock_env #(
  parameter integer HOLD = 2
) (
  input wire clk
);
  reg       last = 1'b0;  // clk at the step before
  reg [3:0] run = 4'd0;   // steps the level of `last` has lasted

  always @($global_clock) begin
    last <= clk;
    run  <= (clk == last) ? run + 4'd1 : 4'd1;
  end

  always @(*)
    if (clk == last)
      assume (run < HOLD);
endmodule

`default_nettype wire
