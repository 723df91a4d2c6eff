# SPDX-License-Identifier: MIT
"""VALID/READY levels drawn per cycle, for the utilization and contention
kinds (axi_util, axis_util, contention): they classify every cycle, so the
stimulus is a random level per signal and cycle, in phases (from always
low to always high, each pair of VALID/READY with its own odds), with no
protocol to respect."""

from __future__ import annotations

ODDS = (0.0, 0.1, 0.5, 0.9, 1.0)


async def play(drv, cycles: int, signals: list[tuple[str, int]]) -> None:
    """Drive `signals` (port, bits) of driver `drv` with random levels for `cycles` cycles, then 0."""
    left = 0
    for _ in range(cycles):
        if left == 0:
            left = drv.rng.randint(4, 100)
            odds = [[drv.rng.choice(ODDS) for _ in range(bits)] for _, bits in signals]
        left -= 1
        for (sig, _), p in zip(signals, odds):
            drv.port[sig].value = sum(1 << i for i, q in enumerate(p) if drv.rng.random() < q)
        await drv.edge()
    for sig, _ in signals:
        drv.port[sig].value = 0


def masks(drv, dom, sigs: list[str]) -> list[list[int]]:
    """Per cycle, the bits of `sigs` packed (bit i = sigs[i])."""
    cols = [drv.series(dom, s) for s in sigs]
    return [sum((col[c] & 1) << i for i, col in enumerate(cols)) for c in range(dom.cycle + 1)]
