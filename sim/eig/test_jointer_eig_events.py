# SPDX-License-Identifier: MIT
"""jointer_eig_events: per-lane candidates from strobes (level or rising
edge), registered once, against jointer_sim.model.EventsModel."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.model import EventsModel


@cocotb.test()
async def random_strobes(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    width, data_w, edge = p["width"], p["data_w"], p["edge"]
    model = EventsModel(width, data_w, edge)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.ev_strobe.value = (1 << width) - 1  # high during reset: counts as a rise after it
    dut.ev_value.value = 0
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    cycles = events = 0
    for cycle in range(3000):
        density = random.choice([0.1, 0.5, 0.9]) if cycle % 200 == 0 else density
        strobe = sum((random.random() < density) << i for i in range(width))
        value = random.getrandbits(max(data_w, 1))
        dut.ev_strobe.value = strobe
        dut.ev_value.value = value
        exp = model.step(strobe, value)
        await FallingEdge(dut.clk)
        got = (int(dut.cand_valid.value), int(dut.cand_data.value), int(dut.cand_bytes.value))
        assert got == tuple(exp), f"cycle {cycle}: got {got}, expected {tuple(exp)}"
        cycles += 1
        events += bin(exp.valid).count("1")
    dut._log.info("checked %d random cycles, %d candidate events", cycles, events)


@pytest.mark.parametrize("width,data_w,edge", [(1, 32, False), (1, 32, True), (5, 0, True),
                                                (32, 12, False), (7, 1, True)])
def test_events(width, data_w, edge):
    run("jointer_eig_events", __name__,
        {"width_g": width, "data_w_g": data_w, "edge_g": edge},
        extra_env={"JOINTER_PARAMS": json.dumps({"width": width, "data_w": data_w, "edge": edge})})
