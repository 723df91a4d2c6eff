"""jointer_dcapf_filter: in_range = low <= data <= high (unsigned,
inclusive), random values around the bounds, against the model's filter."""
import random

import cocotb
from cocotb.triggers import Timer

from jointer_sim import run
from jointer_sim.model import DcapfModel


@cocotb.test()
async def random_ranges(dut):
    model = DcapfModel()
    n = 5000
    hits = 0
    for i in range(n):
        if random.random() < 0.5:
            low, high = sorted(random.getrandbits(32) for _ in range(2))
        else:
            low, high = random.getrandbits(32), random.getrandbits(32)  # may be empty
        if random.random() < 0.1:
            high = low
        r = random.random()
        if r < 0.6:
            data = (random.choice([low, high]) + random.randint(-1, 1)) & 0xFFFFFFFF
        elif r < 0.7:
            data = random.choice([0, 0xFFFFFFFF])
        else:
            data = random.getrandbits(32)
        model.load_bounds(low, high)
        dut.low.value, dut.high.value, dut.data.value = low, high, data
        await Timer(1, unit="ns")
        exp = int(model.in_range(data))
        assert int(dut.in_range.value) == exp, f"{low:#x} <= {data:#x} <= {high:#x}: got {int(dut.in_range.value)}"
        hits += exp
    dut._log.info("checked %d random (data, low, high) triples, %d in range", n, hits)


def test_filter():
    run("jointer_dcapf_filter", __name__)
