# SPDX-License-Identifier: MIT
"""`axi4lite`: cocotbext-axi's AxiLiteMaster and AxiLiteRam both on the
sniffer's ports (the tap only watches: the testbench is master and slave),
every channel paused at random (VALID gaps, READY back-pressure), writes of
1..2 words at any byte offset (partial WSTRB) and reads, the addresses in,
at the edges of and outside the filter windows. Reference: the k-th AW
with the k-th W, the address and the WSTRB popcount, two cycles after the
later one (sim/eig/axi_model.py expect_pairs); a read: its address and the
data width in bytes, one cycle after AR."""

from __future__ import annotations

from axi_model import MASK32, expect_pairs, popcount

from .axi_traffic import AxiTraffic
from ..host import quiet
from .base import listed

class Axi4Lite(AxiTraffic):
    kind = "axi4lite"

    def models(self):
        from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiLiteRam

        quiet(self.dut, self.sn.name)
        bus = AxiLiteBus.from_prefix(self.dut, self.sn.name)
        master = AxiLiteMaster(bus, self.clk)
        ram = AxiLiteRam(bus, self.clk, size=1 << self.p["addr_width"])
        for m in (master, ram):
            for ch in (m.write_if.aw_channel, m.write_if.w_channel, m.write_if.b_channel,
                       m.read_if.ar_channel, m.read_if.r_channel):
                ch.set_pause_generator(self.pauses())
        return master

    async def traffic(self, cycles: int) -> None:
        master, nbytes = self.models(), self.p["data_width"] // 8
        top = (1 << self.p["addr_width"]) - 2 * nbytes
        dom, ops = self.tb.dom[self.sn.clock], []
        end = dom.cycle + cycles
        while dom.cycle < end:
            addr = min(self.address(), top)
            if self.rng.random() < 0.5:
                data = bytes(self.rng.getrandbits(8) for _ in range(self.rng.randint(1, 2 * nbytes)))
                ops.append(master.init_write(addr, data))
            else:
                ops.append(master.init_read(addr, self.rng.randint(1, 2 * nbytes)))
            if len(ops) >= 8:
                await ops.pop(0).wait()
        for op in ops:
            await op.wait()
        await self.edge(4)

    def candidates(self, dom, ctrl: dict) -> dict:
        if self.p["direction"] == "write":
            aw = [(t, f["addr"]) for t, f in self.handshakes(dom, "aw", ("addr",))]
            w = [(t, popcount(f["strb"])) for t, f in self.handshakes(dom, "w", ("strb",))]
            return listed(expect_pairs(aw, w))
        nb = self.p["data_width"] // 8
        return listed([(t + 1, f["addr"] & MASK32, nb) for t, f in self.handshakes(dom, "ar", ("addr",))])


DRIVER = Axi4Lite
