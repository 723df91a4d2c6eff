# SPDX-License-Identifier: MIT
"""`axis_util`: random TVALID/TREADY levels (levels.py). Reference:
jointer_sim ActivityModel with one channel."""

from __future__ import annotations

from jointer_sim.activity_model import ActivityModel

from . import levels
from .base import Driver, stepped


class AxisUtil(Driver):
    kind = "axis_util"

    async def traffic(self, cycles: int) -> None:
        await levels.play(self, cycles, [("tvalid", 1), ("tready", 1)])

    def candidates(self, dom, ctrl: dict) -> dict:
        v, r = self.series(dom, "tvalid"), self.series(dom, "tready")
        return stepped(ActivityModel(1), dom.cycle, lambda c: (v[c], r[c]))


DRIVER = AxisUtil
