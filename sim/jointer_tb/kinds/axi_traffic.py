# SPDX-License-Identifier: MIT
"""What the AXI4 kinds share (axi4, axi4_latency): the random traffic of
sim/eig/axi_bus.py on a sniffer's ports, and the handshakes of the recording.

The traffic is the project's own AXI4 master + slave model (LatencyTraffic:
Axi4Traffic with a B channel that answers each burst): every burst length
1..256 (a few at 256), every size, random, sparse, zero and full WSTRB, W
before, with and after its AW, read data of several IDs interleaved beat by
beat (out of order across IDs), VALID gaps and READY back-pressure on every
channel changing from phase to phase, garbage on payloads while VALID is
low. It keeps the tap's bounds (bursts in flight: the interfacer's
max_outstanding). cocotbext-axi's AxiMaster/AxiRam (used for AXI4-Lite)
answer in order only, hence this model for AXI4.
"""

from __future__ import annotations

import cocotb
from axi_bus import WRITE_MODES, LatencyTraffic
from axi_model import expect_read_latency, expect_write_last_latency, expect_write_resp_latency

from .base import Driver, listed

LATENCIES = 300          # the latencies the traffic makes, in cycles: a latency lane's windows
BEAT_LEAD = 250          # W beats ahead of their AW (a per-beat write tap holds 255)


def burst_len(rng) -> int:
    r = rng.random()
    if r < 0.4:
        return rng.randint(1, 4)
    if r < 0.75:
        return rng.randint(5, 32)
    if r < 0.93:
        return rng.randint(33, 128)
    return rng.choice([rng.randint(129, 255), 256])


def strb(rng, nbytes: int, size: int, addr: int, beat: int, kind: str) -> int:
    if kind == "lanes":                     # the lanes a narrow INCR beat uses
        w = 1 << size
        return ((1 << w) - 1) << (((addr >> size) + beat) * w % nbytes)
    if kind == "random":
        return rng.getrandbits(nbytes)
    if kind == "sparse":
        return 1 << rng.randrange(nbytes) if rng.random() < 0.7 else 0
    if kind == "zero":
        return 0
    return (1 << nbytes) - 1


class AxiTraffic(Driver):
    """A driver playing random AXI4 traffic on the sniffer's ports."""

    def address(self) -> int:
        aw = self.p["addr_width"]
        if aw > 32 and self.rng.random() < 0.3:      # the same offset on both sides of 4 GB
            return self.value(32) | (self.rng.getrandbits(aw - 32) << 32)
        return self.value(aw)

    def queue(self, bus, n: int) -> None:
        nbytes = self.p["data_width"] // 8
        ids = 1 << self.p["id_width"]
        for _ in range(n):
            size = self.rng.randint(0, nbytes.bit_length() - 1)
            length, addr = burst_len(self.rng), self.address()
            if self.rng.random() < 0.5:
                kind = self.rng.choice(["lanes", "random", "sparse", "zero", "full"])
                strbs = [strb(self.rng, nbytes, size, addr, b, kind) for b in range(length)]
                mode = self.rng.choice(WRITE_MODES)
                if mode == "w_first" and length > BEAT_LEAD:
                    mode = "free"
                bus.add_write(addr, strbs, size, mode, self.rng.randrange(ids))
            else:
                bus.add_read(addr, length, size, self.rng.randrange(ids))

    async def traffic(self, cycles: int) -> None:
        m = self.p["max_outstanding"]
        bus = LatencyTraffic(self.dut, self.clk, self.rng, prefix=self.sn.name, aw_lead=m, w_lead=m,
                             beat_lead=BEAT_LEAD, aw_queue=(1 << m.bit_length()) - 1, max_reads=m, max_writes=m)
        task = cocotb.start_soon(bus.run())
        for _ in range(max(1, cycles // 64)):
            if len(bus.wq) - bus.ka < 6 or len(bus.rq) - bus.kr < 6:
                self.queue(bus, 12)
            await self.edge(64)
        bus.stop()
        while not bus.idle:
            await self.edge(16)
        await self.edge(2)
        task.cancel()
        for sig in ("awvalid", "wvalid", "bvalid", "arvalid", "rvalid"):
            self.port[sig].value = 0

    def latency_window(self) -> tuple[int, int]:
        """A filter window over the latencies the traffic makes (0..LATENCIES cycles)."""
        return tuple(sorted(self.rng.randint(0, LATENCIES) for _ in range(2)))

    def latencies(self, dom, end: str) -> dict:
        """{cycle: Candidate} of each transaction's latency (jointer_eig_axi4_latency): a read
        from AR to RLAST, a write from AW to WLAST (end "last") or to B (end "response")."""
        if self.p["direction"] == "read":
            return listed(expect_read_latency(self.handshakes(dom, "ar", ("id",)),
                                              self.handshakes(dom, "r", ("id", "last"))))
        aw = self.handshakes(dom, "aw", ("id",))
        if end == "last":
            return listed(expect_write_last_latency(aw, self.handshakes(dom, "w", ("last",))))
        return listed(expect_write_resp_latency(aw, self.handshakes(dom, "b", ("id",))))

    def handshakes(self, dom, ch: str, fields) -> list:
        """[(cycle, {field: value})] of channel ch (aw, w, b, ar, r); a field
        without a port (an ID with id_width 0) reads 0."""
        got = {f: self.key(ch + f) for f in fields if ch + f in self.port}
        hs = dom.handshakes(self.key(ch + "valid"), self.key(ch + "ready"), got)
        for _, f in hs:
            for name in fields:
                f.setdefault(name, 0)
        return hs

