# SPDX-License-Identifier: MIT
"""jointer_dcapf_time: data in effect, active cycles, per-cycle samples
(sum) or per-interval samples (max/min/last) with run_en, filter and clear
changing at random, against jointer_sim.model.DcapfModel (time)."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer

from jointer_sim import run
from jointer_sim.model import DcapfModel


@cocotb.test()
async def random_intervals(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    interval, width = p["interval"], p["width"]
    len_max = (1 << min(width + 1, 64)) - 1  # the extractor's length counter saturates there
    model = DcapfModel("time", "max" if interval else "sum", width)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for sig in (dut.ev_good, dut.ev_data, dut.run_en, dut.use_filter, dut.in_range, dut.clear):
        sig.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 2)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    run_en = use_filter = 0
    samples = active_cycles = clears = 0
    n = 5000
    for cycle in range(n):
        if cycle % 250 == 0:
            low, high = sorted(random.randrange(8) for _ in range(2))
            model.load_bounds(low, high)
            rate = random.choice([0.02, 0.1, 0.5])
            p_clear = random.choice([0.0, 0.005, 0.05, 0.2])
        if random.random() < 0.02:
            run_en ^= 1
        if random.random() < 0.01:
            use_filter ^= 1
        clear = int(random.random() < p_clear)
        good = int(random.random() < rate)
        data = random.choice([0, 0, 1, 1, 2, 5, random.getrandbits(32)])
        cur = data if good else model.cur_data
        in_range = int(model.in_range(cur))  # the filter looks at cur_data
        dut.ev_good.value, dut.ev_data.value, dut.clear.value = good, data, clear
        dut.run_en.value, dut.use_filter.value, dut.in_range.value = run_en, use_filter, in_range
        exp_valid, exp_value = model.step(good, data, 1, run_en, use_filter, clear)
        await Timer(1, unit="ns")
        assert int(dut.cur_data.value) == cur, f"cycle {cycle}: cur_data"
        assert int(dut.smp_valid.value) == exp_valid, f"cycle {cycle}: smp_valid {int(dut.smp_valid.value)}"
        if exp_valid:
            assert int(dut.smp_value.value) == min(exp_value, len_max), f"cycle {cycle}: smp_value"
            samples += 1
        clears += clear
        active_cycles += run_en and (in_range if use_filter else cur != 0)
        await FallingEdge(dut.clk)
    dut._log.info("checked %d random cycles (%d active, %d clears), %d samples (%s)", n, active_cycles,
                  clears, samples, "intervals" if interval else "per cycle")


@pytest.mark.parametrize("interval,width", [(False, 64), (True, 64), (True, 3)])
def test_time(interval, width):
    run("jointer_dcapf_time", __name__, {"interval_g": interval, "width_g": width},
        extra_env={"JOINTER_PARAMS": json.dumps({"interval": interval, "width": width})})
