# SPDX-License-Identifier: MIT
"""`mark`: the host writes the global block's MARK register.

Stimulus: MARK writes through the jointer package (libjointer's
jointer_mark, an AXI4-Lite write) at random times with window-biased
values. Recorded: the sniffer's mark_valid / mark_data ports (the global
block drives them). Reference: jointer_sim EventsModel, one lane, 32-bit
value."""

from __future__ import annotations

from jointer_sim.model import EventsModel

from .base import Driver, stepped


class Mark(Driver):
    kind = "mark"

    def record(self, dom) -> None:
        inst = self.tb.instance(self.sn)
        for sig in ("mark_valid", "mark_data"):
            dom.watch(self.key(sig), getattr(inst, sig), data=sig == "mark_data")

    async def traffic(self, cycles: int) -> None:
        mon, n = self.tb.host.mon, 0
        while n < cycles:
            gap = self.rng.choice([0, 1, self.rng.randint(2, 60)])
            await self.edge(gap)
            await self.tb.host.call(mon.mark, self.value(32))
            n += gap + 8                       # a write takes a few bus cycles

    def candidates(self, dom, ctrl: dict) -> dict:
        valid, data = self.series(dom, "mark_valid"), self.series(dom, "mark_data")
        return stepped(EventsModel(1, 32, False), dom.cycle, lambda c: (valid[c], data[c]))


DRIVER = Mark
