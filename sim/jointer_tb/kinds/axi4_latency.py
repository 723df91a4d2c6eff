# SPDX-License-Identifier: MIT
"""`axi4_latency`: random AXI4 traffic in both directions (axi_traffic.py;
its slave answers every write on B). Filter windows are drawn over the
latencies the traffic makes (0..300 cycles). Reference: sim/eig/axi_model.py
expect_read_latency / expect_write_last_latency / expect_write_resp_latency."""

from __future__ import annotations

from axi_model import expect_read_latency, expect_write_last_latency, expect_write_resp_latency

from .axi_traffic import AxiTraffic
from .base import listed

LATENCIES = 300


class Axi4Latency(AxiTraffic):
    kind = "axi4_latency"

    def window(self, width: int) -> tuple[int, int]:
        a, b = sorted(self.rng.randint(0, LATENCIES) for _ in range(2))
        return a, b

    def candidates(self, dom, ctrl: dict) -> dict:
        p = self.p
        if p["direction"] == "read":
            return listed(expect_read_latency(self.handshakes(dom, "ar", ("id",)),
                                              self.handshakes(dom, "r", ("id", "last"))))
        aw = self.handshakes(dom, "aw", ("id",))
        if p["end"] == "last":
            return listed(expect_write_last_latency(aw, self.handshakes(dom, "w", ("last",))))
        return listed(expect_write_resp_latency(aw, self.handshakes(dom, "b", ("id",))))


DRIVER = Axi4Latency
