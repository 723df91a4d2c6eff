# SPDX-License-Identifier: MIT
"""jointer_dcapf_event: the event extractor's sample (valid, value) for
random events/control, against jointer_sim.model.DcapfModel (event)."""
import random

import cocotb
import pytest
from cocotb.triggers import Timer

from jointer_sim import run
from jointer_sim.model import DcapfModel


@cocotb.test()
async def random_events(dut):
    sample = "data" if int(dut.sample_g.value) == 1 else "increment"
    model = DcapfModel("event", "sum", 64, sample=sample)
    n = 5000
    samples = 0
    for i in range(n):
        if i % 100 == 0:
            low, high = sorted(random.getrandbits(random.choice([4, 32])) for _ in range(2))
            model.load_bounds(low, high)
        good, run_en, use_filter = (random.getrandbits(1) for _ in range(3))
        data = random.getrandbits(random.choice([4, 32]))
        inc = random.getrandbits(16)
        in_range = int(model.in_range(data))  # what the filter on ev_data gives
        dut.ev_good.value, dut.ev_data.value, dut.ev_inc.value = good, data, inc
        dut.run_en.value, dut.use_filter.value, dut.in_range.value = run_en, use_filter, in_range
        exp_valid, exp_value = model.step(good, data, inc, run_en, use_filter, 0)
        await Timer(1, unit="ns")
        assert int(dut.smp_valid.value) == exp_valid, f"event {i}: smp_valid"
        if exp_valid:
            assert int(dut.smp_value.value) == exp_value, f"event {i}: smp_value"
            samples += 1
    dut._log.info("checked %d random cycles (%s samples), %d valid samples", n, sample, samples)


@pytest.mark.parametrize("sample", [0, 1], ids=["increment", "data"])
def test_event(sample):
    run("jointer_dcapf_event", __name__, {"sample_g": sample})
