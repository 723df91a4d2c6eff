# SPDX-License-Identifier: MIT
"""jointer_dcapf with aggregator_histogram_c (and aggregator_mean_c: sum and
count of the samples in two slots): the composed DCAPF (init, gate,
filter, event or time extractor) feeding jointer_dcapf_histogram, e.g. the
latency histogram of an AXI4 transaction (event extractor, `sample: data`) or a
histogram of busy-interval lengths (time extractor). Random events, run_en,
use_filter, clear, INIT loads and hard resets; after every edge the packed
buckets, overflow and caught must equal jointer_sim.model.DcapfModel."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.model import AGGREGATOR_CODE, EXTRACTOR_CODE, SAMPLE_CODE, DcapfModel


@cocotb.test()
async def random_events(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    m = DcapfModel(p["extractor"], p.get("aggregator", "histogram"), p["width"], False, p["sample"], 0, 0xFFFFFFFF,
                   has_filter=True, buckets=p["buckets"], boundaries=p["boundaries"])
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for sig in (dut.run_en, dut.use_filter, dut.clear, dut.init_we, dut.init_sel, dut.init_hi,
                dut.init_data, dut.ev_good, dut.ev_data, dut.ev_inc):
        sig.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    run_en = use_filter = 0
    samples = 0
    for cycle in range(5000):
        if cycle % 250 == 0:
            p_good = random.choice([0.05, 0.3, 0.9])
            p_clear = random.choice([0.0, 0.002, 0.01])
        if random.random() < 0.02:
            run_en ^= 1
        if random.random() < 0.01:
            use_filter ^= 1
        rst = int(random.random() < 0.0005)
        clear = int(random.random() < p_clear)
        good = int(random.random() < p_good)
        data = random.choice([0, 1, 2, 3, 4, 7, 8, 100, 1000, random.getrandbits(12), random.getrandbits(32)])
        inc = random.randrange(1 << 16)
        init_we = int(random.random() < 0.01)
        init_hi = random.getrandbits(1)
        init_data = random.choice([0, 1, 3, 50, 0xFFFFFFFF, random.getrandbits(12)])
        for sig, v in ((dut.rst, rst), (dut.run_en, run_en), (dut.use_filter, use_filter),
                       (dut.clear, clear), (dut.init_we, init_we), (dut.init_sel, 0),
                       (dut.init_hi, init_hi), (dut.init_data, init_data), (dut.ev_good, good),
                       (dut.ev_data, data), (dut.ev_inc, inc)):
            sig.value = v
        if rst:
            m.reset()
        else:
            valid, _ = m.step(good, data, inc, run_en, use_filter, clear,
                              (init_hi, init_data) if init_we else None)
            samples += valid and not clear
        await FallingEdge(dut.clk)
        got = (int(dut.result.value), int(dut.overflow.value), int(dut.caught.value))
        exp = (m.result, int(m.overflow), int(m.caught))
        assert got == exp, f"cycle {cycle}: got {got}, expected {exp}"
    assert samples > 100
    dut._log.info("checked 5000 cycles, %d samples, result %#x", samples, m.result)


CASES = [
    dict(extractor="event", sample="data", width=16, buckets=8, boundaries="pow2"),
    dict(extractor="event", sample="data", width=8, buckets=4, boundaries=[2, 8, 100]),
    dict(extractor="time", sample="increment", width=32, buckets=6, boundaries="pow2"),
    # the mean aggregator (sum and count, two slots): narrow, so both saturate
    dict(extractor="event", sample="data", width=12, buckets=2, boundaries="pow2", aggregator="mean"),
    dict(extractor="time", sample="increment", width=7, buckets=2, boundaries="pow2", aggregator="mean"),
]


@pytest.mark.parametrize("p", CASES, ids=lambda p: f"{p['extractor']}_{p.get('aggregator', 'hist')}_{p['buckets']}")
def test_dcapf_histogram(p):
    g = {"extractor_g": EXTRACTOR_CODE[p["extractor"]],
         "aggregator_g": AGGREGATOR_CODE[p.get("aggregator", "histogram")],
         "sample_g": SAMPLE_CODE[p["sample"]], "width_g": p["width"], "buckets_g": p["buckets"],
         "hist_pow2_g": p["boundaries"] == "pow2"}
    if p["boundaries"] != "pow2":
        g["hist_bounds_g"] = p["boundaries"]
    run("jointer_dcapf", __name__, g, name="jointer_dcapf_histogram_composed",
        extra_env={"JOINTER_PARAMS": json.dumps(p)})
