# SPDX-License-Identifier: MIT
"""jointer_trace_compact: the compact trace encoder against its reference
model (sim/jointer_sim/compact.py, built from doc/trace-encoding.md), cycle
by cycle: unit_valid, unit_lo/hi and unit_n after every edge, on random and
bursty record streams with random unit_ready (drops), clear and rst. The
units the sink would accept are also decoded: the records come back exact
but for the ones in dropped units, whose count is exactly LOST.
"""
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

from jointer_sim import run
from jointer_sim.compact import CompactEncoder, decode

M32 = 0xFFFFFFFF


class Source:
    """Records: bursts of back-to-back or near records with small data
    steps, idle gaps, occasional far jumps (2^30 and more) and big data
    changes; the timestamp is a free-running 32-bit counter started near
    its wrap."""

    def __init__(self, rnd: random.Random, rate: float):
        self.rnd, self.rate = rnd, rate
        self.ts = 0xFFFFF000 - rnd.getrandbits(16)
        self.data = rnd.getrandbits(32)
        self.burst = 0

    def next(self):
        rnd = self.rnd
        self.ts = (self.ts + 1) & M32
        if rnd.random() < 0.002:
            self.ts = (self.ts + rnd.choice([1 << 30, (1 << 30) - 2, 1 << 31, 1 << 20])) & M32
        if self.burst == 0:  # idle until a burst starts
            if rnd.random() >= self.rate / 8:
                return None
            self.burst = rnd.randint(1, 40)
        self.burst -= 1
        if rnd.random() < 0.2:
            return None
        r = rnd.random()
        if r < 0.6:
            self.data = (self.data & ~0x3FF) | rnd.getrandbits(10)
        elif r < 0.8:
            self.data = (self.data & ~0xFFFF) | rnd.getrandbits(16)
        elif r < 0.9:
            self.data = rnd.getrandbits(32)
        return (self.ts, self.data)


async def scenario(dut, cycles, rate, ready_p, clear_p, rst_p, period, flush, seed):
    rnd = random.Random(seed)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    model = CompactEncoder(period, flush)
    src = Source(rnd, rate)
    d = dut
    d.rst.value, d.clear.value, d.rec_valid.value, d.unit_ready.value = 1, 0, 0, 1
    d.rec_ts.value, d.rec_data.value = 0, 0
    model.step(None, rst=True)
    accepted, sent, lost_recs, checked = [], [], 0, 0
    for cyc in range(cycles):
        await FallingEdge(d.clk)
        if cyc > 0:  # the model's output after the last edge
            want = model.out
            got_v = int(d.unit_valid.value)
            assert got_v == (want is not None), \
                f"seed {seed} cycle {cyc}: unit_valid {got_v}, model {want}"
            if want is not None:
                got = (int(d.unit_hi.value) << 32) | int(d.unit_lo.value)
                assert (got, int(d.unit_n.value)) == (want.word, want.n), \
                    f"seed {seed} cycle {cyc}: unit {got:#018x}/{int(d.unit_n.value)}, " \
                    f"model {want.word:#018x}/{want.n}"
                checked += 1
        rst = cyc < 3 or rnd.random() < rst_p
        clear = not rst and rnd.random() < clear_p
        rec = src.next()
        ready = rnd.random() < ready_p
        d.rst.value, d.clear.value = int(rst), int(clear)
        d.rec_valid.value = int(rec is not None)
        if rec is not None:
            d.rec_ts.value, d.rec_data.value = rec
        d.unit_ready.value = int(ready)
        if model.out is not None and ready and not rst and not clear:
            accepted.append(model.out)
        lost_before = model.lost
        model.step(rec, unit_ready=ready, clear=clear, rst=rst)
        lost_recs += model.lost - lost_before
        if rec is not None:
            sent.append((rec, rst or clear))
    return model, accepted, sent, checked


async def _run(dut, **kw):
    model, accepted, sent, checked = await scenario(dut, **kw)
    assert checked > 100, f"only {checked} units compared"
    return model, accepted, sent


@cocotb.test()
async def random_streams(dut):
    """Random and bursty streams, a sink that refuses 10% of the units, rare
    clear and rst: identical to the model every cycle."""
    for i, (rate, ready_p, clear_p, rst_p) in enumerate(
            [(1.0, 1.0, 0, 0), (0.5, 0.9, 0.002, 0.001), (2.0, 0.7, 0.005, 0.0),
             (8.0, 0.95, 0.0, 0.002)]):
        await _run(dut, cycles=6000, rate=rate, ready_p=ready_p, clear_p=clear_p,
                   rst_p=rst_p, period=PERIOD[0], flush=FLUSH[0], seed=1000 + i)


@cocotb.test()
async def lossless_decode(dut):
    """A sink that accepts every unit, no clear: the decoded units are the
    records sent (the first timestamp taken modulo 2^30 by its SYNC)."""
    model, accepted, sent = await _run(dut, cycles=20000, rate=4.0, ready_p=1.0, clear_p=0,
                                       rst_p=0, period=PERIOD[0], flush=FLUSH[0], seed=7)
    recs = [r for r, dropped in sent if not dropped]
    for _ in range(FLUSH[0] + 4):  # what was still pending: the model alone can flush it
        if model.out is not None:
            accepted.append(model.out)
        model.step(None)
    got = decode(u.word for u in accepted)
    assert len(got) == len(recs) and model.lost == 0
    assert [dd for _, dd in got] == [dd for _, dd in recs]
    # timestamps exact up to the first SYNC's missing bits 31..30 and a 2^30 jump (mod 2^30)
    assert all((g - w) & ((1 << 30) - 1) == 0 for (g, _), (w, _) in zip(got, recs))


@cocotb.test()
async def drops_are_exact(dut):
    """A slow sink: the records decoded plus LOST are the records sent."""
    model, accepted, sent = await _run(dut, cycles=20000, rate=4.0, ready_p=0.6, clear_p=0,
                                       rst_p=0, period=PERIOD[0], flush=FLUSH[0], seed=11)
    recs = [r for r, dropped in sent if not dropped]
    for _ in range(FLUSH[0] + 4):
        if model.out is not None:
            accepted.append(model.out)
        model.step(None)
    got = decode(u.word for u in accepted)
    assert model.lost > 100
    assert len(got) + model.lost == len(recs)
    it = iter(dd for _, dd in recs)
    assert all(any(g == w for w in it) for _, g in got), "decoded data is not a subsequence"


PERIOD = [256]
FLUSH = [16]


def _setup():
    import os
    PERIOD[0] = int(os.environ.get("COMPACT_PERIOD", "256"))
    FLUSH[0] = int(os.environ.get("COMPACT_FLUSH", "16"))


_setup()


@pytest.mark.parametrize("period,flush", [(256, 16), (5, 1), (1, 3)])
def test_trace_compact(period, flush):
    run("jointer_trace_compact", __name__, {"sync_period_g": period, "idle_flush_g": flush},
        extra_env={"COMPACT_PERIOD": str(period), "COMPACT_FLUSH": str(flush)})
