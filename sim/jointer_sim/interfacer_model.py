# SPDX-License-Identifier: MIT
"""Reference models of the interfacers and the emitter (see model.py for the
timing convention): EventsModel, StartDoneModel, EmitterModel and the
Candidate / Event tuples they pass. Every observed input is registered once
(cand_* in cycle n+1 for inputs of cycle n); the emitter adds one more cycle.
Imported by model.py, which re-exports them (its public API is unchanged)."""

from __future__ import annotations

from collections import namedtuple

MASK32 = 0xFFFFFFFF

Candidate = namedtuple("Candidate", "valid data bytes")   # valid: int lane mask
Event = namedtuple("Event", "good data inc")              # good: int lane mask


class EventsModel:
    """jointer_eig_events: lane i fires on strobe i (registered inputs).

    step(strobe, value) with strobe an int lane mask, value the data word;
    afterwards `out` (Candidate) is what the DUT shows in the next cycle:
    edge=False: valid = strobe of the previous cycle; edge=True: valid =
    strobe and not the strobe of the cycle before (register reset 0).
    data = value of the previous cycle masked to data_w (0 when data_w = 0),
    bytes = 1.
    """

    def __init__(self, width: int = 1, data_w: int = 32, edge: bool = False):
        self.width, self.data_w, self.edge = width, data_w, bool(edge)
        self.reset()

    def reset(self) -> None:
        self.s1 = self.s2 = 0
        self.v1 = 0

    def step(self, strobe: int, value: int) -> Candidate:
        mask = (1 << self.width) - 1
        self.s2, self.s1 = self.s1, int(strobe) & mask
        self.v1 = int(value) & ((1 << self.data_w) - 1)
        return self.out

    @property
    def out(self) -> Candidate:
        valid = self.s1 & ~self.s2 & ((1 << self.width) - 1) if self.edge else self.s1
        return Candidate(valid, self.v1, 1)


class StartDoneModel:
    """jointer_eig_start_done (registered inputs, candidates one cycle later).

    mode "pulses": start -> data 1, done -> data 0, both -> one candidate,
    data 1. mode "busy": rising edge of busy -> data 1, falling -> data 0
    (busy register reset 0). step(start, done, busy) -> Candidate of the
    next cycle; `out` holds it too.
    """

    def __init__(self, mode: str = "pulses"):
        if mode not in ("pulses", "busy"):
            raise ValueError("mode must be pulses or busy")
        self.mode = mode
        self.reset()

    def reset(self) -> None:
        self.start = self.done = self.busy1 = self.busy2 = 0

    def step(self, start, done, busy) -> Candidate:
        self.start, self.done = int(start) & 1, int(done) & 1
        self.busy2, self.busy1 = self.busy1, int(busy) & 1
        return self.out

    @property
    def out(self) -> Candidate:
        if self.mode == "pulses":
            return Candidate(self.start | self.done, 1 if self.start else 0, 1)
        return Candidate(self.busy1 ^ self.busy2, self.busy1, 1)


class EmitterModel:
    """jointer_eig_emitter (registered): ev_good = cand_valid and all cond bits.

    step(cand_valid, cand_data, cand_bytes, cond) -> Event of the next cycle
    (also in `out`). increment "one": inc = 1; "bytes": inc = cand_bytes.
    With num_cond = 0 the cond input is ignored. bits: the event data width
    (ev_w_g: 32, or 64 for an address wider than 32 bits).
    """

    def __init__(self, lanes: int = 1, num_cond: int = 0, increment: str = "one", bits: int = 32):
        if increment not in ("one", "bytes"):
            raise ValueError("increment must be one or bytes")
        self.lanes, self.num_cond, self.increment = lanes, num_cond, increment
        self.mask = (1 << bits) - 1
        self.reset()

    def reset(self) -> None:
        self.out = Event(0, 0, 0)

    def step(self, cand_valid: int, cand_data: int, cand_bytes: int, cond: int = 0) -> Event:
        all_cond = self.num_cond == 0 or (int(cond) & ((1 << self.num_cond) - 1)) == (1 << self.num_cond) - 1
        good = int(cand_valid) & ((1 << self.lanes) - 1) if all_cond else 0
        inc = 1 if self.increment == "one" else int(cand_bytes) & 0xFFFF
        self.out = Event(good, int(cand_data) & self.mask, inc)
        return self.out


# --- histogram aggregator ----------------------------------
