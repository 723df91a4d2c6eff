# SPDX-License-Identifier: MIT
"""jointer_trace_extractor with several lanes (lanes_g > 0) and the host's
synchronisation (sync_g): one record per cycle in which a recorded lane
fires (run_en, filter) or `sync` pulses, its data word
(ev_data << t) | tag, t = lanes_g (+1 with sync_g) tag bits.

Random strobes on every lane (often several in one cycle), random event
data, run_en, use_filter, INIT loads of the bounds, clears, resets and sync
pulses, against jointer_sim.model.TraceModel(lanes=, sync=):
- sink mode: every cycle, before the edge, rec_valid / rec_ts / rec_data
  must be exactly the model's record (or none);
- stop mode (a buffer of 64 records): after each phase the host reads the
  buffer oldest first, and it must equal the model's records.
"""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer

from jointer_sim import run, slv
from jointer_sim.model import TraceModel

INDEX = 1
LOW_RESET, HIGH_RESET = 0x10, 0x3F00


def _inputs(lanes, tag_bits):
    """One cycle's random inputs: lane mask, data (fits 32 - tag bits), sync."""
    mask = random.getrandbits(lanes) if random.random() < 0.5 else 0
    top = (1 << (32 - tag_bits)) - 1
    data = random.choice([random.randrange(top + 1), random.randrange(0x20), top - random.randrange(16)])
    return mask, data, int(random.random() < 0.05)


async def _start(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for sig in (dut.run_en, dut.use_filter, dut.clear, dut.init_we, dut.init_sel, dut.init_hi,
                dut.init_data, dut.ev_lanes, dut.ev_data, dut.timestamp, dut.sync, dut.tr_rd_addr):
        sig.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0


def _drive(dut, **values):
    for name, v in values.items():
        getattr(dut, name).value = v


@cocotb.test()
async def lanes_records(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    lanes, sync, sink = p["lanes"], p["sync"], p["sink"]
    model = TraceModel(64, False, LOW_RESET, HIGH_RESET, lanes=lanes, sync=sync)
    await _start(dut)
    run_en, use_filter = 1, 0
    counts = {"records": 0, "multi": 0, "syncs": 0, "sync_idle": 0, "filtered": 0, "checked": 0}
    for cycle in range(4000 if sink else 3000):
        if random.random() < 0.01:
            run_en ^= 1
        if random.random() < 0.02:
            use_filter ^= 1
        mask, data, sync_pulse = _inputs(lanes, model.tag_bits)
        sync_pulse &= int(sync)
        rst = int(random.random() < 0.002)
        clear = int(random.random() < (0.01 if sink else 0.002))
        init_we = int(random.random() < 0.02)
        init = (random.getrandbits(1), random.randrange(0x4000)) if init_we else None
        ts = random.getrandbits(32)
        _drive(dut, rst=rst, run_en=run_en, use_filter=use_filter, clear=clear, init_we=init_we,
               init_sel=INDEX, init_hi=init[0] if init else 0, init_data=init[1] if init else 0,
               ev_lanes=mask, ev_data=data, timestamp=ts, sync=sync_pulse)
        word = None if rst or clear else model.record_word(mask, data, run_en, use_filter, sync_pulse)
        if sink:
            await Timer(1, "ns")
            got = (int(dut.rec_valid.value), int(dut.rec_ts.value), int(dut.rec_data.value))
            want = (1, ts, word) if word is not None else 0
            assert (got if got[0] else 0) == want, f"cycle {cycle}: record {got}, expected {want}"
        if word is not None:
            counts["records"] += 1
            counts["multi"] += bin(word & ((1 << lanes) - 1)).count("1") > 1
            counts["syncs"] += (word >> lanes) & int(sync)
            counts["sync_idle"] += bool(sync_pulse and not (mask and run_en))
        counts["filtered"] += bool(mask and run_en and word is None and not (rst or clear))
        if rst:
            model.reset()
        else:
            model.step(mask, data, ts, run_en, use_filter, clear, init, sync_pulse=sync_pulse)
        await FallingEdge(dut.clk)
        if not sink and cycle % 150 == 149:
            counts["checked"] += await _check_buffer(dut, model)
    dut._log.info("lanes %d sync %s: %s", lanes, sync, counts)
    assert counts["records"] > 300 and counts["filtered"] > 0
    assert counts["multi"] > 0 or lanes == 1
    assert (counts["syncs"] > 0 and counts["sync_idle"] > 0) or not sync
    assert sink or counts["checked"] > 200


async def _check_buffer(dut, model):
    """The host's readout of the stop-mode buffer (no event meanwhile) = the model's."""
    _drive(dut, ev_lanes=0, sync=0, clear=0, init_we=0, rst=0)
    fill, wptr, full = int(dut.tr_fill.value), int(dut.tr_wptr.value), int(dut.tr_full.value)
    assert (fill, wptr, full) == (model.fill, model.wptr, int(model.full))
    start, words = (wptr if full else 0), []
    for a in [2 * ((start + k) % model.depth) + h for k in range(fill) for h in (0, 1)]:
        dut.tr_rd_addr.value = a
        await FallingEdge(dut.clk)
        words.append(int(dut.tr_rd_data.value))
        model.step(0, 0, 0, 0, 0, 0)
    got = [(words[2 * k], words[2 * k + 1]) for k in range(fill)]
    assert got == model.records, "buffer readout differs from the model"
    return fill


@pytest.mark.parametrize("lanes,sync,sink", [(1, True, True), (3, True, True), (5, False, True),
                                             (16, True, True), (3, True, False)])
def test_trace_extractor_lanes(lanes, sync, sink):
    run("jointer_trace_extractor", __name__,
        {"index_g": INDEX, "depth_log2_g": 6, "mode_g": 3 if sink else 0, "has_filter_g": True,
         "low_reset_g": slv(LOW_RESET), "high_reset_g": slv(HIGH_RESET), "lanes_g": lanes,
         "sync_g": sync},
        name=f"jointer_trace_extractor_lanes_{lanes}{'s' if sync else ''}{'k' if sink else 'b'}",
        extra_env={"JOINTER_PARAMS": json.dumps({"lanes": lanes, "sync": sync, "sink": sink})})
