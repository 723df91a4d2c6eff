# SPDX-License-Identifier: MIT
"""`interfacer: {type: contention}` (bus contention, as in PMTS): the VALID/READY
pairs of `masters` masters sharing a bus into jointer_eig_contention.

Lanes, by name or number: `cycles`, `contention`, `single_wait`, `no_wait`,
`busy`, `idle`, then per master `grant_<i>`, `wait_<i>` (the entity's order,
mirrored by sim/jointer_sim/activity_model.py). Ports `<sniffer>_valid`,
`<sniffer>_ready`, one bit per master. The event data is the number of
waiting masters."""

from __future__ import annotations

from .base import InterfacerNet, Kind, clog2

CONTENTION_LANES = ("cycles", "contention", "single_wait", "no_wait", "busy", "idle")


class Contention(Kind):
    name = "contention"
    entity = "jointer_eig_contention"
    emit_data = ("waiting",)

    def lane_names(self, params: dict) -> list[str]:
        n = params["masters"]
        return list(CONTENTION_LANES) + [f"{k}_{i}" for i in range(n) for k in ("grant", "wait")]

    def lanes(self, params: dict) -> int:
        return len(self.lane_names(params))

    def summary(self, p: dict) -> str:
        n = p["masters"]
        return f"contention of {n} master{'s' if n != 1 else ''}: waiting, granted, busy/idle cycles"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        n = sn.interfacer.params["masters"]
        net.generic("masters_g", "positive", str(n), "masters sharing the bus")
        net.observe("valid", n, "VALID of each master (bit i = master i)")
        net.observe("ready", n, "READY of each master")

    def data_width(self, sn) -> int:
        return clog2(sn.interfacer.params["masters"] + 1)    # waiting masters, 0..masters


KIND = Contention()
