# SPDX-License-Identifier: MIT
"""Reference model of the compact trace encoding (doc/trace-encoding.md).

CompactEncoder: jointer_trace_compact cycle by cycle (records in, 64-bit
units out, the sink's unit_ready, clear, rst). It works on records and
builds the unit words only when a unit leaves, so it shares no bit
slicing with the VHDL. decode(): the reader's side (what the C decoder
jointer_compact_decode does). encode_records(): a record list with the
cycle of each record through the encoder with a sink that accepts all.

Cycle convention (as PcModel): step(...) takes the inputs sampled at a
clock edge and returns what the DUT shows after it. A record sampled at
edge e reaches the packer at edge e + 1 (the input stage computes its
delta and fit flags); a unit leaves the packer at the earliest edge with
no other unit leaving (one per edge) and is offered for one cycle.
"""
from __future__ import annotations

from dataclasses import dataclass

M32 = 0xFFFFFFFF
M30 = (1 << 30) - 1
SYNC, LONG, PAIR, TRIPLE = 0, 1, 2, 3


@dataclass
class Rec:
    """A record with what the input stage knows about it."""
    ts: int
    data: int
    delta: int      # ts - previous record's ts, mod 2^32
    f10: bool       # delta < 2^10 and data bits 31..10 = previous record's
    f15: bool       # delta < 2^15 and data bits 31..16 = previous record's
    f30: bool       # delta < 2^30


def classify(ts: int, data: int, pts: int, pdata: int) -> Rec:
    delta = (ts - pts) & M32
    return Rec(ts, data, delta,
               delta < (1 << 10) and data >> 10 == pdata >> 10,
               delta < (1 << 15) and data >> 16 == pdata >> 16,
               delta < (1 << 30))


def field(r: Rec, dbits: int, xbits: int) -> int:
    return ((r.delta & ((1 << dbits) - 1)) << xbits) | (r.data & ((1 << xbits) - 1))


def unit_word(recs: list[Rec], sync: bool) -> int:
    """The 64-bit unit of 1..3 records (sync: a one-record unit is a SYNC)."""
    if len(recs) == 1:
        r = recs[0]
        if sync:
            return (SYNC << 62) | ((r.ts & M30) << 32) | r.data
        return (LONG << 62) | ((r.delta & M30) << 32) | r.data
    if len(recs) == 2:
        return (PAIR << 62) | (field(recs[0], 15, 16) << 31) | field(recs[1], 15, 16)
    a, b, c = (field(r, 10, 10) for r in recs)
    return (TRIPLE << 62) | (a << 40) | (b << 20) | c


@dataclass
class Unit:
    word: int
    n: int

    @property
    def lo(self) -> int:
        return self.word & M32

    @property
    def hi(self) -> int:
        return self.word >> 32


class CompactEncoder:
    """jointer_trace_compact (sync_period_g, idle_flush_g), cycle by cycle."""

    def __init__(self, sync_period: int = 256, idle_flush: int = 16):
        self.period, self.idle_flush = sync_period, idle_flush
        self.prev_ts = self.prev_data = 0     # input stage: the last record seen (not reset)
        self.lost = 0                         # records of the units offered while unit_ready = 0
        self.units_dropped = 0
        self.reset()

    def reset(self) -> None:
        """rst or clear: pending records dropped, the next record is a SYNC."""
        self.a: Rec | None = None             # input stage -> packer
        self.pend: list[Rec] = []             # the unit being built
        self.p_sync = False                   # pend (one record) leaves as a SYNC
        self.resync = True                    # the next record loaded must be a SYNC
        self.cnt = 0                          # records since the last SYNC record
        self.idle = 0                         # idle edges with a partial unit
        self.out: Unit | None = None          # the unit offered

    def _closed(self) -> bool:
        n, p = len(self.pend), self.pend
        return (n == 3 or (n == 2 and not (p[0].f10 and p[1].f10))
                or (n == 1 and (self.p_sync or not p[0].f15)))

    def _fits(self, r: Rec) -> bool:
        return r.f15 if len(self.pend) == 1 else r.f10

    def step(self, rec: tuple[int, int] | None = None, unit_ready: bool = True,
             clear: bool = False, rst: bool = False) -> Unit | None:
        # the input stage's record registers load on every record (no reset)
        a_next = None
        if rec is not None:
            a_next = classify(rec[0] & M32, rec[1] & M32, self.prev_ts, self.prev_data)
            self.prev_ts, self.prev_data = a_next.ts, a_next.data
        if rst or clear:
            self.reset()
            return self.out
        drop = self.out is not None and not unit_ready
        if drop:
            self.lost += self.out.n
            self.units_dropped += 1
            if len(self.pend) == 1 and not self.p_sync:
                self.p_sync, self.cnt = True, 0   # the pending record becomes the SYNC
            elif not self.pend:
                self.resync = True
            else:
                assert len(self.pend) == 1, "a drop with two pending records cannot happen"
        emit = None
        r = self.a
        if r is not None:
            forced = self.resync or self.cnt == self.period - 1 or not r.f30
            if self.pend and (self._closed() or forced or not self._fits(r)):
                emit = Unit(unit_word(self.pend, self.p_sync), len(self.pend))
                self.pend = []
            if not self.pend:
                self.pend, self.p_sync = [r], forced
                if forced:
                    self.cnt, self.resync = 0, False
                else:
                    self.cnt += 1
            else:
                self.pend.append(r)
                self.cnt += 1
            self.idle = 0
        elif self.pend:
            if self._closed() or self.idle == self.idle_flush - 1:
                emit = Unit(unit_word(self.pend, self.p_sync), len(self.pend))
                self.pend, self.idle = [], 0
            else:
                self.idle += 1
        self.a = a_next
        self.out = emit
        return emit


def encode_records(records, sync_period: int = 256, idle_flush: int = 16,
                   ready=None) -> tuple[list[Unit], CompactEncoder]:
    """records: (cycle, ts, data) in increasing cycles. Runs the encoder
    cycle by cycle (idle cycles between records included) until it is
    empty; ready(cycle) -> bool is the sink's unit_ready (default: always).
    Returns the accepted units and the encoder (lost, units_dropped)."""
    enc = CompactEncoder(sync_period, idle_flush)
    units: list[Unit] = []
    it = iter(records)
    nxt = next(it, None)
    cycle = nxt[0] if nxt is not None else 0
    quiet = 0
    while nxt is not None or quiet < idle_flush + 4:
        rec = None
        if nxt is not None and nxt[0] == cycle:
            rec = (nxt[1], nxt[2])
            nxt = next(it, None)
            if nxt is not None and nxt[0] <= cycle:
                raise ValueError(f"record cycles must increase (cycle {cycle})")
        offered = enc.out
        ok = True if ready is None else bool(ready(cycle))
        if offered is not None and ok:
            units.append(offered)
        enc.step(rec, unit_ready=ok)
        quiet = quiet + 1 if nxt is None else 0
        if nxt is not None and rec is None and enc.a is None and not enc.pend and enc.out is None:
            cycle = nxt[0]           # nothing in flight: jump to the next record
            continue
        cycle += 1
    return units, enc


class DecodeError(ValueError):
    pass


class CompactDecoder:
    """The reader: units -> records (ts, data); units before the first SYNC
    are skipped (counted in `skipped`)."""

    def __init__(self):
        self.reset()

    def reset(self) -> None:
        self.ts = self.data = 0
        self.synced = False
        self.skipped = 0

    def unit(self, word: int) -> list[tuple[int, int]]:
        kind = word >> 62
        if not self.synced and kind != SYNC:
            self.skipped += 1
            return []
        if kind == SYNC:
            v = (word >> 32) & M30
            self.ts = v if not self.synced else (self.ts + ((v - self.ts) & M30)) & M32
            self.data, self.synced = word & M32, True
            return [(self.ts, self.data)]
        if kind == LONG:
            return [self._rec((word >> 32) & M30, word & M32, 32)]
        if kind == PAIR:
            return [self._rec(f >> 16, f & 0xFFFF, 16)
                    for f in ((word >> 31) & 0x7FFFFFFF, word & 0x7FFFFFFF)]
        if (word >> 60) & 3:
            raise DecodeError(f"TRIPLE unit {word:#018x} with bits 61..60 set")
        return [self._rec(f >> 10, f & 0x3FF, 10)
                for f in ((word >> 40) & 0xFFFFF, (word >> 20) & 0xFFFFF, word & 0xFFFFF)]

    def _rec(self, delta: int, low: int, bits: int) -> tuple[int, int]:
        self.ts = (self.ts + delta) & M32
        keep = (M32 >> bits << bits) if bits < 32 else 0
        self.data = (self.data & keep) | low
        return (self.ts, self.data)


def decode(words) -> list[tuple[int, int]]:
    dec = CompactDecoder()
    out = []
    for w in words:
        out += dec.unit(w)
    return out
