# SPDX-License-Identifier: MIT
"""What an interfacer kind gives the testbench: a Driver per sniffer.

A kind's driver (kinds/<kind>.py, registered in kinds/__init__.py) holds
both halves of the kind, side by side:
- the stimulus: `idle()` (every input it drives at rest), `setup(host)`
  (host-side preparation before RUN, e.g. a program monitor's table),
  `traffic(cycles)` (seeded random traffic for about that many cycles of its
  clock, then rest);
- the expectation: `record(domain)` (what to watch: by default every
  observed port of the top) and `candidates(domain, ctrl)`, the interfacer's
  reference model over the recording: {cycle: Candidate(lane mask, data,
  bytes)}, the candidate the interfacer shows in that cycle; a kind whose
  sniffer may hold other event sources (one tap per bus: the spec's
  `sources`) gives them all in `sources(domain, ctrl)`. The emitter,
  dispenser, DCAPFs and traces after it are the generic reference
  (reference.py).
Drivers draw their values through `value()`: inside a filter window of the
sniffer, at its edges or outside it (`windows`, set by the bench from the
bounds it programmed), so every window sees both kinds of traffic.
"""

from __future__ import annotations

import random

from cocotb.triggers import ClockCycles, RisingEdge

from jointer_sim.model import Candidate

MASK32 = 0xFFFFFFFF
NONE = Candidate(0, 0, 1)


class Driver:
    kind = ""
    strobes: tuple[str, ...] = ()      # observed signals besides *valid/*ready whose X is an error


    def __init__(self, tb, sn):
        self.tb, self.sn, self.dut = tb, sn, tb.dut
        self.clk = tb.clk[sn.clock]
        self.p = sn.params
        self.rng = random.Random(f"{tb.seed}:{sn.name}")
        self.port = {o.sig: getattr(tb.dut, o.port) for o in sn.observed}
        self.width = {o.sig: o.width or 1 for o in sn.observed}
        self.windows: list[tuple[int, int]] = []           # filter windows (the bench adds them)
        # the condition checkers' ranges and masks: traffic that passes them, and traffic that does not
        self.ranges = [(c.a, c.b) for c in sn.conditions if c.kind == "range"]
        self.masks = [(c.a, c.b) for c in sn.conditions if c.kind == "mask"]

    # -- names and recording ----------------------------------------------------------
    def key(self, sig: str) -> str:
        return f"{self.sn.name}.{sig}"

    def record(self, dom) -> None:
        for sig, h in self.port.items():
            dom.watch(self.key(sig), h, data=not self.is_strobe(sig))

    def is_strobe(self, sig: str) -> bool:
        """VALID, READY and the kind's strobes: never X (payloads may be X while VALID is low)."""
        return sig.endswith(("valid", "ready")) or sig in self.strobes

    def series(self, dom, sig: str) -> list[int]:
        return dom.series(self.key(sig))

    # -- stimulus -----------------------------------------------------------------------
    def idle(self) -> None:
        for h in self.port.values():
            h.value = 0

    async def setup(self, host) -> None:
        """Host-side preparation before RUN (none by default)."""

    async def traffic(self, cycles: int) -> None:
        raise NotImplementedError

    async def edge(self, n: int = 1) -> None:
        if n == 1:
            await RisingEdge(self.clk)
        elif n > 1:
            await ClockCycles(self.clk, n)

    def pauses(self, odds=(0.0, 0.0, 0.3, 0.7), runs=(5, 40)):
        """A cocotbext-axi pause generator: runs of random length, each with its own
        odds of pausing (no pause, some, most)."""
        while True:
            p = self.rng.choice(odds)
            for _ in range(self.rng.randint(*runs)):
                yield self.rng.random() < p

    def window(self, width: int) -> tuple[int, int]:
        """A random filter window inside the data domain of `width` bits (often
        overlapping a condition's range, so that events reach it)."""
        top = (1 << width) - 1                      # an address above 4 GB: windows there too
        lo, hi = self.rng.choice(self.ranges) if self.ranges and self.rng.random() < 0.6 else (0, top)
        a, b = sorted(self.rng.randint(lo, min(hi, top)) for _ in range(2))
        if self.rng.random() < 0.3:                 # a narrow one
            b = min(top, a + self.rng.randint(0, 16))
        return a, b

    def value(self, width: int) -> int:
        """A value of `width` bits: in a window (filter or condition range), at or
        next to its edges, or anywhere; half of them made to pass a mask condition."""
        r, top = self.rng.random(), (1 << width) - 1
        windows = self.windows + self.ranges
        if windows and r < 0.7:
            lo, hi = self.rng.choice(windows)
            v = self.rng.randint(lo, hi) if r < 0.35 else self.rng.choice([lo - 1, lo, hi, hi + 1])
            v = max(0, min(top, v))
        else:
            v = self.rng.getrandbits(width)
        if self.masks and self.rng.random() < 0.5:
            mask, want = self.rng.choice(self.masks)
            v = (v & ~mask | want) & top
        return v

    def window_for(self, dc) -> tuple[int, int]:
        """A random filter window for DCAPF dc (over its source's data)."""
        return self.window(self.sn.sources[dc.source]["data_width"])

    def on_data(self, dc) -> bool:
        """Whether dc's lane carries the tap's data (its window then steers the traffic)."""
        return self.sn.sources[dc.source]["carries_data"]

    # -- expectation -------------------------------------------------------------------
    def candidates(self, dom, ctrl: dict) -> dict:
        """{cycle: Candidate} the interfacer shows, from the recording."""
        raise NotImplementedError

    def sources(self, dom, ctrl: dict) -> dict:
        """{source key: {cycle: Candidate}} of every event source of the sniffer."""
        return {"": self.candidates(dom, ctrl)}


def stepped(model, n: int, inputs) -> dict:
    """A model with step(*inputs of cycle c) -> its output in cycle c + 1, run
    over cycles 1..n: {cycle: Candidate} of the cycles with a lane valid."""
    out = {}
    for c in range(1, n + 1):
        cand = model.step(*inputs(c))
        if cand.valid:
            out[c + 1] = cand
    return out


def listed(items) -> dict:
    """[(cycle, data, bytes)] of a single-lane tap model -> {cycle: Candidate}."""
    out = {}
    for c, data, nbytes in items:
        if c in out:
            raise AssertionError(f"two candidates in cycle {c}")
        out[c] = Candidate(1, data, nbytes)
    return out
