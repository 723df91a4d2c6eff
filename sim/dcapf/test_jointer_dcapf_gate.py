# SPDX-License-Identifier: MIT
"""jointer_dcapf_gate: good_o = good_i and gate_en, data_o = data_i and
mask_g, random inputs, against Python expressions of the contract."""
import json
import os
import random

import cocotb
import pytest
from cocotb.triggers import Timer

from jointer_sim import run, slv


@cocotb.test()
async def random_events(dut):
    mask = json.loads(os.environ["JOINTER_PARAMS"])["mask"]
    n = 3000
    for i in range(n):
        good, en, data = random.getrandbits(1), random.getrandbits(1), random.getrandbits(32)
        dut.good_i.value, dut.gate_en.value, dut.data_i.value = good, en, data
        await Timer(1, unit="ns")
        got = (int(dut.good_o.value), int(dut.data_o.value))
        assert got == (good & en, data & mask), (good, en, hex(data), got)
    dut._log.info("checked %d random events", n)


@pytest.mark.parametrize("mask", [0xFFFFFFFF, 0x0000FFF0])
def test_gate(mask):
    run("jointer_dcapf_gate", __name__, {"mask_g": slv(mask)},
        extra_env={"JOINTER_PARAMS": json.dumps({"mask": mask})})
