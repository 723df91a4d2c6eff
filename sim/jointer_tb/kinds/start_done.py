# SPDX-License-Identifier: MIT
"""`start_done`: tasks as start/done pulses or a busy level.

Stimulus (pulses): tasks of random length (1..60 cycles) and gaps, with the
odd cases mixed in: start and done in one cycle, a done with no task
running, a second start while one runs. (busy): a level with random high
and low runs (from one cycle on). Reference: jointer_sim StartDoneModel."""

from __future__ import annotations

from jointer_sim.model import StartDoneModel

from .base import Driver, stepped


class StartDone(Driver):
    kind = "start_done"
    strobes = ("start", "done", "busy")

    async def traffic(self, cycles: int) -> None:
        if self.p["mode"] == "busy":
            await self._busy(cycles)
        else:
            await self._pulses(cycles)

    async def _busy(self, cycles: int) -> None:
        busy, level, n = self.port["busy"], 0, 0
        while n < cycles:
            level ^= 1
            busy.value = level
            k = self.rng.choice([1, 2, 3, self.rng.randint(4, 80)])
            await self.edge(k)
            n += k
        busy.value = 0

    async def _pulse(self, sig: str) -> None:
        self.port[sig].value = 1
        await self.edge()
        self.port[sig].value = 0

    async def _pulses(self, cycles: int) -> None:
        start, done, n = self.port["start"], self.port["done"], 0
        while n < cycles:
            r = self.rng.random()
            if r < 0.1:                                  # start and done together
                start.value = done.value = 1
                await self.edge()
                start.value = done.value = 0
                n += 1
            elif r < 0.15:                               # a done with no task running
                await self._pulse("done")
                n += 1
            else:
                length = self.rng.choice([1, 2, self.rng.randint(3, 60)])
                await self._pulse("start")
                if self.rng.random() < 0.1 and length > 2:   # started again while running
                    await self.edge(length // 2)
                    await self._pulse("start")
                    length -= length // 2 + 1
                await self.edge(max(0, length - 1))
                await self._pulse("done")
                n += length + 1
            await self.edge(self.rng.choice([0, 1, self.rng.randint(2, 40)]))

    def candidates(self, dom, ctrl: dict) -> dict:
        n = dom.cycle
        sig = {s: self.series(dom, s) if s in self.port else [0] * (n + 1) for s in ("start", "done", "busy")}
        model = StartDoneModel(self.p["mode"])
        return stepped(model, n, lambda c: (sig["start"][c], sig["done"][c], sig["busy"][c]))


DRIVER = StartDone
