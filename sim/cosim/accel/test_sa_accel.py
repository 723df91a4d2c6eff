# SPDX-License-Identifier: MIT
"""sa_accel + sa_mem (the demo coprocessor): results in memory, the strobes a
monitor observes and the exact cycle count against sa_model.py."""
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, ReadOnly
from cocotbext.axi import AxiLiteBus, AxiLiteMaster

from jointer_sim import run

import sa_model

HERE = Path(__file__).resolve().parent
SOURCES = [HERE / f for f in ("sa_mac16.vhd", "sa_accel.vhd", "sa_mem.vhd", "sa_soc.vhd")]
IN_BASE, OUT_BASE = 0x0000, 0x1000


class Observer:
    """Counts what the monitor's three sniffers would see."""

    def __init__(self, dut):
        self.dut = dut
        self.start = self.done = None
        self.forward = self.mac = self.bytes = 0
        self.cycle = 0
        cocotb.start_soon(self._watch())

    async def _watch(self):
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            await ReadOnly()
            self.cycle += 1
            if d.task_start.value == 1:
                self.start = self.cycle
            if d.task_done.value == 1:
                self.done = self.cycle
            self.forward += int(d.ev_forward.value)
            self.mac += int(d.ev_mac.value)
            if d.dma_wvalid.value == 1 and d.dma_wready.value == 1:
                self.bytes += bin(int(d.dma_wstrb.value)).count("1")


async def reset(dut):
    for name in ("awaddr", "awprot", "awvalid", "wdata", "wstrb", "wvalid", "bready",
                 "araddr", "arprot", "arvalid", "rready"):
        getattr(dut, f"s_axi_{name}").value = 0
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 2)


@cocotb.test()
async def selective_accumulations(dut):
    await reset(dut)
    host = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi"), dut.clk)
    checked = 0
    # SA_LENGTHS=n,m,... replays other lengths
    lengths = [int(x) for x in os.environ.get("SA_LENGTHS", "0,1,37,300,1024").split(",")]
    for n in lengths:
        inputs = [random.randint(-20, 20) for _ in range(n)]
        ref = sa_model.run(inputs)
        for i, x in enumerate(inputs):
            await host.write_dword(0x4000 + 4 * ((IN_BASE >> 2) + i), x & 0xFFFFFFFF)
        await host.write_dword(0x08, n)
        await host.write_dword(0x0C, IN_BASE)
        await host.write_dword(0x10, OUT_BASE)
        obs = Observer(dut)
        await host.write_dword(0x00, 1)
        while (await host.read_dword(0x04)) & 1:
            pass
        assert await host.read_dword(0x04) == 2  # DONE, not BUSY
        assert obs.done - obs.start == ref["cycles"], (n, obs.done - obs.start, ref["cycles"])
        assert await host.read_dword(0x14) == ref["cycles"]
        assert obs.forward == ref["forward_fires"]
        assert obs.mac == ref["mac_fires"]
        assert obs.bytes == ref["bytes_written"]
        assert await host.read_dword(0x18) == ref["bytes_written"] // 4
        for k, results in enumerate(ref["results"]):
            base = (OUT_BASE + k * sa_model.RESULT_STRIDE) >> 2
            for j, r in enumerate(results):
                got = await host.read_dword(0x4000 + 4 * (base + j))
                assert got == r & 0xFFFFFFFF, (n, k, j, got, r)
                checked += 1
        dut._log.info("n=%d: %d cycles, %d bytes, forward %d, mac %d", n, ref["cycles"],
                      ref["bytes_written"], ref["forward_fires"], ref["mac_fires"])
    dut._log.info("checked %d results", checked)


def test_sa_accel():
    run("sa_soc", __name__, extra_sources=SOURCES)
