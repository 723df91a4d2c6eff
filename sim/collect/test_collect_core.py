# SPDX-License-Identifier: MIT
"""Collection layer, integrated: DCI + global + LMIC "near" (bus clock, wired
directly: the 1:1 case, no bridge) + LMIC "far" (own clock behind the CDC
bridge) + dispensers + real jointer_dcapf / jointer_trace_extractor, driven
through AxiLiteMaster (tb_collect_core.vhd, fixture and models in
collect_core.py). Bus:LMIC period ratios 1:3.7 and 5.3:1 for "far".

- control_counts: random host traffic on both LMICs while events flow in
  both clock domains: CONTROL writes with random PROG (all four modes) and
  RUN/STOP, SOFT_RESET in the middle of traffic, INIT sequences (re-entering
  INIT restarts the pointer, writes beyond 2 x DCAPFs and outside INIT are
  ignored), THRESHOLD writes (read back). After each round the host stops
  the LMICs and every RESULT (LO then HI), STATUS (VALID, sticky OVERFLOW of
  the saturating/wrapping counters) and trace register/record must equal
  the models of sim/jointer_sim/model.py exactly; the CONTROL/INIT strobes
  the sniffers saw must be exactly the host's writes.
- threshold_irq: crossing -> LMIC IRQ_STATUS bit -> irq output; global
  IRQ_STATUS/IRQ_ENABLE; w1c; no new edge while result >= threshold; the
  staged lower word; soft reset clears the source of a non-IDLE sniffer and
  not of an IDLE one.
- trace: records in order (stop and ring mode), overflow when full,
  watermark and full interrupts, soft reset empties the buffer.
"""
import random

import cocotb
import pytest
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge, with_timeout

from collect_core import (CONFIG_HASH, FIXTURE, TB_SOURCES, bring_up, core_generics,
                          fixture_layout, info_word, ns)
from collect_util import MASK32, layout, params, params_env
from jointer_sim import run

LAY = fixture_layout()
G = layout.Layout.global_reg
ID, VERSION = 0x4A4E5452, 0x00020000


def control(run_, progs, soft=0):
    return run_ | (soft << 1) | sum(p << layout.prog_shift(i) for i, p in enumerate(progs))


def packed(progs):
    return sum(p << (2 * i) for i, p in enumerate(progs))


class Lmic:
    """Host-side view of one LMIC: register addresses and what was written."""

    def __init__(self, host, area, li):
        self.host, self.area, self.li = host, area, li
        self.ll = LAY.lmics[li]
        self.S = self.ll.num_sniffers
        self.progs = [0] * self.S
        self.run = 0
        self.ctrl_writes = []   # (run, packed prog, soft) as the sniffers must see them
        self.init_writes = []   # (sniffer, data)
        self.thr = {d.number: (1 << d.width) - 1 for d in self.ll.dcapfs if d.threshold_word >= 0}

    def reg(self, word):
        return LAY.lmic_reg(self.li, word)

    async def control(self, run_=None, progs=None, soft=0):
        if run_ is not None:
            self.run = run_
        if progs is not None:
            self.progs = list(progs)
        await self.host.write_ok(self.reg(0), control(self.run, self.progs, soft))
        self.ctrl_writes.append((self.run, packed(self.progs), soft))

    async def init(self, sniffer, value):
        await self.host.write_ok(self.reg(layout.LMIC_INIT + sniffer), value)
        self.init_writes.append((sniffer, value & MASK32))

    async def set_threshold(self, d, value, commit=True):
        n = layout.words_of(d.width)
        for k in range(n if commit else 1):
            await self.host.write_ok(self.reg(d.threshold_word + k), (value >> (32 * k)) & MASK32)
        if commit or n == 1:
            self.thr[d.number] = value & ((1 << d.width) - 1)

    async def read_value(self, word, width):
        lo = await self.host.read_ok(self.reg(word))
        if layout.words_of(width) == 1:
            return lo
        return lo | (await self.host.read_ok(self.reg(word + 1))) << 32

    async def check_all(self):
        """Every RESULT/STATUS/THRESHOLD/trace register against the models."""
        area = self.area
        for d, m in zip(self.ll.dcapfs, area.dcapf_models()):
            got = await self.read_value(d.result_word, d.width)
            assert got == m.result, (self.li, d.name, hex(got), hex(m.result))
            if d.threshold_word >= 0:
                got = await self.read_value(d.threshold_word, d.width)
                assert got == self.thr[d.number], (self.li, d.name, hex(got))
        got = await self.host.read_ok(self.reg(layout.LMIC_REGS["STATUS"]))
        assert got == area.status_word(), (self.li, hex(got), hex(area.status_word()))
        got = await self.host.read_ok(self.reg(layout.LMIC_REGS["CONTROL"]))
        assert got == control(self.run, self.progs), (self.li, hex(got))
        for t, m in zip(self.ll.traces, area.trace_models()):
            await self.check_trace(t, m)
        assert area.ctrl_log == self.ctrl_writes, (self.li, area.ctrl_log[-5:], self.ctrl_writes[-5:])
        assert area.init_log == self.init_writes, (self.li, area.init_log[-5:], self.init_writes[-5:])

    async def check_trace(self, t, m):
        R = layout.TRACE_REGS
        regs = [await self.host.read_ok(self.reg(t.reg_word + k)) for k in range(5)]
        exp = [m.wptr, m.fill, int(m.full) | (int(m.overflow) << 1), regs[R["WATERMARK"]], t.depth]
        assert regs == exp, (self.li, t.name, regs, exp)
        start = m.wptr if m.full else 0
        for k in range(m.fill):
            slot = (start + k) % t.depth
            ts = await self.host.read_ok(self.reg(t.ram_word + 2 * slot))
            data = await self.host.read_ok(self.reg(t.ram_word + 2 * slot + 1))
            assert (ts, data) == m.records[k], (self.li, t.name, k, (ts, data), m.records[k])
        return m.fill


def event_policy(rate, lo=0, hi=400, big=0.0):
    """Random events: data mostly in [lo, hi] (filters bite), increments 1..4
    or, with probability `big`, up to 0xFFFF (counters saturate and wrap)."""
    def policy(i):
        if random.random() >= rate:
            return None
        data = random.randrange(lo, hi) if random.random() < 0.9 else random.getrandbits(32)
        inc = random.randrange(1, 0x10000) if random.random() < big else random.randrange(1, 5)
        return 1, data, inc
    return policy


async def settle(dut, area1_period, cycles=8):
    """Let both domains go quiet (events already stopped)."""
    await ClockCycles(dut.s_axi_aclk, cycles)
    await ns(cycles * area1_period)


@cocotb.test()
async def control_counts(dut):
    p = params()
    bus_p, a1_p = p["bus_period"], p["a1_period"]
    host, area0, area1, _ = await bring_up(dut, bus_p, a1_p)
    lm = [Lmic(host, area0, 0), Lmic(host, area1, 1)]
    # identification first, as a driver does
    assert await host.read_ok(G("ID")) == ID
    assert await host.read_ok(G("VERSION")) == VERSION
    assert await host.read_ok(G("CONFIG_HASH")) == CONFIG_HASH
    assert await host.read_ok(G("INFO")) == info_word(p["strict"])
    rounds, ops, restarts, ignored = 4, 0, 0, 0
    overflowed = set()  # DCAPFs whose sticky overflow was ever set (model, every cycle)

    def watch(area):
        for d, m in zip(area.ll.dcapfs, area.dcapf_models()):
            if m.overflow:
                overflowed.add(d.name)

    area0.history = area1.history = watch
    for rnd in range(rounds):
        area0.policy = event_policy(0.3, big=0.05)
        area1.policy = event_policy(0.3, big=0.5)
        for x in lm:  # every sniffer counting for a while, then the random mix
            await x.control(1, [layout.PROG["NO_FILTERING"]] * x.S, soft=int(rnd % 2))
        await ns(300 * max(bus_p, a1_p))
        for _ in range(60):
            x = random.choice(lm)
            r = random.random()
            if r < 0.35:    # any PROG mix, RUN/STOP, sometimes SOFT_RESET mid-traffic
                await x.control(random.getrandbits(1), [random.randrange(4) for _ in range(x.S)],
                                soft=int(random.random() < 0.2))
            elif r < 0.6:   # an INIT sequence, possibly too long, possibly restarted
                i = random.randrange(x.S)
                progs = list(x.progs)
                progs[i] = layout.PROG["INIT"]
                await x.control(progs=progs)
                units = len(FIXTURE[x.li].sniffers[i].dcapfs)
                for k in range(random.randrange(1, 2 * units + 3)):
                    if random.random() < 0.15:  # INIT over INIT: pointer restarts
                        await x.control(progs=progs)
                        restarts += 1
                    lo = random.randrange(0, 200)
                    await x.init(i, lo if k % 2 == 0 else lo + random.randrange(0, 250))
                progs[i] = random.choice([layout.PROG["FILTERING"], layout.PROG["NO_FILTERING"]])
                await x.control(random.getrandbits(1), progs)
            elif r < 0.7:   # INIT writes outside INIT mode are ignored
                i = random.randrange(x.S)
                if x.progs[i] != layout.PROG["INIT"]:
                    await x.init(i, random.getrandbits(32))
                    ignored += 1
            elif r < 0.85:  # thresholds (read back at the end of the round)
                d = random.choice([d for d in x.ll.dcapfs if d.threshold_word >= 0])
                await x.set_threshold(d, random.getrandbits(d.width), commit=random.random() < 0.8)
            else:           # reads in the middle of traffic (must not hang)
                d = random.choice(x.ll.dcapfs)
                await x.read_value(d.result_word, d.width)
            ops += 1
            if random.random() < 0.3:
                await ns(random.randrange(1, 40) * a1_p)
        # a last stretch with every sniffer counting (cnt8 saturates: the
        # sticky OVERFLOW must show in STATUS), then stop: no more events,
        # RUN = 0, and everything must equal the models
        area0.policy = event_policy(0.5, big=0.3)
        for x in lm:
            await x.control(1, [layout.PROG["NO_FILTERING"]] * x.S)
        await ns(150 * max(bus_p, a1_p))
        area0.policy = area1.policy = None
        for x in lm:
            await x.control(0)
        await settle(dut, a1_p)
        for x in lm:
            await x.check_all()
        cnt8 = next(m for d, m in zip(area0.ll.dcapfs, area0.dcapf_models()) if d.name == "cnt8")
        assert cnt8.overflow and cnt8.result == 255, (cnt8.overflow, cnt8.result)
        dut._log.info("round %d: near %d events / %d cycles, far %d events / %d cycles", rnd,
                      area0.events, area0.cycles, area1.events, area1.cycles)
    assert {"cnt8", "c20"} <= overflowed, overflowed  # saturated and wrapped, sticky flag seen
    dut._log.info("checked %d random host operations (%d INIT restarts, %d ignored INIT writes), "
                  "%d + %d events, %d AXI accesses; final results equal the models exactly "
                  "(bus %s ns, far LMIC %s ns; overflow seen in %s)", ops, restarts, ignored,
                  area0.events, area1.events, host.accesses, bus_p, a1_p, sorted(overflowed))


async def wait_irq(dut, level, cycles=200):
    for _ in range(cycles):
        await FallingEdge(dut.s_axi_aclk)
        if int(dut.irq.value) == level:
            return
    raise AssertionError(f"irq did not become {level}")


@cocotb.test()
async def threshold_irq(dut):
    p = params()
    bus_p, a1_p = p["bus_period"], p["a1_period"]
    host, area0, area1, _ = await bring_up(dut, bus_p, a1_p)
    lm = [Lmic(host, area0, 0), Lmic(host, area1, 1)]
    NF = layout.PROG["NO_FILTERING"]
    checks = 0
    await host.write_ok(G("IRQ_ENABLE"), 0b11)
    for x in lm:  # thresholds only (the traces fill up too)
        thr_bits = sum(1 << d.irq_bit for d in x.ll.dcapfs if d.irq_bit >= 0)
        await host.write_ok(x.reg(layout.LMIC_REGS["IRQ_ENABLE"]), thr_bits)
    for x in lm:
        thr_bits = sum(1 << d.irq_bit for d in x.ll.dcapfs if d.irq_bit >= 0)

        async def irq_status():
            return await host.read_ok(x.reg(layout.LMIC_REGS["IRQ_STATUS"])) & thr_bits

        for d in [d for d in x.ll.dcapfs if d.threshold_word >= 0]:
            bit = 1 << d.irq_bit
            m = x.area.dcapf_models()[d.number]
            await x.control(0, [NF] * x.S, soft=1)       # everything cleared
            await settle(dut, a1_p)
            # staged lower word: no effect until the upper word is written
            target = random.randrange(50, 500)
            if layout.words_of(d.width) == 2:
                await x.set_threshold(d, target, commit=False)
                assert await x.read_value(d.threshold_word, d.width) == (1 << d.width) - 1
            await x.set_threshold(d, target)
            assert await x.read_value(d.threshold_word, d.width) == target
            assert int(dut.irq.value) == 0
            # events until the result crosses the threshold
            x.area.policy = event_policy(0.5, 1, 2 * target)
            await x.control(1)
            while m.result < target:
                await ns(20 * a1_p)
            x.area.policy = None
            await x.control(0)
            await wait_irq(dut, 1)
            assert await irq_status() == bit
            assert await host.read_ok(G("IRQ_STATUS")) == 1 << x.li
            # global mask
            await host.write_ok(G("IRQ_ENABLE"), 0b11 ^ (1 << x.li))
            await wait_irq(dut, 0)
            assert await host.read_ok(G("IRQ_STATUS")) == 1 << x.li
            await host.write_ok(G("IRQ_ENABLE"), 0b11)
            await wait_irq(dut, 1)
            # w1c; no new edge while result >= threshold
            await host.write_ok(x.reg(layout.LMIC_REGS["IRQ_STATUS"]), bit)
            await wait_irq(dut, 0)
            assert await irq_status() == 0
            await x.set_threshold(d, 1)
            await settle(dut, a1_p)
            assert await irq_status() == 0
            # above the result, then at it again: a new rising edge
            await x.set_threshold(d, m.result + 1)
            await x.set_threshold(d, m.result)
            await wait_irq(dut, 1)
            assert await irq_status() == bit
            # soft reset of an IDLE sniffer: nothing cleared
            progs = [NF] * x.S
            progs[d.sniffer] = layout.PROG["IDLE"]
            await x.control(0, progs, soft=1)
            await settle(dut, a1_p)
            assert await irq_status() == bit
            assert await x.read_value(d.result_word, d.width) == m.result > 0
            # soft reset of the non-IDLE sniffer: source and result cleared
            await x.control(0, [NF] * x.S, soft=1)
            await wait_irq(dut, 0)
            assert await irq_status() == 0
            assert await x.read_value(d.result_word, d.width) == 0 == m.result
            await x.set_threshold(d, (1 << d.width) - 1)
            checks += 1
    for x in lm:
        await x.check_all()
    dut._log.info("checked the threshold interrupt path of %d DCAPFs (random thresholds, %d AXI "
                  "accesses)", checks, host.accesses)


@cocotb.test()
async def trace(dut):
    p = params()
    bus_p, a1_p = p["bus_period"], p["a1_period"]
    host, area0, area1, _ = await bring_up(dut, bus_p, a1_p)
    lm = [Lmic(host, area0, 0), Lmic(host, area1, 1)]
    F, NF = layout.PROG["FILTERING"], layout.PROG["NO_FILTERING"]
    await host.write_ok(G("IRQ_ENABLE"), 0b11)
    records = 0
    for rnd in range(6):
        for x in lm:
            t = random.choice(x.ll.traces)
            m = x.area.trace_models()[t.number]
            wm_bit, full_bit = 1 << t.irq_bit, 1 << (t.irq_bit + 1)
            await host.write_ok(x.reg(layout.LMIC_REGS["IRQ_ENABLE"]), wm_bit | full_bit)
            # bounds of the trace through INIT, then FILTERING (or not)
            units = len(FIXTURE[x.li].sniffers[t.sniffer].dcapfs)
            progs = [NF] * x.S
            progs[t.sniffer] = layout.PROG["INIT"]
            await x.control(0, progs)
            low, high = random.randrange(0, 100), random.randrange(100, 400)
            for k in range(2 * units):
                await x.init(t.sniffer, (low, high)[k % 2] if k // 2 == t.index else k)
            progs[t.sniffer] = F if rnd % 2 == 0 else NF
            await x.control(0, progs, soft=1)            # empty buffer, cleared sources
            await settle(dut, a1_p)
            watermark = random.randrange(1, t.depth + 1)
            await host.write_ok(x.reg(t.reg_word + layout.TRACE_REGS["WATERMARK"]), watermark)
            assert await host.read_ok(x.reg(t.reg_word + layout.TRACE_REGS["WATERMARK"])) == watermark
            assert int(dut.irq.value) == 0
            # events until the buffer holds `watermark` records
            x.area.policy = event_policy(0.4, 0, 500)
            await x.control(1)
            while m.fill < watermark:
                await ns(a1_p)
            x.area.policy = None
            await x.control(0)
            await wait_irq(dut, 1)
            sts = await host.read_ok(x.reg(layout.LMIC_REGS["IRQ_STATUS"]))
            assert sts & wm_bit and bool(sts & full_bit) == m.full, (sts, m.fill)
            was_full = m.full
            records += await x.check_trace(t, m)
            await host.write_ok(x.reg(layout.LMIC_REGS["IRQ_STATUS"]), sts)
            await wait_irq(dut, 0)
            # keep going past full: overflow (stop: dropped; ring: overwritten)
            x.area.policy = event_policy(0.6, 0, 500)
            await x.control(1)
            while not m.overflow:
                await ns(a1_p)
            for _ in range(random.randrange(0, 3 * t.depth)):
                await ns(a1_p)
            x.area.policy = None
            await x.control(0)
            await settle(dut, a1_p)
            sts = await host.read_ok(x.reg(layout.LMIC_REGS["IRQ_STATUS"]))
            assert sts == (0 if was_full else full_bit), (sts, was_full)  # FULL rose (once)
            records += await x.check_trace(t, m)
            assert m.full and m.overflow
            await host.write_ok(x.reg(layout.LMIC_REGS["IRQ_STATUS"]), sts)
            await wait_irq(dut, 0)
    for x in lm:
        await x.check_all()
    dut._log.info("checked %d trace records read back in order over 12 fill/overflow rounds "
                  "(stop and ring mode), watermark and full interrupts", records)


@pytest.mark.parametrize("bus_period,a1_period", [(10, 37), (53, 10)])
def test_collect_core(bus_period, a1_period):
    strict = bus_period > a1_period
    here = __import__("pathlib").Path(__file__).parent
    run("tb_collect_core", __name__, core_generics(strict),
        extra_sources=[here / s for s in TB_SOURCES], name=f"tb_collect_core_{bus_period}_{a1_period}",
        extra_env=params_env(bus_period=bus_period, a1_period=a1_period, strict=strict))
