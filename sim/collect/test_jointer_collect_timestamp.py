# SPDX-License-Identifier: MIT
"""jointer_collect_timestamp: counts every cycle from 0 after reset, wraps.

The reset is pulsed at random times (random lengths); every cycle the count
is compared with a model (cycles since the last reset, modulo 2^width).
"""
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, RisingEdge

from jointer_sim import run

CYCLES = 3000


@cocotb.test()
async def counts_cycles(dut):
    width = len(dut.timestamp)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    expected, resets, wraps = 0, 0, 0
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        rst = int(random.random() < 0.005 or (cycle < 3))
        resets += rst
        dut.rst.value = rst
        expected = 0 if rst else expected + 1  # after the edge ending this cycle
        wraps += expected > 0 and expected % (1 << width) == 0
        await RisingEdge(dut.clk)
        await ReadOnly()
        assert int(dut.timestamp.value) == expected % (1 << width), (cycle, expected)
    dut._log.info("checked %d cycles with %d random reset cycles (width %d, wrapped %d times)",
                  CYCLES, resets, width, wraps)


@pytest.mark.parametrize("width", [4, 64])
def test_timestamp(width):
    run("jointer_collect_timestamp", __name__, {"width_g": width})
