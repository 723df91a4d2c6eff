# SPDX-License-Identifier: MIT
"""The host of the testbench: the jointer Python package over s_axi.

libjointer's register seam (an ops table, `Monitor.attach(read32=,
write32=)`) becomes AXI4-Lite transactions of cocotbext-axi's AxiLiteMaster
on the monitor's s_axi port: the package runs in a thread of cocotb 2's
`cocotb.task.bridge`, and each register access it makes is a coroutine
resumed on the simulator (`cocotb.task.resume`), so the C library's own
sequences (INIT, torn-free 64-bit reads, histogram snapshots, trace reads)
are what the bus sees. `call(fn, *args)` runs any package call that way.
"""

from __future__ import annotations

import logging
import warnings

from cocotb.task import bridge, resume

import jointer


class Host:
    def __init__(self, dut, spec, clk, resetn):
        from cocotbext.axi import AxiLiteBus, AxiLiteMaster

        quiet(dut, spec.bus.prefix)
        self.bus = AxiLiteMaster(AxiLiteBus.from_prefix(dut, spec.bus.prefix), clk, resetn,
                                 reset_active_level=False)
        self.desc = jointer.Descriptor.from_file(spec.jdesc)
        self.mon = None
        self.reads = self.writes = 0

    async def _read32(self, off: int) -> int:
        self.reads += 1
        r = await self.bus.read(off, 4)
        if int(r.resp) >= 2:
            raise IOError(f"s_axi read of 0x{off:X}: RRESP {int(r.resp)}")
        return int.from_bytes(r.data, "little")

    async def _write32(self, off: int, value: int) -> None:
        self.writes += 1
        r = await self.bus.write(off, int(value).to_bytes(4, "little"))
        if int(r.resp) >= 2:
            raise IOError(f"s_axi write of 0x{off:X}: BRESP {int(r.resp)}")

    async def open(self, selftest_write: bool):
        """Monitor.attach on the bus; the self-test (ID, VERSION, CONFIG_HASH, INFO, SCRATCH)."""
        def attach():
            m = jointer.Monitor.attach(self.desc, read32=resume(self._read32), write32=resume(self._write32))
            m.selftest(write=selftest_write)
            return m
        self.mon = await bridge(attach)()
        return self.mon

    async def call(self, fn, *args):
        """fn(*args) in the bridge thread: its register accesses are bus transactions."""
        return await bridge(fn)(*args)


def quiet(dut, prefix: str) -> None:
    """cocotbext-axi's models of a port group log their set-up at INFO and use
    cocotb APIs that warn of deprecation: warnings and errors only."""
    logging.getLogger(f"cocotb.{dut._name}.{prefix}").setLevel(logging.WARNING)
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"cocotbext\.")
