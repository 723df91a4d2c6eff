# SPDX-License-Identifier: MIT
"""jointer_dcapf_filter: in_range = low <= data <= high (unsigned,
inclusive), random values around the bounds, against the model's filter.
With width_g < 32 the data stays below 2^width_g while the bounds are any
32-bit values (also just above 2^width_g): the narrowed comparators must
order them as the 32-bit ones do."""
import json
import os
import random

import cocotb
import pytest
from cocotb.triggers import Timer

from jointer_sim import run
from jointer_sim.model import DcapfModel


def random_case(width: int) -> tuple[int, int, int]:
    top = 1 << width
    near = [v & 0xFFFFFFFF for v in (0, top - 1, top, top + 1, 0xFFFFFFFF)]
    def bound() -> int:
        return random.choice(near) if random.random() < 0.2 else random.getrandbits(
            random.choice([width, width + 1, 32]) if width < 32 else 32) & 0xFFFFFFFF
    low, high = bound(), bound()
    if random.random() < 0.5:
        low, high = sorted((low, high))
    if random.random() < 0.1:
        high = low
    r = random.random()
    if r < 0.6:
        data = random.choice([low, high]) + random.randint(-1, 1)
    elif r < 0.7:
        data = random.choice([0, top - 1])
    else:
        data = random.getrandbits(width)
    return low, high, data % top


@cocotb.test()
async def random_ranges(dut):
    width = json.loads(os.environ["JOINTER_PARAMS"])["width"]
    model = DcapfModel()
    n = 3000
    hits = 0
    for _ in range(n):
        low, high, data = random_case(width)
        model.load_bounds(low, high)
        dut.low.value, dut.high.value, dut.data.value = low, high, data
        await Timer(1, unit="ns")
        exp = int(model.in_range(data))
        assert int(dut.in_range.value) == exp, f"{low:#x} <= {data:#x} <= {high:#x}: got {int(dut.in_range.value)}"
        hits += exp
    assert 0 < hits < n
    dut._log.info("width %d: checked %d random (data, low, high) triples, %d in range", width, n, hits)


@pytest.mark.parametrize("width", [1, 2, 13, 31, 32])
def test_filter(width):
    run("jointer_dcapf_filter", __name__, {"width_g": width},
        extra_env={"JOINTER_PARAMS": json.dumps({"width": width})})
