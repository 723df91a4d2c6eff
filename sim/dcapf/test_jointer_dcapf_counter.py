# SPDX-License-Identifier: MIT
"""jointer_dcapf_counter: saturating / wrapping counter with sticky
overflow, widths 1..64, random increments up to 64 bits (so saturation is
reached at every width, 64 included), against jointer_sim.model.Aggregator.
inc_w_g = 1 (increments of 0 or 1: the counter saturates by holding, its
enable gated by the carry-out): widths small enough to reach saturation many
times between clears, and a wide one that only counts.
split_g > 0 (the fast variant, two carry chains): the same model one cycle
later (count and overflow of cycle n show in cycle n+1), clear and reset
still in the next cycle, so every value read is one the model held."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.model import Aggregator


def random_inc(width, phase, count):
    """An increment for the phase: slow counting, aimed at the saturation
    boundary (exactly reaching 2^w-1, or just past it), or any 64-bit value."""
    top = (1 << width) - 1
    if phase == "count":
        return random.randrange(4) if random.random() < 0.95 else random.getrandbits(8)
    if phase == "edge":
        return max(0, top - count + random.randint(-2, 2)) if random.random() < 0.3 else random.randrange(3)
    if random.random() < 0.5 or width == 64:
        return random.getrandbits(64)
    return random.getrandbits(width) | (1 << random.randrange(width, 64))


@cocotb.test()
async def random_counting(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    width, wrap, inc_w, split = p["width"], p["wrap"], p.get("inc_w", 64), p.get("split", 0)
    model = Aggregator("sum", width, wrap)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.en.value, dut.inc.value, dut.clear.value = 0, 0, 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 2)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    adds = overflows = saturated = exact = 0
    n = 4000
    for cycle in range(n):
        if cycle % 200 == 0:
            phase = random.choice(["count", "count", "edge", "edge", "big"])
            p_clear = random.choice([0.002, 0.02, 0.05] if inc_w > 1 else [0.0, 0.002, 0.01])
        en = int(random.random() < 0.7)
        inc = min(random_inc(width, phase, model.result), (1 << 64) - 1)
        if inc_w == 1:
            inc = int(random.random() < 0.8)
        clear = int(random.random() < p_clear)
        rst = int(random.random() < 0.002)
        dut.en.value, dut.inc.value, dut.clear.value, dut.rst.value = en, inc, clear, rst
        before = model.result
        shown = (model.result, int(model.overflow))   # split: what the last cycle held
        if rst:
            model.reset()
        else:
            model.step(en, inc, clear)
        exact += en and not clear and not rst and model.result == before + inc
        await FallingEdge(dut.clk)
        got = (int(dut.count.value), int(dut.overflow.value))
        want = (model.result, int(model.overflow)) if not split or clear or rst else shown
        assert got == want, \
            f"cycle {cycle}: en {en} inc {inc:#x} clear {clear}: got {got}, expected {want}"
        adds += en and not clear
        overflows += model.overflow
        saturated += model.result == (1 << width) - 1
    dut._log.info("checked %d random cycles, %d additions (%d exact, no wrap/saturation); "
                  "%d cycles with overflow set, %d at all ones", n, adds, exact, overflows, saturated)


@pytest.mark.parametrize("wrap", [False, True], ids=["saturate", "wrap"])
@pytest.mark.parametrize("width", [1, 10, 23, 32, 53, 64])
def test_counter(width, wrap):
    run("jointer_dcapf_counter", __name__, {"width_g": width, "wrap_g": wrap},
        extra_env={"JOINTER_PARAMS": json.dumps({"width": width, "wrap": wrap})})


@pytest.mark.parametrize("wrap", [False, True], ids=["saturate", "wrap"])
@pytest.mark.parametrize("width", [1, 2, 5, 53])
def test_counter_inc1(width, wrap):
    run("jointer_dcapf_counter", __name__, {"width_g": width, "wrap_g": wrap, "inc_w_g": 1},
        extra_env={"JOINTER_PARAMS": json.dumps({"width": width, "wrap": wrap, "inc_w": 1})})


# the fast variant: split after bit split - 1 (the generator cuts at half the width)
SPLITS = [(2, 1), (10, 5), (23, 12), (32, 16), (53, 27), (64, 32), (53, 8)]


@pytest.mark.parametrize("wrap", [False, True], ids=["saturate", "wrap"])
@pytest.mark.parametrize("width,split", SPLITS, ids=[f"{w}s{s}" for w, s in SPLITS])
def test_counter_split(width, split, wrap):
    run("jointer_dcapf_counter", __name__, {"width_g": width, "wrap_g": wrap, "split_g": split},
        extra_env={"JOINTER_PARAMS": json.dumps({"width": width, "wrap": wrap, "split": split})})


@pytest.mark.parametrize("wrap", [False, True], ids=["saturate", "wrap"])
@pytest.mark.parametrize("width,split", [(2, 1), (5, 3), (53, 27)])
def test_counter_split_inc1(width, split, wrap):
    run("jointer_dcapf_counter", __name__, {"width_g": width, "wrap_g": wrap, "inc_w_g": 1, "split_g": split},
        extra_env={"JOINTER_PARAMS": json.dumps({"width": width, "wrap": wrap, "inc_w": 1, "split": split})})
