"""jointer_collect_timestamp: counts every cycle from 0 after reset, wraps."""
import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, ReadOnly

from jointer_sim import run


@cocotb.test()
async def counts_cycles(dut):
    width = len(dut.timestamp)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    for expected in range(1, 3 * (1 << min(width, 6))):
        await RisingEdge(dut.clk)  # edge n with rst low: the counter shows n
        await ReadOnly()
        assert int(dut.timestamp.value) == expected % (1 << width), expected


@pytest.mark.parametrize("width", [4, 64])
def test_timestamp(width):
    run("jointer_collect_timestamp", __name__, {"width_g": width})
