# SPDX-License-Identifier: MIT
"""jointer_collect_lmic: multi-slot (histogram) RESULT words.

A histogram DCAPF has N buckets (dcapf_buckets_g), each ceil(width/32)
words, bucket 0 first; reading its first word snapshots every other word of
all buckets. Fixtures from `layout.compute()` mix histograms (1- and 2-word
buckets) with ordinary 1/2-word results and a threshold. The live bucket
values change in almost every cycle (samples arriving while the host reads);
the host reads whole histograms (first word, then the others in random order
with random gaps), lone words, and the ordinary results. Every acknowledge is
compared with the model: word 0 live, the others the snapshot of the cycle
word 0 was read; per whole-histogram read the test also checks that what the
host assembled equals the live buckets of that one cycle (torn-free), while
the live values did move in between.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from collect_util import (FDcapf, FLmic, FSniffer, MASK32, layout, lmic_generics, params, params_env,
                          results_registered, start_clock)
from jointer_sim import run

CYCLES = 5000

FIXTURES = {
    "mixed": [FLmic("a", [
        FSniffer("s0", [FDcapf("d0", 10), FDcapf("h0", 32, buckets=5)]),
        FSniffer("s1", [FDcapf("h1", 40, buckets=3), FDcapf("d1", 64, threshold_irq=True)]),
        FSniffer("s2", [FDcapf("h2", 7, buckets=64)]),
    ])],
    "two_hist": [FLmic("b", [
        FSniffer("s0", [FDcapf("h0", 64, buckets=2), FDcapf("h1", 1, buckets=2)]),
    ])],
}


@cocotb.test()
async def random_reads(dut):
    p = params()
    lay = layout.compute(FIXTURES[p["fixture"]])
    ll = lay.lmics[0]
    ds = ll.dcapfs
    slots = [(i, b) for i, d in enumerate(ds) for b in range(d.buckets)]
    live = [[0] * d.buckets for d in ds]
    masks = [(1 << d.width) - 1 for d in ds]
    sample_stage = 2 if results_registered(ll) else 3   # the read's first or second cycle
    start_clock(dut.clk, 10)

    def drive():
        v = 0
        for k, (i, b) in enumerate(slots):
            v |= (live[i][b] & ((1 << 64) - 1)) << (64 * k)
        dut.dc_result.value = v

    def word_value(i, j, vals):
        d = ds[i]
        w = layout.words_of(d.width)
        return ((vals[j // w] & masks[i]) >> (32 * (j % w))) & MASK32

    for s in ("rp_req", "rp_commit", "rp_we", "rp_addr", "rp_wdata"):
        getattr(dut, s).value = 0
    dut.dc_overflow.value = 0
    dut.dc_caught.value = 0
    for s in ("tr_wptr", "tr_fill", "tr_full", "tr_overflow", "tr_rd_data"):
        getattr(dut, s).value = 0
    drive()
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0

    snap = [[0] * d.buckets for d in ds]         # model of the LMIC snapshot
    queue, stats = [], {"acks": 0, "whole": 0, "moved": 0}
    whole = None                                 # (i, live copy at word 0, words read)
    cur, gap = None, 0
    stage = 0          # 0 idle, 1 the request's cycle, 2 the read (snapshot; answered at its end)
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        for i, d in enumerate(ds):               # samples: buckets move all the time
            for b in range(d.buckets):
                if random.random() < 0.3:
                    live[i][b] = (live[i][b] + random.choice([1, 1, 2, 1 << 31, 1 << 32])) & ((1 << 64) - 1)
                if random.random() < 0.01:
                    live[i][b] = random.getrandbits(64)
        req = 0
        if stage == 0 and cycle < CYCLES - 7:
            if gap:
                gap -= 1
            else:
                if not queue:
                    i = random.randrange(len(ds))
                    d = ds[i]
                    n = d.result_words
                    r = random.random()
                    if r < 0.6 and d.buckets > 1:        # a whole histogram
                        rest = list(range(1, n))
                        random.shuffle(rest)
                        queue = [("whole", i, j) for j in [0] + rest]
                    else:
                        queue = [("one", i, random.randrange(n))]
                    gap = random.choice([0, 0, 1, 4])
                cur = queue.pop(0)
                req, stage = 1, 1
        elif stage in (1, 2):
            stage += 1
        kind, i, j = cur if cur is not None else ("", 0, 0)
        addr = ds[i].result_word + j if cur is not None else 0
        dut.rp_req.value = req
        dut.rp_we.value = 0
        dut.rp_addr.value = addr
        drive()
        if stage == sample_stage:
            # the LMIC reads the word (and snapshots) in the cycle after the
            # request (a large window: registered) or the one after it
            d = ds[i]
            if j == 0:
                exp = word_value(i, 0, live[i])
            elif d.buckets > 1 or layout.words_of(d.width) == 2:
                exp = word_value(i, j, snap[i])
            else:
                exp = word_value(i, j, live[i])
            if j == 0:
                snap[i] = list(live[i])
                if kind == "whole":
                    whole = (i, list(live[i]), {0: exp})
        await RisingEdge(dut.clk)
        await ReadOnly()
        assert int(dut.rp_ack.value) == int(stage == 3), cycle   # the read's answer, a cycle later
        if stage == 3:
            stage, cur = 0, None
            got = int(dut.rp_rdata.value)
            assert got == exp, (f"cycle {cycle}: {ds[i].name} word {j} (addr {addr}): got {got:#x}, "
                                f"expected {exp:#x}")
            stats["acks"] += 1
            if kind == "whole" and whole is not None:
                wi, at0, got_words = whole
                got_words[j] = got
                if len(got_words) == ds[wi].result_words:
                    w = layout.words_of(ds[wi].width)
                    assembled = [sum(got_words[b * w + k] << (32 * k) for k in range(w))
                                 for b in range(ds[wi].buckets)]
                    assert assembled == [v & masks[wi] for v in at0], (cycle, assembled, at0)
                    stats["whole"] += 1
                    stats["moved"] += [v & masks[wi] for v in live[wi]] != assembled
                    whole = None
    assert stats["whole"] > 20 and stats["moved"] > 10, stats
    dut._log.info("checked %s", stats)


@pytest.mark.parametrize("fixture", sorted(FIXTURES))
def test_lmic_histogram(fixture):
    lay = layout.compute(FIXTURES[fixture])
    ll = lay.lmics[0]
    run("jointer_collect_lmic", __name__, lmic_generics(ll, lay.window_log2 - 2, False),
        name="jointer_collect_lmic_histogram", extra_env=params_env(fixture=fixture))
