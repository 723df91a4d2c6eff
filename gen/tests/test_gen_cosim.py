# SPDX-License-Identifier: MIT
"""Co-simulation of each generated monitor (configs/*.yaml) under GHDL.

The generated top is driven through s_axi with cocotbext-axi's AxiLiteMaster;
every sniffer's observed ports get random traffic in their own clock domain
(bus taps through cocotbext-axi masters and slaves on the tap's port group,
events/start-done strobes driven cycle by cycle, MARK through s_axi). Each
sniffer is put in FILTERING (random or reset bounds, loaded through INIT) or
NO_FILTERING; threshold interrupts are armed. DCAPFs with `filter: none`
get random INIT words too (the hardware must ignore them) and are expected to
count in FILTERING exactly as in NO_FILTERING. Afterwards every metric, every
STATUS register, every IRQ_STATUS and every trace buffer is read back over
s_axi and compared with the reference model (sim/jointer_sim/model.py:
Aggregator, TraceModel, EventsModel) fed with the transactions the test bench
generated. The register addresses come from the generator's Design.

The pytest function builds and runs one example; the summary (events,
register reads compared) is written next to results.xml and printed.
"""
from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
for _p in (REPO / "gen", REPO / "sim"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

EXAMPLE_ENV = "JOINTER_GEN_EXAMPLE"
# traffic per sniffer (transactions or cycles), per example: the stress design
# is large, so it gets less traffic per sniffer
TRAFFIC = {"selective_accumulations": 200, "arm_timestamps": 300, "two_clock_bus": 200, "stress_15x4": 24,
           "bus_utilization": 200}

MASK32 = 0xFFFFFFFF
ROUNDS = 3   # each round: new modes, bounds, thresholds and traffic, then SOFT_RESET


# ---------------------------------------------------------------------------
# pytest side
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["selective_accumulations", "arm_timestamps", "two_clock_bus", "stress_15x4",
                                  "bus_utilization"])
def test_generated_monitor(name, tmp_path):
    from gentest_util import generated
    from jointer_gen.output import write_tree
    from jointer_sim.runner import BUILD, run
    design, files = generated(name)
    out = BUILD / "gen" / name / "src"
    write_tree(files, out)
    manifest = json.loads(files["manifest.json"])
    sources = [out / p for p in manifest["compile_order"]]
    env = {EXAMPLE_ENV: name,
           "PYTHONPATH": os.pathsep.join([str(REPO / "sim"), str(HERE), str(REPO / "gen"),
                                          os.environ.get("PYTHONPATH", "")])}
    run(manifest["top"], __name__, extra_sources=sources, toplevel=manifest["top"],
        name=f"gen_{name}", extra_env=env)
    summary = json.loads((BUILD / f"gen_{name}" / "summary.json").read_text())
    print(f"{name}: {summary}")
    assert summary["mismatches"] == 0 and summary["metrics"] == len(design.metrics)


# ---------------------------------------------------------------------------
# cocotb side (imported inside the simulator)
# ---------------------------------------------------------------------------

try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, RisingEdge, Timer
except ImportError:  # pragma: no cover - cocotb is installed with the project
    cocotb = None


def popcount(v: int) -> int:
    return bin(v).count("1")


class Domain:
    """One clock domain of the monitor: its clock and reset ports, a cycle count."""

    def __init__(self, dut, clock, bus: bool):
        self.name = clock.name
        self.clk = dut.s_axi_aclk if bus else getattr(dut, f"{clock.name}_clk")
        self.resetn = dut.s_axi_aresetn if bus else getattr(dut, f"{clock.name}_resetn")
        self.period_ps = round(clock.sim_period_ns * 1000)

    def start(self):
        cocotb.start_soon(Clock(self.clk, self.period_ps, unit="ps").start())


class Tap:
    """Traffic on one sniffer's ports and the event instances it must produce.

    events: list of (lane_mask, data, bytes, cycle) in the order the sniffer
    sees them; cycle is the sniffer-clock cycle (relative) for traces and
    time extractors; intervals: (start, done) cycles of a start/done sniffer.
    """

    def __init__(self, h, sv, domain):
        self.h, self.sv, self.dut, self.dom = h, sv, h.dut, domain
        self.m = sv.model
        self.p = self.m.interfacer.params
        self.events: list[tuple[int, int, int, int]] = []
        self.intervals: list[tuple[int, int]] = []
        self.transactions = 0

    def port(self, sig):
        return getattr(self.dut, f"{self.m.name}_{sig}")

    def idle(self):
        for o in self.sv.observed:
            self.port(o.sig).value = 0

    def attach(self):
        """Create cocotbext objects (after reset is held with clocks running)."""

    async def traffic(self, n: int):
        raise NotImplementedError(self.m.interfacer.type)


class EventsTap(Tap):
    async def traffic(self, n):
        from jointer_sim.model import EventsModel
        width, dw, edge = self.p["width"], self.p["data_width"], self.p["edge"]
        model = EventsModel(width, dw, edge)
        ev, val = self.port("events"), (self.port("value") if dw else None)
        cycles = 4 * n
        busy = random.choice([0.2, 0.5, 0.9])
        for c in range(cycles + 4):
            await RisingEdge(self.dom.clk)
            strobe = random.getrandbits(width) if c < cycles and random.random() < busy else 0
            value = random.getrandbits(dw) if dw else 0
            ev.value = strobe
            if val is not None:
                val.value = value
            out = model.step(strobe, value)
            if out.valid:
                self.events.append((out.valid, out.data, 1, c + 1))
                self.transactions += 1
        ev.value = 0


class StartDoneTap(Tap):
    async def traffic(self, n):
        busy_mode = self.p["mode"] == "busy"
        c = 0

        async def cycle():
            nonlocal c
            await RisingEdge(self.dom.clk)
            c += 1
        await cycle()
        for _ in range(max(2, n // 4)):
            for _ in range(random.randint(1, 6)):        # idle gap
                await cycle()
            length = random.randint(1, 3 * n)
            s = c
            if busy_mode:
                self.port("busy").value = 1
                for _ in range(length):
                    await cycle()
                self.port("busy").value = 0
            else:
                self.port("start").value = 1
                await cycle()
                self.port("start").value = 0
                for _ in range(length - 1):
                    await cycle()
                self.port("done").value = 1
                await cycle()
                self.port("done").value = 0
            self.intervals.append((s, s + length))
            self.transactions += 1
        for _ in range(4):
            await cycle()


class AxiLiteTap(Tap):
    def attach(self):
        from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiLiteRam
        bus = AxiLiteBus.from_prefix(self.dut, self.m.name)
        kw = dict(reset_active_level=False)
        self.master = AxiLiteMaster(bus, self.dom.clk, self.dom.resetn, **kw)
        self.ram = AxiLiteRam(bus, self.dom.clk, self.dom.resetn, size=2 ** self.p["addr_width"], **kw)
        # random back-pressure and idle cycles on every channel
        self.master.write_if.aw_channel.set_pause_generator(_pauses())
        self.master.write_if.w_channel.set_pause_generator(_pauses())
        self.master.read_if.ar_channel.set_pause_generator(_pauses())
        self.ram.write_if.b_channel.set_pause_generator(_pauses())
        self.ram.read_if.r_channel.set_pause_generator(_pauses())

    async def traffic(self, n):
        lanes = self.p["data_width"] // 8
        span = 2 ** self.p["addr_width"]
        for _ in range(n):
            word = random.randrange(span // lanes) * lanes
            if self.p["direction"] == "write":
                off = random.randrange(lanes)
                length = random.randint(1, lanes - off)
                addr = word + off
                await self.master.write(addr, bytes(random.getrandbits(8) for _ in range(length)))
                self.events.append((1, addr & MASK32, length, 0))
            else:
                addr = word + random.randrange(lanes)
                await self.master.read(addr, 1)
                self.events.append((1, addr & MASK32, lanes, 0))
            self.transactions += 1


class Axi4Tap(Tap):
    def attach(self):
        from cocotbext.axi import AxiBus, AxiMaster, AxiRam
        bus = AxiBus.from_prefix(self.dut, self.m.name)
        kw = dict(reset_active_level=False)
        self.master = AxiMaster(bus, self.dom.clk, self.dom.resetn, **kw)
        self.ram = AxiRam(bus, self.dom.clk, self.dom.resetn, size=2 ** min(self.p["addr_width"], 20), **kw)
        self.master.write_if.w_channel.set_pause_generator(_pauses())
        self.ram.write_if.aw_channel.set_pause_generator(_pauses())
        self.ram.write_if.w_channel.set_pause_generator(_pauses())
        self.ram.read_if.r_channel.set_pause_generator(_pauses())

    async def traffic(self, n):
        lanes = self.p["data_width"] // 8
        span = 2 ** min(self.p["addr_width"], 20)
        for _ in range(n):
            length = random.randint(1, 64 * lanes)
            page = random.randrange(span // 4096) * 4096
            addr = page + random.randrange((4096 - length) // lanes + 1) * lanes   # one burst
            if self.p["direction"] == "write":
                await self.master.write(addr, bytes(random.getrandbits(8) for _ in range(length)))
                self.events.append((1, addr & MASK32, length, 0))
            else:
                beats = -(-length // lanes)
                await self.master.read(addr, beats * lanes)
                self.events.append((1, addr & MASK32, beats * lanes, 0))
            self.transactions += 1


class AxisTap(Tap):
    def attach(self):
        from cocotbext.axi import AxiStreamBus, AxiStreamSink, AxiStreamSource
        bus = AxiStreamBus.from_prefix(self.dut, self.m.name)
        kw = dict(reset_active_level=False)
        self.source = AxiStreamSource(bus, self.dom.clk, self.dom.resetn, **kw)
        self.sink = AxiStreamSink(bus, self.dom.clk, self.dom.resetn, **kw)
        self.source.set_pause_generator(_pauses())
        self.sink.set_pause_generator(_pauses())

    async def traffic(self, n):
        from cocotbext.axi import AxiStreamFrame
        lanes = self.p["data_width"] // 8
        packets = self.p["count"] == "packets"
        for _ in range(n):
            length = random.randint(1, 4 * lanes) if self.p["keep"] else lanes * random.randint(1, 4)
            dest = random.getrandbits(self.p["dest_width"]) if self.p["dest_width"] else 0
            data = bytes(random.getrandbits(8) for _ in range(length))
            await self.source.send(AxiStreamFrame(data, tdest=dest if self.p["dest_width"] else None))
            await self.sink.recv()
            beats = [data[k:k + lanes] for k in range(0, length, lanes)]
            if packets:
                last = int.from_bytes(beats[-1][:4].ljust(4, b"\0"), "little")
                self.events.append((1, dest if self.m.data == "tdest" else last, length, 0))
            else:
                for b in beats:
                    self.events.append((1, dest if self.m.data == "tdest" else
                                        int.from_bytes(b[:4].ljust(4, b"\0"), "little"), len(b), 0))
            self.transactions += 1


class MarkTap(Tap):
    def idle(self):
        pass

    async def traffic(self, n):
        for _ in range(n):
            value = random.getrandbits(32)
            await self.h.write(self.h.glob("MARK"), value)
            self.events.append((1, value, 1, 0))
            self.transactions += 1


TAPS = {"events": EventsTap, "start_done": StartDoneTap, "axi4lite": AxiLiteTap, "axi4": Axi4Tap,
        "axis": AxisTap, "mark": MarkTap}


# -- bus utilization / contention sniffers (axi_util, contention) --------------

class UtilTap(Tap):
    """axi_util / contention: VALID/READY pairs driven cycle by cycle, AXI
    style (a VALID stays up until its READY; densities change per traffic
    call). These sniffers emit lanes in every cycle (cycles, idle, no_wait
    ...), so what a DCAPF counts depends on the exact RUN window: one
    coroutine drives the pairs and records, for every sniffer clock edge,
    the pairs the DUT samples and the control the DCAPFs see from the
    sniffer's dispenser (run_en, use_filter, clear: read inside the DUT, the
    dispenser has its own tests). expected_models() replays that through
    jointer_sim's ActivityModel / ContentionModel, the emitter's register
    and condition checkers, and a DcapfModel per DCAPF."""

    def attach(self):
        from jointer_gen.interfacers import axi_util
        from jointer_sim.activity_model import ActivityModel, ContentionModel
        if self.m.interfacer.type == "axi_util":
            chans = axi_util.channels(self.p)
            self.valid = [self.port(f"{c}valid") for c in chans]
            self.ready = [self.port(f"{c}ready") for c in chans]
            self.n, self.model = len(chans), ActivityModel(len(chans))
        else:
            self.n = self.p["masters"]
            self.valid, self.ready = [self.port("valid")], [self.port("ready")]
            self.model = ContentionModel(self.n)
        lmic = next(lv for lv in self.h.d.lmics if self.sv in lv.sniffers)
        self.inner = getattr(getattr(self.dut, f"lmic_{lmic.model.name}"), f"sniffer_{self.m.name}")
        self.hist = []            # per edge: (ev lanes, ev data, run_en, use_filter, clear)
        self.budget = 0           # traffic cycles still to drive
        self.pv, self.pr = 0.5, 0.5
        cocotb.start_soon(self._run())

    def _drive(self, v: int, r: int) -> None:
        if self.m.interfacer.type == "axi_util":
            for i in range(self.n):
                self.valid[i].value = (v >> i) & 1
                self.ready[i].value = (r >> i) & 1
        else:
            self.valid[0].value, self.ready[0].value = v, r

    async def _run(self):
        from jointer_sim.model import Candidate
        await RisingEdge(self.dom.resetn)
        for _ in range(4):
            await RisingEdge(self.dom.clk)
        # inputs idle since reset: the pipeline holds the idle classification
        cand = ev = self.model.step(0, 0)
        v = r = 0
        conds = self.m.conditions
        while True:
            await RisingEdge(self.dom.clk)
            # what the DCAPFs sample at this edge: the emitter's register and the control
            self.hist.append((ev.valid, ev.data, int(self.inner.run_en.value),
                              int(self.inner.use_filter.value), int(self.inner.clear.value)))
            ev = Candidate(cand.valid if _conds_ok(conds, cand.data) else 0, cand.data, 1)
            cand = self.model.step(v, r)          # the interfacer registers v, r at this edge
            mask = (1 << self.n) - 1
            if self.budget:
                self.budget -= 1
                nv = 0
                for i in range(self.n):          # a VALID waits for its READY (AXI)
                    held = (v >> i) & 1 and not (r >> i) & 1
                    nv |= (1 if held else int(random.random() < self.pv)) << i
                v, r = nv, sum((random.random() < self.pr) << i for i in range(self.n))
            else:
                v = r = 0
            self._drive(v & mask, r & mask)

    async def traffic(self, n):
        self.pv, self.pr = random.choice([0.2, 0.5, 0.9]), random.choice([0.1, 0.4, 0.8, 1.0])
        self.budget = 4 * n
        self.transactions += 4 * n
        while self.budget:
            await RisingEdge(self.dom.clk)
        for _ in range(4):
            await RisingEdge(self.dom.clk)

    def expected_models(self, bounds):
        from jointer_sim.model import DcapfModel
        hist = list(self.hist)
        out = {}
        for di, dc in enumerate(self.m.dcapfs):
            if dc.is_trace:
                raise NotImplementedError("trace DCAPFs on a bus utilization sniffer")
            low, high = bounds[(self.m.name, di)]
            mdl = DcapfModel(dc.extractor, dc.aggregator, dc.width, dc.wrap, dc.sample or "increment",
                             low, high, has_filter=dc.has_filter)
            for lanes, data, run_en, use_filter, clear in hist:
                mdl.step((lanes >> dc.event) & 1, data, 1, run_en, use_filter, clear)
            out[dc.name] = mdl
        return out


TAPS.update({"axi_util": UtilTap, "contention": UtilTap})


def _pauses():
    while True:
        yield random.random() < 0.3


class Harness:
    def __init__(self, dut, design):
        self.dut, self.d = dut, design
        mon = design.monitor
        self.domains = {c.name: Domain(dut, c, i == 0) for i, c in enumerate(mon.clocks)}
        self.reads = 0
        self.mismatches = 0
        self.bounds = {}   # (sniffer, DCAPF index) -> (low, high) in the hardware
        self.taps = []
        for lv in design.lmics:
            for sv in lv.sniffers:
                self.taps.append(TAPS[sv.model.interfacer.type](self, sv, self.domains[lv.clock]))

    # -- bus ----------------------------------------------------------------
    def glob(self, reg):
        from jointer_gen.model import layout
        return layout.Layout.global_reg(reg)

    async def read(self, addr):
        r = await self.axi.read(addr, 4)
        assert r.resp == 0, f"SLVERR reading 0x{addr:X}"
        return int.from_bytes(r.data, "little")

    async def read_resp(self, addr):
        """(resp, value) of a read that may answer SLVERR"""
        r = await self.axi.read(addr, 4)
        return int(r.resp), int.from_bytes(r.data, "little")

    def has(self, bit):
        """INFO bit of an optional global register (17 TIMESTAMP, 18 MARK, 19 SCRATCH)"""
        return bool(self.d.info >> bit & 1)

    async def write(self, addr, value):
        r = await self.axi.write(addr, (value & MASK32).to_bytes(4, "little"))
        assert r.resp == 0, f"SLVERR writing 0x{addr:X}"

    def check(self, what, got, want):
        self.reads += 1
        if got != want:
            self.mismatches += 1
            self.dut._log.error(f"MISMATCH {what}: read 0x{got:X}, expected 0x{want:X}")
        else:
            self.dut._log.info(f"ok {what}: 0x{got:X}")

    # -- bring-up -------------------------------------------------------------
    async def start(self):
        from cocotbext.axi import AxiLiteBus, AxiLiteMaster
        dut = self.dut
        for dom in self.domains.values():
            dom.resetn.value = 0
        for sig in ("awaddr", "awprot", "awvalid", "wdata", "wstrb", "wvalid", "bready", "araddr",
                    "arprot", "arvalid", "rready"):
            getattr(dut, f"s_axi_{sig}").value = 0
        for t in self.taps:
            t.idle()
        for dom in self.domains.values():
            dom.start()
        await Timer(200, unit="ns")
        self.axi = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi"), dut.s_axi_aclk, dut.s_axi_aresetn,
                                 reset_active_level=False)
        for t in self.taps:
            t.attach()
        for dom in self.domains.values():
            await ClockCycles(dom.clk, 8)
        for dom in self.domains.values():
            await RisingEdge(dom.clk)
            dom.resetn.value = 1
        for dom in self.domains.values():
            await ClockCycles(dom.clk, 8)


def _expected(h, tap, modes, bounds):
    """Expected results/overflow/caught per result DCAPF and trace models."""
    from jointer_sim.model import Aggregator, TraceModel
    sn = tap.m
    if hasattr(tap, "expected_models"):     # per-cycle sniffers (UtilTap): their own replay
        return tap.expected_models(bounds)
    mode = modes[sn.name]
    conds = sn.conditions
    out = {}
    for di, dc in enumerate(sn.dcapfs):
        low, high = bounds[(sn.name, di)]
        use_filter = mode == 2 and dc.has_filter     # filter: none counts as NO_FILTERING
        if dc.is_trace:
            t = TraceModel(dc.depth, dc.mode == "ring", low, high, has_filter=dc.has_filter)
            for lane, data, nbytes, cyc in tap.events:
                if _conds_ok(conds, data) and lane >> dc.event & 1:
                    t.step(1, data, cyc, 1, use_filter, 0)
            out[dc.name] = t
            continue
        agg = Aggregator(dc.aggregator, dc.width, dc.wrap)
        if dc.extractor == "event":
            for lane, data, nbytes, _ in tap.events:
                if not (_conds_ok(conds, data) and lane >> dc.event & 1):
                    continue
                if use_filter and not (low <= data <= high):
                    continue
                inc = (nbytes if sn.increment == "bytes" else 1) & 0xFFFF
                agg.step(1, data if dc.sample == "data" else inc, 0)
        else:
            if sn.interfacer.type != "start_done" or conds:
                raise NotImplementedError("time extractor test only for start/done sniffers")
            busy_counts = (not use_filter) or (low <= 1 <= high)
            idle_counts = use_filter and low <= 0 <= high
            if idle_counts:
                raise NotImplementedError("bounds that count idle time depend on the RUN window")
            for s, d in tap.intervals:
                if busy_counts:
                    agg.step(1, d - s, 0)
        out[dc.name] = agg
    return out


def _conds_ok(conds, data):
    for c in conds:
        if c.kind == "mask" and (data & c.a) != c.b:
            return False
        if c.kind == "range" and not (c.a <= data <= c.b):
            return False
    return True


async def one_round(h, design, n):
    """Program, run traffic, compare everything, SOFT_RESET. Returns (events, transactions)."""
    from jointer_gen.model import layout
    dut, L = h.dut, design.layout
    for t in h.taps:
        t.events, t.intervals, t.transactions = [], [], 0
    # modes and bounds: FILTERING (reset bounds or random ones loaded through
    # INIT) or NO_FILTERING, per sniffer
    modes, bounds, init = {}, {}, {}
    for t in h.taps:
        sn = t.m
        mode = random.choice([2, 3])
        modes[sn.name] = mode
        load = mode == 2 and random.random() < 0.6
        words = []
        for di, dc in enumerate(sn.dcapfs):
            # bounds survive SOFT_RESET: what the last INIT load (or the hard
            # reset) left
            low, high = h.bounds.setdefault((sn.name, di), (dc.low, dc.high))
            if load:
                # random words for a DCAPF without a filter too: it must ignore them
                if dc.extractor == "time":
                    low, high = random.choice([(1, 1), (1, random.randrange(1, 1 << 32)), (2, 9)])
                else:
                    a, b = sorted(random.getrandbits(random.choice([8, 16, 32])) for _ in range(2))
                    low, high = random.choice([(0, b), (a, MASK32), (a, b)])
            words += [low, high]
            bounds[(sn.name, di)] = h.bounds[(sn.name, di)] = (low, high)
        if load:
            init[sn.name] = words
    for lv in design.lmics:
        ctrl = 0
        for sv in lv.sniffers:
            if sv.model.name in init:
                ctrl |= layout.PROG["INIT"] << layout.prog_shift(sv.index)
        if ctrl:
            await h.write(L.lmic_reg(lv.index, 0), ctrl)
            for sv in lv.sniffers:
                for w in init.get(sv.model.name, []):
                    await h.write(L.lmic_reg(lv.index, lv.layout.init_word(sv.index)), w)
        ctrl = 0
        for sv in lv.sniffers:
            ctrl |= modes[sv.model.name] << layout.prog_shift(sv.index)
        await h.write(L.lmic_reg(lv.index, 0), ctrl | layout.CONTROL_SOFT_RESET)

    # expected results need the traffic; thresholds are set from a first
    # estimate: after traffic we compare IRQ_STATUS with result >= threshold
    thresholds = {}
    for lv in design.lmics:
        mask = 0
        for dl in lv.layout.dcapfs:
            if dl.threshold_word >= 0:
                thr = random.choice([1, 5, 40, 300, 1 << min(dl.width - 1, 40)])
                thr = min(thr, (1 << dl.width) - 1)
                thresholds[dl.name] = thr
                for k in range(layout.words_of(dl.width)):
                    await h.write(L.lmic_reg(lv.index, dl.threshold_word + k), (thr >> (32 * k)) & MASK32)
                mask |= 1 << dl.irq_bit
        for tl in lv.layout.traces:
            mask |= 3 << tl.irq_bit
        await h.write(L.lmic_reg(lv.index, 3), mask)
    await h.write(h.glob("IRQ_ENABLE"), (1 << len(design.lmics)) - 1)
    watermarks = {}
    for lv in design.lmics:
        for tl in lv.layout.traces:
            wm = random.randint(1, tl.depth)
            watermarks[tl.name] = wm
            await h.write(L.lmic_reg(lv.index, tl.reg_word + layout.TRACE_REGS["WATERMARK"]), wm)

    # RUN, traffic, flush, stop
    for lv in design.lmics:
        ctrl = 0
        for sv in lv.sniffers:
            ctrl |= modes[sv.model.name] << layout.prog_shift(sv.index)
        await h.write(L.lmic_reg(lv.index, 0), ctrl | layout.CONTROL_RUN)
    ts_before = await h.read(h.glob("TIMESTAMP_LO")) if h.has(17) else None
    tasks = [cocotb.start_soon(t.traffic(n)) for t in h.taps]
    for task in tasks:
        await task
    for dom in h.domains.values():
        await ClockCycles(dom.clk, 16)
    ts_after = await h.read(h.glob("TIMESTAMP_LO")) if h.has(17) else None
    for lv in design.lmics:
        ctrl = 0
        for sv in lv.sniffers:
            ctrl |= modes[sv.model.name] << layout.prog_shift(sv.index)
        await h.write(L.lmic_reg(lv.index, 0), ctrl)
    for dom in h.domains.values():
        await ClockCycles(dom.clk, 16)

    # compare
    expected = {}
    for t in h.taps:
        expected.update({(t.m.name, k): v for k, v in _expected(h, t, modes, bounds).items()})
    events = sum(len(t.events) + len(t.intervals) for t in h.taps)
    transactions = sum(t.transactions for t in h.taps)
    irq_any = 0
    for lv in design.lmics:
        status_want, irq_want = 0, 0
        for sv in lv.sniffers:
            caught = over = False
            for dc in sv.model.dcapfs:   # result DCAPFs (traces have their own STATUS)
                e = expected[(sv.model.name, dc.name)]
                if not dc.is_trace:
                    caught |= e.caught
                    over |= e.overflow
            status_want |= (int(caught) << sv.index) | (int(over) << (16 + sv.index))
        for dl in lv.layout.dcapfs:
            e = expected[(dl.sniffer_name, dl.name)]
            value = await h.read(L.lmic_reg(lv.index, dl.result_word))
            if dl.width > 32:
                value |= await h.read(L.lmic_reg(lv.index, dl.result_word + 1)) << 32
            h.check(f"{dl.name} ({'FILTERING' if modes[dl.sniffer_name] == 2 else 'NO_FILTERING'})",
                    value, e.result)
            if dl.name in thresholds and e.result >= thresholds[dl.name]:
                irq_want |= 1 << dl.irq_bit
        for tl in lv.layout.traces:
            e = expected[(tl.sniffer_name, tl.name)]
            base = tl.reg_word
            h.check(f"{tl.name} FILL", await h.read(L.lmic_reg(lv.index, base + 1)), e.fill)
            h.check(f"{tl.name} WPTR", await h.read(L.lmic_reg(lv.index, base + 0)), e.wptr)
            h.check(f"{tl.name} STATUS", await h.read(L.lmic_reg(lv.index, base + 2)),
                    int(e.full) | (int(e.overflow) << 1))
            h.check(f"{tl.name} DEPTH", await h.read(L.lmic_reg(lv.index, base + 4)), tl.depth)
            start = e.wptr if e.full else 0
            stamps = []
            for k, (ts, data) in enumerate(e.records):
                slot = (start + k) % tl.depth
                got_ts = await h.read(L.lmic_reg(lv.index, tl.ram_word + 2 * slot))
                got = await h.read(L.lmic_reg(lv.index, tl.ram_word + 2 * slot + 1))
                h.check(f"{tl.name} record {k} data", got, data)
                stamps.append((got_ts, ts))
            # timestamps: exact deltas for sniffer-driven events, ordered and
            # inside the traffic window for MARK writes
            if tl.sniffer_name in [t.m.name for t in h.taps if isinstance(t, MarkTap)]:
                for k, (got_ts, _) in enumerate(stamps):
                    h.check(f"{tl.name} record {k} timestamp in window",
                            int(ts_before < got_ts < ts_after and (k == 0 or got_ts > stamps[k - 1][0])), 1)
            else:
                for k in range(1, len(stamps)):
                    h.check(f"{tl.name} record {k} timestamp delta",
                            (stamps[k][0] - stamps[k - 1][0]) & MASK32,
                            (stamps[k][1] - stamps[k - 1][1]) & MASK32)
            if e.fill >= watermarks[tl.name]:
                irq_want |= 1 << tl.irq_bit
            if e.full:
                irq_want |= 1 << (tl.irq_bit + 1)
        h.check(f"{lv.model.name}.STATUS", await h.read(L.lmic_reg(lv.index, 1)), status_want)
        h.check(f"{lv.model.name}.IRQ_STATUS", await h.read(L.lmic_reg(lv.index, 2)), irq_want)
        irq_any |= int(irq_want != 0) << lv.index
    h.check("global IRQ_STATUS", await h.read(h.glob("IRQ_STATUS")), irq_any)
    await ClockCycles(dut.s_axi_aclk, 4)
    h.check("irq pin", int(dut.irq.value), int(irq_any != 0))

    # SOFT_RESET clears every non-IDLE sniffer's results
    for lv in design.lmics:
        ctrl = 0
        for sv in lv.sniffers:
            ctrl |= modes[sv.model.name] << layout.prog_shift(sv.index)
        await h.write(L.lmic_reg(lv.index, 0), ctrl | layout.CONTROL_SOFT_RESET)
        for dl in lv.layout.dcapfs:
            zero = (1 << dl.width) - 1 if expected[(dl.sniffer_name, dl.name)].aggregator == "min" else 0
            value = await h.read(L.lmic_reg(lv.index, dl.result_word))
            if dl.width > 32:
                value |= await h.read(L.lmic_reg(lv.index, dl.result_word + 1)) << 32
            h.check(f"{dl.name} after SOFT_RESET", value, zero)
        h.check(f"{lv.model.name}.STATUS after SOFT_RESET", await h.read(L.lmic_reg(lv.index, 1)), 0)

    return events, transactions


if cocotb is not None:
    @cocotb.test()
    async def generated_monitor(dut):
        """Random traffic on every sniffer; every metric, STATUS, IRQ and trace checked."""
        from jointer_gen.model import layout
        from jointer_gen.cli import generate
        name = os.environ[EXAMPLE_ENV]
        design, _ = generate(str(REPO / "configs" / f"{name}.yaml"))
        h = Harness(dut, design)
        await h.start()
        L = design.layout
        n = TRAFFIC[name]

        # identification
        h.check("ID", await h.read(h.glob("ID")), 0x4A4E5452)
        h.check("VERSION", await h.read(h.glob("VERSION")), 0x00020000)
        h.check("CONFIG_HASH", await h.read(h.glob("CONFIG_HASH")), design.config_hash)
        h.check("INFO", await h.read(h.glob("INFO")), design.info)
        # optional global registers: present as INFO says, else unmapped (0, SLVERR when strict)
        strict = design.monitor.bus.strict
        for reg, bit in (("TIMESTAMP_LO", 17), ("TIMESTAMP_HI", 17), ("SCRATCH", 19)):
            resp, value = await h.read_resp(h.glob(reg))
            if h.has(bit):
                h.check(f"{reg} answers OKAY", resp, 0)
            else:
                h.check(f"absent {reg}: resp", resp, 2 if strict else 0)
                h.check(f"absent {reg}: data", value, 0)
        if h.has(19):
            await h.write(h.glob("SCRATCH"), 0xA5C3E1F0)
            h.check("SCRATCH holds its value", await h.read(h.glob("SCRATCH")), 0xA5C3E1F0)

        events = transactions = 0
        for rnd in range(ROUNDS):
            dut._log.info(f"round {rnd}")
            e, t = await one_round(h, design, n)
            events += e
            transactions += t

        summary = {"events": events, "transactions": transactions, "register_reads_compared": h.reads,
                   "mismatches": h.mismatches, "metrics": len(design.metrics), "traces": len(design.traces),
                   "sniffers": len(design.sniffers)}
        from jointer_sim.runner import BUILD
        (BUILD / f"gen_{name}" / "summary.json").write_text(json.dumps(summary) + "\n")
        dut._log.info(f"{name}: {summary}")
        assert h.mismatches == 0, f"{h.mismatches} mismatches (see the log)"
