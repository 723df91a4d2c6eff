# SPDX-License-Identifier: MIT
"""`contention`: random VALID/READY levels per master (levels.py).
Reference: jointer_sim ContentionModel."""

from __future__ import annotations

from jointer_sim.activity_model import ContentionModel

from . import levels
from .base import Driver, stepped


class Contention(Driver):
    kind = "contention"

    async def traffic(self, cycles: int) -> None:
        n = self.p["masters"]
        await levels.play(self, cycles, [("valid", n), ("ready", n)])

    def candidates(self, dom, ctrl: dict) -> dict:
        v, r = self.series(dom, "valid"), self.series(dom, "ready")
        return stepped(ContentionModel(self.p["masters"]), dom.cycle, lambda c: (v[c], r[c]))


DRIVER = Contention
