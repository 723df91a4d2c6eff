# SPDX-License-Identifier: MIT
"""`axi4`: random AXI4 traffic in both directions (axi_traffic.py), the
addresses in, at the edges of and outside the sniffer's filter windows.
Reference: sim/eig/axi_model.py expect_axi4_write / expect_axi4_read
(the tap's candidates from the handshakes, per burst or per beat)."""

from __future__ import annotations

from axi_model import expect_axi4_read, expect_axi4_write

from .axi_traffic import AxiTraffic
from .base import listed


class Axi4(AxiTraffic):
    kind = "axi4"

    def candidates(self, dom, ctrl: dict) -> dict:
        p = self.p
        if p["direction"] == "write":
            aw = self.handshakes(dom, "aw", ("addr",))
            w = self.handshakes(dom, "w", ("strb", "last"))
            return listed(expect_axi4_write(aw, w, p["per_beat"]))
        ar = self.handshakes(dom, "ar", ("id", "addr", "size"))
        r = self.handshakes(dom, "r", ("id", "last"))
        return listed(expect_axi4_read(ar, r, p["per_beat"], p["data_width"] // 8))


DRIVER = Axi4
