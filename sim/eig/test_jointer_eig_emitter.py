# SPDX-License-Identifier: MIT
"""jointer_eig_emitter: event instances (good = valid and all conditions,
inc = 1 or bytes, in-range bits carried along), against
jointer_sim.model.EmitterModel. Registered (the default): the instance of a
candidate shows one cycle later, and a reset clears ev_good. Combinational
(registered_g false): the same values in the same cycle, with
random in-range bits (ranges_g 1..3) checked as they pass. compare_g: the
emitter computes the in-range bits itself (low_k <= cand_data <= high_k,
cand_data below 2^data_w_g, bounds random 32-bit or inside that range) and
registers them with the instance."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer

from jointer_sim import run
from jointer_sim.model import EmitterModel


@cocotb.test()
async def random_candidates(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    lanes, num_cond, inc, registered, ranges = (p["lanes"], p["num_cond"], p["increment"],
                                                p["registered"], p["ranges"])
    compare, data_w = p["compare"], p["data_w"]
    ev = len(dut.cand_data)          # ev_w_g: 32, or 64 for an address wider than 32 bits
    model = EmitterModel(lanes, num_cond, inc, ev)
    cw, rw = max(num_cond, 1), max(ranges, 1)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.cand_valid.value = (1 << lanes) - 1
    dut.cand_data.value = 0
    dut.cand_bytes.value = 0
    dut.cand_in_range.value = 0
    bounds = []
    if compare:           # per range: (low, high), some wider than the data, some inside it
        pick = lambda: random.getrandbits(ev) if random.random() < 0.3 else random.getrandbits(data_w)
        bounds = [tuple(sorted((pick(), pick()))) for _ in range(ranges)]
        bounds[0] = (bounds[0][1], bounds[0][0]) if ranges > 1 else bounds[0]   # one empty range
        dut.rng_low.value = sum(lo << (ev * k) for k, (lo, _) in enumerate(bounds))
        dut.rng_high.value = sum(hi << (ev * k) for k, (_, hi) in enumerate(bounds))
    dut.cond.value = (1 << cw) - 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    if registered:
        assert int(dut.ev_good.value) == 0, "ev_good not reset"
    dut.rst.value = 0
    events = 0
    n = 3000
    for cycle in range(n):
        valid = random.getrandbits(lanes)
        cond = (1 << cw) - 1 if random.random() < 0.6 else random.getrandbits(cw)
        data, nbytes, rng = random.getrandbits(ev), random.getrandbits(16), random.getrandbits(rw)
        if compare:
            data = random.getrandbits(data_w)
            rng = sum(1 << k for k, (lo, hi) in enumerate(bounds) if lo <= data <= hi)
        dut.cand_valid.value = valid
        dut.cand_data.value = data
        dut.cand_bytes.value = nbytes
        dut.cand_in_range.value = rng
        dut.cond.value = cond
        exp = model.step(valid, data, nbytes, cond)
        if registered:
            await FallingEdge(dut.clk)      # the instance of this candidate, one edge later
        else:
            await Timer(1, unit="ns")       # combinational: this cycle's candidate
        got = (int(dut.ev_good.value), int(dut.ev_data.value), int(dut.ev_inc.value))
        assert got == tuple(exp), f"cycle {cycle}: got {got}, expected {tuple(exp)}"
        if ranges:
            assert int(dut.ev_in_range.value) == rng, f"cycle {cycle}: in-range bits {bounds}"
        if not registered:
            await FallingEdge(dut.clk)
        events += bin(exp.good).count("1")
    dut._log.info("checked %d random cycles, %d events emitted (%s, %d in-range bits)", n, events,
                  "registered" if registered else "combinational", ranges)


@pytest.mark.parametrize("lanes,num_cond,increment,registered,ranges,data_w",
                         [(1, 0, "one", True, 0, 0), (4, 3, "bytes", True, 0, 0), (32, 8, "bytes", True, 2, 0),
                          (2, 1, "one", True, 0, 0), (1, 0, "bytes", False, 1, 0), (3, 2, "one", False, 3, 0),
                          (1, 0, "one", False, 0, 0), (1, 1, "bytes", True, 3, 12), (2, 2, "one", True, 1, 32),
                          (1, 1, "bytes", True, 2, 40), (1, 0, "bytes", False, 1, 64)])
def test_emitter(lanes, num_cond, increment, registered, ranges, data_w):
    """data_w > 0: compare_g with data_w_g = data_w (above 32: ev_w_g 64, an address above 4 GB;
    with registered false the ranges are carried, not compared)."""
    generics = {"lanes_g": lanes, "num_cond_g": num_cond, "increment_g": 0 if increment == "one" else 1,
                "registered_g": registered, "ranges_g": ranges}
    if data_w > 32:
        generics.update(ev_w_g=64)
    if data_w and registered:
        generics.update(compare_g=True, data_w_g=data_w)
    run("jointer_eig_emitter", __name__, generics,
        extra_env={"JOINTER_PARAMS": json.dumps({"lanes": lanes, "num_cond": num_cond,
                                                 "increment": increment, "registered": registered,
                                                 "ranges": ranges, "compare": bool(data_w) and registered,
                                                 "data_w": data_w or 32})})
