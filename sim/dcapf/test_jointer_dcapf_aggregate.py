# SPDX-License-Identifier: MIT
"""jointer_dcapf_aggregate: sum/max/min/last with clipping, sticky overflow,
caught and clear, widths 1..64, random 64-bit samples, against
jointer_sim.model.Aggregator."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.model import AGGREGATOR_CODE, Aggregator


def random_sample(width, phase, result):
    """A sample for the phase: small values, values around 2^w (clipping, and
    for sum the saturation boundary aimed at from the current result), or
    anything (64 bits)."""
    if phase == "small":
        return random.getrandbits(max(1, width - random.randrange(4))) if random.random() < 0.3 \
            else random.randrange(4)
    if phase == "edge":
        if random.random() < 0.5:
            return ((1 << width) + random.randint(-3, 2)) & ((1 << 64) - 1)
        return max(0, (1 << width) - 1 - result + random.randint(-2, 2))
    return random.getrandbits(random.choice([64, width]))


@cocotb.test()
async def random_samples(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    agg, width, wrap = p["aggregator"], p["width"], p["wrap"]
    model = Aggregator(agg, width, wrap)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.smp_valid.value, dut.smp_value.value, dut.clear.value = 0, 0, 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 2)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    got = (int(dut.result.value), int(dut.overflow.value), int(dut.caught.value))
    assert got == (model.result, 0, 0), f"after reset: {got}"
    samples = changes = overflowed = 0
    n = 4000
    for cycle in range(n):
        if cycle % 200 == 0:
            phase = random.choice(["small", "small", "edge", "any"])
            p_clear = random.choice([0.002, 0.02, 0.05])
        valid = int(random.random() < 0.5)
        value = min(random_sample(width, phase, model.result), (1 << 64) - 1)
        clear = int(random.random() < p_clear)
        rst = int(random.random() < 0.002)
        dut.smp_valid.value, dut.smp_value.value, dut.clear.value, dut.rst.value = valid, value, clear, rst
        before = model.result
        if rst:
            model.reset()
        else:
            model.step(valid, value, clear)
        await FallingEdge(dut.clk)
        got = (int(dut.result.value), int(dut.overflow.value), int(dut.caught.value))
        exp = (model.result, int(model.overflow), int(model.caught))
        assert got == exp, f"cycle {cycle}: valid {valid} value {value:#x} clear {clear}: got {got}, expected {exp}"
        samples += valid and not clear and not rst
        overflowed += model.overflow
        changes += model.result != before
    dut._log.info("checked %d random cycles, %d samples (%s, width %d), result changed %d times, "
                  "overflow set in %d cycles", n, samples, agg, width, changes, overflowed)


CASES = [(a, w, False) for a in ("sum", "max", "min", "last") for w in (1, 10, 23, 53, 64)]
CASES += [("sum", 10, True), ("sum", 64, True), ("max", 10, True)]


@pytest.mark.parametrize("aggregator,width,wrap", CASES)
def test_aggregate(aggregator, width, wrap):
    run("jointer_dcapf_aggregate", __name__,
        {"aggregator_g": AGGREGATOR_CODE[aggregator], "width_g": width, "wrap_g": wrap},
        extra_env={"JOINTER_PARAMS": json.dumps({"aggregator": aggregator, "width": width, "wrap": wrap})})
