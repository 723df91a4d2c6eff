# SPDX-License-Identifier: MIT
"""jointer_eig_check_mask: match = ((data and mask_g) = value_g), random data
biased towards matches, against a Python expression of the contract. With
ev_w_g 64 (an address wider than 32 bits) the mask reaches above bit 31."""
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
    mask, value, ev = p["mask"], p["value"], p["ev"]
    full = (1 << ev) - 1
    matches = 0
    n = 5000
    for i in range(n):
        data = random.getrandbits(ev)
        if random.random() < 0.5:  # force the masked bits, randomise the rest
            data = (data & ~mask & full) | value
            if random.random() < 0.3:  # ... then flip one bit
                data ^= 1 << random.randrange(ev)
        dut.data.value = data
        await Timer(1, unit="ns")
        exp = int((data & mask) == value)
        assert int(dut.match.value) == exp, f"data {data:#010x}: match {int(dut.match.value)}, expected {exp}"
        matches += exp
    dut._log.info("checked %d random data words (%d matches)", n, matches)


@pytest.mark.parametrize("mask,value,ev", [(0xFFFF0000, 0x43C00000, 32), (0x3, 0x1, 32),
                                           (0xFFFFFFFF, 0xDEADBEEF, 32), (0x0, 0x0, 32),
                                           (0x80000001, 0x80000000, 32), (0xFF_F000_0000, 0x8_1000_0000, 64),
                                           (0x1_0000_0003, 0x1_0000_0000, 64)])
def test_check_mask(mask, value, ev):
    generics = {"mask_g": slv(mask, ev), "value_g": slv(value, ev)} | ({"ev_w_g": ev} if ev > 32 else {})
    run("jointer_eig_check_mask", __name__, generics,
        extra_env={"JOINTER_PARAMS": json.dumps({"mask": mask, "value": value, "ev": ev})})
