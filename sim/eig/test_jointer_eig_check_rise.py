# SPDX-License-Identifier: MIT
"""jointer_eig_check_rise: rise = sig and not (sig one cycle earlier), the
history reset to 0 by rst (also mid-run), against a Python register model."""
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, Timer

from jointer_sim import run


@cocotb.test()
async def random_levels(dut):
    width = len(dut.sig)
    mask = (1 << width) - 1
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.sig.value = mask
    await ClockCycles(dut.clk, 2)
    await FallingEdge(dut.clk)
    prev = 0  # history register after reset
    sig = mask
    rises = 0
    n = 4000
    for cycle in range(n):
        rst = int(random.random() < 0.01)
        sig ^= sum((random.random() < 0.3) << i for i in range(width))
        dut.rst.value = rst
        dut.sig.value = sig
        await Timer(1, unit="ns")  # combinational output of this cycle
        exp = sig & ~prev & mask
        assert int(dut.rise.value) == exp, f"cycle {cycle}: rise {int(dut.rise.value):#x}, expected {exp:#x}"
        rises += bin(exp).count("1")
        prev = 0 if rst else sig
        await FallingEdge(dut.clk)
    dut._log.info("checked %d random cycles (%d rises, with random resets)", n, rises)


@pytest.mark.parametrize("width", [1, 7])
def test_check_rise(width):
    run("jointer_eig_check_rise", __name__, {"width_g": width})
