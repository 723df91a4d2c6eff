# SPDX-License-Identifier: MIT
"""The testbench of a generated monitor, one run (`run(dut, spec_path)`):

1. clocks, every input at rest, the resets; a recorder per clock domain
   watching every observed port and each sniffer's control ports;
2. the host (host.py: the jointer package over s_axi) opens the monitor
   (self-test), loads a random window into every runtime filter, lets each
   kind prepare (a program monitor's table), picks each sniffer's mode
   (mostly FILTERING, some NO_FILTERING, now and then IDLE) and sets RUN;
3. every sniffer's driver plays seeded random traffic for JOINTER_TB_CYCLES
   cycles of its clock (a user's stimulus module, JOINTER_TB_STIM, runs
   beside them and may take over sniffers: doc in sim/jointer_tb/README.md);
4. the pipelines drain, RUN drops, the recorders stop;
5. every metric, every STATUS VALID/OVERFLOW bit and every trace (stop, ring)
   is read through s_axi and compared with the reference model fed with the
   recording (reference.py); the table is logged, and written as JSON to
   JOINTER_TB_REPORT; any difference fails the test.

The seed is cocotb's (COCOTB_RANDOM_SEED, `run.py --seed`); each sniffer
draws from its own stream derived from it, so a sniffer's traffic does not
change when another sniffer is added.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, gather

from . import check, spec as spec_mod
from .host import Host
from .kinds import driver_for
from .record import Domain
from .reference import CONTROL

MODES = ["filtering"] * 6 + ["no_filtering"] * 3 + ["idle"]


class Bench:
    def __init__(self, dut, spec):
        self.dut, self.spec = dut, spec
        self.seed = int(os.environ.get("COCOTB_RANDOM_SEED", cocotb.RANDOM_SEED))
        self.rng = random.Random(f"{self.seed}:bench")
        self.cycles = int(os.environ.get("JOINTER_TB_CYCLES", "2000"))
        self.clk = {c.name: getattr(dut, c.port) for c in spec.clocks}
        self.period = {c.name: 2 * round(c.period_ns * 500) for c in spec.clocks}     # ps, even
        self.dom = {c.name: Domain(c.name, self.clk[c.name], self.period[c.name]) for c in spec.clocks}
        self.drivers = {sn.name: driver_for(sn.kind)(self, sn) for sn in spec.sniffers}
        self.user = load_stimulus(os.environ.get("JOINTER_TB_STIM"))
        unknown = (set(getattr(self.user, "SNIFFERS", ())) | set(getattr(self.user, "MODES", {}))) - set(self.drivers)
        if unknown:
            raise ValueError(f"{os.environ['JOINTER_TB_STIM']}: SNIFFERS / MODES name {sorted(unknown)}, "
                             f"not sniffers of {spec.name} (expected some of {', '.join(self.drivers)})")
        self.host = None
        self.modes: dict[str, str] = {}
        self.bounds: dict[str, tuple[int, int]] = {}    # the window of each filter (loaded or constant)
        self.coverage: dict[str, dict] = {}               # sniffer -> reference.coverage()

    def driver(self, name: str):
        return self.drivers[name]

    def instance(self, sn):
        h = self.dut
        for label in sn.instance:
            h = getattr(h, label)
        return h

    # -- 1. clocks, rest, resets, recorders -------------------------------------------------
    async def start(self) -> None:
        for c in self.spec.clocks:             # high from t = 0: rising edges at k x period
            cocotb.start_soon(Clock(self.clk[c.name], self.period[c.name], unit="ps").start(start_high=True))
            getattr(self.dut, c.reset).value = 0
        for d in self.drivers.values():
            d.idle()
        slow = self.slowest()
        await ClockCycles(self.clk[slow], 10)
        for c in self.spec.clocks:
            getattr(self.dut, c.reset).value = 1
        await ClockCycles(self.clk[slow], 10)
        for sn in self.spec.sniffers:
            self.watch_control(sn)
            self.drivers[sn.name].record(self.dom[sn.clock])
        for dom in self.dom.values():
            dom.start()

    def slowest(self) -> str:
        return max(self.spec.clocks, key=lambda c: c.period_ns).name

    def watch_control(self, sn) -> None:
        inst, dom = self.instance(sn), self.dom[sn.clock]
        for port in CONTROL + (("timestamp",) if sn.timestamp else ()):
            dom.watch(f"{sn.name}.#{port}", getattr(inst, port), data=port == "init_data")

    # -- 2. the host programs the monitor ------------------------------------------------
    async def program(self) -> None:
        bus = self.spec.clocks[0]
        self.host = Host(self.dut, self.spec, self.clk[bus.name], getattr(self.dut, bus.reset))
        mon = await self.host.open(selftest_write=self.spec.scratch)
        for sn in self.spec.sniffers:
            await self.windows(mon, sn)
            await self.drivers[sn.name].setup(self.host)
        forced = getattr(self.user, "MODES", {}) if self.user else {}
        for sn in self.spec.sniffers:
            mode = self.rng.choice(MODES)
            self.modes[sn.name] = forced.get(sn.name, mode)
            await self.host.call(mon.set_mode, sn.name, self.modes[sn.name])
        await self.host.call(mon.run)
        await self.running()

    async def running(self, limit: int = 200) -> None:
        """Until RUN has crossed into every LMIC (each sniffer's run port high): the
        traffic starts with every sniffer counting."""
        slow = self.clk[self.slowest()]
        for _ in range(limit):
            if all(int(self.instance(sn).run.value) == 1 for sn in self.spec.sniffers):
                return
            await ClockCycles(slow, 1)
        raise AssertionError(f"RUN did not reach every LMIC within {limit} cycles of the slowest clock")

    async def windows(self, mon, sn) -> None:
        """A random window in every runtime filter (the constant ones as they are)."""
        drv = self.drivers[sn.name]
        for dc in sn.dcapfs:
            if not dc.has_filter or dc.mode == "sink":
                continue
            window = (dc.low, dc.high)
            if dc.runtime:                     # a random window; now and then the YAML's own, loaded again
                window = drv.window_for(dc) if self.rng.random() < 0.75 else window
                await self.host.call(mon.initialize, dc.name, *window)
            self.bounds[dc.name] = window
            if drv.on_data(dc):
                drv.windows.append(window)

    # -- 3. traffic ------------------------------------------------------------------------------
    async def traffic(self) -> None:
        taken = set(getattr(self.user, "SNIFFERS", ())) if self.user else set()
        coros = [d.traffic(self.cycles) for n, d in self.drivers.items() if n not in taken]
        if self.user:
            coros.append(self.user.stimulus(self))
        await gather(*coros)

    # -- 4. drain, stop ----------------------------------------------------------------------------
    async def stop(self) -> None:
        slow = self.clk[self.slowest()]
        await ClockCycles(slow, 300)           # held AXI4 beats leave one per cycle
        await self.host.call(self.host.mon.stop)
        await ClockCycles(slow, 30)            # RUN reaches every LMIC, interval maxima close
        for dom in self.dom.values():
            dom.stop()


def load_stimulus(path: str | None):
    """A user's stimulus module (JOINTER_TB_STIM): `async def stimulus(tb)`, optionally
    SNIFFERS = [names] whose random traffic it replaces and MODES = {name: mode}
    (idle, filtering, no_filtering) instead of the random ones."""
    if not path:
        return None
    spec = importlib.util.spec_from_file_location("jointer_tb_user_stimulus", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    if not callable(getattr(mod, "stimulus", None)):
        raise ValueError(f"{path}: a stimulus module defines `async def stimulus(tb)`")
    return mod


async def run(dut, spec_path) -> None:
    spec = spec_mod.load(Path(spec_path))
    tb = Bench(dut, spec)
    dut._log.info("seed %d, %d cycles of traffic per sniffer, %d sniffers", tb.seed, tb.cycles,
                  len(spec.sniffers))
    await tb.start()
    await tb.program()
    await tb.traffic()
    await tb.stop()
    rows = await check.collect(tb)
    report = os.environ.get("JOINTER_TB_REPORT")
    if report:
        Path(report).write_text(json.dumps({"seed": tb.seed, "modes": tb.modes, "coverage": tb.coverage,
                                                  "rows": rows}, indent=1) + "\n")
    check.verdict(dut._log, rows, tb)
