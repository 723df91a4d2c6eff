# SPDX-License-Identifier: MIT
"""`axi4_latency`: random AXI4 traffic in both directions (axi_traffic.py;
its slave answers every write on B). Filter windows are drawn over the
latencies the traffic makes (0..300 cycles). Reference: sim/eig/axi_model.py
expect_read_latency / expect_write_last_latency / expect_write_resp_latency."""

from __future__ import annotations

from .axi_traffic import AxiTraffic


class Axi4Latency(AxiTraffic):
    kind = "axi4_latency"

    def window(self, width: int) -> tuple[int, int]:
        return self.latency_window()

    def candidates(self, dom, ctrl: dict) -> dict:
        return self.latencies(dom, self.p["end"])


DRIVER = Axi4Latency
