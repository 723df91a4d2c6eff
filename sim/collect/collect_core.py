# SPDX-License-Identifier: MIT
"""Shared pieces of the collection-layer integration benches (tb_collect_core).

- FIXTURE: two LMICs ("near" on the bus clock, wired directly; "far" on its
  own clock behind the CDC bridge) with event/time/trace DCAPFs of several
  aggregators and widths. Addresses come from `layout.compute(FIXTURE)`.
- core_generics(): the tb_collect_core generics (LMIC ones from the layout).
- Area: drives one area's event lanes from the test, watches what its
  sniffers see (mon_* ports: PROG, RUN, SOFT_RESET, ctrl_we, INIT strobes,
  timestamp) every cycle of its clock, and steps the reference models of
  sim/jointer_sim/model.py (SnifferModel) with exactly that. It also logs
  every CONTROL/INIT strobe so a test checks them against what the host
  wrote (the models alone would follow a wrong strobe).
- Host: an AxiLiteMaster with read/write helpers returning (resp, value).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster

from collect_util import MASK32, layout
from jointer_sim import slv
from jointer_sim.model import (AGGREGATOR_CODE, EXTRACTOR_CODE, SAMPLE_CODE, DcapfModel,
                               SnifferModel, TraceModel)

CONFIG_HASH = 0xC0DE2024
TB_SOURCES = ["tb_collect_area.vhd", "tb_collect_core.vhd"]


@dataclass
class D:
    """A DCAPF of the fixture (duck-typed for layout.compute)."""
    name: str
    width: int = 32
    extractor: str = "event"
    aggregator: str = "sum"
    sample: str = "increment"
    wrap: bool = False
    threshold_irq: bool = False
    depth: int = 0
    mode: str = "stop"


@dataclass
class S:
    name: str
    dcapfs: list = field(default_factory=list)


@dataclass
class L:
    name: str
    sniffers: list = field(default_factory=list)


FIXTURE = [
    L("near", [
        S("ev", [D("cnt8", 8), D("sum32", 32, threshold_irq=True),
                 D("tr0", extractor="trace", depth=8, mode="ring")]),
        S("tm", [D("busy", 16, "time"), D("mx", 40, aggregator="max", sample="data", threshold_irq=True)]),
    ]),
    L("far", [
        S("big", [D("s64", 64, sample="data", threshold_irq=True), D("c20", 20, wrap=True)]),
        S("tr", [D("tr1", extractor="trace", depth=16), D("last", 32, aggregator="last", sample="data")]),
    ]),
]


def fixture_layout():
    return layout.compute(FIXTURE)


def core_generics(strict: bool, cdc_timeout: int = 256) -> dict:
    lay = fixture_layout()
    g = {"addr_w_g": lay.addr_width, "window_log2_g": lay.window_log2, "strict_g": strict,
         "config_hash_g": slv(CONFIG_HASH), "info_g": slv(info_word(strict)),
         "cdc_timeout_g": cdc_timeout}
    for li, (ll, lm) in enumerate(zip(lay.lmics, FIXTURE)):
        p = f"a{li}_"
        d, t = ll.dcapfs, ll.traces
        dc = [lm.sniffers[x.sniffer].dcapfs[x.index] for x in d]
        tc = [lm.sniffers[x.sniffer].dcapfs[x.index] for x in t]
        g.update({
            p + "num_sniffers_g": ll.num_sniffers, p + "num_dcapfs_g": len(d),
            p + "num_traces_g": len(t),
            p + "dcapf_sniffer_g": [x.sniffer for x in d], p + "dcapf_width_g": [x.width for x in d],
            p + "dcapf_result_word_g": [x.result_word for x in d],
            p + "dcapf_threshold_word_g": [x.threshold_word for x in d],
            p + "dcapf_irq_bit_g": [x.irq_bit for x in d],
            p + "trace_sniffer_g": [x.sniffer for x in t], p + "trace_reg_word_g": [x.reg_word for x in t],
            p + "trace_ram_word_g": [x.ram_word for x in t],
            p + "trace_depth_log2_g": [x.depth_log2 for x in t],
            p + "trace_irq_bit_g": [x.irq_bit for x in t], p + "num_irq_g": ll.num_irq,
            p + "dcapf_index_g": [x.index for x in d],
            p + "dcapf_extractor_g": [EXTRACTOR_CODE[x.extractor] for x in dc],
            p + "dcapf_aggregator_g": [AGGREGATOR_CODE[x.aggregator] for x in dc],
            p + "dcapf_sample_g": [SAMPLE_CODE[x.sample] for x in dc],
            p + "dcapf_wrap_g": [int(x.wrap) for x in dc],
            p + "trace_index_g": [x.index for x in t],
            p + "trace_mode_g": [1 if x.mode == "ring" else 0 for x in tc],
            p + "sniffer_units_g": [len(s.dcapfs) for s in lm.sniffers],
        })
    return g


def info_word(strict: bool) -> int:
    lay = fixture_layout()
    # + INFO[19:17]: the bench's global block has TIMESTAMP, MARK and SCRATCH
    return len(lay.lmics) | (lay.window_log2 << 8) | (int(strict) << 16) | (0b111 << 17)


def new_models(li: int) -> list[SnifferModel]:
    """One SnifferModel per sniffer of LMIC li (one lane each)."""
    out = []
    for sn in FIXTURE[li].sniffers:
        units = []
        for dc in sn.dcapfs:
            if dc.extractor == "trace":
                units.append((TraceModel(dc.depth, ring=dc.mode == "ring"), 0))
            else:
                units.append((DcapfModel(dc.extractor, dc.aggregator, dc.width, dc.wrap, dc.sample), 0))
        out.append(SnifferModel(units, lanes=1))
    return out


class Area:
    """Event driver + reference models of one area (tb_collect_area)."""

    def __init__(self, dut, li: int, clk, rst):
        self.dut, self.li, self.clk, self.rst = dut, li, clk, rst
        self.p = f"a{li}_"
        self.ll = fixture_layout().lmics[li]
        self.S = self.ll.num_sniffers
        self.models = new_models(li)
        self.policy = None        # callable(sniffer) -> (good, data, inc) or None
        self.cycles = 0
        self.events = 0
        self.ctrl_log = []        # (run, prog bits, soft) per ctrl_we strobe
        self.init_log = []        # (sniffer, data) per INIT strobe
        self.history = None       # optional: callable(area) called after every step
        self._task = None

    def sig(self, name):
        return getattr(self.dut, self.p + name)

    def start(self):
        self.sig("ev_good").value = 0
        self.sig("ev_data").value = 0
        self.sig("ev_inc").value = 0
        self._task = cocotb.start_soon(self._run())

    async def _run(self):
        S = self.S
        ev_good, ev_data, ev_inc = self.sig("ev_good"), self.sig("ev_data"), self.sig("ev_inc")
        m_prog, m_run, m_soft = self.sig("mon_prog"), self.sig("mon_run"), self.sig("mon_soft")
        m_ctrl, m_init, m_idata = self.sig("mon_ctrl_we"), self.sig("mon_init_we"), self.sig("mon_init_data")
        m_ts = self.sig("mon_ts")
        while True:
            await FallingEdge(self.clk)
            evs = [None] * S
            if self.policy is not None:
                evs = [self.policy(i) for i in range(S)]
            good = data = inc = 0
            for i, e in enumerate(evs):
                if e is not None:
                    g, d, n = e
                    good |= int(g) << i
                    data |= (d & MASK32) << (32 * i)
                    inc |= (n & 0xFFFF) << (16 * i)
            ev_good.value = good
            ev_data.value = data
            ev_inc.value = inc
            await ReadOnly()
            if int(self.rst.value):
                for m in self.models:
                    m.reset()
                continue
            self.cycles += 1
            prog, run, soft = int(m_prog.value), int(m_run.value), int(m_soft.value)
            ctrl_we, init_we = int(m_ctrl.value), int(m_init.value)
            idata = int(m_idata.value) if init_we else 0  # rp_wdata: undefined before a write
            ts = int(m_ts.value)
            if ctrl_we:
                self.ctrl_log.append((run, prog, soft))
            for i in range(S):
                if (init_we >> i) & 1:
                    self.init_log.append((i, idata))
            for i, m in enumerate(self.models):
                g, d, n = evs[i] if evs[i] is not None else (0, 0, 0)
                self.events += g
                m.step((prog >> (2 * i)) & 3, run, soft, ctrl_we, (init_we >> i) & 1, idata,
                       g, d, n, timestamp=ts)
            if self.history is not None:
                self.history(self)

    # expected register contents -------------------------------------------
    def dcapf_models(self):
        """Result DCAPF models in layout order (matching ll.dcapfs)."""
        return [self.models[d.sniffer].units[d.index][0] for d in self.ll.dcapfs]

    def trace_models(self):
        return [self.models[t.sniffer].units[t.index][0] for t in self.ll.traces]

    def status_word(self):
        v = 0
        for i, m in enumerate(self.models):
            v |= int(m.valid) << i
            v |= int(m.overflow) << (16 + i)
        return v


class Host:
    """AXI4-Lite access through cocotbext-axi, one access at a time."""

    def __init__(self, dut):
        self.dut = dut
        self.axi = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi"), dut.s_axi_aclk,
                                 dut.s_axi_aresetn, reset_active_level=False)
        for log in (self.axi.write_if.log, self.axi.read_if.log):
            log.setLevel(logging.WARNING)
        self.accesses = 0
        self.channels = (self.axi.write_if.aw_channel, self.axi.write_if.w_channel,
                         self.axi.write_if.b_channel, self.axi.read_if.ar_channel,
                         self.axi.read_if.r_channel)

    def backpressure(self, on: bool, p: float = 0.4):
        def gen():
            while True:
                yield random.random() < p
        for ch in self.channels:
            ch.set_pause_generator(gen() if on else None)
            ch.pause = False

    async def read(self, addr):
        r = await self.axi.read(addr, 4)
        self.accesses += 1
        return int(r.resp), int.from_bytes(r.data, "little")

    async def write(self, addr, value):
        r = await self.axi.write(addr, (value & MASK32).to_bytes(4, "little"))
        self.accesses += 1
        return int(r.resp)

    async def read_ok(self, addr):
        resp, v = await self.read(addr)
        assert resp == 0, f"read {addr:#x}: resp {resp}"
        return v

    async def write_ok(self, addr, value):
        resp = await self.write(addr, value)
        assert resp == 0, f"write {addr:#x}: resp {resp}"


async def bring_up(dut, bus_period: float, a1_period: float, models: bool = True):
    """Clocks, every input driven, resets; returns (host, area0, area1, a1 Clock).

    models=False: no event driver / model stepping (no per-cycle Python work;
    the event inputs stay 0)."""
    from collect_util import start_clock
    for s in ("awaddr", "awprot", "awvalid", "wdata", "wstrb", "wvalid", "bready",
              "araddr", "arprot", "arvalid", "rready"):
        getattr(dut, f"s_axi_{s}").value = 0
    dut.ts_preset.value = 0
    start_clock(dut.s_axi_aclk, bus_period)
    a1clk = start_clock(dut.a1_clk, a1_period)
    dut.s_axi_aresetn.value = 0
    dut.a1_rst.value = 1
    area0 = Area(dut, 0, dut.s_axi_aclk, dut.a0_rst)
    area1 = Area(dut, 1, dut.a1_clk, dut.a1_rst)
    if models:
        area0.start()
        area1.start()
    else:
        for p in ("a0_", "a1_"):
            for sig in ("ev_good", "ev_data", "ev_inc"):
                getattr(dut, p + sig).value = 0
    for _ in range(8):
        await RisingEdge(dut.s_axi_aclk)
    dut.s_axi_aresetn.value = 1
    from cocotb.utils import get_sim_time
    t_release = get_sim_time("ns")
    for _ in range(3):
        await RisingEdge(dut.a1_clk)
    await FallingEdge(dut.a1_clk)
    dut.a1_rst.value = 0
    for _ in range(4):
        await RisingEdge(dut.s_axi_aclk)
    host = Host(dut)
    host.t_release = t_release  # aresetn went high (the bus timestamp counts from here)
    return host, area0, area1, a1clk


def ns(x: float):
    """A cocotb Timer of x ns at ps resolution (fractional clock periods)."""
    from cocotb.triggers import Timer
    return Timer(round(x * 1000), "ps")
