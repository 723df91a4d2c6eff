# SPDX-License-Identifier: MIT
"""jointer_collect_cdc: the register-port bridge between unrelated clocks.

A Python rp master on the s side (one request at a time, values held
through the acknowledge cycle, every request tagged by a unique wdata; the
answer of a write is followed by s_commit in the answer's cycle, as the DCI
does, except for some writes, which it abandons) and a Python LMIC-like
target on the m side (answers 1..3 cycles after m_req and holds the answer
until its next m_req; captures a write at m_req and performs it only on
m_commit; SLVERR on some words) with a protocol checker (one-cycle m_req,
one at a time, m_commit only after the answer of a captured write, at most
once). The m side captures everything at m_req, so m_we/m_addr/m_wdata need
only be right then; an orphan handshake (timed out, or cut by s_rst) may
capture whatever the s side shows when the m side gets to it - a read then
is answered to nobody, a write is never committed. Phases: normal
traffic, m_rst pulses during traffic, m_rst held, m clock stopped (timeout
-> SLVERR, orphan completed later, never committed), s_rst in the middle of
requests. Checks, against the target's log:
- every request is answered exactly once, within timeout_g + a few cycles
  (no hang), also a request cut by s_rst (never committed);
- the m side performs the requests in order, each at most once (no repeated
  access), with the we/addr the s side sent;
- a request answered without the bridge's own SLVERR was performed exactly
  once, and its rdata/err are what the target answered;
- two phases: a write is performed (committed on the m side) when the master
  committed its OKAY answer with no s_rst since the request - unless an
  m-side reset came between its capture and its commit (it would clear what
  the write set anyway); a write the master abandoned, that timed out, was
  answered by the m-side reset or was cut by s_rst never lands.
Clock ratios (bus:LMIC periods): 1:3.7, 5.3:1 and a near 1:1.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer

from collect_util import MASK32, params, params_env, start_clock
from jointer_sim import run

TIMEOUT = 64
ADDR_W = 6


class MTarget:
    def __init__(self, dut):
        self.dut = dut
        self.mem = {}
        self.log = {}        # tag -> (we, addr, rdata, err) of its last capture
        self.order = []      # tags in capture order (an orphan may capture a tag again)
        self.committed = []  # tags of the writes performed (m_commit), in order
        self.pending = None
        self.armed = None    # the captured write, until its commit or the next request
        self.held = (0, 0)   # the answer held until the next m_req

    async def run(self):
        d = self.dut
        d.m_ack.value = 0
        d.m_rdata.value = 0
        d.m_err.value = 0
        acked = None
        while True:
            await RisingEdge(d.m_clk)
            p = self.pending
            acked = None
            if p is not None and p["due"] == 0:
                self.held = (p["rdata"], p["err"])
                d.m_ack.value = 1
                acked, self.pending = p, None
            else:
                d.m_ack.value = 0
                if p is not None:
                    p["due"] -= 1
            d.m_rdata.value = self.held[0]
            d.m_err.value = self.held[1]
            await ReadOnly()
            if int(d.m_commit.value):
                assert self.pending is None, "m_commit before the answer"
                if self.armed is not None:     # phase 2: perform the captured write
                    tag, addr = self.armed
                    self.mem[addr] = tag
                    self.committed.append(tag)
                    self.armed = None
            if int(d.m_req.value):
                assert self.pending is None, "m_req while an access is pending"
                we, addr, tag = int(d.m_we.value), int(d.m_addr.value), int(d.m_wdata.value)
                err = int(addr % 5 == 4)
                rdata = 0
                if not err and not we:
                    rdata = self.mem.get(addr, addr * 0x01010101)
                self.armed = (tag, addr) if we and not err else None
                self.log[tag] = (we, addr, rdata, err)
                self.order.append(tag)
                self.pending = {"we": we, "addr": addr, "tag": tag, "rdata": rdata, "err": err,
                                "due": random.choice([0, 0, 0, 1, 2])}


class SMaster:
    def __init__(self, dut):
        self.dut = dut
        self.sent = []       # (tag, we, addr, answer, committed) answer = (rdata, err) | "cut"
        self.latency = []    # s cycles from the request to its answer
        self.waiting = False
        self.acks = 0
        self.abandon = 0.1   # share of OKAY writes the master does not commit

    async def monitor(self):
        """Every s_ack answers the request being waited for."""
        d = self.dut
        while True:
            await RisingEdge(d.s_clk)
            await ReadOnly()
            if d.s_ack.value.is_resolvable and int(d.s_ack.value):
                assert self.waiting, "s_ack without a request"
                self.acks += 1

    async def access(self, we, addr, tag):
        d = self.dut
        await FallingEdge(d.s_clk)
        d.s_req.value = 1
        d.s_we.value = we
        d.s_addr.value = addr
        d.s_wdata.value = tag
        self.waiting = True
        cycles = 0
        answer = None
        committed = False
        cut = False
        while True:
            await FallingEdge(d.s_clk)
            d.s_req.value = 0
            cut = cut or bool(int(d.s_rst.value))
            if int(d.s_ack.value):
                answer = (int(d.s_rdata.value), int(d.s_err.value))
                if cut:
                    answer = "cut"  # answered, but the reset aborts it: never committed
                    break
                if we and not answer[1] and random.random() >= self.abandon:
                    d.s_commit.value = 1   # with the answer, as the DCI
                    committed = True
                break
            cycles += 1
            assert cycles <= TIMEOUT + 6, f"no answer after {cycles} cycles (hang)"
        await FallingEdge(d.s_clk)  # values held through the acknowledge cycle
        if committed and int(d.s_rst.value):
            committed = False       # a reset in the commit cycle aborts it
        d.s_commit.value = 0
        self.waiting = False
        self.sent.append((tag, we, addr, answer, committed))
        self.latency.append(cycles)
        return answer


@cocotb.test()
async def bridge(dut):
    p = params()
    s_period, m_period = p["s_period"], p["m_period"]
    for s in ("s_rst", "s_req", "s_commit", "s_we", "s_addr", "s_wdata", "m_rst"):
        getattr(dut, s).value = 0
    start_clock(dut.s_clk, s_period)
    await Timer(round(random.randrange(1, 100) / 10 * 1000), "ps")  # unrelated phase
    mclk = start_clock(dut.m_clk, m_period)
    target, master = MTarget(dut), SMaster(dut)
    cocotb.start_soon(target.run())
    dut.s_rst.value = 1
    dut.m_rst.value = 1
    await Timer(round(10 * max(s_period, m_period) * 1000), "ps")
    dut.s_rst.value = 0
    dut.m_rst.value = 0
    await Timer(round(5 * max(s_period, m_period) * 1000), "ps")
    cocotb.start_soon(master.monitor())
    tags = set()

    def new_tag():
        while True:
            t = random.getrandbits(32)
            if t not in tags:
                tags.add(t)
                return t

    async def traffic(n):
        for _ in range(n):
            for _ in range(random.choice([0, 0, 1, 3])):
                await FallingEdge(dut.s_clk)
            await master.access(random.getrandbits(1), random.getrandbits(ADDR_W), new_tag())

    async def m_reset_pulses(n, lo, hi):
        for _ in range(n):
            await Timer(round(random.randrange(20, 400) * m_period / 10 * 1000), "ps")
            await FallingEdge(dut.m_clk)
            dut.m_rst.value = 1
            for _ in range(random.randrange(lo, hi)):
                await FallingEdge(dut.m_clk)
            dut.m_rst.value = 0

    async def s_reset_pulses(n):
        for _ in range(n):
            await Timer(round(random.randrange(20, 300) * s_period / 10 * 1000), "ps")
            await FallingEdge(dut.s_clk)
            dut.s_rst.value = 1
            for _ in range(random.randrange(1, 4)):
                await FallingEdge(dut.s_clk)
            dut.s_rst.value = 0

    phases = {}
    # 1. normal traffic
    await traffic(400)
    phases["normal"] = len(master.sent)
    # 2. m_rst pulses during traffic
    rst_task = cocotb.start_soon(m_reset_pulses(30, 1, 8))
    while not rst_task.done():
        await traffic(10)
    await traffic(50)
    phases["m_rst pulses"] = len(master.sent)
    # 3. m_rst held far longer than the timeout
    await FallingEdge(dut.m_clk)
    dut.m_rst.value = 1
    await traffic(5)
    held_from = len(master.sent)
    await traffic(40)
    held_to = len(master.sent)
    dut.m_rst.value = 0
    await traffic(50)
    phases["m_rst held"] = len(master.sent)
    # 4. m clock stopped: timeouts, then the orphan completes after the restart
    stops = 0
    for _ in range(6):
        await Timer(round(random.randrange(1, 30) * m_period / 7 * 1000), "ps")
        mclk.stop()
        stops += 1
        await traffic(random.randrange(3, 12))
        await Timer(round(random.randrange(1, 3 * TIMEOUT) * s_period * 1000), "ps")
        mclk = start_clock(dut.m_clk, m_period)
        await traffic(30)
    phases["m clock stopped"] = len(master.sent)
    # 5. s_rst in the middle of requests
    rst_task = cocotb.start_soon(s_reset_pulses(30))
    while not rst_task.done():
        await traffic(10)
    await traffic(50)
    phases["s_rst pulses"] = len(master.sent)

    # ---- checks against the target's log ----
    await Timer(round(20 * max(s_period, m_period) * 1000), "ps")   # the last commit lands
    assert master.acks == len(master.sent), (master.acks, len(master.sent))
    pos = {tag: i for i, (tag, *_) in enumerate(master.sent)}
    firsts = list(dict.fromkeys(t for t in target.order if t in pos))
    order = [pos[t] for t in firsts]
    assert order == sorted(order), "the m side captured requests out of order"
    again = len(target.order) - len(set(target.order))
    performed = set(target.order)
    ok = local = cut = 0
    for i, (tag, we, addr, answer, _) in enumerate(master.sent):
        if i < phases["normal"]:  # undisturbed: every request performed and answered by it
            assert answer != "cut" and tag in performed, (i, hex(tag), answer)
        if tag in performed:
            lwe, laddr, lrdata, lerr = target.log[tag]
            assert (lwe, laddr) == (we, addr), (hex(tag), (lwe, laddr), (we, addr))
        if answer == "cut":
            cut += 1
            continue
        rdata, err = answer
        if err and (tag not in performed or target.log[tag][3] == 0):
            local += 1  # the bridge's own SLVERR (timeout, orphan, m reset): rdata undefined
            continue
        assert tag in performed, f"{tag:#x} answered {answer} but never performed"
        lwe, laddr, lrdata, lerr = target.log[tag]
        assert err == lerr, (hex(tag), answer, target.log[tag])
        if not lwe and not err:     # a read's data (undefined with SLVERR, unused for writes)
            assert rdata == lrdata, (hex(tag), answer, target.log[tag])
        ok += 1
    assert local > 10 and cut > 5 and ok > 500, (ok, local, cut)
    # two phases: exactly the committed OKAY writes land, in order, once each
    want = [tag for tag, we, _, answer, committed in master.sent
            if we and committed and answer != "cut" and answer[1] == 0]
    extra = [t for t in target.committed if t not in set(want)]
    assert not extra, f"writes landed that the master did not commit: {[hex(t) for t in extra[:6]]}"
    assert target.committed == [t for t in want if t in set(target.committed)], "commits out of order"
    # a committed write is lost only to an m-side reset between its capture and its commit
    # (the LMIC's reset would clear what it wrote anyway): only in the m_rst phases
    lost = [pos[t] for t in want if t not in set(target.committed)]
    assert all(phases["normal"] <= i < phases["m_rst held"] for i in lost), (lost, phases)
    abandoned = sum(1 for tag, we, _, answer, committed in master.sent
                    if we and answer != "cut" and not committed and tag in performed)
    # an m side held in reset adopts req as ack: SLVERR without waiting for the timeout
    for i in range(held_from, held_to):
        assert master.sent[i][3][1] == 1 and master.latency[i] < TIMEOUT // 2, (i, master.latency[i])
    # with the m clock stopped: timeouts, then SLVERR at once while the orphan is pending
    stopped = range(phases["m_rst held"], phases["m clock stopped"])
    timeouts = sum(master.latency[i] >= TIMEOUT for i in stopped)
    at_once = sum(master.sent[i][3] != "cut" and master.sent[i][3][1] == 1 and master.latency[i] <= 2
                  for i in stopped)
    assert timeouts >= 5 and at_once >= 5, (timeouts, at_once)
    assert abandoned > 10, abandoned
    dut._log.info("checked %d random requests (%d answered by the target, %d SLVERR by the bridge "
                  "(%d timeouts, %d at once behind an orphan), %d cut by s_rst; %d captured on the "
                  "m side (%d captured again by an orphan), %d writes committed, %d captured writes "
                  "never committed; %d clock stops), s %s ns / m %s ns; phase ends %s", len(master.sent),
                  ok, local, timeouts, at_once, cut, len(performed), again, len(target.committed),
                  abandoned, stops, s_period, m_period, phases)


@pytest.mark.parametrize("s_period,m_period", [(10, 37), (53, 10), (10, 10.3)])
def test_cdc(s_period, m_period):
    run("jointer_collect_cdc", __name__, {"addr_w_g": ADDR_W, "timeout_g": TIMEOUT},
        name=f"jointer_collect_cdc_{s_period}_{m_period}",
        extra_env=params_env(s_period=s_period, m_period=m_period))
