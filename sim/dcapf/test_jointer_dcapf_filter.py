# SPDX-License-Identifier: MIT
"""jointer_dcapf_filter: in_range = low <= data <= high (unsigned,
inclusive), random values around the bounds, against the model's filter.
With width_g below the port width (ev_w_g: 32, or 64 for an address wider
than 32 bits) the data stays below 2^width_g while the bounds are any
ev_w_g-bit values (also just above 2^width_g, and around 2^32 for the wide
ports): the narrowed comparators must order them as the full ones do."""
import json
import os
import random

import cocotb
import pytest
from cocotb.triggers import Timer

from jointer_sim import run
from jointer_sim.model import DcapfModel


def random_case(width: int, ev: int) -> tuple[int, int, int]:
    top, full = 1 << width, (1 << ev) - 1
    near = [v & full for v in (0, top - 1, top, top + 1, full, 1 << 32, (1 << 32) - 1, (1 << 32) + 1)]

    def bound() -> int:
        return random.choice(near) if random.random() < 0.2 else random.getrandbits(
            random.choice([width, width + 1, ev]) if width < ev else ev) & full
    low, high = bound(), bound()
    if random.random() < 0.5:
        low, high = sorted((low, high))
    if random.random() < 0.1:
        high = low
    r = random.random()
    if r < 0.6:
        data = random.choice([low, high]) + random.randint(-1, 1)
    elif r < 0.7:
        data = random.choice([0, top - 1, (1 << 32) - 1, 1 << 32])
    else:
        data = random.getrandbits(width)
    return low, high, data % top


@cocotb.test()
async def random_ranges(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    width, ev = p["width"], p["ev"]
    model = DcapfModel(bits=ev)
    n = 3000
    hits = 0
    for _ in range(n):
        low, high, data = random_case(width, ev)
        model.load_bounds(low, high)
        dut.low.value, dut.high.value, dut.data.value = low, high, data
        await Timer(1, unit="ns")
        exp = int(model.in_range(data))
        assert int(dut.in_range.value) == exp, f"{low:#x} <= {data:#x} <= {high:#x}: got {int(dut.in_range.value)}"
        hits += exp
    assert 0 < hits < n
    dut._log.info("width %d of %d: checked %d random (data, low, high) triples, %d in range", width, ev, n, hits)


@pytest.mark.parametrize("width,ev", [(1, 32), (2, 32), (13, 32), (31, 32), (32, 32),
                                      (33, 64), (40, 64), (63, 64), (64, 64)])
def test_filter(width, ev):
    generics = {"width_g": width} if ev == 32 else {"width_g": width, "ev_w_g": ev}
    run("jointer_dcapf_filter", __name__, generics,
        extra_env={"JOINTER_PARAMS": json.dumps({"width": width, "ev": ev})})
