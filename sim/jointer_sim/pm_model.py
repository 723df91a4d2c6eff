# SPDX-License-Identifier: MIT
"""Reference models of the program monitor.

PcModel: jointer_eig_pc, cycle by cycle. `profile()`: the per-function statistics `jointer profile` prints, computed
from a list of {timestamp, index} records independently of the C code.
"""
from __future__ import annotations

from collections import namedtuple

Candidate = namedtuple("Candidate", "valid data bytes")


class PcModel:
    """jointer_eig_pc: a PC sampled valid at clock edge t (input register)
    gives a candidate after edge t + 1 (the match register): the index of
    the lowest enabled address equal to the PC, compared with the table
    loaded by INIT words sampled up to edge t.

    INIT word w = 2 * (sel - init_base) + hi: word 0 = enable mask, word
    1 + i = address i (low pc_w bits kept), other words ignored. reset()
    clears the mask; addresses keep their value (None = never written).
    step(...) takes the inputs sampled at the next edge and returns what the
    DUT shows after it (the candidate of the previous step's PC).
    """

    def __init__(self, pc_w: int = 32, num_addr: int = 32, init_base: int = 0):
        self.pc_w, self.num_addr, self.init_base = pc_w, num_addr, init_base
        self.addr: list[int | None] = [None] * num_addr
        self.reset()

    def reset(self) -> None:
        self.en = 0
        self.pipe = Candidate(0, 0, 1)  # match register

    def init_write(self, sel: int, hi: int, data: int) -> None:
        w = 2 * (sel - self.init_base) + (hi & 1)
        if w == 0:
            self.en = data & ((1 << self.num_addr) - 1)
        elif 1 <= w <= self.num_addr:
            self.addr[w - 1] = data & ((1 << self.pc_w) - 1)

    def match(self, pc: int) -> int | None:
        pc &= (1 << self.pc_w) - 1
        for i in range(self.num_addr):
            if (self.en >> i) & 1 and self.addr[i] == pc:
                return i
        return None

    def step(self, pc: int, valid: int, init_we: int = 0, sel: int = 0, hi: int = 0,
             data: int = 0) -> Candidate:
        if init_we:
            self.init_write(sel, hi, data)
        idx = self.match(pc) if valid else None
        new = Candidate(0, 0, 1) if idx is None else Candidate(1, idx, 1)
        out, self.pipe = self.pipe, new
        return out


def profile(records, functions, stack_depth: int = 1024):
    """Per-function statistics from trace records, as `jointer profile`
    defines them (drivers/README.md, "Program monitor").

    records: [(timestamp, index)] in trace order; functions: [(name, entry
    index, exit index or None)], every index in one role only. An entry of a
    function without exit index counts a call (no time). Another entry pushes
    (function, timestamp) on a call stack; an exit closes the innermost open
    call of its function: calls opened after it and still open are dropped
    as unmatched entries, and exit - entry cycles go to the function's
    calls, total, min and max (recursion: every call counts with its
    inclusive time, so the total counts nested calls again). An exit without
    an open call is an unmatched exit; calls still open at the end are
    unmatched entries; other indices are ignored; a push on a full stack
    (stack_depth frames) drops the oldest frame (an unmatched entry). Timestamps are 32-bit and
    wrap: durations are modulo 2^32.
    Returns {name: dict(calls, total, min, max, unmatched_entries,
    unmatched_exits)}, min/max None without calls.
    """
    by_entry = {e: n for n, e, _ in functions}
    by_exit = {x: n for n, _, x in functions if x is not None}
    entry_only = {n for n, _, x in functions if x is None}
    stats = {n: dict(calls=0, total=0, min=None, max=None, unmatched_entries=0,
                     unmatched_exits=0) for n, _, _ in functions}
    stack: list[tuple[str, int]] = []
    for ts, idx in records:
        if idx in by_entry:
            if by_entry[idx] in entry_only:
                stats[by_entry[idx]]["calls"] += 1
                continue
            if len(stack) == stack_depth:
                stats[stack.pop(0)[0]]["unmatched_entries"] += 1
            stack.append((by_entry[idx], ts))
        elif idx in by_exit:
            name = by_exit[idx]
            pos = max((k for k, (n, _) in enumerate(stack) if n == name), default=None)
            if pos is None:
                stats[name]["unmatched_exits"] += 1
                continue
            for n, _ in stack[pos + 1:]:
                stats[n]["unmatched_entries"] += 1
            d = (ts - stack[pos][1]) & 0xFFFFFFFF
            del stack[pos:]
            s = stats[name]
            s["calls"] += 1
            s["total"] += d
            s["min"] = d if s["min"] is None else min(s["min"], d)
            s["max"] = d if s["max"] is None else max(s["max"], d)
    for n, _ in stack:
        stats[n]["unmatched_entries"] += 1
    return stats
