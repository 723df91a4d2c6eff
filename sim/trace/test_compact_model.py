# SPDX-License-Identifier: MIT
"""The compact encoding's reference model (sim/jointer_sim/compact.py) against
doc/trace-encoding.md: unit words computed by hand, the greedy packing,
round trips, resynchronisation in the middle, drops, 2^30 gaps, 32-bit
timestamp wrap, the sync period and the idle flush."""
import random

import pytest

from jointer_sim.compact import (CompactDecoder, CompactEncoder, DecodeError, decode,
                                 encode_records)

M32 = 0xFFFFFFFF


def stream(n, seed, start=0, gaps=(1, 3, 40, 900, 20000, 1 << 20), data_var=(1, 0x300, 0x8000, 1 << 24)):
    rnd = random.Random(seed)
    cyc, ts, data, out = 0, start, rnd.getrandbits(32), []
    for _ in range(n):
        g = rnd.choice(gaps)
        cyc += g
        ts = (ts + g) & M32
        data = (data + rnd.choice(data_var) * rnd.choice((1, -1))) & M32
        out.append((cyc, ts, data))
    return out


def kinds(units):
    return [u.word >> 62 for u in units]


def test_unit_words_by_hand():
    # SYNC(ts 0x12345678 -> 30 bits 0x12345678, data 0xCAFEF00D) then three
    # records +1, +2, +3 with data low 10 bits 1, 2, 3 (high bits unchanged)
    recs = [(0, 0x12345678, 0xCAFEF00D), (1, 0x12345679, 0xCAFEF001),
            (2, 0x1234567B, 0xCAFEF002), (3, 0x1234567E, 0xCAFEF003)]
    units, _ = encode_records(recs)
    assert [u.word for u in units] == [
        0x12345678_CAFEF00D,
        (3 << 62) | (((1 << 10) | 1) << 40) | (((2 << 10) | 2) << 20) | ((3 << 10) | 3)]
    assert [u.n for u in units] == [1, 3]
    # PAIR: deltas 0x1000, 0x2000 (> 10 bits), data bits 15..0 change
    recs = [(0, 100, 0x00050000), (1, 100 + 0x1000, 0x0005ABCD), (2, 100 + 0x3000, 0x00051234)]
    units, _ = encode_records(recs)
    assert [u.word for u in units] == [
        (100 << 32) | 0x00050000,
        (2 << 62) | (((0x1000 << 16) | 0xABCD) << 31) | ((0x2000 << 16) | 0x1234)]
    # LONG: data bits 31..16 change
    recs = [(0, 5, 0), (1, 5 + 0x20000, 0x10000)]
    units, _ = encode_records(recs)
    assert [u.word for u in units] == [5 << 32, (1 << 62) | (0x20000 << 32) | 0x10000]


def test_greedy_packing():
    # 10/10, 10/10, then 15/16 only: PAIR of the first two, the third alone (LONG)
    base = [(0, 0, 0)]
    recs = base + [(1, 1, 1), (2, 2, 2), (3, 2 + 2000, 3), (10, 2 + 2000 + (1 << 20), 4)]
    units, _ = encode_records(recs)
    # record 3 (+2000) cannot pair with the +2^20 one (2^20 does not fit 15 bits)
    assert kinds(units) == [0, 2, 1, 1]
    assert [u.n for u in units] == [1, 2, 1, 1]
    assert decode(u.word for u in units) == [(t, d) for _, t, d in recs]


def test_one_record_per_cycle_needs_one_unit_per_cycle():
    """Every record on consecutive cycles, every kind of unit: nothing lost
    with a sink always ready, the decode is exact."""
    recs = stream(5000, 1, gaps=(1,), data_var=(0, 1, 0x500, 0x12345))
    recs = [(i, t, d) for i, (_, t, d) in enumerate(recs)]
    units, enc = encode_records(recs)
    assert enc.lost == 0
    assert decode(u.word for u in units) == [(t, d) for _, t, d in recs]


@pytest.mark.parametrize("seed", range(6))
def test_round_trip(seed):
    recs = stream(3000, seed)
    units, enc = encode_records(recs, sync_period=random.Random(seed).choice([1, 2, 7, 256]))
    assert enc.lost == 0
    assert decode(u.word for u in units) == [(t, d) for _, t, d in recs]
    assert sum(u.n for u in units) == len(recs)


def test_sync_period():
    recs = [(i, i, 7) for i in range(1000)]
    for period in (1, 3, 256):
        units, _ = encode_records(recs, sync_period=period)
        since, idx = None, 0
        for u in units:
            if u.word >> 62 == 0:
                if since is not None:
                    assert idx - since <= period
                since = idx
            idx += u.n
        assert len(recs) - since <= period


def test_resync_from_the_middle():
    recs = stream(2000, 7, gaps=(1, 2, 5))
    units, _ = encode_records(recs, sync_period=64)
    words = [u.word for u in units]
    full = decode(words)
    for start in (1, 17, len(words) // 2, len(words) - 40):
        dec = CompactDecoder()
        got = []
        for w in words[start:]:
            got += dec.unit(w)
        first_sync = next(i for i, w in enumerate(words[start:]) if w >> 62 == 0)
        assert dec.skipped == first_sync
        tail = full[len(full) - len(got):]
        # the reader starts with the SYNC's 30 timestamp bits: same records, timestamps mod 2^30
        assert [d for _, d in got] == [d for _, d in tail]
        off = (tail[0][0] - got[0][0]) & M32
        assert off & ((1 << 30) - 1) == 0
        assert [((t + off) & M32, d) for t, d in got] == tail


def test_drops_resync_and_lost_is_exact():
    rnd = random.Random(3)
    recs = stream(4000, 3, gaps=(1, 1, 1, 2, 50))
    recs = [(c, t, d) for c, t, d in recs]
    units, enc = encode_records(recs, ready=lambda c: rnd.random() < 0.8)
    assert enc.units_dropped > 20
    got = decode(u.word for u in units)
    want = [(t, d) for _, t, d in recs]
    assert len(got) + enc.lost == len(want)
    it = iter(want)
    assert all(any(g == w for w in it) for g in got), "decoded records are not a subsequence"
    # the first unit offered after each drop is a SYNC: replay with the drop times
    rnd = random.Random(3)
    e = CompactEncoder()
    dropped_last, it2, nxt, cyc = False, iter(recs), None, 0
    nxt = next(it2)
    for cyc in range(recs[-1][0] + 40):
        rec = None
        if nxt is not None and nxt[0] == cyc:
            rec, nxt = (nxt[1], nxt[2]), next(it2, None)
        ok = rnd.random() < 0.8
        if e.out is not None:
            if dropped_last:
                assert e.out.word >> 62 == 0, f"cycle {cyc}: first unit after a drop is not a SYNC"
            dropped_last = not ok
        e.step(rec, unit_ready=ok)


def test_gap_of_2_30_or_more_forces_a_sync():
    recs = [(0, 10, 1), (1, 11, 1), (2, (11 + (1 << 30) + 5) & M32, 1), (3, (11 + (1 << 30) + 6) & M32, 1)]
    units, _ = encode_records(recs)
    assert kinds(units)[:2] == [0, 1] or kinds(units)[:2] == [0, 0]
    got = decode(u.word for u in units)
    assert [t & ((1 << 30) - 1) for t, _ in got] == [t & ((1 << 30) - 1) for _, t, _ in recs]
    assert sum(1 for u in units if u.word >> 62 == 0) == 2
    # a gap just below 2^30 is a LONG and decodes exactly
    recs = [(0, 10, 1), (1, 10 + (1 << 30) - 1, 1)]
    units, _ = encode_records(recs)
    assert kinds(units) == [0, 1]
    assert decode(u.word for u in units) == [(10, 1), (10 + (1 << 30) - 1, 1)]


def test_timestamp_wrap():
    # start below 2^30 (the SYNC carries it whole), climb near 2^32 with LONGs, then
    # cross the wrap with small deltas and periodic SYNCs: every timestamp exact
    ts = [0x3FFFFF00, 0x7FFFFE00, 0xBFFFFD00, 0xFFFFFC00]
    ts += [(0xFFFFFC00 + 7 * i) & M32 for i in range(1, 300)]
    recs = [(i, t, i & 0xFF) for i, t in enumerate(ts)]
    units, _ = encode_records(recs, sync_period=16)
    assert decode(u.word for u in units) == [(t, d) for _, t, d in recs]
    assert any(t < 0x100 for t in ts[1:]), "the stream should wrap"
    assert sum(1 for u in units if u.word >> 62 == 0) > 10


def test_idle_flush_timing():
    """A lone record (open unit) leaves after idle_flush idle cycles at the
    packer: offered at cycle 2 + idle_flush + 1 after its input edge 0 for a
    non-SYNC one (the SYNC leaves at once, the next edge)."""
    for flush in (1, 4, 16):
        enc = CompactEncoder(idle_flush=flush)
        outs = [enc.step((100, 5))]
        outs += [enc.step(None) for _ in range(3)]
        assert [o is not None for o in outs] == [False, False, True, False]  # SYNC: edge 2
        outs = [enc.step((101, 5))] + [enc.step(None) for _ in range(flush + 3)]
        assert [i for i, o in enumerate(outs) if o is not None] == [1 + flush]
        assert outs[1 + flush].n == 1 and outs[1 + flush].word >> 62 == 1


def test_clear_drops_pending_and_resyncs():
    enc = CompactEncoder()
    enc.step((0, 1))
    enc.step((1, 1))
    enc.step((2, 1))
    enc.step(None, clear=True)
    assert enc.pend == [] and enc.out is None
    outs = [enc.step((3, 1))] + [enc.step(None) for _ in range(3)]
    assert [o.word >> 62 for o in outs if o] == [0]


def test_decoder_rejects_malformed_triple():
    dec = CompactDecoder()
    dec.unit(5 << 32)
    with pytest.raises(DecodeError):
        dec.unit((3 << 62) | (1 << 60))
    # before the first SYNC it is only skipped
    dec = CompactDecoder()
    assert dec.unit((3 << 62) | (1 << 60)) == [] and dec.skipped == 1


def test_c_vectors_are_the_models():
    """drivers/tests/compact_vectors.h (test_compact.c) is what the model gives today."""
    import importlib.util
    from jointer_sim import REPO
    spec = importlib.util.spec_from_file_location(
        "gen_compact_vectors", REPO / "drivers" / "tests" / "gen_compact_vectors.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert (REPO / "drivers" / "tests" / "compact_vectors.h").read_text() == mod.render(), \
        "run python3 drivers/tests/gen_compact_vectors.py"
