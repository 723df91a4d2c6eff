"""jointer_eig_emitter: registered event instances (good = valid and all
conditions, inc = 1 or bytes), against jointer_sim.model.EmitterModel."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.model import EmitterModel


@cocotb.test()
async def random_candidates(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    lanes, num_cond, inc = p["lanes"], p["num_cond"], p["increment"]
    model = EmitterModel(lanes, num_cond, inc)
    cw = max(num_cond, 1)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.cand_valid.value = (1 << lanes) - 1
    dut.cand_data.value = 0
    dut.cand_bytes.value = 0
    dut.cond.value = (1 << cw) - 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    assert int(dut.ev_good.value) == 0, "ev_good not reset"
    dut.rst.value = 0
    events = 0
    n = 3000
    for cycle in range(n):
        valid = random.getrandbits(lanes)
        cond = (1 << cw) - 1 if random.random() < 0.6 else random.getrandbits(cw)
        data, nbytes = random.getrandbits(32), random.getrandbits(16)
        dut.cand_valid.value = valid
        dut.cand_data.value = data
        dut.cand_bytes.value = nbytes
        dut.cond.value = cond
        exp = model.step(valid, data, nbytes, cond)
        await FallingEdge(dut.clk)
        got = (int(dut.ev_good.value), int(dut.ev_data.value), int(dut.ev_inc.value))
        assert got == tuple(exp), f"cycle {cycle}: got {got}, expected {tuple(exp)}"
        events += bin(exp.good).count("1")
    dut._log.info("checked %d random cycles, %d events emitted", n, events)


@pytest.mark.parametrize("lanes,num_cond,increment", [(1, 0, "one"), (4, 3, "bytes"),
                                                      (32, 8, "bytes"), (2, 1, "one")])
def test_emitter(lanes, num_cond, increment):
    run("jointer_eig_emitter", __name__,
        {"lanes_g": lanes, "num_cond_g": num_cond, "increment_g": 0 if increment == "one" else 1},
        extra_env={"JOINTER_PARAMS": json.dumps({"lanes": lanes, "num_cond": num_cond,
                                                 "increment": increment})})
