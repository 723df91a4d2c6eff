# SPDX-License-Identifier: MIT
"""jointer_trace_extractor: records {timestamp, data} in stop and ring mode,
against jointer_sim.model.TraceModel. Random events, run_en, use_filter,
INIT loads (bounds), clears and hard resets; every cycle the pointers and
flags are compared and a random word is read through the host port
(checked one cycle later); in quiet phases the whole buffer is read out as
the host would (oldest record first, from the DUT's own wptr/fill/full) and
compared with the model's records. Without a filter (has_filter_g = false,
TraceModel(has_filter=False)) the same traffic, INIT loads to its index
included, must record in FILTERING exactly as in NO_FILTERING."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run, slv
from jointer_sim.model import TraceModel

INDEX = 3
LOW_RESET, HIGH_RESET = 0x10, 0xFFFFFF00


async def host_readout(dut, depth):
    """Read fill records oldest first, one word per cycle (the word addressed
    in a cycle shows in the next one), while no event arrives."""
    wptr, fill, full = int(dut.tr_wptr.value), int(dut.tr_fill.value), int(dut.tr_full.value)
    start = wptr if full else 0
    words = []
    for a in [2 * ((start + k) % depth) + h for k in range(fill) for h in (0, 1)]:
        dut.tr_rd_addr.value = a | (random.getrandbits(15) << 17)  # bits above the window are ignored
        await FallingEdge(dut.clk)
        words.append(int(dut.tr_rd_data.value))
    return [(words[2 * k], words[2 * k + 1]) for k in range(fill)]


@cocotb.test()
async def random_records(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    depth, ring, has_filter = 1 << p["depth_log2"], p["ring"], p["has_filter"]
    model = TraceModel(depth, ring, LOW_RESET, HIGH_RESET, has_filter=has_filter)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for sig in (dut.run_en, dut.use_filter, dut.clear, dut.init_we, dut.init_sel, dut.init_hi,
                dut.init_data, dut.ev_good, dut.ev_data, dut.timestamp, dut.tr_rd_addr):
        sig.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    timestamp = random.getrandbits(32)
    run_en = 1
    use_filter = 0
    rd_addr = 0
    written = dropped = reads = readouts = records_read = clears = 0
    loads = filtering_events = 0
    wraps = 0
    phase_len = max(150, 3 * depth)  # long enough to fill the buffer
    n = 6000
    for cycle in range(n):
        if cycle % phase_len == 0:
            p_good = random.choice([0.05, 0.3, 0.8])
            p_clear = random.choice([0.0, 0.0, 0.3 / phase_len, 0.03])
            if random.random() < 0.3:  # quiet phase: the host reads the whole buffer
                for sig in (dut.rst, dut.ev_good, dut.clear, dut.init_we):
                    sig.value = 0
                got = await host_readout(dut, depth)
                assert got == model.records, f"cycle {cycle}: readout {got}\nexpected {model.records}"
                readouts += 1
                records_read += len(got)
                for _ in range(2 * len(got)):  # the model idles as long
                    model.step(0, 0, timestamp, run_en, use_filter, 0)
        if random.random() < 0.01:
            run_en ^= 1
        if random.random() < 0.01:
            use_filter ^= 1
        rst = int(random.random() < 0.1 / phase_len)
        clear = int(random.random() < p_clear)
        good = int(random.random() < p_good)
        data = random.choice([random.getrandbits(32), random.randrange(0x20), 0xFFFFFFF0 | random.randrange(16)])
        init_we = int(random.random() < 0.02)
        init_sel = INDEX if random.random() < 0.7 else random.getrandbits(8)
        init_hi = random.getrandbits(1)
        init_data = random.getrandbits(32) if random.random() < 0.3 else random.randrange(0x20)
        rd_addr = random.getrandbits(32)
        for sig, v in ((dut.rst, rst), (dut.run_en, run_en), (dut.use_filter, use_filter),
                       (dut.clear, clear), (dut.init_we, init_we), (dut.init_sel, init_sel),
                       (dut.init_hi, init_hi), (dut.init_data, init_data), (dut.ev_good, good),
                       (dut.ev_data, data), (dut.timestamp, timestamp), (dut.tr_rd_addr, rd_addr)):
            sig.value = v
        if rst:
            model.rd_data = model.word(rd_addr)
            model.reset()
        else:
            init = (init_hi, init_data) if init_we and init_sel == INDEX else None
            full_before = model.full
            wanted = good and run_en and not clear and (not model.filtering(use_filter)
                                                         or model.in_range(data))
            wrote = model.step(good, data, timestamp, run_en, use_filter, clear, init, rd_addr)
            written += wrote
            dropped += wanted and not wrote
            wraps += wrote and full_before
        clears += clear
        loads += init_we and init_sel == INDEX
        filtering_events += good and run_en and use_filter
        timestamp = (timestamp + random.choice([1, 1, 1, 7, 1000])) & 0xFFFFFFFF
        await FallingEdge(dut.clk)
        got = (int(dut.tr_wptr.value), int(dut.tr_fill.value), int(dut.tr_full.value),
               int(dut.tr_overflow.value), int(dut.tr_rd_data.value))
        exp = (model.wptr, model.fill, int(model.full), int(model.overflow), model.rd_data)
        assert got == exp, f"cycle {cycle}: (wptr, fill, full, overflow, rd_data) = {got}, expected {exp}"
        reads += 1
    dut._log.info("depth %d %s %s: checked %d random cycles: %d records written, %d dropped, "
                  "%d overwrites, %d clears, %d INIT loads, %d events while FILTERING, "
                  "%d random word reads, %d full readouts (%d records)",
                  depth, "ring" if ring else "stop", "filter" if has_filter else "no filter", n,
                  written, dropped, wraps, clears, loads, filtering_events, reads, readouts,
                  records_read)
    assert loads > 0 and filtering_events > 0


@pytest.mark.parametrize("has_filter", [True, False], ids=["filter", "no_filter"])
@pytest.mark.parametrize("ring", [False, True], ids=["stop", "ring"])
@pytest.mark.parametrize("depth_log2", [1, 4, 8])
def test_trace_extractor(depth_log2, ring, has_filter):
    run("jointer_trace_extractor", __name__,
        {"index_g": INDEX, "depth_log2_g": depth_log2, "mode_g": int(ring),
         "has_filter_g": has_filter, "low_reset_g": slv(LOW_RESET), "high_reset_g": slv(HIGH_RESET)},
        extra_env={"JOINTER_PARAMS": json.dumps({"depth_log2": depth_log2, "ring": ring,
                                                 "has_filter": has_filter})})
