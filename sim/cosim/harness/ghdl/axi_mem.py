# SPDX-License-Identifier: MIT
"""The memory behind a trace sink's AXI4 master port, write
channels only: the GHDL twin of harness/verilator/axi_mem.h, cycle for cycle
(same LCG, two draws per rising edge, same queue rules, all numbers from the
contract bus_timing.yaml), so both simulators see the same AWREADY/WREADY/
BVALID sequence and report identical results.

Reset (the clock's resetn low at an edge): as axi_mem.h says (the
bursts in flight are cut and counted in cut_bursts, queues and pending B
dropped, outputs low, written beats kept, LCG state kept, no draw).

The bytes live in a ctypes buffer: the C application reads the ring through
its address (platform_ring), in this process, while no simulated time passes.
"""
import ctypes

from cocotb.triggers import RisingEdge

from bus_timing import BusTiming
from handshakes import HandshakeLog


class AxiMem:
    def __init__(self, dut, spec: dict, clock: dict, rd, where: str, timing: BusTiming, log: HandshakeLog):
        t = timing
        self.prefix = spec.get("port", "")
        self.base, self.size = t.mem(spec, "base"), t.mem(spec, "size")
        self.aw_stall, self.w_stall = t.mem(spec, "aw_stall"), t.mem(spec, "w_stall")
        self.b_latency, self.error_burst = t.mem(spec, "b_latency"), t.mem(spec, "error_burst")
        self.lcg = t.mem(spec, "seed")
        g, ms = t.get("memory", "boundary"), t.get("memory", "max_stall")
        if self.size == 0 or self.size % g or self.base % g or not (0 <= self.aw_stall <= ms) \
                or not (0 <= self.w_stall <= ms):
            raise ValueError(f"{where}: size/base must be multiples of {g}, stalls 0..{ms}")
        self.aw_queue, self.slverr, self.boundary = t.get("memory", "aw_queue"), t.get("memory", "slverr"), g
        self.lcg_k = [t.get("memory", "lcg", k) for k in ("mul", "inc", "mask", "shift", "percent")]
        self.draws = t.draws
        self.log, self.clock = log, clock
        self.h = {s: getattr(dut, f"{self.prefix}_{s}") for s in (
            "awaddr", "awlen", "awsize", "awvalid", "awready", "wdata", "wstrb", "wlast", "wvalid", "wready",
            "bresp", "bvalid", "bready")}
        self.data_bytes = len(self.h["wdata"]) // 8
        self.clk, self.resetn, self.rd = clock["clk"], clock["resetn"], rd
        self.mem = ctypes.create_string_buffer(self.size)
        self.aw, self.b = [], []            # [addr, len, size, beat], [ready_edge, resp]
        self.edge = self.bursts = self.beats = self.violations = self.errors = self.cut_bursts = 0
        self.awready = self.wready = self.bvalid = False
        self.bresp = 0

    def draw(self) -> int:
        mul, inc, mask, shift, percent = self.lcg_k
        self.lcg = (self.lcg * mul + inc) & mask
        return (self.lcg >> shift) % percent

    def counts(self) -> dict:
        n = f"mem.{self.prefix}."
        return {n + "bursts": self.bursts, n + "beats": self.beats, n + "violations": self.violations,
                n + "slverr": self.errors, n + "cut_bursts": self.cut_bursts}

    def reset(self):
        """One rising edge in reset: the bursts in flight are cut (axi_mem.h)."""
        self.cut_bursts += len(self.aw) + len(self.b)
        self.aw, self.b = [], []
        self.awready = self.wready = self.bvalid = False
        self.bresp = 0

    def log_handshakes(self, awvalid, awaddr, awlen, awsize, wvalid, wdata, wstrb, wlast, bready):
        """The handshakes of this edge, as step takes them (axi_mem.cpp)."""
        c, p = self.clock, self.prefix
        if awvalid and self.awready:
            self.log.line(c["name"], c["period"], p, "AW", f"{awaddr:#x} {awlen} {awsize}")
        if wvalid and self.wready:
            self.log.line(c["name"], c["period"], p, "W", f"{wdata:#x} {wstrb:#x} {int(wlast)}")
        if self.bvalid and bready:
            self.log.line(c["name"], c["period"], p, "B", f"{self.bresp}")

    def step(self, awvalid, awaddr, awlen, awsize, wvalid, wdata, wstrb, wlast, bready):
        if self.log.on:
            self.log_handshakes(awvalid, awaddr, awlen, awsize, wvalid, wdata, wstrb, wlast, bready)
        self.edge += 1
        aw_hs, w_hs, b_hs = awvalid and self.awready, wvalid and self.wready, self.bvalid and bready
        if b_hs:
            self.b.pop(0)
        if w_hs:
            x = self.aw[0]
            lane0 = (x[0] + x[3] * (1 << x[2])) & ~(self.data_bytes - 1)
            bad = False
            for i in range(self.data_bytes):
                if (wstrb >> i) & 1:
                    p = lane0 + i
                    if self.base <= p < self.base + self.size:
                        self.mem[p - self.base] = (wdata >> (8 * i)) & 0xFF
                    else:
                        bad = True
            self.violations += bad
            self.beats += 1
            last = x[3] == x[1]
            self.violations += wlast != last
            x[3] += 1
            if last:
                self.bursts += 1
                resp = self.slverr if bad or self.bursts == self.error_burst else 0
                self.errors += resp != 0
                self.b.append([self.edge + self.b_latency, resp])
                self.aw.pop(0)
        if aw_hs:
            self.violations += (awaddr % self.boundary) + ((awlen + 1) << awsize) > self.boundary
            self.aw.append([awaddr, awlen, awsize, 0])
        r = {d: self.draw() for d in self.draws}
        r_aw, r_w = r["aw"], r["w"]
        self.awready = len(self.aw) < self.aw_queue and r_aw >= self.aw_stall
        self.wready = bool(self.aw) and r_w >= self.w_stall
        self.bvalid = bool(self.b) and self.b[0][0] <= self.edge
        self.bresp = self.b[0][1] if self.bvalid else 0

    async def run(self):
        h, rd, edge = self.h, self.rd, RisingEdge(self.clk)
        while True:
            await edge
            if not rd(self.resetn):
                self.reset()
            else:
                self.step(bool(rd(h["awvalid"])), rd(h["awaddr"]), rd(h["awlen"]), rd(h["awsize"]),
                          bool(rd(h["wvalid"])), rd(h["wdata"]), rd(h["wstrb"]), bool(rd(h["wlast"])),
                          bool(rd(h["bready"])))
            h["awready"].value = int(self.awready)
            h["wready"].value = int(self.wready)
            h["bvalid"].value = int(self.bvalid)
            h["bresp"].value = self.bresp
