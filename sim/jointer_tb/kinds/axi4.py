# SPDX-License-Identifier: MIT
"""`axi4`: random AXI4 traffic in both directions (axi_traffic.py), the
addresses in, at the edges of and outside the sniffer's filter windows.
Reference: sim/eig/axi_model.py expect_axi4_write / expect_axi4_read
(the tap's candidates from the handshakes, per burst or per beat), and
for the lanes of the other interfacers on the same ports (one tap per bus):
a per-burst tap ("bst"), the latency of each transaction ("lat":
expect_read_latency / expect_write_last_latency / expect_write_resp_latency
with latency_end) and the data channel's activity ("act": ActivityModel)."""

from __future__ import annotations

from axi_model import expect_axi4_read, expect_axi4_write

from jointer_sim.activity_model import ActivityModel

from .axi_traffic import AxiTraffic
from .base import listed, stepped


class Axi4(AxiTraffic):
    kind = "axi4"

    def tap(self, dom, per_beat: bool) -> dict:
        p = self.p
        if p["direction"] == "write":
            aw = self.handshakes(dom, "aw", ("addr",))
            w = self.handshakes(dom, "w", ("strb", "last"))
            return listed(expect_axi4_write(aw, w, per_beat))
        ar = self.handshakes(dom, "ar", ("id", "addr", "size"))
        r = self.handshakes(dom, "r", ("id", "last"))
        return listed(expect_axi4_read(ar, r, per_beat, p["data_width"] // 8))

    def activity(self, dom) -> dict:
        ch = "w" if self.p["direction"] == "write" else "r"
        v, r = self.series(dom, ch + "valid"), self.series(dom, ch + "ready")
        return stepped(ActivityModel(1), dom.cycle, lambda c: (v[c], r[c]))

    def candidates(self, dom, ctrl: dict) -> dict:
        return self.tap(dom, self.p["per_beat"])

    def sources(self, dom, ctrl: dict) -> dict:
        make = {"": lambda: self.candidates(dom, ctrl), "bst": lambda: self.tap(dom, False),
                "lat": lambda: self.latencies(dom, self.p["latency_end"]), "act": lambda: self.activity(dom)}
        return {key: make[key]() for key in self.sn.sources}

    def window_for(self, dc) -> tuple[int, int]:
        if dc.source == "lat":
            return self.latency_window()
        return super().window_for(dc)


DRIVER = Axi4
