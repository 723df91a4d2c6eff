# SPDX-License-Identifier: MIT
"""jointer_eig_check_mask: match = ((data and mask_g) = value_g), random data
biased towards matches, against a Python expression of the contract."""
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
    mask, value = p["mask"], p["value"]
    matches = 0
    n = 5000
    for i in range(n):
        data = random.getrandbits(32)
        if random.random() < 0.5:  # force the masked bits, randomise the rest
            data = (data & ~mask & 0xFFFFFFFF) | value
            if random.random() < 0.3:  # ... then flip one masked bit
                data ^= 1 << random.randrange(32)
        dut.data.value = data
        await Timer(1, unit="ns")
        exp = int((data & mask) == value)
        assert int(dut.match.value) == exp, f"data {data:#010x}: match {int(dut.match.value)}, expected {exp}"
        matches += exp
    dut._log.info("checked %d random data words (%d matches)", n, matches)


@pytest.mark.parametrize("mask,value", [(0xFFFF0000, 0x43C00000), (0x3, 0x1),
                                        (0xFFFFFFFF, 0xDEADBEEF), (0x0, 0x0), (0x80000001, 0x80000000)])
def test_check_mask(mask, value):
    run("jointer_eig_check_mask", __name__, {"mask_g": slv(mask), "value_g": slv(value)},
        extra_env={"JOINTER_PARAMS": json.dumps({"mask": mask, "value": value})})
