# SPDX-License-Identifier: MIT
"""Scoreboard for the bus taps (jointer_eig_axi4lite, _axi4, _axis).

`Recorder` samples the observed bus and the taps' candidate outputs at every
falling edge (the drivers change signals at rising edges, so a falling-edge
sample is exactly what the DUT registers at the next rising edge). It keeps,
per channel, the handshakes with their cycle number, and per tap the
candidates. Cycle n = the n-th falling edge after `start()`.

The `expect_*` functions are the reference models: from the recorded
handshakes alone they compute the candidates a tap must give, in order, each
with the cycle in which it must be seen (documented latency of the tap).
`compare()` checks a tap's candidates against them, value and cycle exactly.
"""

from __future__ import annotations

from collections import deque

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly

MASK32 = 0xFFFFFFFF


def popcount(v: int) -> int:
    return bin(v).count("1")


class Recorder:
    """Samples channels and taps at falling edges.

    channels: {name: (valid_handle, ready_handle | None, {field: handle})}
    taps:     {name: (valid_handle, data_handle, bytes_handle)}
    A handshake is valid & ready; a channel without ready (AXI4-Stream taps
    always have one) counts every valid cycle.
    """

    def __init__(self, clk, rst, channels: dict, taps: dict):
        self.clk = clk
        self.rst = rst
        self.channels = channels
        self.taps = taps
        self.cycle = 0
        self.hs = {name: [] for name in channels}       # [(cycle, {field: int})]
        self.cands = {name: [] for name in taps}        # [(cycle, data, bytes)]
        self.rst_cycles = []                            # cycles sampled with rst = 1
        self.errors = []
        self._task = None

    def start(self):
        self._task = cocotb.start_soon(self._run())

    def stop(self):
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self):
        while True:
            await FallingEdge(self.clk)
            await ReadOnly()                   # values settled
            self.cycle += 1
            n = self.cycle
            if self.rst.value == 1:
                self.rst_cycles.append(n)
            for name, (valid, ready, fields) in self.channels.items():
                if valid.value == 1 and (ready is None or ready.value == 1):
                    self.hs[name].append((n, {f: int(h.value) for f, h in fields.items()}))
            for name, (valid, data, nbytes) in self.taps.items():
                v = valid.value
                if not v.is_resolvable:
                    self.errors.append(f"{name}: cand_valid = {v} in cycle {n}")
                elif int(v):
                    d, b = data.value, nbytes.value
                    if d.is_resolvable and b.is_resolvable:
                        self.cands[name].append((n, int(d), int(b)))
                    else:
                        self.errors.append(f"{name}: candidate with data {d} bytes {b} in cycle {n}")

    def segment(self, lo: int, hi: int):
        """Handshakes and candidates with lo <= cycle < hi."""
        hs = {k: [e for e in v if lo <= e[0] < hi] for k, v in self.hs.items()}
        cands = {k: [e for e in v if lo <= e[0] < hi] for k, v in self.cands.items()}
        return hs, cands


# ---------------------------------------------------------------------------
# Reference models: handshakes -> [(cycle, data, bytes)]
# ---------------------------------------------------------------------------

def _serialise(items):
    """One candidate per cycle, in order: item k leaves at max(ready_k, prev + 1)."""
    out, prev = [], -1
    for ready, data, nbytes in items:
        t = max(ready, prev + 1)
        out.append((t, data, nbytes))
        prev = t
    return out


def expect_pairs(aw, w_done, latency=2):
    """k-th AW address with k-th W byte count (AXI4-Lite write, AXI4 write
    per burst). aw: [(cycle, addr)], w_done: [(cycle, bytes)]. Unpaired
    leftovers give nothing."""
    n = min(len(aw), len(w_done))
    return _serialise((max(aw[k][0], w_done[k][0]) + latency, aw[k][1], w_done[k][1])
                      for k in range(n))


def lead_max(a_times, b_times):
    """Largest number of a-events seen before the b-event they pair with:
    max over cycles of (#a so far - #b so far), b-events of a cycle first."""
    ev = sorted([(t, 1) for t in a_times] + [(t, 0) for t in b_times])
    lead = best = 0
    for _, kind in ev:
        lead += 1 if kind == 1 else -1
        best = max(best, lead)
    return best


def w_bursts(w_beats):
    """Group W beats by WLAST: [(last cycle, [(cycle, strb)])]."""
    bursts, cur = [], []
    for t, f in w_beats:
        cur.append((t, f["strb"]))
        if f["last"]:
            bursts.append((t, cur))
            cur = []
    return bursts


def expect_axi4_write(aw_hs, w_hs, per_beat: bool):
    """AXI4 write tap. aw_hs/w_hs: recorded handshakes with fields addr / strb, last."""
    aw = [(t, f["addr"]) for t, f in aw_hs]
    bursts = w_bursts(w_hs)
    if not per_beat:
        return expect_pairs(aw, [(t, sum(popcount(s) for _, s in beats)) for t, beats in bursts])
    items = []
    # beats of the k-th W burst belong to the k-th AW (also a trailing partial burst)
    all_beats, cur = [], []
    for t, f in w_hs:
        cur.append((t, f["strb"]))
        if f["last"]:
            all_beats.append(cur)
            cur = []
    if cur:
        all_beats.append(cur)
    for k, beats in enumerate(all_beats):
        if k >= len(aw):
            break
        for t, s in beats:
            items.append((max(aw[k][0], t) + 2, aw[k][1], popcount(s)))
    return _serialise(items)


def expect_axi4_read(ar_hs, r_hs, per_beat: bool, data_bytes: int):
    """AXI4 read tap: R beats belong to the oldest outstanding AR with their
    ID; bytes per beat = 2^ARSIZE (clipped to the data width). Per burst, the
    bytes of the beats seen up to RLAST."""
    pending = {}
    ars = deque(ar_hs)
    out = []
    for t, f in r_hs:
        while ars and ars[0][0] < t:       # ARs handshaken before this beat
            ta, fa = ars.popleft()
            pending.setdefault(fa["id"], deque()).append(dict(fa, beats=0))
        q = pending.get(f["id"])
        if not q:
            continue                       # no outstanding burst: ignored
        b = q[0]
        per = min(1 << b["size"], data_bytes)
        b["beats"] += 1
        if per_beat:
            out.append((t + 1, b["addr"], per))
        if f["last"]:
            q.popleft()
            if not per_beat:
                out.append((t + 1, b["addr"], b["beats"] * per))
    return out


def outstanding_reads(ar_hs, r_hs) -> int:
    """Largest number of reads in flight (AR handshaken, RLAST not yet)."""
    return lead_max([t for t, _ in ar_hs], [t for t, f in r_hs if f["last"]])


def expect_axis(beats_hs, packets: bool, data_bytes: int, has_keep: bool, data_sel: int):
    out, acc = [], 0
    for t, f in beats_hs:
        nbytes = popcount(f["keep"]) if has_keep else data_bytes
        data = (f["data"] & MASK32) if data_sel == 0 else f["dest"]
        if not packets:
            out.append((t + 1, data, nbytes))
            continue
        acc = min(acc + nbytes, 0xFFFF)
        if f["last"]:
            out.append((t + 1, data, acc))
            acc = 0
    return out


# ---------------------------------------------------------------------------
# Reference models: recorded handshakes -> [(cycle, latency, 1)]
# ---------------------------------------------------------------------------

def expect_read_latency(ar_hs, r_hs):
    """RLAST of the oldest outstanding AR of its ID: latency = RLAST cycle - AR cycle,
    seen two cycles after RLAST (the table's lookup ends in a register)."""
    pending, ars, out = {}, deque(ar_hs), []
    for t, f in r_hs:
        while ars and ars[0][0] < t:
            ta, fa = ars.popleft()
            pending.setdefault(fa["id"], deque()).append(ta)
        q = pending.get(f["id"])
        if not q or not f["last"]:
            continue
        out.append((t + 2, t - q.popleft(), 1))
    return out


def expect_write_last_latency(aw_hs, w_hs):
    """k-th AW with the k-th WLAST: latency = max(0, WLAST cycle - AW cycle),
    seen one cycle after the later of the two."""
    aw = [t for t, _ in aw_hs]
    wl = [t for t, _ in w_bursts(w_hs)]
    return [(max(a, w) + 1, max(0, w - a), 1) for a, w in zip(aw, wl)]


def expect_write_resp_latency(aw_hs, b_hs):
    """B of the oldest open AW of its ID: latency = B cycle - AW cycle, seen two cycles after B."""
    pending, aws, out = {}, deque(aw_hs), []
    for t, f in b_hs:
        while aws and aws[0][0] < t:
            ta, fa = aws.popleft()
            pending.setdefault(fa["id"], deque()).append(ta)
        q = pending.get(f["id"])
        if q:
            out.append((t + 2, t - q.popleft(), 1))
    return out


# ---------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------

def compare(log, name: str, got, want) -> int:
    """Exact comparison of [(cycle, data, bytes)]; returns the number checked."""
    for k in range(min(len(got), len(want))):
        if got[k] != want[k]:
            ctx = "\n".join(f"  #{j}: got {got[j] if j < len(got) else None} "
                            f"want {want[j] if j < len(want) else None}"
                            for j in range(max(0, k - 3), min(max(len(got), len(want)), k + 4)))
            raise AssertionError(f"{name}: candidate #{k} differs (cycle, data, bytes):\n{ctx}")
    if len(got) != len(want):
        extra = got[len(want):len(want) + 3] if len(got) > len(want) else want[len(got):len(got) + 3]
        raise AssertionError(f"{name}: {len(got)} candidates, model expects {len(want)}; "
                             f"first extra: {extra}")
    log.debug("%s: %d candidates match", name, len(want))
    return len(want)
