# SPDX-License-Identifier: MIT
"""jointer_trace_extractor in sink mode (mode_g = trace_sink_c): no
RAM, the records leave as a stream (rec_valid, rec_ts, rec_data) for a
jointer_trace_sink_axi.

Random events, run_en, use_filter, clear, rst and INIT loads of the filter
bounds, as in test_jointer_trace_extractor.py; jointer_sim.model.TraceModel
keeps the filter bounds (its buffer is not used). Every cycle, before the
edge, rec_valid must be exactly "the model would record this event" (ev_good,
run_en, not clear, not rst, in range when FILTERING), with rec_ts the
timestamp and rec_data the data; the buffer outputs (tr_wptr, tr_fill,
tr_full, tr_overflow, tr_rd_data) read 0 throughout.
"""
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer

from jointer_sim import run, slv
from jointer_sim.model import TraceModel

INDEX = 2
LOW_RESET, HIGH_RESET = 0x10, 0xFFFFFF00


@cocotb.test()
async def record_stream(dut):
    model = TraceModel(2, False, LOW_RESET, HIGH_RESET, has_filter=True)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for sig in (dut.run_en, dut.use_filter, dut.clear, dut.init_we, dut.init_sel, dut.init_hi,
                dut.init_data, dut.ev_good, dut.ev_data, dut.timestamp):
        sig.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    run_en, use_filter = 1, 0
    records = dropped_by_filter = loads = 0
    for cycle in range(6000):
        if random.random() < 0.01:
            run_en ^= 1
        if random.random() < 0.02:
            use_filter ^= 1
        rst = int(random.random() < 0.002)
        clear = int(random.random() < 0.01)
        good = int(random.random() < 0.5)
        data = random.choice([random.getrandbits(32), random.randrange(0x20), 0xFFFFFFF0 | random.randrange(16)])
        ts = random.getrandbits(32)
        init_we = int(random.random() < 0.02)
        init_sel = INDEX if random.random() < 0.7 else random.getrandbits(8)
        init_hi, init_data = random.getrandbits(1), random.randrange(0x40)
        for sig, v in ((dut.rst, rst), (dut.run_en, run_en), (dut.use_filter, use_filter),
                       (dut.clear, clear), (dut.init_we, init_we), (dut.init_sel, init_sel),
                       (dut.init_hi, init_hi), (dut.init_data, init_data), (dut.ev_good, good),
                       (dut.ev_data, data), (dut.timestamp, ts)):
            sig.value = v
        want = bool(good and run_en and not clear and not rst
                    and (not model.filtering(use_filter) or model.in_range(data)))
        await Timer(1, "ns")
        got = (int(dut.rec_valid.value), int(dut.rec_ts.value) if want else ts,
               int(dut.rec_data.value) if want else data)
        assert got == (int(want), ts, data), f"cycle {cycle}: rec {got}, expected {(int(want), ts, data)}"
        state = tuple(int(s.value) for s in (dut.tr_wptr, dut.tr_fill, dut.tr_full, dut.tr_overflow,
                                            dut.tr_rd_data))
        assert state == (0, 0, 0, 0, 0), f"cycle {cycle}: buffer outputs {state} in sink mode"
        records += want
        dropped_by_filter += good and run_en and not clear and not rst and not want
        if rst:
            model.reset()
        else:
            init = (init_hi, init_data) if init_we and init_sel == INDEX else None
            loads += init is not None
            model.step(good, data, ts, run_en, use_filter, clear, init, 0)
        await FallingEdge(dut.clk)
    dut._log.info("%d records, %d filtered out, %d INIT loads", records, dropped_by_filter, loads)
    assert records > 1000 and dropped_by_filter > 0 and loads > 0


@pytest.mark.parametrize("has_filter", [True])
def test_trace_extractor_sink(has_filter):
    run("jointer_trace_extractor", __name__,
        {"index_g": INDEX, "depth_log2_g": 1, "mode_g": 3, "has_filter_g": has_filter,
         "low_reset_g": slv(LOW_RESET), "high_reset_g": slv(HIGH_RESET)},
        name="jointer_trace_extractor_sink")
