# SPDX-License-Identifier: MIT
"""jointer_collect_reset: the reset bridge of a clock domain.

Checked against its definition, at random times relative to the clock:
- rst rises while resetn is low, without waiting for a clock edge (checked
  between edges, with the clock running and with the clock stopped);
- rst falls exactly stages_g rising edges after resetn rose (resetn changes
  away from the edges, so the count is defined), and stays low while resetn
  is high;
- a short resetn pulse between two edges still resets (stages_g edges of rst).
"""
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, Timer

from jointer_sim import run

ROUNDS = 200


@cocotb.test()
async def bridge(dut):
    stages = int(dut.stages_g.value)
    clk_task = cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.resetn.value = 0
    await ClockCycles(dut.clk, 3)
    dut.resetn.value = 1
    await ClockCycles(dut.clk, stages + 1)
    assert dut.rst.value == 0
    checked = 0
    for n in range(ROUNDS):
        # assert at a random time between edges: rst follows at once
        await FallingEdge(dut.clk)
        await Timer(random.randint(1, 4), unit="ns")
        dut.resetn.value = 0
        await Timer(1, unit="ns")
        assert dut.rst.value == 1, f"round {n}: rst did not assert asynchronously"
        if n % 10 == 0:
            # with the clock stopped: still asserted, and held
            clk_task.cancel()
            await Timer(37, unit="ns")
            assert dut.rst.value == 1
            clk_task = cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        if random.random() < 0.5:
            await ClockCycles(dut.clk, random.randint(1, 5))
        # release away from an edge: rst falls after exactly `stages` rising edges
        await FallingEdge(dut.clk)
        await Timer(random.randint(1, 4), unit="ns")
        dut.resetn.value = 1
        for k in range(stages):
            await RisingEdge(dut.clk)
            await Timer(1, unit="ns")
            expect = 0 if k == stages - 1 else 1
            assert int(dut.rst.value) == expect, f"round {n}: edge {k + 1}: rst {dut.rst.value}"
        stay = random.randint(1, 8)
        for _ in range(stay):
            await RisingEdge(dut.clk)
            await Timer(1, unit="ns")
            assert dut.rst.value == 0
        checked += 1
    dut._log.info("%d reset pulses (%d stages): asynchronous assertion, release after exactly %d edges",
                  checked, stages, stages)


@pytest.mark.parametrize("stages", [2, 3])
def test_reset(stages):
    run("jointer_collect_reset", __name__, {"stages_g": stages})
