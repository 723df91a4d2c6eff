# SPDX-License-Identifier: MIT
"""jointer_dcapf_init: bounds loaded by INIT writes addressed to index_g,
restored by hard reset (also mid-run), against the bounds of
jointer_sim.model.DcapfModel."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run, slv
from jointer_sim.model import DcapfModel


@cocotb.test()
async def random_loads(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    index = p["index"]
    model = DcapfModel(low=p["low"], high=p["high"])
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.init_we.value = 0
    dut.init_sel.value = 0
    dut.init_hi.value = 0
    dut.init_data.value = 0
    await ClockCycles(dut.clk, 2)
    await FallingEdge(dut.clk)
    loads = 0
    n = 3000
    for cycle in range(n):
        rst = int(random.random() < 0.01)
        we = int(random.random() < 0.5)
        sel = index if random.random() < 0.6 else random.getrandbits(8)
        hi, data = random.getrandbits(1), random.getrandbits(32)
        dut.rst.value = rst
        dut.init_we.value = we
        dut.init_sel.value = sel
        dut.init_hi.value = hi
        dut.init_data.value = data
        if rst:
            model.reset()
        elif we and sel == index:
            model.load(hi, data)
            loads += 1
        await FallingEdge(dut.clk)
        got = (int(dut.low.value), int(dut.high.value))
        assert got == (model.low, model.high), f"cycle {cycle}: got {got}, expected {(model.low, model.high)}"
    dut._log.info("checked %d random cycles, %d loads for index %d, with random resets", n, loads, index)


@pytest.mark.parametrize("index,low,high", [(0, 0, 0xFFFFFFFF), (5, 0x100, 0x1FF), (255, 0xDEADBEEF, 0x12345678)])
def test_init(index, low, high):
    run("jointer_dcapf_init", __name__,
        {"index_g": index, "low_reset_g": slv(low), "high_reset_g": slv(high)},
        extra_env={"JOINTER_PARAMS": json.dumps({"index": index, "low": low, "high": high})})
