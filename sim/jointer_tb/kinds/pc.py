# SPDX-License-Identifier: MIT
"""`pc` (program monitor): a program counter against a table the host loads.

Setup: `jointer_pm_program` (through the jointer package) loads 1..addresses
random addresses and enables a random subset of them. Stimulus: a PC with
its valid strobe, in runs: straight-line code (PC + 4), jumps onto a table
address, next to one (+/- 4), or anywhere; valid high most cycles.
Reference: jointer_sim PcModel, its table loaded from the INIT words the
sniffer's dispenser passes on after its DCAPFs' bounds (DispenserModel over
the recorded control)."""

from __future__ import annotations

from jointer_sim.model import DispenserModel
from jointer_sim.pm_model import PcModel

from .base import Driver, stepped


class Pc(Driver):
    kind = "pc"

    def __init__(self, tb, sn):
        super().__init__(tb, sn)
        self.pc_sig, self.valid_sig = (o.sig for o in sn.observed)
        self.table: list[int] = []

    async def setup(self, host) -> None:
        p = self.p
        n = self.rng.randint(1, p["addresses"])
        self.table = [self.rng.getrandbits(p["pc_width"]) & ~3 for _ in range(n)]
        enable = self.rng.getrandbits(n) | 1 << self.rng.randrange(n)
        await host.call(host.mon.pm_program, self.sn.name, self.table, enable)

    def next_pc(self, pc: int) -> int:
        r, top = self.rng.random(), (1 << self.p["pc_width"]) - 1
        if r < 0.6:
            return (pc + 4) & top
        if r < 0.85:
            return self.rng.choice(self.table)
        if r < 0.95:
            return (self.rng.choice(self.table) + self.rng.choice([-4, 4, 1])) & top
        return self.rng.getrandbits(self.p["pc_width"])

    async def traffic(self, cycles: int) -> None:
        pc_port, valid = self.port[self.pc_sig], self.port[self.valid_sig]
        pc = self.rng.choice(self.table)
        for _ in range(cycles):
            v = int(self.rng.random() < 0.8)
            if v:
                pc = self.next_pc(pc)
                pc_port.value = pc
            valid.value = v
            await self.edge()
        valid.value = 0

    def candidates(self, dom, ctrl: dict) -> dict:
        p, d = self.p, len(self.sn.dcapfs)
        disp = DispenserModel(d + self.sn.init_slots)
        model = PcModel(p["pc_width"], p["addresses"], init_base=d)
        pc, valid = self.series(dom, self.pc_sig), self.series(dom, self.valid_sig)

        def inputs(c):
            o = disp.step(*(ctrl[k][c] for k in ("prog", "run", "soft_reset", "ctrl_we", "init_we", "init_data")))
            sel, hi, data = o.init if o.init else (0, 0, 0)
            return pc[c], valid[c], int(o.init is not None), sel, hi, data
        return stepped(model, dom.cycle, inputs)


DRIVER = Pc
