# SPDX-License-Identifier: MIT
"""jointer_eig_activity: every observed cycle of each VALID/READY channel is
exactly one of transfer / stall / idle. Random traffic (densities change by
phase, reset pulses in between) against jointer_sim.activity_model, cycle by
cycle; then the per-class counts of the lanes against counts taken directly
from the stimulus, and transfer + stall + idle = cycles per channel."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.activity_model import ActivityModel, activity_lanes, lane_counts


@cocotb.test()
async def random_traffic(dut):
    channels = json.loads(os.environ["JOINTER_PARAMS"])["channels"]
    lanes = activity_lanes(channels)
    model = ActivityModel(channels)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.mon_valid.value = (1 << channels) - 1        # busy bus during reset: not observed
    dut.mon_ready.value = 0
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    assert int(dut.cand_valid.value) == 0, "a lane fired for a reset cycle"
    seen, observed = [], 0
    direct = [[0, 0, 0] for _ in range(channels)]   # transfer, stall, idle from the stimulus
    pv = pr = 0.5
    for cycle in range(3000):
        if cycle % 150 == 0:
            pv, pr = random.choice([0.0, 0.2, 0.5, 0.9, 1.0]), random.choice([0.0, 0.3, 0.7, 1.0])
        rst = cycle % 1000 in range(500, 503)
        valid = sum((random.random() < pv) << c for c in range(channels))
        ready = sum((random.random() < pr) << c for c in range(channels))
        dut.rst.value = int(rst)
        dut.mon_valid.value = valid
        dut.mon_ready.value = ready
        exp = model.step(valid, ready, rst)
        if not rst:
            observed += 1
            for c in range(channels):
                v, r = (valid >> c) & 1, (ready >> c) & 1
                direct[c][0 if v and r else 1 if v else 2] += 1
        await FallingEdge(dut.clk)
        got = (int(dut.cand_valid.value), int(dut.cand_data.value), int(dut.cand_bytes.value))
        assert got == tuple(exp), f"cycle {cycle}: got {got}, expected {tuple(exp)}"
        seen.append(exp)
    counts = lane_counts(seen, lanes)
    assert counts[0] == observed
    for c in range(channels):
        per = counts[1 + 3 * c:4 + 3 * c]
        assert per == direct[c], f"channel {c}: lanes {per}, stimulus {direct[c]}"
        assert sum(per) == observed, f"channel {c}: transfer+stall+idle {sum(per)} != {observed}"
    dut._log.info("%d channels, %d observed cycles, per class %s", channels, observed, direct)


@pytest.mark.parametrize("channels", [1, 2, 5, 10])
def test_activity(channels):
    run("jointer_eig_activity", __name__, {"channels_g": channels},
        extra_env={"JOINTER_PARAMS": json.dumps({"channels": channels})})
