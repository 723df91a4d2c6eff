# SPDX-License-Identifier: MIT
"""jointer_collect_lmic_trace (TRACE registers and RAM windows) against a model.

Generics come from `layout.compute()` of small fixtures with 1..3 traces,
stop and relay (trace_relay_g), depths 2..16, next to result DCAPFs (whose
words this block must not map). The test drives what the LMIC drives:
rd_addr every cycle (register words, RAM window words, any word) with rd
pulses, wr/wr_addr/wr_data like the request pipeline (wr_data is the held
word: it stays at least one cycle after a write) with WATERMARK writes
(in range, 0 = off, and too wide: only log2(depth)+1 bits are kept), ACK
writes of relay traces, writes to read-only and unmapped words; and the
extractor side: WPTR, FILL (hovering around the watermark, at depth, and
now and then a 32-bit value), FULL, OVERFLOW, RPTR, LOST, and the trace
RAMs (tr_rd_data of cycle n+1 = the word at tr_rd_addr of cycle n, the RAM
words being rewritten all the time). Every cycle it checks against the
model: rd_data/rd_hit/rd_ram/tr_rd_addr (combinational: WPTR, FILL, STATUS,
WATERMARK, DEPTH, relay RPTR/ACK(reads 0)/LOST; a RAM window word is rd_ram,
not rd_hit, with tr_rd_addr its offset), ram_data (0, or the word of the
RAM window read in the previous cycle; with one trace, its RAM's output in
every cycle: the port takes it only after a RAM read), tr_ack (one cycle after a write to
a relay trace's ACK, that trace only) with tr_ack_n = the written count,
wm_set (FILL rises to >= WATERMARK, never with WATERMARK 0; one cycle late,
the compare is registered) and full_set
(FULL rises). A hard reset happens mid-test.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from collect_util import FDcapf, FLmic, FSniffer, layout, lmic_generics, params, params_env, start_clock
from jointer_sim import run

CYCLES = 4000

FIXTURES = {
    "one_stop": [FLmic("a", [
        FSniffer("s0", [FDcapf("d0", 10), FDcapf("t0", extractor="trace", depth=2)]),
    ])],
    "relay_stop": [FLmic("b", [
        FSniffer("s0", [FDcapf("t0", extractor="trace", depth=8, mode="relay")]),
        FSniffer("s1", [FDcapf("d0", 40, threshold_irq=True), FDcapf("t1", extractor="trace", depth=4)]),
    ])],
    "three": [FLmic("c", [
        FSniffer("s0", [FDcapf("t0", extractor="trace", depth=16, mode="relay"),
                        FDcapf("t1", extractor="trace", depth=4)]),
        FSniffer("s1", [FDcapf("d0", 7), FDcapf("t2", extractor="trace", depth=2, mode="relay")]),
    ])],
}

TRACE_GENERICS = ("addr_w_g", "num_traces_g", "trace_reg_word_g", "trace_ram_word_g",
                  "trace_depth_log2_g", "trace_relay_g")
ACK = layout.RELAY_REGS["ACK"]
WATERMARK = layout.TRACE_REGS["WATERMARK"]


def fixture_layout(name):
    lay = layout.compute(FIXTURES[name])
    return lay.lmics[0], lay.window_log2 - 2


def trace_generics(ll, addr_w):
    g = lmic_generics(ll, addr_w, False)
    return {k: v for k, v in g.items() if k in TRACE_GENERICS}


class TraceModel:
    """State of the block; comb() combinational outputs, step() = one edge."""

    def __init__(self, ts):
        self.ts = ts
        self.ramsel = [0] * len(ts)     # not reset (rd is 0 during the first reset)
        self.reset()

    def reset(self):
        n = len(self.ts)
        self.wm, self.wm_ge_r, self.full_r, self.ack_r = [0] * n, [0] * n, [0] * n, [0] * n
        self.wm_ge_q = [0] * n          # the registered compare

    def wm_ge(self, inp):
        return [int(self.wm[i] != 0 and inp["fill"][i] >= self.wm[i]) for i in range(len(self.ts))]

    def comb(self, addr, inp, tr_rd_data):
        """(rd_data, rd_hit, rd_ram, tr_rd_addr, ram_data, wm_set, full_set, tr_ack)."""
        data = hit = ram = tra = ram_data = 0
        for i, t in enumerate(self.ts):
            regs = [inp["wptr"][i], inp["fill"][i], inp["full"][i] | (inp["ovf"][i] << 1), self.wm[i],
                    t.depth, inp["rptr"][i], 0, inp["lost"][i]]
            if t.reg_word <= addr < t.reg_word + t.reg_words:
                data |= regs[addr - t.reg_word]
                hit = 1
            if t.ram_word <= addr < t.ram_word + 2 * t.depth:
                ram, tra = 1, addr - t.ram_word
            if self.ramsel[i] or len(self.ts) == 1:   # one trace: its RAM's output as it is
                ram_data |= tr_rd_data[i]
        wm_set = sum((g and not r) << i for i, (g, r) in enumerate(zip(self.wm_ge_q, self.wm_ge_r)))
        full_set = sum((f and not r) << i for i, (f, r) in enumerate(zip(inp["full"], self.full_r)))
        tr_ack = sum(a << i for i, a in enumerate(self.ack_r))
        return data, hit, ram, tra, ram_data, wm_set, full_set, tr_ack

    def step(self, rst, rd, addr, wr, waddr, wdata, inp):
        self.ramsel = [int(rd and t.ram_word <= addr < t.ram_word + 2 * t.depth) for t in self.ts]
        self.wm_ge_r, self.wm_ge_q = self.wm_ge_q, self.wm_ge(inp)
        self.full_r = list(inp["full"])
        self.ack_r = [int(t.relay and wr and waddr == t.reg_word + ACK) for t in self.ts]
        for i, t in enumerate(self.ts):
            if wr and waddr == t.reg_word + WATERMARK:
                self.wm[i] = wdata & ((2 << t.depth_log2) - 1)
        if rst:
            self.reset()


@cocotb.test()
async def random_traces(dut):
    p = params()
    ll, addr_w = fixture_layout(p["fixture"])
    ts = ll.traces
    T = len(ts)
    nwords = 1 << addr_w
    model = TraceModel(ts)
    mems = [[random.getrandbits(32) for _ in range(2 * t.depth)] for t in ts]
    start_clock(dut.clk, 10)

    def pack(values, width):
        return sum((v & ((1 << width) - 1)) << (width * i) for i, v in enumerate(values))

    inp = {k: [0] * T for k in ("wptr", "fill", "full", "ovf", "rptr", "lost")}
    tr_rd_data = [0] * T

    def drive_inputs():
        dut.tr_wptr.value = pack(inp["wptr"], 32)
        dut.tr_fill.value = pack(inp["fill"], 32)
        dut.tr_full.value = pack(inp["full"], 1)
        dut.tr_overflow.value = pack(inp["ovf"], 1)
        dut.tr_rptr.value = pack(inp["rptr"], 32)
        dut.tr_lost.value = pack(inp["lost"], 32)
        dut.tr_rd_data.value = pack(tr_rd_data, 32)

    for s in ("rd", "rd_addr", "wr", "wr_addr", "wr_data"):
        getattr(dut, s).value = 0
    drive_inputs()
    dut.rst.value = 1
    for _ in range(2):
        await RisingEdge(dut.clk)
    dut.rst.value = 0

    stats = {"ram_words": 0, "reg_reads": 0, "wm_reads": 0, "wm_writes": 0, "wm_wide": 0,
             "wm_off": 0, "unmapped": 0}
    per = {k: [0] * T for k in ("wm_set", "full_set", "acks", "ram", "relay_regs")}
    rqueue = []
    reset_at = CYCLES // 2
    waddr, wdata, prev_wr, prev_wdata = 0, 0, 0, 0
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        rst = int(reset_at <= cycle < reset_at + 2)
        # the extractors move; FILL hovers around the watermark
        for i, t in enumerate(ts):
            if random.random() < 0.3:
                r = random.random()
                if r < 0.6 and model.wm[i]:
                    inp["fill"][i] = max(0, model.wm[i] + random.randrange(-2, 2))
                elif r < 0.95:
                    inp["fill"][i] = max(0, min(t.depth, inp["fill"][i] + random.choice([-1, 1, 2, -2])))
                else:
                    inp["fill"][i] = random.getrandbits(32)
                inp["full"][i] = int(inp["fill"][i] >= t.depth)
            if random.random() < 0.03:
                inp["full"][i] ^= 1
            if random.random() < 0.1:
                inp["wptr"][i] = random.getrandbits(32)
                inp["rptr"][i] = random.getrandbits(32)
                inp["lost"][i] = random.getrandbits(32)
            if random.random() < 0.02:
                inp["ovf"][i] ^= 1
        for i, t in enumerate(ts):  # the producer rewrites the RAM
            mems[i][random.randrange(2 * t.depth)] = random.getrandbits(32)
        # read side
        if rqueue and random.random() < 0.8:
            addr, rd = rqueue.pop(0), int(random.random() < 0.9)
        else:
            addr, rd = random.randrange(nwords), int(random.random() < 0.2)
            if not rqueue:
                t = random.choice(ts)
                r = random.random()
                if r < 0.4:
                    rqueue = [t.ram_word + random.randrange(2 * t.depth) for _ in range(random.randrange(1, 4))]
                elif r < 0.8:
                    rqueue = [t.reg_word + random.randrange(t.reg_words)]
                else:
                    rqueue = [t.reg_word + WATERMARK]
        # write side, as the request pipeline: the word stays after a write
        wr = 0
        if not prev_wr:
            waddr, wdata = random.randrange(nwords), random.getrandbits(32)
            if random.random() < 0.25:
                t = random.choice(ts)
                r = random.random()
                wr = 1
                if r < 0.45:
                    waddr = t.reg_word + WATERMARK
                    wdata = random.choice([random.randrange(1, t.depth + 1)] * 6
                                          + [0, t.depth + 1, random.getrandbits(32)])
                elif r < 0.75 and t.relay:
                    waddr, wdata = t.reg_word + ACK, random.choice([random.randrange(t.depth + 2),
                                                                   random.getrandbits(32)])
                elif r < 0.9:   # its registers; for a stop trace also the relay offsets
                    waddr = (t.reg_word + random.randrange(8)) % nwords
        dut.rst.value = rst
        dut.rd.value = rd
        dut.rd_addr.value = addr
        dut.wr.value = wr
        dut.wr_addr.value = waddr
        dut.wr_data.value = wdata
        drive_inputs()
        exp = model.comb(addr, inp, tr_rd_data)
        await Timer(1, "ns")
        ctx = (cycle, rst, rd, addr, wr, waddr, hex(wdata))
        got = tuple(int(getattr(dut, s).value) for s in
                    ("rd_data", "rd_hit", "rd_ram", "tr_rd_addr", "ram_data", "wm_set", "full_set", "tr_ack"))
        assert got == exp, (ctx, "rd_data rd_hit rd_ram tr_rd_addr ram_data wm_set full_set tr_ack",
                            got, exp, model.wm, inp["fill"])
        assert int(dut.tr_ack_n.value) == wdata, ctx
        if exp[7]:
            assert prev_wr and int(dut.tr_ack_n.value) == prev_wdata, ctx  # the count written to ACK
        # what was exercised
        for i, t in enumerate(ts):
            per["wm_set"][i] += (exp[5] >> i) & 1
            per["full_set"][i] += (exp[6] >> i) & 1
            per["acks"][i] += (exp[7] >> i) & 1
            per["ram"][i] += model.ramsel[i]
            if t.relay and t.reg_word + 5 <= addr < t.reg_word + 8:
                per["relay_regs"][i] += 1
            if wr and waddr == t.reg_word + WATERMARK:
                stats["wm_writes"] += 1
                stats["wm_wide"] += wdata >= (2 << t.depth_log2)
                stats["wm_off"] += wdata & ((2 << t.depth_log2) - 1) == 0 and model.wm[i] != 0
            if addr == t.reg_word + WATERMARK:
                stats["wm_reads"] += 1
        stats["ram_words"] += exp[2]
        stats["reg_reads"] += exp[1]
        stats["unmapped"] += not (exp[1] or exp[2])
        model.step(rst, rd, addr, wr, waddr, wdata, inp)
        # the RAMs register the word at this cycle's address
        tr_rd_data = [mems[i][exp[3] % (2 * t.depth)] for i, t in enumerate(ts)]
        prev_wr, prev_wdata = wr, wdata
        await RisingEdge(dut.clk)
    assert stats["ram_words"] > 300 and stats["reg_reads"] > 300 and stats["unmapped"] > 100, stats
    assert stats["wm_writes"] > 50 and stats["wm_wide"] > 5 and stats["wm_off"] > 5 and stats["wm_reads"] > 50, stats
    for i, t in enumerate(ts):
        assert per["wm_set"][i] > 10 and per["full_set"][i] > 10 and per["ram"][i] > 30, (i, per, stats)
        if t.relay:
            assert per["acks"][i] > 10 and per["relay_regs"][i] > 20, (i, per, stats)
        else:
            assert per["acks"][i] == 0, (i, per)
    dut._log.info("checked %d cycles: %s, per trace %s", CYCLES,
                  ", ".join(f"{k} {v}" for k, v in stats.items()), per)


@pytest.mark.parametrize("fixture", sorted(FIXTURES))
def test_lmic_trace(fixture):
    ll, addr_w = fixture_layout(fixture)
    run("jointer_collect_lmic_trace", __name__, trace_generics(ll, addr_w),
        extra_env=params_env(fixture=fixture))
