# SPDX-License-Identifier: MIT
"""Reset-aware checking of recorded tap candidates against the models.

The recording is cut at every reset into segments of cycles with rst = 0.
For a segment [lo, hi) (hi = the first cycle of the next reset, or the end
of the recording), the model sees only the handshakes of the segment; the tap
must give exactly the model's candidates that are due up to cycle hi (a
reset cuts the rest), in cycles lo+1..hi. No candidate may appear elsewhere:
while rst is high, or in the cycle after it is released.
"""

from __future__ import annotations

from axi_model import compare


def segments(rec, end: int):
    """[(lo, hi, cut)] runs of cycles with rst = 0 in 1..end; cut: a reset ends it."""
    rst = set(rec.rst_cycles)
    out, lo = [], None
    for c in range(1, end + 1):
        if c in rst:
            if lo is not None:
                out.append((lo, c, True))
                lo = None
        elif lo is None:
            lo = c
    if lo is not None:
        out.append((lo, end + 1, False))
    return out


def check_taps(rec, log, models: dict, end: int | None = None) -> dict:
    """models: {tap: fn(handshakes of a segment) -> [(cycle, data, bytes)]}.
    Returns {tap: number of candidates checked}."""
    if rec.errors:
        raise AssertionError("; ".join(rec.errors[:5]))
    end = rec.cycle if end is None else end
    segs = segments(rec, end)
    counts = {}
    for tap, model in models.items():
        got_all = [c for c in rec.cands[tap] if c[0] <= end]
        used = 0
        n = 0
        for lo, hi, cut in segs:
            hs = {k: [e for e in v if lo <= e[0] < hi] for k, v in rec.hs.items()}
            want = model(hs)
            if cut:
                want = [w for w in want if w[0] <= hi]
            else:
                late = [w for w in want if w[0] > end]
                assert not late, f"{tap}: test ended before candidates were due: {late[:3]}"
            got = [c for c in got_all if lo < c[0] <= hi]
            used += len(got)
            n += compare(log, f"{tap} (cycles {lo}..{hi})", got, want)
        stray = [c for c in got_all if not any(lo < c[0] <= hi for lo, hi, _ in segs)]
        assert not stray, f"{tap}: candidates during or right after reset: {stray[:5]}"
        assert used == len(got_all)
        counts[tap] = n
    return counts
