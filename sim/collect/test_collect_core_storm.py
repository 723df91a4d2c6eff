# SPDX-License-Identifier: MIT
"""Collection layer, integrated (tb_collect_core.vhd): access storm, torn-free
64-bit reads, and the accesses/resets that must never hang the bus.

- storm: 10^4 random AXI4-Lite accesses (AxiLiteMaster, back-pressure and
  idle cycles on every channel for the first part) to random addresses of
  the whole space: the global block, the direct LMIC, the LMIC behind the
  CDC bridge, the window beyond the last LMIC, mapped and unmapped words,
  random data. Every response code is checked, and every read value that is
  deterministic (all but the global IRQ_STATUS and the timestamp) against a
  register model: ID/VERSION/CONFIG_HASH/INFO, SCRATCH, IRQ_ENABLE, CONTROL
  readback, STATUS, IRQ_STATUS (threshold sources set by thresholds written
  to 0, w1c, soft reset), INIT reads 0, RESULT 0, THRESHOLD staging/commit,
  trace registers, unmapped words 0. Every MARK write emits exactly one
  mark event with its data. Strict and non-strict decode.
- torn_reads: a 64-bit sum of event data on the LMIC clock (37 ns, bus
  10 ns) grows by up to 2^27 per cycle while the host reads LO then HI back
  to back: every value read is one the counter really had (the model's
  history), the values never decrease, and the upper word changes many
  times during the test. The same for TIMESTAMP_LO/HI around 2^32.
- no_hang: s_axi_aresetn in the middle of accesses, the far LMIC held in
  reset (SLVERR at once), its clock stopped (SLVERR after the CDC timeout,
  then at once; the timed-out write never lands, also not after the restart:
  the bridge does not commit an orphan); after each, every window answers
  correctly again.
"""
import random

import cocotb
import pytest
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, with_timeout
from cocotb.utils import get_sim_time

from collect_core import (CONFIG_HASH, FIXTURE, TB_SOURCES, bring_up, core_generics, fixture_layout,
                          info_word, ns)
from collect_util import MASK32, OKAY, SLVERR, layout, params, params_env, start_clock
from jointer_sim import run

LAY = fixture_layout()
G = layout.GLOBAL_REGS
WORDS = LAY.window // 4
ID, VERSION = 0x4A4E5452, 0x00020000
STORM = 10_000
CDC_TIMEOUT = 256


class LmicRegs:
    """Register-level model of one LMIC with no events (results stay 0)."""

    def __init__(self, ll):
        self.ll = ll
        self.S = ll.num_sniffers
        self.mask = (1 << ll.num_irq) - 1
        self.owner = {}
        for d in ll.dcapfs:
            if d.irq_bit >= 0:
                self.owner[d.irq_bit] = d.sniffer
        for t in ll.traces:
            self.owner[t.irq_bit] = self.owner[t.irq_bit + 1] = t.sniffer
        self.mapped = set(range(4 + self.S))
        for d in ll.dcapfs:
            n = layout.words_of(d.width)
            self.mapped |= set(range(d.result_word, d.result_word + n))
            if d.threshold_word >= 0:
                self.mapped |= set(range(d.threshold_word, d.threshold_word + n))
        for t in ll.traces:
            self.mapped |= set(range(t.reg_word, t.reg_word + 5))
            self.mapped |= set(range(t.ram_word, t.ram_word + 2 * t.depth))
        self.reset()

    def reset(self):
        self.control = 0
        self.status = 0
        self.irq_en = 0
        self.thr = {d.number: (1 << d.width) - 1 for d in self.ll.dcapfs if d.threshold_word >= 0}
        self.stage = {k: 0 for k in self.thr}
        self.wm = [0] * len(self.ll.traces)

    def read(self, w):
        if w == 0:
            return self.control
        if w == 2:
            return self.status
        if w == 3:
            return self.irq_en
        for d in self.ll.dcapfs:
            if d.threshold_word >= 0 and d.threshold_word <= w < d.threshold_word + layout.words_of(d.width):
                return (self.thr[d.number] >> (32 * (w - d.threshold_word))) & MASK32
        for i, t in enumerate(self.ll.traces):
            if w == t.reg_word + layout.TRACE_REGS["WATERMARK"]:
                return self.wm[i]
            if w == t.reg_word + layout.TRACE_REGS["DEPTH"]:
                return t.depth
        return 0  # STATUS, INIT, RESULT, other trace registers, RAM, unmapped

    def write(self, w, v):
        if w == 0:
            self.control = v & ((1 << (2 + 2 * self.S)) - 1) & ~2
            if v & 2:  # soft reset: sources of the sniffers that are not IDLE now
                for b, s in self.owner.items():
                    if (v >> layout.prog_shift(s)) & 3:
                        self.status &= ~(1 << b)
        elif w == 2:
            self.status &= ~v
        elif w == 3:
            self.irq_en = v & self.mask
        for d in self.ll.dcapfs:
            if d.threshold_word < 0:
                continue
            two = layout.words_of(d.width) == 2
            if two and w == d.threshold_word:
                self.stage[d.number] = v
            elif w == d.threshold_word + (1 if two else 0):
                old = self.thr[d.number]
                new = (((v << 32) | self.stage[d.number]) if two else v) & ((1 << d.width) - 1)
                self.thr[d.number] = new
                if new == 0 and old != 0:  # result 0 >= threshold rises
                    self.status |= 1 << d.irq_bit
        for i, t in enumerate(self.ll.traces):
            if w == t.reg_word + layout.TRACE_REGS["WATERMARK"]:
                self.wm[i] = v & ((2 << t.depth_log2) - 1)


class SpaceModel:
    def __init__(self, strict):
        self.strict = strict
        self.lm = [LmicRegs(ll) for ll in LAY.lmics]
        self.marks = []
        self.reset()

    def reset(self):
        self.scratch = self.enable = 0
        for x in self.lm:
            x.reset()

    def access(self, we, addr, v):
        """(resp, value or None when not deterministic)."""
        win, w = addr // LAY.window, (addr % LAY.window) // 4
        unmapped = (SLVERR if self.strict else OKAY), 0
        if win == 0:
            if w > G["SCRATCH"]:
                return unmapped
            if we:
                if w == G["SCRATCH"]:
                    self.scratch = v
                elif w == G["IRQ_ENABLE"]:
                    self.enable = v & 3
                elif w == G["MARK"]:
                    self.marks.append(v)
                return OKAY, 0
            fixed = {G["ID"]: ID, G["VERSION"]: VERSION, G["CONFIG_HASH"]: CONFIG_HASH,
                     G["INFO"]: info_word(self.strict), G["IRQ_ENABLE"]: self.enable,
                     G["MARK"]: 0, G["SCRATCH"]: self.scratch}
            return OKAY, fixed.get(w)  # IRQ_STATUS, TIMESTAMP: not deterministic
        if win > len(self.lm):
            return unmapped
        x = self.lm[win - 1]
        if w not in x.mapped:
            return unmapped
        if we:
            x.write(w, v)
            return OKAY, 0
        return OKAY, x.read(w)


def random_access(model):
    r = random.random()
    if r < 0.3:
        win = 0
        w = random.randrange(G["SCRATCH"] + 1) if random.random() < 0.8 else random.randrange(WORDS)
    elif r < 0.9:
        win = 1 if r < 0.6 else 2
        mapped = sorted(model.lm[win - 1].mapped)
        w = random.choice(mapped) if random.random() < 0.8 else random.randrange(WORDS)
    else:
        win, w = random.randrange(len(LAY.lmics) + 1, (1 << LAY.addr_width) // LAY.window), \
            random.randrange(WORDS)
    we = random.getrandbits(1)
    v = random.getrandbits(32)
    if win and we and random.random() < 0.3:
        v = 0  # thresholds at 0 raise sources
    if 0 < win <= len(FIXTURE) and we and w == 0 and v & 1:
        # no events flow here, but a running time DCAPF in FILTERING mode counts
        # while data 0 is inside its bounds: keep such sniffers out of FILTERING
        for s_i, sn in enumerate(FIXTURE[win - 1].sniffers):
            sh = layout.prog_shift(s_i)
            if any(dc.extractor == "time" for dc in sn.dcapfs) and (v >> sh) & 3 == layout.PROG["FILTERING"]:
                v |= 3 << sh
    return we, win * LAY.window + 4 * w, v


@cocotb.test()
async def storm(dut):
    strict = params()["strict"]
    host, _, _, _ = await bring_up(dut, 10, 37, models=False)
    model = SpaceModel(strict)
    marks = []

    async def mark_monitor():
        while True:
            await RisingEdge(dut.s_axi_aclk)
            if int(dut.mark_valid.value):
                marks.append(int(dut.mark_data.value))

    cocotb.start_soon(mark_monitor())
    checked = nondet = errs = 0
    host.backpressure(True)
    for k in range(STORM):
        if k == STORM * 3 // 10:
            host.backpressure(False)  # the rest without idle cycles (faster)
        we, addr, v = random_access(model)
        exp_resp, exp = model.access(we, addr, v)
        if we:
            resp = await with_timeout(host.write(addr, v), 100, "us")
        else:
            resp, got = await with_timeout(host.read(addr), 100, "us")
            if exp is None:
                nondet += 1
            else:
                assert got == exp, (k, hex(addr), hex(got), hex(exp))
                checked += 1
        assert resp == exp_resp, (k, we, hex(addr), resp, exp_resp)
        errs += resp == SLVERR
    await ClockCycles(dut.s_axi_aclk, 4)
    assert marks == model.marks, (len(marks), len(model.marks))
    dut._log.info("checked %d random AXI-Lite accesses (strict %s): %d read values compared, %d "
                  "not deterministic, %d SLVERR, %d MARK events", STORM, strict, checked, nondet,
                  errs, len(marks))


@cocotb.test()
async def torn_reads(dut):
    host, area0, area1, _ = await bring_up(dut, 10, 37)
    t_reset = host.t_release
    preset = (1 << 32) - 3000
    dut.ts_preset.value = preset
    ll = LAY.lmics[1]
    d = next(d for d in ll.dcapfs if d.name == "s64")
    m = area1.dcapf_models()[d.number]
    seen = {0}
    area1.history = lambda a: seen.add(m.result)
    NF = layout.PROG["NO_FILTERING"]
    await host.write_ok(LAY.lmic_reg(1, 0), 1 | sum(NF << layout.prog_shift(i) for i in range(ll.num_sniffers)))
    area1.policy = lambda i: (1, random.getrandbits(27), 1) if i == d.sniffer and random.random() < 0.9 else None
    prev, pairs, his = 0, 0, set()
    ts_prev, ts_pairs, ts_his = 0, 0, set()
    for k in range(600):
        lo = await host.read_ok(LAY.lmic_reg(1, d.result_word))
        hi = await host.read_ok(LAY.lmic_reg(1, d.result_word + 1))
        v = (hi << 32) | lo
        assert v in seen, (k, hex(v), "never a value of the counter: torn")
        assert v >= prev, (k, hex(v), hex(prev))
        prev, pairs = v, pairs + 1
        his.add(hi)
        # the global timestamp: LO snapshots HI
        t0 = get_sim_time("ns")
        lo = await host.read_ok(layout.Layout.global_reg("TIMESTAMP_LO"))
        t1 = get_sim_time("ns")
        hi = await host.read_ok(layout.Layout.global_reg("TIMESTAMP_HI"))
        ts = (hi << 32) | lo
        cycles = ts - preset
        # sampled between t0 and t1 (a torn pair would be 2^32 off)
        assert (t0 - t_reset) / 10 - 3 <= cycles <= (t1 - t_reset) / 10 + 3, (k, hex(ts), t0, t1)
        assert ts > ts_prev, (k, hex(ts), hex(ts_prev))
        ts_prev, ts_pairs = ts, ts_pairs + 1
        ts_his.add(hi)
    area1.policy = None
    assert prev >= 1 << 32 and len(his) > 20, (hex(prev), len(his))
    assert min(ts_his) == 0 and max(ts_his) == 1, ts_his
    dut._log.info("checked %d 64-bit LO/HI reads of a counter on a 37 ns clock (final %#x, upper "
                  "word took %d values, %d counter values in the history) and %d TIMESTAMP pairs "
                  "across 2^32: none torn, none decreasing", pairs, prev, len(his), len(seen),
                  ts_pairs)


@cocotb.test()
async def no_hang(dut):
    strict = params()["strict"]
    host, _, _, a1clk = await bring_up(dut, 10, 37, models=False)
    model = SpaceModel(strict)
    done = 0

    async def check_every_window(n=30, far=True):
        nonlocal done
        for _ in range(n):
            we, addr, v = random_access(model)
            if addr // LAY.window == 2 or addr // LAY.window > len(LAY.lmics):
                continue
            exp_resp, exp = model.access(we, addr, v)
            if we:
                resp = await with_timeout(host.write(addr, v), 50, "us")
            else:
                resp, got = await with_timeout(host.read(addr), 50, "us")
                assert exp is None or got == exp, (hex(addr), hex(got), exp)
            assert resp == exp_resp, (hex(addr), resp, exp_resp)
            done += 1
        # and the far LMIC
        for _ in range(n // 3 if far else 0):
            w = random.choice(sorted(model.lm[1].mapped))
            addr = LAY.lmic_reg(1, w)
            resp, got = await with_timeout(host.read(addr), 50, "us")
            assert (resp, got) == (OKAY, model.lm[1].read(w)), (w, resp, got)
            done += 1

    far_en = LAY.lmic_reg(1, layout.LMIC_REGS["IRQ_ENABLE"])
    for rnd in range(4):
        await check_every_window()
        # 1. aresetn in the middle of accesses (to the far LMIC: the slowest)
        ev = host.axi.init_read(far_en, 4)
        await ClockCycles(dut.s_axi_aclk, random.randrange(1, 12))
        dut.s_axi_aresetn.value = 0
        await ClockCycles(dut.s_axi_aclk, random.randrange(2, 20))
        dut.s_axi_aresetn.value = 1
        await ClockCycles(dut.s_axi_aclk, 2)
        model.reset()
        # the far LMIC kept its registers (its own reset did not move): restore the model
        dut.a1_rst.value = 1
        await ns(3 * 37)
        dut.a1_rst.value = 0
        await check_every_window()
        # 2. far LMIC held in reset: SLVERR at once, the other windows unaffected
        await FallingEdge(dut.a1_clk)
        dut.a1_rst.value = 1
        for _ in range(5):
            t0 = get_sim_time("ns")
            assert await with_timeout(host.write(far_en, 1), 50, "us") == SLVERR
            resp, got = await with_timeout(host.read(far_en), 50, "us")
            assert (resp, got) == (SLVERR, 0)
            assert get_sim_time("ns") - t0 < CDC_TIMEOUT * 10, "waited for the timeout"
        await check_every_window(10, far=False)
        await FallingEdge(dut.a1_clk)
        dut.a1_rst.value = 0
        model.lm[1].reset()
        await check_every_window()
        # 3. far LMIC clock stopped: timeout, then SLVERR at once; the write
        #    that timed out never lands, not even when the clock comes back
        #    (two-phase register port: an orphan is never committed). Stopped
        #    at a quiet moment (even rounds) the write was sent and captured;
        #    stopped right after an access (odd rounds) it times out before
        #    it is sent. Either way the register keeps its value.
        if rnd % 2 == 0:
            await ns(6 * 37)
        a1clk.stop()
        value = random.randrange(1, 1 << LAY.lmics[1].num_irq)
        t0 = get_sim_time("ns")
        assert await with_timeout(host.write(far_en, value), 50, "us") == SLVERR
        assert get_sim_time("ns") - t0 >= CDC_TIMEOUT * 10
        for _ in range(5):
            t0 = get_sim_time("ns")
            resp, _ = await with_timeout(host.read(far_en), 50, "us")
            assert resp == SLVERR and get_sim_time("ns") - t0 < 200
        await check_every_window(10, far=False)
        a1clk = start_clock(dut.a1_clk, 37)
        await ns(20 * 37)
        got = await host.read_ok(far_en)
        assert got == model.lm[1].irq_en, (got, value, model.lm[1].irq_en)  # never committed
        await check_every_window()
    dut._log.info("checked %d accesses around 4 x (aresetn mid-access, far LMIC held in reset, "
                  "far LMIC clock stopped): none hung, all answered as the model says", done)


@pytest.mark.parametrize("strict", [False, True])
def test_collect_core_storm(strict):
    here = __import__("pathlib").Path(__file__).parent
    run("tb_collect_core", __name__, core_generics(strict, CDC_TIMEOUT),
        extra_sources=[here / s for s in TB_SOURCES], name="tb_collect_core_storm",
        extra_env=params_env(strict=strict))
