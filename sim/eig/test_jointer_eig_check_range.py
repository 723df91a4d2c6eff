# SPDX-License-Identifier: MIT
"""jointer_eig_check_range: match = (low_g <= data <= high_g) unsigned, random
data concentrated around the bounds, against a Python expression."""
import json
import os
import random

import cocotb
import pytest
from cocotb.triggers import Timer

from jointer_sim import run, slv


@cocotb.test()
async def random_data(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    low, high = p["low"], p["high"]
    matches = 0
    n = 5000
    for i in range(n):
        r = random.random()
        if r < 0.6:  # near a bound, including both bounds exactly
            data = (random.choice([low, high]) + random.randint(-2, 2)) & 0xFFFFFFFF
        elif r < 0.7:
            data = random.choice([0, 0xFFFFFFFF])
        else:
            data = random.getrandbits(32)
        dut.data.value = data
        await Timer(1, unit="ns")
        exp = int(low <= data <= high)
        assert int(dut.match.value) == exp, f"data {data:#x}: match {int(dut.match.value)}, expected {exp}"
        matches += exp
    dut._log.info("checked %d random data words (%d matches)", n, matches)


@pytest.mark.parametrize("low,high", [(0x0, 0xFFFF), (0x1000, 0x1000), (0x80000000, 0xFFFFFFFF),
                                      (0x20, 0x10), (0x12345678, 0x9ABCDEF0)])
def test_check_range(low, high):
    run("jointer_eig_check_range", __name__, {"low_g": slv(low), "high_g": slv(high)},
        extra_env={"JOINTER_PARAMS": json.dumps({"low": low, "high": high})})
