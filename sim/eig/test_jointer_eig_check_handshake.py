# SPDX-License-Identifier: MIT
"""jointer_eig_check_handshake: fire = valid and ready, random pairs."""
import random

import cocotb
from cocotb.triggers import Timer

from jointer_sim import run


@cocotb.test()
async def random_pairs(dut):
    n = 2000
    fires = 0
    for i in range(n):
        valid, ready = random.getrandbits(1), random.getrandbits(1)
        dut.valid.value = valid
        dut.ready.value = ready
        await Timer(1, unit="ns")
        assert int(dut.fire.value) == (valid & ready), (valid, ready, int(dut.fire.value))
        fires += valid & ready
    dut._log.info("checked %d random valid/ready pairs (%d fires)", n, fires)


def test_check_handshake():
    run("jointer_eig_check_handshake", __name__)
