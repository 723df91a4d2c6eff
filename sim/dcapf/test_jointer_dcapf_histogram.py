# SPDX-License-Identifier: MIT
"""jointer_dcapf_histogram: random 64-bit samples aimed at the bucket
boundaries (b-1, b, b+1 of every boundary, 0, 2^64-1), power-of-two and
listed boundaries, narrow counters that saturate or wrap, clear and reset;
every bucket checked in every cycle (all buckets change in the same cycle:
what the LMIC snapshots is one consistent histogram) against
jointer_sim.model.HistogramModel."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.model import MASK64, HistogramModel, histogram_boundaries


def sample(bounds):
    r = random.random()
    if r < 0.6:                                   # around a boundary
        b = random.choice(bounds)
        return max(0, b + random.randint(-1, 1))
    if r < 0.7:
        return random.choice([0, MASK64, bounds[-1] * 2, bounds[0] - 1])
    return random.getrandbits(random.choice([4, 8, 16, 32, 64]))


@cocotb.test()
async def random_samples(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    model = HistogramModel(p["buckets"], p["width"], p["boundaries"], p["wrap"])
    bounds = histogram_boundaries(p["buckets"], p["boundaries"])
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.smp_valid.value, dut.smp_value.value, dut.clear.value = 0, 0, 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 2)
    await FallingEdge(dut.clk)
    dut.rst.value = 0

    def got():
        return (int(dut.result.value), int(dut.overflow.value), int(dut.caught.value))

    assert got() == (0, 0, 0), f"after reset: {got()}"
    n, samples, hits = 3000, 0, [0] * p["buckets"]
    for cycle in range(n):
        if cycle % 300 == 0:
            p_valid = random.choice([0.3, 0.9, 1.0])
            p_clear = random.choice([0.0, 0.002, 0.02])
        valid = int(random.random() < p_valid)
        value = sample(bounds)
        clear = int(random.random() < p_clear)
        rst = int(random.random() < 0.001)
        dut.smp_valid.value, dut.smp_value.value = valid, value
        dut.clear.value, dut.rst.value = clear, rst
        if rst:
            model.reset()
        else:
            if valid and not clear:
                samples += 1
                hits[model.bucket_of(value)] += 1
            model.step(valid, value, clear)
        await FallingEdge(dut.clk)
        exp = (model.packed(), int(model.overflow), int(model.caught))
        assert got() == exp, (f"cycle {cycle}: valid {valid} value {value:#x} clear {clear} rst {rst}: "
                              f"got {got()[0]:#x} ovf {got()[1]} caught {got()[2]}, expected "
                              f"{model.counts} ovf {exp[1]} caught {exp[2]}")
    assert all(hits), f"a bucket was never hit: {hits}"
    dut._log.info("checked %d cycles, %d samples over %d buckets (%s), hits per bucket %s",
                  n, samples, p["buckets"], p["boundaries"], hits)


CASES = [
    dict(buckets=8, width=32, boundaries="pow2", wrap=False),     # the default
    dict(buckets=5, width=4, boundaries="pow2", wrap=False),      # saturates
    dict(buckets=64, width=6, boundaries="pow2", wrap=True),      # 64 buckets, wraps
    dict(buckets=6, width=5, boundaries=[3, 10, 11, 100, 1000], wrap=False),
    dict(buckets=2, width=64, boundaries=[0x7FFFFFFF], wrap=False),
]


@pytest.mark.parametrize("p", CASES, ids=lambda p: f"n{p['buckets']}_w{p['width']}_"
                         f"{'pow2' if p['boundaries'] == 'pow2' else 'list'}")
def test_histogram(p):
    g = {"buckets_g": p["buckets"], "width_g": p["width"], "wrap_g": p["wrap"],
         "pow2_g": p["boundaries"] == "pow2"}
    if p["boundaries"] != "pow2":
        g["bounds_g"] = list(p["boundaries"])
    run("jointer_dcapf_histogram", __name__, g, extra_env={"JOINTER_PARAMS": json.dumps(p)})
