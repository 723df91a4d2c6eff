# SPDX-License-Identifier: MIT
"""`events`: strobes per lane (and a value), in phases of random density.

Stimulus: every cycle each lane fires with the phase's probability (from
never to almost always: runs of consecutive strobes, which `edge: true`
counts once); the value port takes window-biased values (base.value).
Reference: jointer_sim EventsModel (inputs registered once)."""

from __future__ import annotations

from jointer_sim.model import EventsModel

from .base import Driver, stepped

DENSITY = (0.0, 0.02, 0.1, 0.4, 0.9, 1.0)


class Events(Driver):
    kind = "events"
    strobes = ("events",)

    async def traffic(self, cycles: int) -> None:
        lanes, vw = self.p["width"], self.p["data_width"]
        strobe, value = self.port["events"], self.port.get("value")
        left = 0
        for _ in range(cycles):
            if left == 0:
                left = self.rng.randint(5, 120)
                density = [self.rng.choice(DENSITY) for _ in range(lanes)]
            left -= 1
            strobe.value = sum(1 << i for i, p in enumerate(density) if self.rng.random() < p)
            if value is not None and self.rng.random() < 0.5:
                value.value = self.value(vw)
            await self.edge()
        strobe.value = 0

    def candidates(self, dom, ctrl: dict) -> dict:
        p = self.p
        strobe = self.series(dom, "events")
        value = self.series(dom, "value") if p["data_width"] else [0] * len(strobe)
        model = EventsModel(p["width"], p["data_width"], p["edge"])
        return stepped(model, dom.cycle, lambda c: (strobe[c], value[c]))


DRIVER = Events
