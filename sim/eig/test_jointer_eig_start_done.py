# SPDX-License-Identifier: MIT
"""jointer_eig_start_done: start/done pulses and busy levels -> candidates
one cycle later, against jointer_sim.model.StartDoneModel."""
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.model import StartDoneModel


@cocotb.test()
async def random_tasks(dut):
    mode = "busy" if int(dut.mode_g.value) == 1 else "pulses"
    model = StartDoneModel(mode)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.sd_start.value = 1
    dut.sd_done.value = 1
    dut.sd_busy.value = 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    busy = random.getrandbits(1)
    events = 0
    cycles = 4000
    for cycle in range(cycles):
        # pulses: sparse and sometimes together or held; busy: runs of random length
        start = int(random.random() < 0.15)
        done = int(random.random() < 0.15)
        if random.random() < 0.2:
            busy ^= 1
        dut.sd_start.value = start
        dut.sd_done.value = done
        dut.sd_busy.value = busy
        exp = model.step(start, done, busy)
        await FallingEdge(dut.clk)
        got = (int(dut.cand_valid.value), int(dut.cand_data.value), int(dut.cand_bytes.value))
        assert got == tuple(exp), f"cycle {cycle}: got {got}, expected {tuple(exp)}"
        events += exp.valid
    dut._log.info("checked %d random cycles (%s mode), %d candidate events", cycles, mode, events)


@pytest.mark.parametrize("mode", [0, 1], ids=["pulses", "busy"])
def test_start_done(mode):
    run("jointer_eig_start_done", __name__, {"mode_g": mode})
