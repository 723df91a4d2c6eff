// SPDX-License-Identifier: MIT
// broken_slaves: a one-register AXI4-Lite slave with a switchable protocol
// error (BUG), under axil_props, for formal verification only. It checks the
// checker: scripts/formal.py proves BUG = 0 and requires a counterexample
// for every other BUG (sim/formal/test_formal.py).
//   BUG 0  correct
//   BUG 1  RDATA changes while RVALID waits for RREADY
//   BUG 2  BVALID dropped before BREADY (a lost write response)
//   BUG 3  two write responses for one request
//   BUG 4  BVALID during reset (and in the first cycle after it)
//   BUG 5  a read never answered (ARREADY never rises)

`default_nettype none

module toy_slave #(
  parameter integer BUG = 0
) (
  input  wire        clk,
  input  wire        aresetn,
  input  wire [3:0]  awaddr,
  input  wire        awvalid,
  output wire        awready,
  input  wire [31:0] wdata,
  input  wire        wvalid,
  output wire        wready,
  output wire [1:0]  bresp,
  output reg         bvalid,
  input  wire        bready,
  input  wire [3:0]  araddr,
  input  wire        arvalid,
  output wire        arready,
  output reg  [31:0] rdata,
  output wire [1:0]  rresp,
  output reg         rvalid,
  input  wire        rready
);
  reg [31:0] value;
  reg        again;

  // AW and W are taken together, one write or read at a time
  assign awready = aresetn && awvalid && wvalid && !bvalid;
  assign wready  = awready;
  assign arready = (BUG != 5) && aresetn && arvalid && !rvalid;
  assign bresp   = 2'b00;
  assign rresp   = 2'b00;

  always @(posedge clk) begin
    if (awready) begin
      value  <= wdata;
      bvalid <= 1'b1;
    end else if (bvalid && (bready || BUG == 2)) begin
      if (BUG == 3 && !again) begin
        again <= 1'b1;                  // answer the same write once more
      end else begin
        bvalid <= 1'b0;
        again  <= 1'b0;
      end
    end
    if (arready) begin
      rvalid <= 1'b1;
      rdata  <= value;
    end else if (rvalid && rready) begin
      rvalid <= 1'b0;
    end else if (rvalid && BUG == 1) begin
      rdata <= rdata + 1;
    end
    if (!aresetn) begin
      bvalid <= (BUG == 4);
      rvalid <= 1'b0;
      again  <= 1'b0;
    end
  end
endmodule

module toy_top #(
  parameter integer BUG = 0
) (
  input  wire        clk,
  input  wire        aresetn,
  input  wire [3:0]  awaddr,
  input  wire [2:0]  awprot,
  input  wire        awvalid,
  input  wire [31:0] wdata,
  input  wire [3:0]  wstrb,
  input  wire        wvalid,
  input  wire        bready,
  input  wire [3:0]  araddr,
  input  wire [2:0]  arprot,
  input  wire        arvalid,
  input  wire        rready
);
  wire        awready, wready, bvalid, arready, rvalid;
  wire [1:0]  bresp, rresp;
  wire [31:0] rdata;

  toy_slave #(.BUG(BUG)) dut (
    .clk(clk), .aresetn(aresetn), .awaddr(awaddr), .awvalid(awvalid), .awready(awready),
    .wdata(wdata), .wvalid(wvalid), .wready(wready), .bresp(bresp), .bvalid(bvalid),
    .bready(bready), .araddr(araddr), .arvalid(arvalid), .arready(arready), .rdata(rdata),
    .rresp(rresp), .rvalid(rvalid), .rready(rready));

  axil_props #(.AW(4), .BOUND(4)) props (
    .clk(clk), .aresetn(aresetn), .awaddr(awaddr), .awprot(awprot), .awvalid(awvalid),
    .awready(awready), .wdata(wdata), .wstrb(wstrb), .wvalid(wvalid), .wready(wready),
    .bresp(bresp), .bvalid(bvalid), .bready(bready), .araddr(araddr), .arprot(arprot),
    .arvalid(arvalid), .arready(arready), .rdata(rdata), .rresp(rresp), .rvalid(rvalid),
    .rready(rready));
endmodule

`default_nettype wire
