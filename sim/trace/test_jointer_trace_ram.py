# SPDX-License-Identifier: MIT
"""jointer_trace_ram: random writes and reads (registered, read-first, memory
starts at zero) against a Python list."""
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge

from jointer_sim import run


@cocotb.test()
async def random_access(dut):
    aw, width = len(dut.waddr), len(dut.wdata)
    depth = 1 << aw
    mem = [0] * depth
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.we.value, dut.waddr.value, dut.wdata.value, dut.raddr.value = 0, 0, 0, 0
    await FallingEdge(dut.clk)
    writes = reads = collisions = 0
    n = 4000
    for cycle in range(n):
        we = int(random.random() < 0.5)
        waddr = random.randrange(depth)
        raddr = waddr if random.random() < 0.2 else random.randrange(depth)
        wdata = random.getrandbits(width)
        dut.we.value, dut.waddr.value, dut.wdata.value, dut.raddr.value = we, waddr, wdata, raddr
        expected = mem[raddr]  # read-first: the old word
        collisions += we and raddr == waddr
        if we:
            mem[waddr] = wdata
            writes += 1
        await FallingEdge(dut.clk)
        assert int(dut.rdata.value) == expected, f"cycle {cycle}: read {raddr}: got {int(dut.rdata.value):#x}, expected {expected:#x}"
        reads += 1
    dut._log.info("checked %d reads, %d writes (%d reads of the word being written)", reads, writes, collisions)


@pytest.mark.parametrize("depth_log2,width", [(1, 8), (8, 64), (10, 32)])
def test_trace_ram(depth_log2, width):
    run("jointer_trace_ram", __name__, {"depth_log2_g": depth_log2, "width_g": width})
