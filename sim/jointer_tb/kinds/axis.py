# SPDX-License-Identifier: MIT
"""`axis`: cocotbext-axi's AxiStreamSource and AxiStreamSink both on the
sniffer's ports, paused at random (TVALID gaps, TREADY back-pressure):
packets of 1 byte to 100 beats, TKEEP full, random, sparse or with whole
null beats, the low 32 bits of every beat's TDATA and the TDEST in, at the
edges of or outside the filter windows. Reference: sim/eig/axi_model.py
expect_axis (per beat or per packet; bytes = TKEEP popcount or the data
width; the data = TDATA's low 32 bits or TDEST); for the lanes of the other
interfacers on the same ports (one tap per bus): a per-packet tap ("pkt")
and TVALID/TREADY activity ("act": ActivityModel)."""

from __future__ import annotations

from axi_model import expect_axis

from jointer_sim.activity_model import ActivityModel

from ..host import quiet
from .base import Driver, listed, stepped


class Axis(Driver):
    kind = "axis"

    def frame(self, nbytes: int):
        from cocotbext.axi import AxiStreamFrame

        rng, p = self.rng, self.p
        length = rng.randint(1, rng.choice([1, 4, 20, 100]) * nbytes)
        kind = rng.choice(["full", "full", "random", "sparse", "null_beats"])
        keep = {"full": lambda i: 1, "random": lambda i: rng.getrandbits(1),
                "sparse": lambda i: int(rng.random() < 0.1),
                "null_beats": lambda i: int((i // nbytes) % 3 != 1)}[kind]
        data = bytearray(rng.getrandbits(8) for _ in range(length))
        low = min(4, nbytes)
        for b in range(0, length, nbytes):          # the low bytes of each beat: window-biased
            data[b:b + low] = self.value(8 * low).to_bytes(low, "little")[:len(data[b:b + low])]
        dest = self.value(p["dest_width"]) if p["dest_width"] else 0
        return AxiStreamFrame(bytes(data), tkeep=[keep(i) for i in range(length)] if p["keep"] else None,
                              tdest=dest)

    async def traffic(self, cycles: int) -> None:
        from cocotbext.axi import AxiStreamBus, AxiStreamSink, AxiStreamSource

        quiet(self.dut, self.sn.name)
        bus = AxiStreamBus.from_prefix(self.dut, self.sn.name)
        source, sink = AxiStreamSource(bus, self.clk), AxiStreamSink(bus, self.clk)
        source.queue_occupancy_limit_frames = 2            # send() waits: traffic paced by the bus
        for m in (source, sink):
            m.set_pause_generator(self.pauses((0.0, 0.0, 0.2, 0.5, 0.9), (5, 80)))
        nbytes = self.p["data_width"] // 8
        dom = self.tb.dom[self.sn.clock]
        end = dom.cycle + cycles
        while dom.cycle < end:
            await source.send(self.frame(nbytes))
            sink.clear()
        await source.wait()
        await self.edge(4)
        source.clear_pause_generator()
        sink.clear_pause_generator()
        sink.clear()

    def tap(self, dom, packets: bool) -> dict:
        p = self.p
        fields = {"data": "tdata", "keep": "tkeep", "last": "tlast", "dest": "tdest"}
        got = {f: self.key(s) for f, s in fields.items() if s in self.port}
        hs = dom.handshakes(self.key("tvalid"), self.key("tready"), got)
        for _, f in hs:
            f.setdefault("keep", (1 << (p["data_width"] // 8)) - 1)
            f.setdefault("dest", 0)
        sel = 1 if self.sn.data == "tdest" else 0
        return listed(expect_axis(hs, packets, p["data_width"] // 8, p["keep"], sel))

    def candidates(self, dom, ctrl: dict) -> dict:
        return self.tap(dom, self.p["count"] == "packets")

    def sources(self, dom, ctrl: dict) -> dict:
        v, r = self.series(dom, "tvalid"), self.series(dom, "tready")
        make = {"": lambda: self.candidates(dom, ctrl), "pkt": lambda: self.tap(dom, True),
                "act": lambda: stepped(ActivityModel(1), dom.cycle, lambda c: (v[c], r[c]))}
        return {key: make[key]() for key in self.sn.sources}


DRIVER = Axis
