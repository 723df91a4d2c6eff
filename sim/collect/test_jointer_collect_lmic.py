# SPDX-License-Identifier: MIT
"""jointer_collect_lmic against a cycle model of doc/internals/collect.md.

The LMIC generics come from `layout.compute()` of small fixtures (exactly what
the generator passes). The test drives the register port, the DCAPF results
(values hovering around the thresholds so that they cross them often), the
trace status, and emulates the trace RAMs (tr_rd_data of cycle n+1 = word at
tr_rd_addr of cycle n). Every cycle it compares the sniffer controls
(PROG/RUN/SOFT_RESET/ctrl_we/INIT), irq, and every acknowledge (rdata, err)
with the model: CONTROL readback, STATUS, IRQ_STATUS w1c / IRQ_ENABLE,
soft reset clearing the sources of non-IDLE sniffers (in its cycle and the
next: threshold and watermark sources set a cycle after their registered
compares), RESULT LO/HI with the per-result snapshot, THRESHOLD
staging/commit and the rising-edge source,
trace WATERMARK/FULL sources, trace RAM reads, unmapped words (strict and
not), writes to read-only words. A hard reset happens mid-test. Relay
traces: RPTR and LOST read the extractor's values, a write to ACK pulses
tr_ack (that trace only) for one cycle with tr_ack_n = the written count.

The register port has two phases (doc/internals/collect.md): a read is
answered three cycles after its request (trace RAM words, and the RESULT/
THRESHOLD words of a window mapping more than 8 of them, as they were in the
cycle after the request, when the snapshots are taken; the other words, and
the snapshots of a smaller window, a cycle later) and its answer is held
until the next request (checked every cycle);
a write is answered two cycles after its request; it is
only captured by its request and performed on rp_commit, which the host
drives in the cycle of the answer (as the DCI), a few cycles later (as the
CDC bridge), or never (an abort: no effect). A commit after a read, or a
second one, does nothing; a hard reset cancels a captured write.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer

from collect_util import (FDcapf, FLmic, FSniffer, MASK32, layout, lmic_generics, params,
                          params_env, results_registered, start_clock)
from jointer_sim import run

CYCLES = 12000

FIXTURES = {
    "three_sniffers": [FLmic("a", [
        FSniffer("s0", [FDcapf("d0", 10), FDcapf("d1", 53, "time", True)]),
        FSniffer("s1", [FDcapf("d2", 32, threshold_irq=True), FDcapf("t0", extractor="trace", depth=8)]),
        FSniffer("s2", [FDcapf("d3", 64, threshold_irq=True), FDcapf("t1", extractor="trace", depth=4),
                        FDcapf("d4", 1)]),
    ])],
    "one_sniffer": [FLmic("b", [
        FSniffer("s0", [FDcapf("d0", 33, threshold_irq=True), FDcapf("t0", extractor="trace", depth=2)]),
    ])],
    "relay": [FLmic("e", [        # a relay trace (RPTR, ACK, LOST) next to a stop trace
        FSniffer("s0", [FDcapf("d0", 12, threshold_irq=True), FDcapf("t0", extractor="trace", depth=8,
                                                                     mode="relay")]),
        FSniffer("s1", [FDcapf("t1", extractor="trace", depth=4)]),
    ])],
    "trace_only": [FLmic("c", [  # no result DCAPF: the dummy dc_* item
        FSniffer("s0", [FDcapf("t0", extractor="trace", depth=16)]),
    ])],
    "no_trace": [FLmic("d", [    # no trace: the dummy tr_* item
        FSniffer("s0", [FDcapf("d0", 64, threshold_irq=True)]),
        FSniffer("s1", [FDcapf("d1", 5, threshold_irq=True), FDcapf("d2", 32)]),
    ])],
    "no_irq": [FLmic("f", [      # no IRQ source: IRQ_STATUS and IRQ_ENABLE read 0
        FSniffer("s0", [FDcapf("d0", 16)]),
    ])],
}


def fixture_layout(name):
    lay = layout.compute(FIXTURES[name])
    return lay, lay.lmics[0], lay.window_log2 - 2


def words(width):
    return layout.words_of(width)


class LmicModel:
    """Register-level model; step() = one cycle, attributes = next-cycle outputs."""

    def __init__(self, ll, addr_w, strict, mems):
        self.ll, self.strict, self.mems = ll, strict, mems
        self.S, self.D, self.T = ll.num_sniffers, len(ll.dcapfs), len(ll.traces)
        self.nirq = ll.num_irq
        self.irq_mask = (1 << self.nirq) - 1
        self.owner = {}
        for d in ll.dcapfs:
            if d.irq_bit >= 0:
                self.owner[d.irq_bit] = d.sniffer
        for t in ll.traces:
            self.owner[t.irq_bit] = self.owner[t.irq_bit + 1] = t.sniffer
        self.dmask = [(1 << d.width) - 1 for d in ll.dcapfs]
        # the request pipeline is not reset (an LMIC in reset still answers)
        self.ack = self.err = self.held = 0
        self.pend = None            # (we, addr): the request of the previous cycle
        self.read_pending = None    # a read's second cycle: (addr, value taken in the first or None)
        self.reg_read = results_registered(ll)   # results read (and snapshot) in the first cycle
        self.reset()

    def reset(self):
        self.run, self.prog, self.soft, self.ctrl_we, self.init_we = 0, [0] * self.S, 0, 0, 0
        self.tr_ack = 0
        self.armed = None           # the captured write (word, data) awaiting its commit
        self.wr_data = 0            # sn_init_data / tr_ack_n after a commit
        self.irq_en, self.status, self.irq = 0, 0, 0
        self.shadow = [0] * self.D
        self.thr = list(self.dmask)
        self.stage = [0] * self.D
        self.ge_q = [0] * self.D    # the registered compare
        self.ge_r = [0] * self.D
        self.soft_late = 0
        self.wm = [0] * self.T
        self.wm_ge_q = [0] * self.T  # the registered compare
        self.wm_ge_r = [0] * self.T
        self.full_r = [0] * self.T

    def control(self):
        return self.run | sum(p << layout.prog_shift(i) for i, p in enumerate(self.prog))

    def ram_word(self, addr):
        """The trace RAM word at `addr`, or None when addr is not in a RAM window."""
        for i, t in enumerate(self.ll.traces):
            if t.ram_word <= addr < t.ram_word + 2 * t.depth:
                return self.mems[i][addr - t.ram_word]
        return None

    def in_results(self, addr):
        """Whether word `addr` is a RESULT or THRESHOLD word (the results block
        registers its read in the read's first cycle; the others answer in the second)."""
        for d in self.ll.dcapfs:
            if d.result_word <= addr < d.result_word + words(d.width):
                return True
            if d.threshold_word >= 0 and d.threshold_word <= addr < d.threshold_word + words(d.width):
                return True
        return False

    def read(self, addr, inp):
        """(value, mapped) of word `addr` during this cycle."""
        ll = self.ll
        if addr == 0:
            return self.control(), True
        if addr == 1:
            v = 0
            for i, d in enumerate(ll.dcapfs):
                v |= inp["caught"][i] << d.sniffer
                v |= inp["ovf"][i] << (16 + d.sniffer)
            return v, True
        if addr == 2:
            return self.status, True
        if addr == 3:
            return self.irq_en, True
        if 4 <= addr < 4 + self.S:
            return 0, True
        for i, d in enumerate(ll.dcapfs):
            res = inp["res"][i] & self.dmask[i]
            if addr == d.result_word:
                return res & MASK32, True
            if words(d.width) == 2 and addr == d.result_word + 1:
                return self.shadow[i], True
            if d.threshold_word >= 0:
                for k in range(words(d.width)):
                    if addr == d.threshold_word + k:
                        return (self.thr[i] >> (32 * k)) & MASK32, True
        for i, t in enumerate(ll.traces):
            regs = [inp["wptr"][i], inp["fill"][i], inp["full"][i] | (inp["tovf"][i] << 1),
                    self.wm[i], t.depth, inp["rptr"][i], 0, inp["lost"][i]]
            if t.reg_word <= addr < t.reg_word + t.reg_words:
                return regs[addr - t.reg_word], True
        ram = self.ram_word(addr)
        if ram is not None:
            return ram, True
        return 0, False

    def step(self, req, we, addr, wdata, commit, inp):
        ll = self.ll
        # phase 1 is answered the cycle after the request, at the captured address
        pend, self.pend = self.pend, ((we, addr) if req else None)
        rd = pend is not None and not pend[0]
        # phase 2: the write captured by an earlier request
        wr = bool(commit and self.armed is not None)
        waddr, wdat = self.armed if wr else (-1, 0)
        self.ack = 0
        take = self.read_pending[0] if self.read_pending is not None else -1   # rd_take's address
        if self.read_pending is not None:   # a read's second cycle: the answer
            paddr, val = self.read_pending
            self.held, self.ack, self.read_pending = (self.read(paddr, inp)[0] if val is None else val), 1, None
        if pend is not None:
            pwe, paddr = pend
            val, hit = self.read(paddr, inp)
            self.err = int(not hit and self.strict)
            if pwe:
                self.held, self.ack = wdata, 1      # the master still holds it
                if self.armed is not None:
                    self.armed = (paddr, wdata)
            elif self.ram_word(paddr) is not None or (self.reg_read and self.in_results(paddr)):
                self.read_pending = (paddr, val)    # the RAM's registered output / the results' register
            else:
                self.read_pending = (paddr, None)   # the other words: read in the second cycle
        if req:
            self.armed = (addr, None) if we else None
        if commit:
            self.armed = None
        raddr = pend[1] if rd else -1
        snap_addr = raddr if self.reg_read else take   # the results' snapshots: rd or rd_take
        # interrupt sources of this cycle
        sets = 0
        ge_next = list(self.ge_q)
        for i, d in enumerate(ll.dcapfs):
            if d.irq_bit >= 0:
                if self.ge_q[i] and not self.ge_r[i]:
                    sets |= 1 << d.irq_bit
                ge_next[i] = int((inp["res"][i] & self.dmask[i]) >= self.thr[i])
        wm_next = list(self.wm_ge_q)
        for i, t in enumerate(ll.traces):
            if self.wm_ge_q[i] and not self.wm_ge_r[i]:
                sets |= 1 << t.irq_bit
            if inp["full"][i] and not self.full_r[i]:
                sets |= 1 << (t.irq_bit + 1)
            wm_next[i] = int(self.wm[i] != 0 and inp["fill"][i] >= self.wm[i])
        self.ge_r, self.ge_q = self.ge_q, ge_next
        self.wm_ge_r, self.wm_ge_q = self.wm_ge_q, wm_next
        self.full_r = list(inp["full"])
        clr_src = 0
        if self.soft or self.soft_late:   # the pulse's cycle and the next
            for b, s in self.owner.items():
                if self.prog[s]:
                    clr_src |= 1 << b
        status = self.status
        if wr and waddr == 2:
            status &= ~wdat
        self.irq = int(self.status & self.irq_en != 0)   # of the status register
        self.status = ((status | sets) & ~clr_src) & self.irq_mask
        # register writes and the snapshot
        self.ctrl_we = int(wr and waddr == 0)
        self.soft_late = self.soft
        self.soft = int(wr and waddr == 0 and (wdat >> 1) & 1)
        self.init_we = (1 << (waddr - 4)) if wr and 4 <= waddr < 4 + self.S else 0
        self.tr_ack = sum(1 << i for i, t in enumerate(ll.traces)
                          if t.relay and wr and waddr == t.reg_word + layout.RELAY_REGS["ACK"])
        if wr:
            self.wr_data = wdat
        if wr and waddr == 0:
            self.run = wdat & 1
            self.prog = [(wdat >> layout.prog_shift(i)) & 3 for i in range(self.S)]
        if wr and waddr == 3:
            self.irq_en = wdat & self.irq_mask
        for i, d in enumerate(ll.dcapfs):
            if words(d.width) == 2 and snap_addr == d.result_word:
                self.shadow[i] = (inp["res"][i] & self.dmask[i]) >> 32
            if wr and d.threshold_word >= 0:
                if words(d.width) == 1 and waddr == d.threshold_word:
                    self.thr[i] = wdat & self.dmask[i]
                elif words(d.width) == 2 and waddr == d.threshold_word:
                    self.stage[i] = wdat
                elif words(d.width) == 2 and waddr == d.threshold_word + 1:
                    self.thr[i] = ((wdat << 32) | self.stage[i]) & self.dmask[i]
        for i, t in enumerate(ll.traces):
            if wr and waddr == t.reg_word + layout.TRACE_REGS["WATERMARK"]:
                self.wm[i] = wdat & ((2 << t.depth_log2) - 1)


def pick_access(model, ll, addr_w, inp):
    """A random host access: list of (we, addr, wdata) done back to back."""
    r = random.random()
    S = ll.num_sniffers
    if r < 0.12:  # CONTROL: random PROG/RUN, sometimes SOFT_RESET
        w = random.getrandbits(32)
        if random.random() < 0.7:
            w &= ~2
        return [(1, 0, w)]
    if r < 0.2:
        return [(random.getrandbits(1), random.randrange(4), random.choice(
            [random.getrandbits(32), MASK32, 1 << random.randrange(max(ll.num_irq, 1))]))]
    if r < 0.26:
        return [(random.getrandbits(1), 4 + random.randrange(S), random.getrandbits(32))]
    if r < 0.5 and ll.dcapfs:  # result: LO then HI, or a lone word
        i = random.randrange(len(ll.dcapfs))
        d = ll.dcapfs[i]
        if words(d.width) == 2 and random.random() < 0.7:
            return [(0, d.result_word, 0), (0, d.result_word + 1, 0)]
        return [(random.getrandbits(1), d.result_word + random.randrange(words(d.width)),
                 random.getrandbits(32))]
    thr = [(i, d) for i, d in enumerate(ll.dcapfs) if d.threshold_word >= 0]
    if r < 0.65 and thr:  # threshold near the current result
        i, d = random.choice(thr)
        value = max(0, inp["res"][i] + random.randrange(-3, 4)) & ((1 << d.width) - 1)
        if random.random() < 0.2:
            value = random.getrandbits(d.width)
        seq = [(1, d.threshold_word + k, (value >> (32 * k)) & MASK32) for k in range(words(d.width))]
        if random.random() < 0.2:
            seq = seq[:1]  # staged only
        if random.random() < 0.3:
            seq.append((0, d.threshold_word + random.randrange(words(d.width)), 0))
        return seq
    if r < 0.8 and ll.traces:
        t = random.choice(ll.traces)
        if t.relay and random.random() < 0.3:  # ACK, then maybe RPTR/LOST
            return [(1, t.reg_word + layout.RELAY_REGS["ACK"], random.randrange(t.depth + 2))] + \
                [(0, t.reg_word + random.choice([5, 7]), 0)] * random.getrandbits(1)
        if random.random() < 0.5:
            return [(1, t.reg_word + 3, random.randrange(t.depth + 2)
                     if random.random() < 0.9 else random.getrandbits(32))]
        if random.random() < 0.5:
            return [(random.getrandbits(1), t.reg_word + random.randrange(t.reg_words), random.getrandbits(32))]
        return [(random.getrandbits(1), t.ram_word + random.randrange(2 * t.depth), random.getrandbits(32))]
    return [(random.getrandbits(1), random.getrandbits(addr_w), random.getrandbits(32))]


@cocotb.test()
async def random_registers(dut):
    p = params()
    lay, ll, addr_w = fixture_layout(p["fixture"])
    strict = p["strict"]
    D, T, S = len(ll.dcapfs), len(ll.traces), ll.num_sniffers
    mems = [[random.getrandbits(32) for _ in range(2 * t.depth)] for t in ll.traces]
    model = LmicModel(ll, addr_w, strict, mems)
    start_clock(dut.clk, 10)

    def pack(values, width):
        return sum((v & ((1 << width) - 1)) << (width * i) for i, v in enumerate(values))

    inp = {"res": [0] * D, "ovf": [0] * D, "caught": [0] * D, "wptr": [0] * T,
           "fill": [0] * T, "full": [0] * T, "tovf": [0] * T, "rptr": [0] * T, "lost": [0] * T}
    rd_data = [0] * T

    def drive_inputs():
        dut.dc_result.value = pack(inp["res"], 64)
        dut.dc_overflow.value = pack(inp["ovf"], 1)
        dut.dc_caught.value = pack(inp["caught"], 1)
        dut.tr_wptr.value = pack(inp["wptr"], 32)
        dut.tr_fill.value = pack(inp["fill"], 32)
        dut.tr_full.value = pack(inp["full"], 1)
        dut.tr_overflow.value = pack(inp["tovf"], 1)
        dut.tr_rptr.value = pack(inp["rptr"], 32)
        dut.tr_lost.value = pack(inp["lost"], 32)

    for s in ("rp_req", "rp_commit", "rp_we", "rp_addr", "rp_wdata"):
        getattr(dut, s).value = 0
    drive_inputs()
    dut.tr_rd_data.value = 0
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0

    queue, cur, gap = [], None, 0
    phase = "idle"          # idle -> wait (for the answer) -> commit (writes) -> idle
    commit_delay = None     # cycles from the answer to the commit (None: an abort)
    stats = {"relay_acks": 0, "acks": 0, "irq_rise": 0, "irq_fall": 0, "init": 0, "soft": 0,
             "pairs": 0, "moved": 0, "aborts": 0, "late_commits": 0, "stray_commits": 0,
             "ram_reads": 0, "held_checks": 0}
    last = None
    answer = None           # the read answer the host may take until its next request
    prev_req = None         # (we, addr) of the previous cycle's request
    reset_at = CYCLES // 2
    prev_irq = 0
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        rst = reset_at <= cycle < reset_at + 3
        # DCAPF/trace inputs move
        for i, d in enumerate(ll.dcapfs):
            if random.random() < 0.08:
                m = (1 << d.width) - 1
                inp["res"][i] = (random.getrandbits(d.width) if random.random() < 0.3
                                 else max(0, min(m, model.thr[i] + random.randrange(-2, 3))))
            if random.random() < 0.01:
                inp["ovf"][i] ^= 1
            if random.random() < 0.01:
                inp["caught"][i] ^= 1
        for i, t in enumerate(ll.traces):
            if random.random() < 0.05:
                inp["fill"][i] = random.randrange(t.depth + 1)
                inp["full"][i] = int(inp["fill"][i] == t.depth)
                inp["wptr"][i] = random.randrange(t.depth)
            if random.random() < 0.01:
                inp["tovf"][i] ^= 1
            if t.relay and random.random() < 0.05:
                inp["rptr"][i] = random.randrange(t.depth)
                inp["lost"][i] = random.getrandbits(32)
        # host side: one access at a time, held through its answer; a write is
        # committed in the answer's cycle, later, or never
        req = commit = 0
        if phase == "commit":
            if commit_delay is None:
                stats["aborts"] += 1
                phase = "idle"
            elif commit_delay == 0:
                commit, phase = 1, "idle"
            else:
                commit_delay -= 1
        elif phase == "idle" and not rst and cycle < CYCLES - 6:
            if gap:
                gap -= 1
                if cur is not None and not cur[0] and random.random() < 0.05:
                    commit = 1      # a stray commit after a read: nothing happens
                    stats["stray_commits"] += 1
            else:
                if not queue:
                    queue = pick_access(model, ll, addr_w, inp)
                    gap = random.choice([0, 0, 0, 1, 3])
                cur = queue.pop(0)
                req, phase, answer = 1, "wait", None
        if rst:
            phase = "idle"
        we, addr, wdata = cur if cur is not None else (0, 0, 0)
        dut.rst.value = int(rst)
        dut.rp_req.value = req
        dut.rp_commit.value = commit
        dut.rp_we.value = we
        dut.rp_addr.value = addr
        dut.rp_wdata.value = wdata
        drive_inputs()
        if rst:
            model.reset()
            model.step(0, 0, 0, 0, 0, inp)
            model.reset()
        else:
            model.step(req, we, addr, wdata, commit, inp)
        # trace RAM emulation: tr_rd_data next cycle = word at tr_rd_addr now
        await Timer(1, "ns")
        rd_addr = int(dut.tr_rd_addr.value)
        rd_data = [mems[i][rd_addr % (2 * t.depth)] for i, t in enumerate(ll.traces)]
        if prev_req and not prev_req[0]:    # the cycle after a read's request
            for i, t in enumerate(ll.traces):
                if t.ram_word <= prev_req[1] < t.ram_word + 2 * t.depth:
                    assert rd_addr == prev_req[1] - t.ram_word, (cycle, prev_req, rd_addr)
        prev_req = (we, addr) if req else None
        await RisingEdge(dut.clk)
        dut.tr_rd_data.value = pack(rd_data, 32)  # the RAM's registered output
        await ReadOnly()
        ctx = (cycle, we, addr, hex(wdata))
        assert int(dut.rp_ack.value) == model.ack, ctx
        assert int(dut.sn_run.value) == model.run, ctx
        assert int(dut.sn_prog.value) == sum(p << (2 * i) for i, p in enumerate(model.prog)), ctx
        assert int(dut.sn_soft_reset.value) == model.soft, ctx
        assert int(dut.sn_ctrl_we.value) == model.ctrl_we, ctx
        assert int(dut.sn_init_we.value) == model.init_we, ctx
        assert int(dut.tr_ack.value) == model.tr_ack, ctx
        if model.tr_ack:
            stats["relay_acks"] += 1
            assert int(dut.tr_ack_n.value) == model.wr_data, ctx
        if model.init_we:
            stats["init"] += 1
            assert int(dut.sn_init_data.value) == model.wr_data, ctx
        stats["soft"] += model.soft
        assert int(dut.irq.value) == model.irq, (ctx, model.status, model.irq_en)
        stats["irq_rise"] += model.irq > prev_irq
        stats["irq_fall"] += model.irq < prev_irq
        prev_irq = model.irq
        if answer is not None:
            # the held answer does not move until the next request
            stats["held_checks"] += 1
            assert (int(dut.rp_rdata.value), int(dut.rp_err.value)) == answer, (ctx, answer)
        if model.ack and phase == "wait":
            stats["acks"] += 1
            got = (int(dut.rp_rdata.value), int(dut.rp_err.value))
            if we:
                assert got[1] == model.err, ctx
                phase = "commit"
                commit_delay = random.choice([0, 0, 0, 0, 1, 2, 5, None])
                stats["late_commits"] += commit_delay not in (0, None)
            else:
                assert got == (model.held, model.err), (ctx, hex(got[0]), hex(model.held), got[1])
                answer = got
                phase = "idle"
                stats["ram_reads"] += model.ram_word(addr) is not None
            for i, d in enumerate(ll.dcapfs):
                if words(d.width) == 2 and not we and addr == d.result_word + 1 and last == (0, d.result_word):
                    stats["pairs"] += 1  # a LO/HI pair; did the live upper word move meanwhile?
                    stats["moved"] += (inp["res"][i] & model.dmask[i]) >> 32 != model.shadow[i]
            last = (we, addr)
    assert stats["soft"] > 10, stats
    if ll.num_irq:
        assert stats["irq_rise"] > 20 and stats["irq_fall"] > 20, stats
    if any(words(d.width) == 2 for d in ll.dcapfs):
        assert stats["moved"] > 5, stats
    if any(t.relay for t in ll.traces):
        assert stats["relay_acks"] > 10, stats
    if ll.traces:
        assert stats["ram_reads"] > 10, stats
    assert stats["aborts"] > 5 and stats["late_commits"] > 5 and stats["held_checks"] > 100, stats
    dut._log.info("checked %d random register accesses over %d cycles (%s)", stats["acks"],
                  CYCLES, ", ".join(f"{k} {v}" for k, v in stats.items()))


@pytest.mark.parametrize("fixture,strict", [("three_sniffers", False), ("three_sniffers", True),
                                            ("one_sniffer", True), ("trace_only", False),
                                            ("relay", True),
                                            ("no_trace", True), ("no_irq", False)])
def test_lmic(fixture, strict):
    _, ll, addr_w = fixture_layout(fixture)
    run("jointer_collect_lmic", __name__, lmic_generics(ll, addr_w, strict),
        extra_env=params_env(fixture=fixture, strict=strict))
