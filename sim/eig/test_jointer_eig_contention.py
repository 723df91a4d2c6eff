# SPDX-License-Identifier: MIT
"""jointer_eig_contention: N masters, per observed cycle contention (2+
waiting) / single_wait / no_wait, busy / idle, and per master grant / wait.
Random traffic (densities change by phase, reset pulses in between) against
jointer_sim.activity_model.ContentionModel cycle by cycle; then the lane
counts against counts taken directly from the stimulus, and the invariants
contention + single_wait + no_wait = busy + idle = cycles."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.activity_model import ContentionModel, contention_lanes, lane_counts


@cocotb.test()
async def random_traffic(dut):
    masters = json.loads(os.environ["JOINTER_PARAMS"])["masters"]
    lanes = contention_lanes(masters)
    model = ContentionModel(masters)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.mon_valid.value = (1 << masters) - 1
    dut.mon_ready.value = 0
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    assert int(dut.cand_valid.value) == 0, "a lane fired for a reset cycle"
    seen, observed = [], 0
    direct = {"contention": 0, "single_wait": 0, "no_wait": 0, "busy": 0, "idle": 0,
              "grant": [0] * masters, "wait": [0] * masters}
    pv = pr = 0.5
    for cycle in range(3000):
        if cycle % 150 == 0:
            pv, pr = random.choice([0.0, 0.3, 0.6, 0.9, 1.0]), random.choice([0.0, 0.2, 0.5, 1.0])
        rst = cycle % 1000 in range(700, 702)
        valid = sum((random.random() < pv) << i for i in range(masters))
        ready = sum((random.random() < pr) << i for i in range(masters))
        dut.rst.value = int(rst)
        dut.mon_valid.value = valid
        dut.mon_ready.value = ready
        exp = model.step(valid, ready, rst)
        if not rst:
            observed += 1
            waits = [((valid >> i) & 1) and not ((ready >> i) & 1) for i in range(masters)]
            n = sum(waits)
            direct["contention" if n >= 2 else "single_wait" if n == 1 else "no_wait"] += 1
            direct["busy" if valid else "idle"] += 1
            for i in range(masters):
                direct["grant"][i] += ((valid & ready) >> i) & 1
                direct["wait"][i] += int(waits[i])
        await FallingEdge(dut.clk)
        got = (int(dut.cand_valid.value), int(dut.cand_data.value), int(dut.cand_bytes.value))
        assert got == tuple(exp), f"cycle {cycle}: got {got}, expected {tuple(exp)}"
        seen.append(exp)
    c = lane_counts(seen, lanes)
    assert c[0] == observed
    assert c[1:6] == [direct[k] for k in ("contention", "single_wait", "no_wait", "busy", "idle")]
    assert c[6::2] == direct["grant"] and c[7::2] == direct["wait"]
    assert c[1] + c[2] + c[3] == observed and c[4] + c[5] == observed
    if masters >= 2:
        assert c[1] > 0, "the traffic never produced contention"
    dut._log.info("%d masters, %d observed cycles, %s", masters, observed, direct)


@pytest.mark.parametrize("masters", [1, 2, 4, 13])
def test_contention(masters):
    run("jointer_eig_contention", __name__, {"masters_g": masters},
        extra_env={"JOINTER_PARAMS": json.dumps({"masters": masters})})
