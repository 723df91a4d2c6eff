# SPDX-License-Identifier: MIT
"""The GHDL side of the co-simulation (sim/cosim/README.md): a cocotb test.

The same scenario, clocks, resets, bus master and stimulus as the Verilator
harness (harness/verilator/scenario_runner.cpp), cycle for cycle, against the
VHDL itself. The C application is a shared library (the app + libjointer +
the generated driver + apps/platform_ghdl.c); it runs in a
`cocotb.task.bridge` thread, and every platform call it makes
(apps/platform.h) comes back to Python through ctypes and is served by a
`cocotb.task.resume` coroutine on the simulated bus.

Timing: the numbers of the contract (bus_timing.yaml, read at run time),
the rules of scenario_runner.h:
- clock c: high at t = 0, falls at high_c, rises at k * period_c (k >= 1);
  periods are whole multiples of grain_ps (even);
- every resetn is 0 from t = 0 and rises at t_rel = release_periods x the
  longest period + offset_ps (odd: never an edge);
- the application starts right after the first bus-clock rising edge after
  t_rel + app_start_periods x the longest period;
- agents sample the top's outputs at a rising edge of their clock (the values
  before the edge) and change its inputs right after it; an activity
  requested at time t starts at the first rising edge of its clock strictly
  after t. Here: `await Timer(offset_ps)` then `RisingEdge`: every edge is at
  an even ps, so t + offset_ps is never an edge and the next edge is
  unambiguous whatever order the simulator delivers same-time callbacks in.

Run by run.py with the environment: COSIM_SCENARIO, COSIM_TOP (the top
description run.py writes), COSIM_TIMING (the contract), COSIM_APP_LIB,
COSIM_REPORT, and COSIM_HANDSHAKES (optional: the handshake log).
"""

from __future__ import annotations

import ctypes as C
import json
import os
import time

import cocotb
import yaml
from cocotb.clock import Clock
from cocotb.task import bridge, resume
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotb.utils import get_sim_time

from axi_mem import AxiMem
from bus_timing import BusTiming, to_int
from handshakes import HandshakeLog
from stimulus import Stim

EIO = 5
ENODEV = 19
ETIMEDOUT = 110

AXIL = ["awaddr", "awprot", "awvalid", "awready", "wdata", "wstrb", "wvalid", "wready",
        "bresp", "bvalid", "bready", "araddr", "arprot", "arvalid", "arready", "rdata",
        "rresp", "rvalid", "rready"]


class TimeLimit(Exception):
    pass


class Sampler:
    """Reads of DUT outputs; a non-0/1 bit reads 0 and is counted, per signal."""

    def __init__(self):
        self.x_reads = 0
        self.x_signals = {}      # signal name -> reads of a non-0/1 value

    def __call__(self, handle) -> int:
        v = handle.value
        try:
            return int(v)
        except ValueError:
            self.x_reads += 1
            name = getattr(handle, "_name", None) or str(handle)
            self.x_signals[name] = self.x_signals.get(name, 0) + 1
            return int(str(v).replace("U", "0").replace("X", "0").replace("Z", "0")
                       .replace("W", "0").replace("L", "0").replace("H", "1")
                       .replace("-", "0"), 2)


class Master:
    """AXI4-Lite master, README "The bus master" (harness/verilator/bus_master.cpp)."""

    def __init__(self, dut, prefix: str, clock: dict, rd: Sampler, timing: BusTiming, log: HandshakeLog):
        self.h = {s: getattr(dut, f"{prefix}_{s}") for s in AXIL}
        self.prefix, self.clock, self.clk = prefix, clock, clock["clk"]
        self.rd, self.t, self.log = rd, timing, log
        self.wstrb = timing.get("master", "wstrb")
        self.transactions = 0
        self.ready()

    def ready(self):
        """BREADY and RREADY as the contract holds them."""
        self.h["bready"].value = self.t.get("master", "bready")
        self.h["rready"].value = self.t.get("master", "rready")

    def hs(self, channel: str, fields: str):
        self.log.line(self.clock["name"], self.clock["period"], self.prefix, channel, fields)

    async def access(self, write: bool, addr: int, data: int = 0) -> tuple[int, int]:
        h, rd, edge = self.h, self.rd, RisingEdge(self.clk)
        await Timer(self.t.offset_ps, "ps")
        await edge
        if write:
            h["awaddr"].value = addr
            h["awvalid"].value = 1
            h["wdata"].value = data
            h["wstrb"].value = self.wstrb
            h["wvalid"].value = 1
            aw = w = False
            while True:
                await edge
                awready = not aw and rd(h["awready"])
                wready = not w and rd(h["wready"])
                bvalid = rd(h["bvalid"])
                bresp = rd(h["bresp"]) if bvalid else 0
                if awready:
                    aw = True
                    h["awvalid"].value = 0
                    self.hs("AW", f"{addr:#x}")
                if wready:
                    w = True
                    h["wvalid"].value = 0
                    self.hs("W", f"{data:#x} {self.wstrb:#x}")
                if bvalid:
                    self.hs("B", f"{bresp}")
                    self.transactions += 1
                    return bresp, 0
        h["araddr"].value = addr
        h["arvalid"].value = 1
        ar = False
        while True:
            await edge
            arready = not ar and rd(h["arready"])
            rvalid = rd(h["rvalid"])
            if rvalid:
                rresp, rdata = rd(h["rresp"]), rd(h["rdata"])
            if arready:
                ar = True
                h["arvalid"].value = 0
                self.hs("AR", f"{addr:#x}")
            if rvalid:
                self.hs("R", f"{rdata:#x} {rresp}")
                self.transactions += 1
                return rresp, rdata


# ---- ctypes: app/platform_ghdl.c -------------------------------------------------

MON_READ = C.CFUNCTYPE(C.c_int, C.c_uint32, C.POINTER(C.c_uint32))
MON_WRITE = C.CFUNCTYPE(C.c_int, C.c_uint32, C.c_uint32)
MON_WAIT_IRQ = C.CFUNCTYPE(C.c_int, C.c_int)
READ32 = C.CFUNCTYPE(C.c_uint32, C.c_uint32)
WRITE32 = C.CFUNCTYPE(None, C.c_uint32, C.c_uint32)
WAIT_NS = C.CFUNCTYPE(None, C.c_uint64)
VOID = C.CFUNCTYPE(None)
NAMED = C.CFUNCTYPE(None, C.c_char_p, C.c_uint64)
U64 = C.CFUNCTYPE(C.c_uint64)
RING = C.CFUNCTYPE(C.c_int, C.c_char_p, C.POINTER(C.c_void_p), C.POINTER(C.c_uint32), C.POINTER(C.c_uint32))


class Callbacks(C.Structure):
    _fields_ = [("mon_read32", MON_READ), ("mon_write32", MON_WRITE),
                ("mon_wait_irq", MON_WAIT_IRQ), ("read32", READ32), ("write32", WRITE32),
                ("wait_ns", WAIT_NS), ("stimulus_start", VOID), ("stimulus_wait", VOID),
                ("report", NAMED), ("expect", NAMED), ("monitor_transactions", U64),
                ("bus_cycles", U64), ("bus_reset", WAIT_NS), ("ring", RING), ("time_ps", U64)]


class Harness:
    def __init__(self, dut):
        self.dut = dut
        with open(os.environ["COSIM_SCENARIO"]) as f:
            self.sc = yaml.safe_load(f)
        with open(os.environ["COSIM_TOP"]) as f:
            self.top = yaml.safe_load(f)
        self.t = BusTiming.load(os.environ["COSIM_TIMING"])
        self.log = HandshakeLog(os.environ.get("COSIM_HANDSHAKES"))
        self.rd = Sampler()
        self.errors: list[str] = []
        self.metrics: dict[str, int] = {}
        self.app_expect: dict[str, int] = {}
        self.bus_errors = 0
        self.fatal = False
        self.now = 0
        self.cur = None  # the platform coroutine in progress (the watchdog cancels it)
        over = self.sc.get("clocks") or {}
        self.clocks = []
        for c in self.top["clocks"]:
            ns = over.get(c["name"], c["period_ns"])
            p = self.t.period_ps(float(ns))
            if p < self.t.grain_ps:
                raise ValueError(f"clock {c['name']}: period {ns} ns is too short")
            self.clocks.append({"name": c["name"], "period": p, "clk": getattr(dut, c["clk"]),
                                "resetn": getattr(dut, c["resetn"])})
        for name in over:
            if name not in [c["name"] for c in self.clocks]:
                raise ValueError(f"scenario clocks: {name!r} is not a clock of the top")
        self.clk = {c["name"]: c for c in self.clocks}
        self.bus = self.clk[self.top["bus_clock"]]
        self.maxp = max(c["period"] for c in self.clocks)
        self.t_rel = self.t.get("reset", "release_periods") * self.maxp + self.t.offset_ps
        self.limit = to_int(self.sc.get("run_ns", self.t.get("scenario", "run_ns"))) * 1000
        self.irq_ms_ns = to_int(self.sc.get("irq_ms_ns", self.t.get("scenario", "irq_ms_ns")))
        self.irq = getattr(dut, self.top.get("irq", "irq"))
        mon = self.top["monitor"]
        self.mon = Master(dut, mon.get("prefix", "s_axi"), self.bus, self.rd, self.t, self.log)
        self.mon_base, self.mon_span = to_int(mon["base"]), to_int(mon["span"])
        acc = self.top.get("accel")
        self.acc = None
        if acc:
            self.acc = Master(dut, acc.get("prefix", "acc_axi"), self.clk[acc.get("clock", "accel")], self.rd,
                              self.t, self.log)
            self.acc_base, self.acc_span = to_int(acc["base"]), to_int(acc["span"])
        self.widths = {p["name"]: p["width"] for p in self.top["ports"]}
        self.shadows: dict[str, int] = {}
        self.stims = []
        for i, s in enumerate(self.sc.get("stimulus") or []):
            where = f"stimulus[{i}]"
            cname = s.get("clock", self.top["bus_clock"])
            if cname not in self.clk:
                raise ValueError(f"{where}: no clock named {cname!r}")
            kind = s.get("kind")
            names = {"pulses": [s.get("port")] + ([s["value_port"]] if s.get("value_port") else []),
                     "task": [s.get("start_port"), s.get("done_port")],
                     "axi4lite": [f"{s.get('prefix')}_{x}" for x in ("awaddr", "wdata", "wstrb",
                                                                     "araddr", "rdata")],
                     "reset": [], "axi4": [], "axis": []}.get(kind)   # axi4, axis: stimulus.py checks
            if names is None:
                raise ValueError(f"{where}: unknown kind {kind!r} (pulses, task, axi4lite, reset, axi4, axis)")
            for n in names:
                if n not in self.widths:
                    raise ValueError(f"{where}: the top has no port {n!r}")
            self.stims.append(Stim(dut, s, self.clk[cname]["clk"], self.shadows, self.widths, where, self.t))
            self.stims[-1].resetn = self.clk[cname]["resetn"]
        self.stim_tasks = None
        self.mems = []
        for i, m in enumerate(self.sc.get("memories") or []):
            c = self.clk.get(m.get("clock", self.top["bus_clock"]))
            if c is None:
                raise ValueError(f"memories[{i}]: no clock named {m.get('clock')!r}")
            self.mems.append(AxiMem(dut, m, c, self.rd, f"memories[{i}]", self.t, self.log))

    # ---- platform coroutines (run in the scheduler thread) -------------------------

    async def _guard(self, coro):
        """Run a platform coroutine as a task the watchdog can cancel."""
        if self.fatal:
            coro.close()
            raise TimeLimit("the simulation was stopped")
        self.cur = cocotb.start_soon(coro)
        try:
            return await self.cur
        except BaseException as e:  # noqa: BLE001
            if self.fatal:
                raise TimeLimit("simulated time limit exceeded") from e
            raise
        finally:
            self.cur = None
            self.now = int(get_sim_time("ps"))

    async def _bus(self, master: Master, write: bool, addr: int, data: int):
        return await self._guard(master.access(write, addr, data))

    async def _wait_edges(self, n: int):
        async def run():
            await Timer(self.t.offset_ps, "ps")
            await ClockCycles(self.bus["clk"], n)
        if n > 0:
            await self._guard(run())

    async def _wait_irq(self, timeout_ms: int):
        async def run():
            if timeout_ms < 0:
                edges = None
            else:
                ps = timeout_ms * self.irq_ms_ns * 1000
                edges = max(self.t.get("master", "irq_min_edges"), -(-ps // self.bus["period"]))
            edge = RisingEdge(self.bus["clk"])
            await Timer(self.t.offset_ps, "ps")
            i = 0
            while edges is None or i < edges:
                await edge
                i += 1
                if self.rd(self.irq):
                    return 0
            return -ETIMEDOUT
        return await self._guard(run())

    async def _stim_start(self):
        async def run():
            self.stim_tasks = [cocotb.start_soon(s.run()) for s in self.stims]
        await self._guard(run())

    async def _stim_wait(self):
        async def run():
            for t in self.stim_tasks:
                await t
        await self._guard(run())

    # ---- ctypes callbacks (run in the bridge thread) -------------------------------

    def _cb(self, fn, fail):
        def wrapper(*args):
            if self.fatal:
                return fail
            try:
                return fn(*args)
            except BaseException as e:  # noqa: BLE001
                self.error(f"{fn.__name__}: {type(e).__name__}: {e}")
                self.fatal = True
                return fail
        return wrapper

    def cb_mon_read32(self, off, out):
        resp, data = resume(self._bus)(self.mon, False, off, 0)
        out[0] = data
        return -EIO if self.failed(resp) else 0

    def cb_mon_write32(self, off, value):
        resp, _ = resume(self._bus)(self.mon, True, off, value)
        return -EIO if self.failed(resp) else 0

    def failed(self, resp: int) -> bool:
        """A response the contract makes an error (-EIO)."""
        return resp >= self.t.get("master", "error_resp")

    def cb_mon_wait_irq(self, timeout_ms):
        return resume(self._wait_irq)(timeout_ms)

    def _route(self, addr):
        if self.mon_base <= addr < self.mon_base + self.mon_span:
            return self.mon, addr - self.mon_base
        if self.acc is not None and self.acc_base <= addr < self.acc_base + self.acc_span:
            return self.acc, addr - self.acc_base
        return None, 0

    def _bus_error(self, what, addr, r):
        self.bus_errors += 1
        self.error(f"platform {what} of 0x{addr:08X} failed "
                   f"({'SLVERR' if r == -EIO else 'no peripheral there'})")

    def cb_read32(self, addr):
        m, off = self._route(addr)
        if m is None:
            self._bus_error("read", addr, -ENODEV)
            return 0
        resp, data = resume(self._bus)(m, False, off, 0)
        if self.failed(resp):
            self._bus_error("read", addr, -EIO)
            return 0
        return data

    def cb_write32(self, addr, value):
        m, off = self._route(addr)
        if m is None:
            self._bus_error("write", addr, -ENODEV)
            return
        resp, _ = resume(self._bus)(m, True, off, value)
        if self.failed(resp):
            self._bus_error("write", addr, -EIO)

    def cb_bus_reset(self, cycles):
        resume(self._bus_reset)(cycles)

    async def _bus_reset(self, cycles: int):
        self.bus["resetn"].value = 0
        await self._wait_edges(cycles)
        self.bus["resetn"].value = 1

    def cb_wait_ns(self, ns):
        p = self.bus["period"]
        resume(self._wait_edges)(-(-(ns * 1000) // p))

    def cb_stimulus_start(self):
        if self.stim_tasks is not None:
            self.error("platform_stimulus_start called twice")
            return
        resume(self._stim_start)()

    def cb_stimulus_wait(self):
        if self.stim_tasks is None:
            self.error("platform_stimulus_wait before platform_stimulus_start")
            return
        resume(self._stim_wait)()

    def cb_report(self, name, value):
        self.metrics[name.decode()] = value

    def cb_expect(self, name, value):
        self.app_expect[name.decode()] = value

    def cb_ring(self, port, mem, bus_addr, size):
        for m in self.mems:
            if not port or m.prefix == port.decode():
                mem[0] = C.addressof(m.mem)
                bus_addr[0], size[0] = m.base, m.size
                return 0
        return -ENODEV

    def cb_monitor_transactions(self):
        return self.mon.transactions

    def cb_bus_cycles(self):
        return self.now // self.bus["period"]

    def cb_time_ps(self):
        return self.now

    # ---- the run --------------------------------------------------------------------------

    def error(self, msg: str):
        self.errors.append(msg)
        self.dut._log.error(msg)

    def app_argv(self) -> list[str]:
        v = [str(self.sc.get("app", "app"))]
        setup = self.sc.get("setup") or {}
        for k, m in (setup.get("modes") or {}).items():
            v.append(f"mode:{k}={m}")
        for k, b in (setup.get("bounds") or {}).items():
            if not isinstance(b, list) or len(b) != 2:
                raise ValueError(f"setup.bounds.{k}: expected [low, high]")
            v.append(f"bounds:{k}={to_int(b[0])}:{to_int(b[1])}")
        for k, t in (setup.get("thresholds") or {}).items():
            v.append(f"threshold:{k}={to_int(t)}")
        v += [str(a) for a in (setup.get("args") or [])]
        return v

    def call_app(self, lib, argv: list[str]) -> int:
        arr = (C.c_char_p * (len(argv) + 1))(*[a.encode() for a in argv], None)
        return lib.app_main(len(argv), arr)

    def call_py_app(self, lib, argv: list[str]) -> int:
        """COSIM_PY_APP: a Python application, app_main(lib, argv), in
        place of the C one; it reaches the monitor through the same seam
        (the app library's platform_monitor_io, platform_ghdl.c)."""
        import importlib.util
        import traceback
        spec = importlib.util.spec_from_file_location("cosim_py_app", os.environ["COSIM_PY_APP"])
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
            return int(mod.app_main(lib, argv))
        except Exception:
            self.error("python app: " + traceback.format_exc().strip().splitlines()[-1])
            print(traceback.format_exc())
            return -EIO

    async def watchdog(self):
        await Timer(self.limit - int(get_sim_time("ps")), "ps")
        self.error(f"simulated time limit exceeded (run_ns = {self.limit // 1000})")
        self.fatal = True
        if self.cur is not None:
            self.cur.cancel()

    async def run(self) -> bool:
        dut = self.dut
        # every input 0, clocks high, resets low at t = 0
        for name, width in [(p["name"], p["width"]) for p in self.top["ports"] if p["dir"] == "in"]:
            getattr(dut, name).value = 0
        for c in self.clocks:
            c["resetn"].value = 0
            Clock(c["clk"], c["period"], unit="ps", period_high=c["period"] // 2).start(start_high=True)
        self.mon.ready()
        if self.acc:
            self.acc.ready()
        for m in self.mems:
            cocotb.start_soon(m.run())
        await Timer(self.t_rel, "ps")
        for c in self.clocks:
            c["resetn"].value = 1
        await Timer(self.t.get("reset", "app_start_periods") * self.maxp, "ps")
        await RisingEdge(self.bus["clk"])
        self.now = int(get_sim_time("ps"))

        lib = C.CDLL(os.environ["COSIM_APP_LIB"])
        cb = Callbacks(*[T(self._cb(getattr(self, "cb_" + n), fail)) for (n, T), fail in zip(
            Callbacks._fields_, [-EIO, -EIO, -EIO, 0, None, None, None, None, None, None, 0, 0, None,
                                 -ENODEV, 0])])
        self._keep = cb
        lib.platform_set_callbacks(C.byref(cb))
        lib.app_main.argtypes = [C.c_int, C.POINTER(C.c_char_p)]
        lib.app_main.restype = C.c_int
        argv = self.app_argv()
        wd = cocotb.start_soon(self.watchdog())
        wall0 = time.perf_counter()
        app = self.call_py_app if os.environ.get("COSIM_PY_APP") else self.call_app
        app_rc = await bridge(app)(lib, argv)
        wall = time.perf_counter() - wall0
        wd.cancel()
        if self.fatal and app_rc == 0:
            app_rc = -ETIMEDOUT
        return self.write_report(app_rc, wall)

    def write_report(self, app_rc: int, wall: float) -> bool:
        for m in self.mems:
            self.metrics.update(m.counts())
        self.log.write()
        expect = {str(k): to_int(v) for k, v in (self.sc.get("expect") or {}).items()}
        checks = []
        for src, table in (("scenario", expect), ("app", self.app_expect)):
            for k, v in table.items():
                got = self.metrics.get(k)
                checks.append({"name": k, "source": src, "expected": v, "got": got,
                               "ok": got is not None and got == v})
        ok = app_rc == 0 and not self.errors and all(c["ok"] for c in checks)
        rep = {
            "simulator": "ghdl",
            "scenario": self.sc.get("scenario", ""),
            "top": self.top.get("top", ""),
            "app": self.sc.get("app", ""),
            "app_rc": app_rc,
            "metrics": self.metrics,
            "app_expect": self.app_expect,
            "expect": expect,
            "checks": checks,
            "errors": self.errors,
            "monitor_transactions": self.mon.transactions,
            "accel_transactions": self.acc.transactions if self.acc else 0,
            "bus_errors": self.bus_errors,
            "sim_time_ps": self.now,
            "cycles": {c["name"]: self.now // c["period"] for c in self.clocks},
            "wall_s": round(wall, 6),
            "x_reads": self.rd.x_reads,
            "x_signals": dict(sorted(self.rd.x_signals.items(), key=lambda kv: (-kv[1], kv[0]))),
            "pass": ok,
        }
        with open(os.environ["COSIM_REPORT"], "w") as f:
            json.dump(rep, f, indent=2)
            f.write("\n")
        return ok


@cocotb.test()
async def cosim(dut):
    """Run the scenario's application against the top; the JSON report decides."""
    h = Harness(dut)
    ok = await h.run()
    assert ok, f"scenario failed, see {os.environ['COSIM_REPORT']}"
