# SPDX-License-Identifier: MIT
"""Co-simulation of a generated monitor with a trace sink (configs/trace_sink.yaml)
under GHDL.

The generated top is programmed through s_axi (cocotbext-axi AxiLiteMaster):
the sink's BASE, SIZE, WATERMARK, CONTROL and RPTR registers at the addresses
of the generator's layout, the LMIC's CONTROL (RUN, PROG), the IRQ enables.
cocotbext-axi's AxiRamWrite is the memory on m_axi_stream_log_* (random
pauses on AW, W and B). The events sniffer gets random strobes and values;
EventsModel (sim/jointer_sim/model.py) gives the event instances, so every
record in the ring is checked against a Python reference: data exact,
timestamps relative to the first record exact (the bus-clock counter), WPTR
exact, LOST exact when the host does not read, STATUS.ERROR and the error IRQ
on a BRESP error, the watermark IRQ bit, CLEAR.
The same monitor with `encoding: compact` (gen/tests/configs/
trace_sink_compact.yaml): the ring holds 64-bit units of 1..3 records
(jointer_trace_compact before the sink); decoded with the reference decoder
(sim/jointer_sim/compact.py) they are the event instances, in order, data
exact, timestamps relative exact; when the host does not read, the decoded
records are a prefix of the events and LOST counts exactly the rest.
"""
from __future__ import annotations

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

CONFIG = os.environ.get("JOINTER_SINK_CONFIG", "trace_sink")
TRACE = "stream_log"
BASE = 0x10000
MEM = 1 << 18


def config_path(name: str) -> Path:
    """configs/<name>.yaml, else the edge case gen/tests/configs/<name>.yaml"""
    p = REPO / "configs" / f"{name}.yaml"
    return p if p.exists() else HERE / "configs" / f"{name}.yaml"


@pytest.mark.parametrize("config,testcase", [("trace_sink", "sink_end_to_end"),
                                             ("trace_sink_compact", "sink_compact")])
def test_generated_sink_monitor(config, testcase):
    import json

    from jointer_gen.cli import generate
    from jointer_gen.output import write_tree
    from jointer_sim.runner import BUILD, run
    _, files = generate(str(config_path(config)))
    out = BUILD / "gen" / config / "src"
    write_tree(files, out)
    manifest = json.loads(files["manifest.json"])
    sources = [out / p for p in manifest["compile_order"]]
    env = {"JOINTER_SINK_CONFIG": config,
           "PYTHONPATH": os.pathsep.join([str(REPO / "sim"), str(HERE), str(REPO / "gen"),
                                          os.environ.get("PYTHONPATH", "")])}
    run(manifest["top"], __name__, extra_sources=sources, toplevel=manifest["top"],
        name=f"gen_{config}", extra_env=env, testcase=testcase)


try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, RisingEdge, Timer
    from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiRamWrite, AxiWriteBus
except ImportError:  # pragma: no cover - cocotb is installed with the project
    cocotb = None


def pauses(p):
    while True:
        yield random.random() < p


if cocotb is not None:
    class ErrRam(AxiRamWrite):
        """AxiRamWrite answering SLVERR to a burst touching [bad_lo, bad_hi)."""
        bad = (0, 0)

        async def _write(self, address, data):
            if self.bad[0] <= address < self.bad[1]:
                raise ValueError("bad address")
            await super()._write(address, data)


class TB:
    def __init__(self, dut):
        from jointer_gen.model import layout
        from jointer_gen.cli import generate
        self.dut, self.L = dut, layout
        self.d, _ = generate(str(config_path(CONFIG)))
        lay = self.d.layout
        self.lay = lay
        self.tl = next(t for ll in lay.lmics for t in ll.traces if t.name == TRACE)
        self.dl = next(d for ll in lay.lmics for d in ll.dcapfs if d.name == "events_seen")
        dut.s_axi_aresetn.value = 0
        dut.src_events.value = 0
        dut.src_value.value = 0
        cocotb.start_soon(Clock(dut.s_axi_aclk, 10, unit="ns").start())
        self.axi = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi"), dut.s_axi_aclk,
                                 dut.s_axi_aresetn, reset_active_level=False)
        self.ram = ErrRam(AxiWriteBus.from_prefix(dut, f"m_axi_{TRACE}"), dut.s_axi_aclk,
                          dut.s_axi_aresetn, reset_active_level=False, size=MEM)
        for ch in (self.ram.aw_channel, self.ram.w_channel, self.ram.b_channel):
            ch.set_pause_generator(pauses(0.3))
        self.cycle = 0
        self.value = 0
        self.events = []     # (cycle, value) of every lane-0 event instance
        self.received = []
        self.rptr = 0
        self.size = 0
        cocotb.start_soon(self._count())

    async def _count(self):
        while True:
            await RisingEdge(self.dut.s_axi_aclk)
            self.cycle += 1

    def sreg(self, name):
        return self.lay.lmic_reg(self.tl.lmic, self.tl.reg_word + self.L.SINK_REGS[name])

    def lreg(self, word):
        return self.lay.lmic_reg(self.tl.lmic, word)

    async def read(self, addr):
        r = await self.axi.read(addr, 4)
        assert r.resp == 0, f"SLVERR reading 0x{addr:X}"
        return int.from_bytes(r.data, "little")

    async def write(self, addr, value):
        r = await self.axi.write(addr, (value & 0xFFFFFFFF).to_bytes(4, "little"))
        assert r.resp == 0, f"SLVERR writing 0x{addr:X}"

    async def reset(self):
        self.dut.s_axi_aresetn.value = 0
        await ClockCycles(self.dut.s_axi_aclk, 5)
        self.dut.s_axi_aresetn.value = 1
        await ClockCycles(self.dut.s_axi_aclk, 5)

    async def start(self, size, watermark=0):
        """Ring at BASE of `size` bytes, enabled; the sniffer NO_FILTERING, RUN."""
        L = self.L
        self.size, self.rptr, self.received, self.events = size, 0, [], []
        await self.write(self.sreg("CONTROL"), 0)      # configure while disabled
        await self.write(self.sreg("BASE"), BASE)
        await self.write(self.sreg("SIZE"), size)
        await self.write(self.sreg("RPTR"), 0)
        await self.write(self.sreg("WATERMARK"), watermark)
        await self.write(self.sreg("CONTROL"), L.SINK_CONTROL["ENABLE"])
        await self.write(self.lreg(L.LMIC_REGS["IRQ_ENABLE"]), 3 << self.tl.irq_bit)
        await self.write(L.Layout.global_reg("IRQ_ENABLE"), 1)
        await self.write(self.lreg(L.LMIC_REGS["CONTROL"]),
                         L.CONTROL_RUN | L.PROG["NO_FILTERING"] << L.prog_shift(0))

    async def traffic(self, n, rate, slow=False):
        """n lane-0 event instances (lane 1 random too); the reference is EventsModel.
        slow: values that mostly change by a little (what compact packs 2 or 3 per unit)."""
        from jointer_sim.model import EventsModel
        model = EventsModel(2, 32, False)
        d = self.dut
        while len(self.events) < n:
            await RisingEdge(d.s_axi_aclk)
            strobe = (int(random.random() < rate) if len(self.events) < n else 0) \
                | (random.random() < 0.5) << 1
            value = random.getrandbits(32)
            if slow:
                r = random.random()
                self.value = value if r < 0.05 else (self.value + random.randint(0, 3 if r < 0.7 else 900)) \
                    & 0xFFFFFFFF
                value = self.value
            d.src_events.value, d.src_value.value = strobe, value
            out = model.step(strobe, value)
            if out.valid & 1:
                self.events.append((self.cycle, out.data))
        await RisingEdge(d.s_axi_aclk)
        d.src_events.value = 0

    def ring(self, start, end):
        out, off = [], start
        while off != end:
            raw = self.ram.read(BASE + off, 8)
            out.append((int.from_bytes(raw[:4], "little"), int.from_bytes(raw[4:], "little")))
            off = (off + 8) % self.size
        return out

    async def host_read(self):
        w = await self.read(self.sreg("WPTR"))
        self.received += self.ring(self.rptr, w)
        self.rptr = w
        await self.write(self.sreg("RPTR"), w)

    def check_records(self, got, want_events):
        """data exact; timestamps relative to the first record = cycles between events"""
        assert len(got) == len(want_events), f"{len(got)} records, {len(want_events)} expected"
        ts0, c0 = got[0][0], want_events[0][0]
        for i, ((ts, data), (c, v)) in enumerate(zip(got, want_events)):
            assert data == v, f"record {i}: data 0x{data:08X}, expected 0x{v:08X}"
            assert (ts - ts0) & 0xFFFFFFFF == c - c0, \
                f"record {i}: timestamp {ts - ts0} after the first, expected {c - c0}"


@cocotb.test()
async def sink_end_to_end(dut):
    tb = TB(dut)
    await Timer(1, "ns")
    await tb.reset()
    L = tb.L
    # -- keeps up: every record in order, LOST 0 ---------------------------------
    await tb.start(8192)
    done = []

    async def host():
        while not done:
            await ClockCycles(dut.s_axi_aclk, random.randint(30, 120))
            await tb.host_read()
    h = cocotb.start_soon(host())
    await tb.traffic(2000, 0.3)
    await ClockCycles(dut.s_axi_aclk, 400)
    done.append(1)
    await h
    await tb.host_read()
    tb.check_records(tb.received, tb.events)
    assert await tb.read(tb.sreg("LOST")) == 0
    assert await tb.read(tb.sreg("WPTR")) == 2000 * 8 % 8192
    assert await tb.read(tb.sreg("STATUS")) == 0
    count = await tb.read(tb.lay.lmic_reg(tb.dl.lmic, tb.dl.result_word))
    assert count == 2000, f"events_seen {count}"
    assert await tb.read(tb.sreg("CONTROL")) == L.SINK_CONTROL["ENABLE"]
    assert await tb.read(tb.sreg("BASE")) == BASE and await tb.read(tb.sreg("SIZE")) == 8192

    # -- cannot keep up: the host does not read; LOST exact, watermark IRQ --------
    await tb.write(tb.sreg("CONTROL"), L.SINK_CONTROL["CLEAR"] | L.SINK_CONTROL["ENABLE"])
    assert await tb.read(tb.sreg("CONTROL")) == L.SINK_CONTROL["ENABLE"], "CLEAR must read 0"
    await tb.write(tb.lreg(L.LMIC_REGS["IRQ_STATUS"]), 0xFFFFFFFF)
    await tb.start(4096, watermark=2048)
    cap, fifo = 4096 // 8 - 1, 32
    await tb.traffic(900, 0.3)
    await ClockCycles(dut.s_axi_aclk, 400)
    assert await tb.read(tb.sreg("WPTR")) == cap * 8
    lost = await tb.read(tb.sreg("LOST"))
    assert lost == 900 - cap - fifo, f"LOST {lost}, expected {900 - cap - fifo}"
    tb.check_records(tb.ring(0, cap * 8), tb.events[:cap])
    ist = await tb.read(tb.lreg(L.LMIC_REGS["IRQ_STATUS"]))
    assert ist == 1 << tb.tl.irq_bit, f"IRQ_STATUS 0x{ist:X}: the watermark bit only"
    assert int(dut.irq.value) == 1
    await tb.host_read()                      # the FIFO's 32 records follow
    await ClockCycles(dut.s_axi_aclk, 300)
    await tb.host_read()
    tb.check_records(tb.received, tb.events[:cap + fifo])

    # -- a BRESP error: STATUS.ERROR, the error IRQ bit, nothing written after ----
    await tb.write(tb.lreg(L.LMIC_REGS["IRQ_STATUS"]), 0xFFFFFFFF)
    await tb.write(tb.sreg("CONTROL"), L.SINK_CONTROL["CLEAR"])
    tb.ram.bad = (BASE + 4096, BASE + 8192)
    await tb.start(8192)
    await tb.traffic(700, 0.3)
    await ClockCycles(dut.s_axi_aclk, 400)
    st = await tb.read(tb.sreg("STATUS"))
    assert st & L.SINK_STATUS["ERROR"], f"STATUS 0x{st:X}"
    assert await tb.read(tb.sreg("WPTR")) == 4096
    ist = await tb.read(tb.lreg(L.LMIC_REGS["IRQ_STATUS"]))
    assert ist & (2 << tb.tl.irq_bit), f"IRQ_STATUS 0x{ist:X}: no error bit"
    tb.check_records(tb.ring(0, 4096), tb.events[:512])
    # CLEAR: the sink restarts at 0 with no error
    tb.ram.bad = (0, 0)
    await tb.write(tb.sreg("CONTROL"), L.SINK_CONTROL["CLEAR"] | L.SINK_CONTROL["ENABLE"])
    await ClockCycles(dut.s_axi_aclk, 50)
    assert await tb.read(tb.sreg("STATUS")) == 0
    assert await tb.read(tb.sreg("WPTR")) == 0 and await tb.read(tb.sreg("LOST")) == 0


def words(tb, start, end):
    """The 64-bit units in ring offsets [start, end)."""
    return [lo | hi << 32 for lo, hi in tb.ring(start, end)]


@cocotb.test()
async def sink_compact(dut):
    from jointer_sim.compact import CompactDecoder
    tb = TB(dut)
    await Timer(1, "ns")
    await tb.reset()
    L = tb.L
    # -- keeps up: decoded, every record in order; LOST 0; units per record < 1 --
    await tb.start(8192)
    done = []

    async def host():
        while not done:
            await ClockCycles(dut.s_axi_aclk, random.randint(30, 120))
            await tb.host_read()
    h = cocotb.start_soon(host())
    n = 3000
    await tb.traffic(n, 0.3, slow=True)
    await ClockCycles(dut.s_axi_aclk, 400)
    done.append(1)
    await h
    await tb.host_read()
    dec = CompactDecoder()
    units = [lo | hi << 32 for lo, hi in tb.received]
    recs = [r for w in units for r in dec.unit(w)]
    assert dec.skipped == 0, "the ring does not start with a SYNC"
    tb.check_records([(ts, data) for ts, data in recs], tb.events)
    assert await tb.read(tb.sreg("LOST")) == 0
    assert await tb.read(tb.sreg("WPTR")) == len(units) * 8 % 8192
    ratio = n / len(units)
    print(f"compact: {n} records in {len(units)} units ({ratio:.2f} records per 64-bit unit)")
    assert ratio > 1.5, f"only {ratio:.2f} records per unit"
    # -- the host does not read: a prefix of the events, LOST the rest exactly -------
    await tb.write(tb.sreg("CONTROL"), L.SINK_CONTROL["CLEAR"] | L.SINK_CONTROL["ENABLE"])
    await tb.start(4096)
    await tb.traffic(3000, 0.5, slow=True)
    await ClockCycles(dut.s_axi_aclk, 400)
    assert await tb.read(tb.sreg("WPTR")) == 4096 - 8
    dec = CompactDecoder()
    recs = [r for w in words(tb, 0, 4096 - 8) for r in dec.unit(w)]
    lost = await tb.read(tb.sreg("LOST"))
    assert dec.skipped == 0
    tb.check_records(recs, tb.events[:len(recs)])
    await tb.host_read()                 # the FIFO's units follow, then the rest was lost
    await ClockCycles(dut.s_axi_aclk, 300)
    await tb.host_read()
    dec = CompactDecoder()
    recs = [r for lo, hi in tb.received for r in dec.unit(lo | hi << 32)]
    tb.check_records(recs, tb.events[:len(recs)])
    assert lost > 0 and len(recs) + lost == 3000, f"{len(recs)} records + LOST {lost} != 3000"
