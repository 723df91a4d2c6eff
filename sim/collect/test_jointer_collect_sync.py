# SPDX-License-Identifier: MIT
"""jointer_collect_sync: a level reaches q after exactly stages_g clock edges."""
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run

CYCLES = 500


@cocotb.test()
async def delays_by_stages(dut):
    width, stages = len(dut.d), int(dut.stages_g.value)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.d.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 2)
    dut.rst.value = 0
    driven = [0] * stages  # value of d before each rising edge
    for _ in range(CYCLES):
        await FallingEdge(dut.clk)
        # after n rising edges q shows d as it was stages_g edges ago
        assert int(dut.q.value) == driven[-stages], (driven[-stages:], int(dut.q.value))
        value = random.getrandbits(width)
        dut.d.value = value
        driven.append(value)
    dut._log.info("checked %d random cycles (width %d, %d stages)", CYCLES, width, stages)


@pytest.mark.parametrize("stages", [2, 3])
def test_sync(stages):
    run("jointer_collect_sync", __name__, {"width_g": 3, "stages_g": stages})
