# SPDX-License-Identifier: MIT
"""jointer_collect_lmic_results (RESULT and THRESHOLD registers) against a model.

Generics come from `layout.compute()` of small fixtures (as the generator
passes them): 64-bit, 33..63-bit and 1..32-bit results, thresholds of one
and two words, histograms (buckets > 1) of one- and two-word buckets, and a
fixture without result DCAPFs (the dummy item). The test drives what the
LMIC drives: rd_addr every cycle (host-like sequences: LO then HI of a
two-word result, a whole histogram first word first, threshold words, any
word) with rd pulses, wr/wr_addr/wr_data (wr_addr holding the written word
from the cycle before wr, as the LMIC's port does; threshold writes near the current
result: lower word staged then upper word, staged-only, upper-only; writes
to result and unmapped words), and dc_result (values moving all the time,
hovering around the thresholds, upper words crossing 2**32, garbage above
each DCAPF's width). Every cycle it checks rd_data (a window of more than 8
mapped words: the word read at the last rd, registered, with the snapshots
at rd; a smaller one: combinational, snapshots at rd_take, driven a cycle
after rd as the port does), rd_hit (combinational) and thr_set against the
model:
- RESULT: the live value (masked to the width); reading the least
  significant word of a two-word result snapshots the upper word, which
  the upper word then returns;
- histogram: the first word live; reading it snapshots every other word of
  all buckets, which then read the snapshot;
- THRESHOLD: committed value readback; a lower-word write is staged, the
  most significant word's write commits (staged | upper); reset all ones,
  staged word 0;
- thr_set: rising edge of (result >= threshold), one cycle late (the
  compare is registered).
A hard reset happens mid-test (stimulus keeps running during it).
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from collect_util import (FDcapf, FLmic, FSniffer, MASK32, layout, lmic_generics, params, params_env,
                          results_registered, start_clock)
from jointer_sim import run

CYCLES = 4000
M64 = (1 << 64) - 1

FIXTURES = {
    "mixed": [FLmic("a", [
        FSniffer("s0", [FDcapf("d0", 64, threshold_irq=True), FDcapf("d1", 40, "time", True),
                        FDcapf("h0", 40, buckets=3)]),
        FSniffer("s1", [FDcapf("d2", 10, threshold_irq=True), FDcapf("d3", 32), FDcapf("d4", 1, threshold_irq=True),
                        FDcapf("h1", 7, buckets=4)]),
    ])],
    "small": [FLmic("b", [
        FSniffer("s0", [FDcapf("d0", 53), FDcapf("d1", 32, threshold_irq=True), FDcapf("h0", 64, buckets=2),
                        FDcapf("d2", 33, threshold_irq=True)]),
        FSniffer("s1", [FDcapf("h1", 1, buckets=2), FDcapf("t0", extractor="trace", depth=4)]),
    ])],
    "none": [FLmic("c", [       # no result DCAPF: the dummy item
        FSniffer("s0", [FDcapf("t0", extractor="trace", depth=8)]),
    ])],
}

RESULT_GENERICS = ("addr_w_g", "num_dcapfs_g", "dcapf_width_g", "dcapf_result_word_g",
                   "dcapf_threshold_word_g", "dcapf_buckets_g")


def fixture_layout(name):
    lay = layout.compute(FIXTURES[name])
    return lay.lmics[0], lay.window_log2 - 2


def results_generics(ll, addr_w):
    """The generics the LMIC gives its results block (pipelined_g: a large window)."""
    g = lmic_generics(ll, addr_w, False)
    return {**{k: v for k, v in g.items() if k in RESULT_GENERICS}, "pipelined_g": results_registered(ll)}


class ResultsModel:
    """State of the block; read()/thr_set() combinational, step() = one edge."""

    def __init__(self, ds):
        self.ds = ds
        self.m = [(1 << d.width) - 1 for d in ds]
        self.w = [layout.words_of(d.width) for d in ds]
        self.reset()

    def reset(self):
        self.shadow = [0] * len(self.ds)
        self.snap = [[0] * d.result_words for d in self.ds]
        self.thr = list(self.m)
        self.stage = [0] * len(self.ds)
        self.ge_q = [0] * len(self.ds)     # the registered compare
        self.ge_r = [0] * len(self.ds)

    def live_word(self, i, j, live):
        w = self.w[i]
        return ((live[i][j // w] & self.m[i]) >> (32 * (j % w))) & MASK32

    def read(self, addr, live):
        data = hit = 0
        for i, d in enumerate(self.ds):
            rw, tw, w = d.result_word, d.threshold_word, self.w[i]
            if d.buckets == 1:
                if addr == rw:
                    data |= self.live_word(i, 0, live)
                    hit = 1
                if w == 2 and addr == rw + 1:
                    data |= self.shadow[i]
                    hit = 1
            elif rw <= addr < rw + d.result_words:
                j = addr - rw
                data |= self.live_word(i, 0, live) if j == 0 else self.snap[i][j]
                hit = 1
            if tw >= 0:
                for k in range(w):
                    if addr == tw + k:
                        data |= (self.thr[i] >> (32 * k)) & MASK32
                        hit = 1
        return data, hit

    def ge(self, live):
        return [int(d.threshold_word >= 0 and (live[i][0] & self.m[i]) >= self.thr[i])
                for i, d in enumerate(self.ds)]

    def thr_set(self, live):
        return sum((g and not r) << i for i, (g, r) in enumerate(zip(self.ge_q, self.ge_r)))

    def step(self, rst, rd, addr, wr, waddr, wdata, live):
        self.ge_r, self.ge_q = self.ge_q, self.ge(live)
        for i, d in enumerate(self.ds):
            rw, tw, w = d.result_word, d.threshold_word, self.w[i]
            if rd and addr == rw:
                if d.buckets == 1 and w == 2:
                    self.shadow[i] = (live[i][0] & self.m[i]) >> 32
                elif d.buckets > 1:
                    self.snap[i] = [self.live_word(i, j, live) for j in range(d.result_words)]
            if wr and tw >= 0:
                if w == 1 and waddr == tw:
                    self.thr[i] = wdata & self.m[i]
                elif w == 2 and waddr == tw:
                    self.stage[i] = wdata
                elif w == 2 and waddr == tw + 1:
                    self.thr[i] = ((wdata << 32) | self.stage[i]) & self.m[i]
        if rst:
            self.reset()


@cocotb.test()
async def random_results(dut):
    p = params()
    ll, addr_w = fixture_layout(p["fixture"])
    ds = ll.dcapfs
    nwords = 1 << addr_w
    model = ResultsModel(ds)
    reg_read = results_registered(ll)   # read registered at rd (else combinational, snapshot at rd_take)
    prev_rd = 0
    slots = [(i, b) for i, d in enumerate(ds) for b in range(d.buckets)]
    live = [[0] * d.buckets for d in ds]
    garbage = [[0] * d.buckets for d in ds]     # bits above the width (must be ignored)
    thr_ds = [i for i, d in enumerate(ds) if d.threshold_word >= 0]
    start_clock(dut.clk, 10)

    def drive_results():
        v = 0
        for k, (i, b) in enumerate(slots):
            m = model.m[i]
            v |= ((live[i][b] & m) | (garbage[i][b] & ~m & M64)) << (64 * k)
        dut.dc_result.value = v

    for s in ("rd", "rd_take", "rd_addr", "wr", "wr_addr", "wr_data", "dc_result"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    for _ in range(2):
        await RisingEdge(dut.clk)
    dut.rst.value = 0

    stats = {"reads": 0, "hits": 0, "pairs_moved": 0, "hist_moved": 0, "hist_snaps": 0,
             "thr_commits": 0, "thr_staged": 0, "thr_set": 0, "thr_reads": 0, "reset_reads": 0,
             "unmapped_writes": 0}
    per_thr = {i: 0 for i in thr_ds}
    rqueue, wqueue = [], []
    armed = None                                # a write whose address shows, committed next cycle
    reset_at = CYCLES // 2
    after_reset = False
    last_read = None        # the word of the last rd (what rd_data shows from the next cycle)

    def refill_reads():
        r = random.random()
        if not ds or r < 0.15:
            return [random.randrange(nwords)]
        i = random.randrange(len(ds))
        d = ds[i]
        if d.buckets > 1 and r < 0.6:              # a whole histogram, first word first
            rest = list(range(1, d.result_words))
            random.shuffle(rest)
            return [d.result_word + j for j in [0] + rest]
        if model.w[i] == 2 and r < 0.75:
            return [d.result_word, d.result_word + 1]
        if d.threshold_word >= 0 and r < 0.85:
            return [d.threshold_word + k for k in range(model.w[i])]
        return [d.result_word + random.randrange(d.result_words)]

    def refill_writes():
        if thr_ds and random.random() < 0.8:
            i = random.choice(thr_ds)
            d = ds[i]
            value = (live[i][0] + random.randrange(-3, 4)) & model.m[i]
            if random.random() < 0.15:
                value = random.getrandbits(d.width)
            seq = [(d.threshold_word + k, (value >> (32 * k)) & MASK32) for k in range(model.w[i])]
            if model.w[i] == 2:
                r = random.random()
                if r < 0.15:
                    seq = seq[:1]              # staged only
                elif r < 0.25:
                    seq = seq[1:]              # upper only: commits the old staged word
            return seq
        return [(random.randrange(nwords), random.getrandbits(32))]

    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        rst = int(reset_at <= cycle < reset_at + 2)
        if cycle == reset_at + 2:
            after_reset = True                  # read every threshold / shadow word next
            rqueue = [a for d in ds for a in ([d.threshold_word + k for k in range(layout.words_of(d.width))]
                                              if d.threshold_word >= 0 else [])
                      + ([d.result_word + 1] if d.buckets == 1 and layout.words_of(d.width) == 2 else [])]
            # a lone upper-word write right after the reset commits the reset staged word (0)
            wqueue = [(d.threshold_word + 1, random.getrandbits(32)) for d in ds
                      if d.threshold_word >= 0 and layout.words_of(d.width) == 2]
        # the results move: around the thresholds, across 2**32, at random
        for i, d in enumerate(ds):
            for b in range(d.buckets):
                if random.random() < 0.25:
                    r = random.random()
                    if d.threshold_word >= 0 and r < 0.6:
                        live[i][b] = max(0, min(model.m[i], model.thr[i] + random.randrange(-2, 3)))
                    elif r < 0.9:
                        live[i][b] = (live[i][b] + random.choice([1, 3, 1 << 31, 1 << 32, -1])) & M64
                    else:
                        live[i][b] = random.getrandbits(64)
                if random.random() < 0.1:
                    garbage[i][b] = random.getrandbits(64)
        # read side: the address moves every cycle, rd pulses for requests
        if rqueue and random.random() < 0.7:
            addr, rd = rqueue.pop(0), int(random.random() < 0.95)
        else:
            addr, rd = random.randrange(nwords), int(random.random() < 0.15)
            if not rqueue and random.random() < 0.5:
                rqueue = refill_reads()
        # write side: wr_addr shows the address a cycle before the commit (the
        # port's captured address; the block decodes it a cycle ahead)
        wr = 0
        waddr, wdata = random.randrange(nwords), random.getrandbits(32)
        if armed is not None:
            (waddr, wdata), armed, wr = armed, None, 1
        elif random.random() < 0.15:
            if not wqueue:
                wqueue = refill_writes()
            armed = wqueue.pop(0)
            waddr = armed[0]
        dut.rst.value = rst
        dut.rd.value = rd
        dut.rd_take.value = prev_rd
        dut.rd_addr.value = addr
        dut.wr.value = wr
        dut.wr_addr.value = waddr
        dut.wr_data.value = wdata
        drive_results()
        exp_data, exp_hit = model.read(addr, live)
        exp_set = model.thr_set(live)
        await Timer(1, "ns")
        ctx = (cycle, rst, rd, addr, wr, waddr, hex(wdata))
        if not reg_read or last_read is not None:
            got = int(dut.rd_data.value)
            exp = exp_data if not reg_read else last_read   # the word at rd_addr now / at the last rd
            assert got == exp, (ctx, hex(got), hex(exp))
        if rd:
            last_read = exp_data
        assert int(dut.rd_hit.value) == exp_hit, ctx
        assert int(dut.thr_set.value) == exp_set, (ctx, exp_set, model.thr, [live[i][0] for i in thr_ds])
        # what was exercised
        stats["reads"] += rd
        stats["hits"] += rd and exp_hit
        stats["thr_set"] += bin(exp_set).count("1")
        for i in thr_ds:
            per_thr[i] += (exp_set >> i) & 1
        for i, d in enumerate(ds):
            if not rd:
                continue
            if d.buckets == 1 and model.w[i] == 2 and addr == d.result_word + 1:
                stats["pairs_moved"] += model.shadow[i] != (live[i][0] & model.m[i]) >> 32
            if d.buckets > 1 and addr == d.result_word:
                stats["hist_snaps"] += 1
            if d.buckets > 1 and d.result_word < addr < d.result_word + d.result_words:
                stats["hist_moved"] += exp_data != model.live_word(i, addr - d.result_word, live)
            if d.threshold_word >= 0 and d.threshold_word <= addr < d.threshold_word + model.w[i]:
                stats["thr_reads"] += 1
                reset_word = (model.m[i] >> (32 * (addr - d.threshold_word))) & MASK32
                stats["reset_reads"] += after_reset and exp_data == reset_word
            if wr and d.threshold_word >= 0:
                if waddr == d.threshold_word + model.w[i] - 1:
                    stats["thr_commits"] += 1
                elif waddr == d.threshold_word:
                    stats["thr_staged"] += 1
        if wr and not model.read(waddr, live)[1]:
            stats["unmapped_writes"] += 1
        if after_reset and not rqueue:
            after_reset = False
        model.step(rst, rd if reg_read else prev_rd, addr, wr, waddr, wdata, live)
        prev_rd = rd
        await RisingEdge(dut.clk)
    assert stats["unmapped_writes"] > 10, stats
    if ds:
        assert stats["hits"] > 300, stats
    if thr_ds:
        assert stats["thr_commits"] > 30 and stats["thr_reads"] > 30 and stats["reset_reads"] >= 1, stats
        assert all(n > 5 for n in per_thr.values()), (per_thr, stats)
    if any(d.threshold_word >= 0 and layout.words_of(d.width) == 2 for d in ds):
        assert stats["thr_staged"] > 20, stats
    if any(d.buckets == 1 and layout.words_of(d.width) == 2 for d in ds):
        assert stats["pairs_moved"] > 10, stats
    if any(d.buckets > 1 for d in ds):
        assert stats["hist_snaps"] > 20 and stats["hist_moved"] > 20, stats
    dut._log.info("checked %d cycles: %s, thr_set per DCAPF %s", CYCLES,
                  ", ".join(f"{k} {v}" for k, v in stats.items()), per_thr)


@pytest.mark.parametrize("fixture", sorted(FIXTURES))
def test_lmic_results(fixture):
    ll, addr_w = fixture_layout(fixture)
    run("jointer_collect_lmic_results", __name__, results_generics(ll, addr_w),
        extra_env=params_env(fixture=fixture))
