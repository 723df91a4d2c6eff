# SPDX-License-Identifier: MIT
"""`axi_util`: random VALID/READY levels on each watched channel
(levels.py). Reference: jointer_sim ActivityModel (channel bit i = the
i-th watched channel, in bus order)."""

from __future__ import annotations

from jointer_sim.activity_model import ActivityModel

from . import levels
from .base import Driver, stepped

CHANNELS = ("aw", "w", "b", "ar", "r")


class AxiUtil(Driver):
    kind = "axi_util"

    def channels(self) -> list[str]:
        return [c for c in CHANNELS if c in self.p["channels"]]

    async def traffic(self, cycles: int) -> None:
        await levels.play(self, cycles, [(f"{c}{k}", 1) for c in self.channels() for k in ("valid", "ready")])

    def candidates(self, dom, ctrl: dict) -> dict:
        ch = self.channels()
        valid = levels.masks(self, dom, [f"{c}valid" for c in ch])
        ready = levels.masks(self, dom, [f"{c}ready" for c in ch])
        return stepped(ActivityModel(len(ch)), dom.cycle, lambda c: (valid[c], ready[c]))


DRIVER = AxiUtil
