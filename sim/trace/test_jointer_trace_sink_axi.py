# SPDX-License-Identifier: MIT
"""jointer_trace_sink_axi: the AXI4 trace sink writing a host ring.

cocotbext-axi's AxiRamWrite is the memory on m_axi (random pauses on AW, W
and B); a host coroutine reads the ring like the driver will (wptr, copy,
rptr_in). Every record carries its sequence number as data and the cycle it
was offered as timestamp, so the records in memory are checked one by one
against what was sent (Python reference: order, exact LOST, exact WPTR). A
monitor checks the AXI4 rules every cycle: VALID held until READY, payload
stable while VALID, AWSIZE/AWBURST/WSTRB, WLAST on the last beat, no burst
across 4 KB, every byte inside [ring_base, ring_base + ring_size).
"""
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.handle import Immediate
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge, Timer
from cocotbext.axi import AxiRamWrite, AxiWriteBus

from jointer_sim import run

MEM_SIZE = 1 << 20
BASE = 0x40000
RING_LOG2 = int(os.environ.get("SINK_RING_LOG2", "32"))  # the ring_log2_g generic of this run


class ErrRam(AxiRamWrite):
    """AxiRamWrite answering SLVERR to a burst touching [bad_lo, bad_hi)."""

    bad = (0, 0)

    async def _write(self, address, data):
        if self.bad[0] <= address < self.bad[1]:
            raise ValueError("bad address")
        await super()._write(address, data)


def pauses(p):
    while True:
        yield random.random() < p


class TB:
    def __init__(self, dut, pause=0.3):
        self.dut = dut
        self.dw = len(dut.m_axi_wdata)
        self.bytes = self.dw // 8
        dut.rst.value = Immediate(1)
        dut.rec_valid.value = Immediate(0)
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        self.ram = ErrRam(AxiWriteBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=MEM_SIZE)
        if pause:
            self.ram.aw_channel.set_pause_generator(pauses(pause))
            self.ram.w_channel.set_pause_generator(pauses(pause))
            self.ram.b_channel.set_pause_generator(pauses(pause))
        self.base, self.size = BASE, 16384
        self.sent = []          # (seq, ts) offered while the sink accepts
        self.cycle = 0
        self.errors = []
        self.aws = []           # (addr, beats) of every AW handshake
        self.err_seen = False
        self.aw_rise_after_err = 0
        self.in_reset = True
        self.host_rptr = 0
        self.received = []
        cocotb.start_soon(self._monitor())

    async def reset(self, base=None, size=None):
        d = self.dut
        self.base = BASE if base is None else base
        self.size = 16384 if size is None else size
        d.rst.value = 1
        d.rec_valid.value = 0
        d.rec_ts.value = 0
        d.rec_data.value = 0
        d.rec_n.value = 1
        d.ring_base.value = self.base
        d.ring_size.value = self.size
        d.enable.value = 1
        d.clear.value = 0
        d.rptr_in.value = 0
        d.watermark.value = 0
        self.host_rptr = 0
        self.in_reset = True
        await ClockCycles(d.clk, 3)
        d.rst.value = 0
        await RisingEdge(d.clk)
        self.in_reset = False

    def fail(self, msg):
        self.errors.append(f"cycle {self.cycle}: {msg}")

    async def _monitor(self):
        d = self.dut
        prev_aw = prev_w = None
        w_beats, w_strbs = 0, []
        w_bursts = []  # beats of each completed W burst, in order
        aw_prev_valid = 0
        while True:
            await RisingEdge(d.clk)
            self.cycle += 1
            if not d.rst.value.is_resolvable or int(d.rst.value):
                prev_aw = prev_w = None
                w_beats, w_strbs, w_bursts, aw_prev_valid = 0, [], [], 0
                continue
            awv, awr = int(d.m_axi_awvalid.value), int(d.m_axi_awready.value)
            aw = (int(d.m_axi_awaddr.value), int(d.m_axi_awlen.value),
                  int(d.m_axi_awsize.value), int(d.m_axi_awburst.value)) if awv else None
            wv, wr = int(d.m_axi_wvalid.value), int(d.m_axi_wready.value)
            w = (int(d.m_axi_wdata.value), int(d.m_axi_wstrb.value),
                 int(d.m_axi_wlast.value)) if wv else None
            if prev_aw is not None and (not awv or aw != prev_aw):
                self.fail(f"AW dropped or changed while waiting for AWREADY: {prev_aw} -> {awv} {aw}")
            if prev_w is not None and (not wv or w != prev_w):
                self.fail(f"W dropped or changed while waiting for WREADY")
            if awv and not aw_prev_valid and self.err_seen:
                self.aw_rise_after_err += 1
            aw_prev_valid = awv and not awr
            prev_aw = aw if awv and not awr else None
            prev_w = w if wv and not wr else None
            if awv and awr:
                addr, alen, asize, aburst = aw
                nbytes = (alen + 1) << asize
                full = self.bytes.bit_length() - 1
                narrow = self.bytes == 16 and asize == 3 and alen == 0  # one lone record
                if not (asize == full or narrow) or aburst != 1:
                    self.fail(f"AWSIZE {asize} / AWBURST {aburst}")
                if not (self.base <= addr and addr + nbytes <= self.base + self.size):
                    self.fail(f"burst {addr:#x}+{nbytes} outside the ring {self.base:#x}+{self.size}")
                if (addr & 0xFFF) + nbytes > 0x1000:
                    self.fail(f"burst {addr:#x}+{nbytes} crosses 4 KB")
                self.aws.append((addr, alen + 1, nbytes))
            if wv and wr:
                w_beats += 1
                w_strbs.append(w[1])
                if w[2]:
                    w_bursts.append((w_beats, w_strbs))
                    w_beats, w_strbs = 0, []
            # W bursts follow AW order (WLAST checked against the AW lengths)
            if int(d.m_axi_bvalid.value) and int(d.m_axi_bready.value) and int(d.m_axi_bresp.value):
                self.err_seen = True
            self._check_wlast(w_bursts)

    _aw_base = 0

    def _check_wlast(self, w_bursts):
        while w_bursts and len(self.aws) > self._aw_base:
            beats, strbs = w_bursts.pop(0)
            addr, want, nbytes = self.aws[self._aw_base]
            self._aw_base += 1
            if beats != want:
                self.fail(f"W burst of {beats} beats (WLAST) for an AW of {want}")
            ones = (1 << self.bytes) - 1
            if nbytes == want * self.bytes:
                want_strb = [ones] * want
            else:  # 128 bits, one 64-bit beat: the lanes of its address
                want_strb = [0xFF << (addr & 8)]
            if strbs != want_strb:
                self.fail(f"WSTRB {[hex(x) for x in strbs]} for the AW at {addr:#x}")

    async def send(self, n, rate=1.0, seq0=None):
        """Offer n records (seq as data, the cycle as timestamp) at rate."""
        d = self.dut
        seq = len(self.sent) if seq0 is None else seq0
        k = 0
        while k < n:
            if random.random() < rate:
                ts = (self.cycle * 7 + 3) & 0xFFFFFFFF
                d.rec_valid.value, d.rec_ts.value, d.rec_data.value = 1, ts, seq
                self.sent.append((seq, ts))
                seq += 1
                k += 1
            else:
                d.rec_valid.value = 0
            await RisingEdge(d.clk)
        d.rec_valid.value = 0

    def read_ring(self, start, end):
        """Records in ring offsets [start, end) (modulo size), as (seq, ts)."""
        out, off = [], start
        while off != end:
            raw = self.ram.read(self.base + off, 8)
            ts, seq = int.from_bytes(raw[:4], "little"), int.from_bytes(raw[4:], "little")
            out.append((seq, ts))
            off = (off + 8) % self.size
        return out

    def host_read(self):
        w = int(self.dut.wptr.value)
        self.received += self.read_ring(self.host_rptr, w)
        self.host_rptr = w
        self.dut.rptr_in.value = w

    async def host(self, stop, period=(20, 200)):
        while not stop():
            await ClockCycles(self.dut.clk, random.randint(*period))
            self.host_read()

    async def settle(self, cycles=600):
        await ClockCycles(self.dut.clk, cycles)

    def check_clean(self):
        assert not self.errors, "\n".join(self.errors[:10])


async def make_tb(dut, pause):
    await Timer(1, "ns")  # the models sample VALID: let GHDL apply initial values first
    return TB(dut, pause)


def same(got, want):
    """'' if equal, else where they differ first."""
    if got == want:
        return ""
    i = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
    return f"{len(got)} records, {len(want)} expected; first difference at {i}: " \
        f"{got[i:i + 3]} instead of {want[i:i + 3]}"


def seqs(recs):
    return [s for s, _ in recs]


@cocotb.test()
async def keeps_up(dut):
    """Moderate rate, host reads: every record in order, LOST 0, WPTR exact."""
    tb = await make_tb(dut, 0.2)
    await tb.reset()
    done = []
    h = cocotb.start_soon(tb.host(lambda: done, (20, 80)))
    n = 3000
    await tb.send(n, rate=0.25)
    await tb.settle()
    done.append(1)
    await h
    tb.host_read()
    assert not same(tb.received, tb.sent), same(tb.received, tb.sent)
    assert int(dut.lost.value) == 0
    assert int(dut.wptr.value) == n * 8 % tb.size
    assert int(dut.status.value) == 0
    tb.check_clean()


@cocotb.test()
async def host_does_not_read(dut):
    """Records, no reads: ring full at size/8 - 1 records, then the FIFO
    (32), LOST = the rest exactly; after a read the FIFO drains. The
    watermark level at its exact threshold, also across the ring wrap."""
    tb = await make_tb(dut, 0.2)
    await tb.reset(size=8192)
    cap, depth, n = 8192 // 8 - 1, 32, 2000
    await tb.send(n, rate=0.25)  # below the memory's rate: drops only once the ring is full
    await tb.settle()
    assert int(dut.wptr.value) == cap * 8
    assert int(dut.lost.value) == n - cap - depth
    dut.watermark.value = cap * 8  # the full ring is exactly at the watermark
    await ClockCycles(dut.clk, 3)
    assert int(dut.irq_wm.value) == 1
    dut.watermark.value = cap * 8 + 1
    await ClockCycles(dut.clk, 3)
    assert int(dut.irq_wm.value) == 0
    assert not same(tb.read_ring(0, cap * 8), tb.sent[:cap]), same(tb.read_ring(0, cap * 8), tb.sent[:cap])
    tb.host_read()  # frees the ring: the 32 records of the FIFO follow
    await tb.settle()
    assert int(dut.wptr.value) == (cap + depth) * 8 % 8192
    # watermark across the wrap: (248 - 8184) mod 8192 = 256 bytes unread
    for wm, level in [(0, 0), (256, 1), (257, 0), (8, 1)]:
        dut.watermark.value = wm
        await ClockCycles(dut.clk, 3)
        assert int(dut.irq_wm.value) == level, f"watermark {wm}: irq_wm {int(dut.irq_wm.value)}"
    tb.host_read()
    await ClockCycles(dut.clk, 3)
    assert int(dut.irq_wm.value) == 0  # empty ring
    assert not same(tb.received, tb.sent[:cap + depth]), same(tb.received, tb.sent[:cap + depth])
    assert int(dut.lost.value) == n - cap - depth
    tb.check_clean()


@cocotb.test()
async def reads_while_arriving(dut):
    """Bursty records faster than the slow memory and host: the records that
    arrive are in order, the missing ones are exactly LOST."""
    tb = await make_tb(dut, 0.5)
    await tb.reset(size=4096)
    done = []
    h = cocotb.start_soon(tb.host(lambda: done, (50, 400)))
    for _ in range(8):
        await tb.send(500, rate=0.9)
        await ClockCycles(dut.clk, random.randint(0, 300))
    await tb.settle(2000)
    done.append(1)
    await h
    await tb.settle()
    tb.host_read()
    lost = int(dut.lost.value)
    got = seqs(tb.received)
    assert got == sorted(set(got)), "records out of order or repeated"
    sent = dict(tb.sent)
    assert all(sent[s] == ts for s, ts in tb.received), "a record's timestamp is wrong"
    assert lost > 0, "the scenario should overflow"
    assert len(got) + lost == len(tb.sent), f"{len(got)} received + {lost} lost != {len(tb.sent)}"
    tb.check_clean()


@cocotb.test()
async def bresp_error(dut):
    """The second 4 KB page answers SLVERR: STATUS.error, WPTR stops at 4096,
    no burst starts after the error response; clear restarts at offset 0."""
    tb = await make_tb(dut, 0.2)
    tb.ram.bad = (BASE + 4096, BASE + 8192)
    await tb.reset(size=16384)
    done = []
    await tb.send(1500, rate=0.25)
    await tb.settle()
    assert int(dut.status.value) & 1 == 1
    assert int(dut.wptr.value) == 4096
    assert not same(tb.read_ring(0, 4096), tb.sent[:512]), same(tb.read_ring(0, 4096), tb.sent[:512])
    assert tb.aw_rise_after_err == 0, f"{tb.aw_rise_after_err} bursts started after the error"
    n_aw = len(tb.aws)
    await tb.send(100, rate=1.0)  # ignored while stopped
    await tb.settle()
    assert len(tb.aws) == n_aw and int(dut.lost.value) == 0
    tb.ram.bad = (0, 0)
    dut.clear.value = 1
    await RisingEdge(dut.clk)
    dut.clear.value = 0
    await tb.settle(50)
    assert int(dut.status.value) == 0 and int(dut.wptr.value) == 0
    tb.sent = []
    await tb.send(40, rate=1.0, seq0=7000)
    await tb.settle()
    assert int(dut.wptr.value) == 40 * 8
    assert not same(tb.read_ring(0, 320), tb.sent), same(tb.read_ring(0, 320), tb.sent)
    tb.check_clean()


@cocotb.test()
async def bad_config_refused(dut):
    """Unaligned base, zero size, size not a multiple of 4 KB: STATUS bit 1,
    no burst, nothing accepted."""
    tb = await make_tb(dut, 0)
    for base, size in [(BASE + 0x100, 8192), (BASE, 0), (BASE, 0x1800)]:
        await tb.reset(base=base, size=size)
        await tb.send(200, rate=1.0)
        await tb.settle(200)
        assert int(dut.status.value) == 2, f"{base:#x}/{size:#x}: status {int(dut.status.value)}"
        assert tb.aws == [] and int(dut.wptr.value) == 0 and int(dut.lost.value) == 0
    assert tb.ram.read(BASE, 16384) == bytes(16384)
    tb.check_clean()


@cocotb.test()
async def rptr_outside_ring(dut):
    """RPTR >= ring_size is refused (no space): nothing is written, the FIFO
    fills and the rest is LOST exactly; a valid RPTR lets the FIFO drain."""
    tb = await make_tb(dut, 0.2)
    await tb.reset(size=8192)
    dut.rptr_in.value = 8192
    await tb.send(200, rate=0.5)
    await tb.settle(200)
    assert tb.aws == [] and int(dut.wptr.value) == 0
    assert int(dut.lost.value) == 200 - 32
    dut.rptr_in.value = 0
    await tb.settle()
    assert int(dut.wptr.value) == 32 * 8
    assert not same(tb.read_ring(0, 256), tb.sent[:32]), same(tb.read_ring(0, 256), tb.sent[:32])
    tb.check_clean()


@cocotb.test()
async def clear_in_flight(dut):
    """clear while bursts are outstanding: they complete (every W burst
    matches its AW), then WPTR and LOST restart at 0 and new records go to
    the ring start."""
    tb = await make_tb(dut, 0.4)
    await tb.reset()
    await tb.send(300, rate=1.0)
    assert int(dut.status.value) & 4, "no burst in flight at the clear"
    dut.clear.value = 1
    await RisingEdge(dut.clk)
    dut.clear.value = 0
    await tb.settle()
    assert int(dut.wptr.value) == 0 and int(dut.lost.value) == 0 and int(dut.status.value) == 0
    n_aw = len(tb.aws)
    tb.sent = []
    await tb.send(100, rate=0.25, seq0=9000)
    await tb.settle()
    assert int(dut.wptr.value) == 800 and tb.aws[n_aw][0] == BASE
    assert not same(tb.read_ring(0, 800), tb.sent), same(tb.read_ring(0, 800), tb.sent)
    tb.check_clean()


@cocotb.test()
async def reset_mid_burst(dut):
    """rst while W beats of a burst are on the bus: afterwards the records of
    the restart go to the ring start, in order, and the bus is not hung."""
    tb = await make_tb(dut, 0.3)
    await tb.reset()
    send = cocotb.start_soon(tb.send(400, rate=1.0))
    for _ in range(2000):
        await RisingEdge(dut.clk)
        if tb.aws and int(dut.m_axi_wvalid.value) and not int(dut.m_axi_wlast.value):
            break
    else:
        raise AssertionError("no burst in flight")
    send.cancel()
    dut.rec_valid.value = 0
    tb.ram.write(BASE, bytes([0xEE]) * 16384)
    await tb.reset()
    tb.sent, tb.aws, tb._aw_base = [], [], 0
    await tb.send(300, rate=0.25, seq0=5000)
    assert int(dut.lost.value) == 0
    await tb.settle()
    assert int(dut.wptr.value) == 300 * 8
    assert not same(tb.read_ring(0, 2400), tb.sent), same(tb.read_ring(0, 2400), tb.sent)
    assert tb.aws[0][0] == BASE
    tb.check_clean()


@cocotb.test()
async def boundary_and_wrap(dut):
    """Ring of two pages after a 5-record partial burst: bursts split at the
    4 KB boundary and at the ring end (wrap to ring_base); all in order.
    128 bits: the odd record goes alone in a 64-bit beat (AWSIZE 3, WSTRB of
    its half), the next burst realigns the same way."""
    tb = await make_tb(dut, 0.2)
    await tb.reset(size=8192)
    await tb.send(5, rate=1.0)
    await tb.settle(200)  # flush timeout: a partial burst of 5
    assert int(dut.wptr.value) == 40
    done = []
    h = cocotb.start_soon(tb.host(lambda: done, (10, 40)))
    await tb.send(2500, rate=0.3)
    await tb.settle()
    done.append(1)
    await h
    tb.host_read()
    assert not same(tb.received, tb.sent), same(tb.received, tb.sent)
    assert int(dut.lost.value) == 0
    ends = [a + n for a, _, n in tb.aws]
    assert BASE + 4096 in ends and BASE + 8192 in ends
    # a burst was cut by the boundary: one ends there with fewer beats than the maximum
    assert any(e in (BASE + 4096, BASE + 8192) and n < 16 * 8 for (a, _, n), e in zip(tb.aws, ends))
    if tb.bytes == 16:  # the 5-record flush: 4 records in 2 beats, then one 64-bit beat
        assert tb.aws[:2] == [(BASE, 2, 32), (BASE + 32, 1, 8)], tb.aws[:2]
    tb.check_clean()


async def send_units(tb, n, rate):
    """Offer n units of 1..3 records (rec_n); rec_ready is sampled in the
    cycle each is offered. Returns (accepted units, records dropped)."""
    d = tb.dut
    accepted, dropped, k = [], 0, 0
    while k < n:
        if random.random() < rate:
            ts = (tb.cycle * 7 + 3) & 0xFFFFFFFF
            nrec = random.randint(1, 3)
            d.rec_valid.value, d.rec_ts.value, d.rec_data.value = 1, ts, 10000 + k
            d.rec_n.value = nrec
            await ReadOnly()
            if int(d.rec_ready.value):
                accepted.append((10000 + k, ts))
            else:
                dropped += nrec
            k += 1
        else:
            d.rec_valid.value = 0
        await RisingEdge(d.clk)
    d.rec_valid.value = 0
    d.rec_n.value = 1
    return accepted, dropped


@cocotb.test()
async def ready_and_units(dut):
    """rec_ready / rec_n: with no host reads the units offered while
    rec_ready = 1 are exactly those in the ring (size/8 - 1) and the FIFO;
    LOST is the sum of rec_n of the units offered while rec_ready = 0.
    rec_ready does not depend on rec_valid, and is 0 while enable = 0 and
    with a bad ring configuration."""
    tb = await make_tb(dut, 0.2)
    await tb.reset(size=8192)
    cap, depth = 8192 // 8 - 1, 32
    for valid in (0, 1, 0):  # same cycle, rec_valid toggled: rec_ready stays
        dut.rec_valid.value = valid
        await Timer(1, "ns")
        assert int(dut.rec_ready.value) == 1, f"rec_ready 0 with rec_valid {valid} on an idle sink"
    dut.rec_valid.value = 0
    accepted, dropped = await send_units(tb, 2000, 0.4)
    await tb.settle()
    assert len(accepted) == cap + depth, f"{len(accepted)} units accepted, {cap + depth} expected"
    assert dropped > 0 and int(dut.lost.value) == dropped, f"LOST {int(dut.lost.value)}, expected {dropped}"
    assert int(dut.rec_ready.value) == 0  # the FIFO is full
    assert not same(tb.read_ring(0, cap * 8), accepted[:cap]), same(tb.read_ring(0, cap * 8), accepted[:cap])
    tb.host_read()  # the FIFO drains into the ring
    await tb.settle()
    tb.host_read()
    assert not same(tb.received, accepted), same(tb.received, accepted)
    assert int(dut.rec_ready.value) == 1
    dut.enable.value = 0
    await Timer(1, "ns")
    assert int(dut.rec_ready.value) == 0, "rec_ready with enable = 0"
    dut.rec_valid.value, dut.rec_n.value = 1, 3
    await ClockCycles(dut.clk, 5)
    dut.rec_valid.value = 0
    assert int(dut.lost.value) == dropped, "units offered while disabled counted in LOST"
    await tb.reset(base=BASE + 0x100, size=8192)
    await Timer(1, "ns")
    assert int(dut.rec_ready.value) == 0, "rec_ready with a misaligned ring"
    tb.check_clean()


@cocotb.test()
async def ring_beyond_the_maximum(dut):
    """ring_log2_g: a ring_size above 2^ring_log2_g is a config error (STATUS
    bit 1, nothing accepted or written), an RPTR with bits at or above
    ring_log2_g is no space (LOST exact); a ring of exactly the maximum wraps
    in order (also keeps_up and the others: their 16 KB ring is the maximum
    of the ring_log2_g = 14 run)."""
    tb = await make_tb(dut, 0.2)
    if RING_LOG2 < 20:  # the memory model holds 1 MB
        for size in (2 << RING_LOG2, (1 << RING_LOG2) + 4096):
            await tb.reset(size=size)
            await tb.send(100, rate=1.0)
            await tb.settle(200)
            assert int(dut.status.value) == 2, f"size {size:#x}: status {int(dut.status.value)}"
            assert tb.aws == [] and int(dut.wptr.value) == 0 and int(dut.lost.value) == 0
        tb.sent = []
    size = min(1 << RING_LOG2, 16384)
    await tb.reset(size=size)
    dut.rptr_in.value = 1 << min(RING_LOG2, 31)
    await tb.send(100, rate=0.5)
    await tb.settle(200)
    assert tb.aws == [] and int(dut.wptr.value) == 0
    assert int(dut.lost.value) == 100 - 32
    tb.host_rptr = 0
    dut.rptr_in.value = 0
    await tb.settle()
    tb.host_read()
    done = []
    h = cocotb.start_soon(tb.host(lambda: done, (20, 80)))
    await tb.send(3 * size // 8, rate=0.3)  # wraps three times
    await tb.settle()
    done.append(1)
    await h
    tb.host_read()
    want = tb.sent[:32] + tb.sent[100:]
    assert not same(tb.received, want), same(tb.received, want)
    assert int(dut.lost.value) == 100 - 32
    tb.check_clean()


@pytest.mark.parametrize("data_w, ring_log2", [(32, 32), (64, 32), (128, 32), (64, 14), (128, 14)])
def test_trace_sink_axi(data_w, ring_log2):
    run("jointer_trace_sink_axi", __name__,
        {"data_w_g": data_w, "fifo_depth_log2_g": 5, "max_burst_g": 16 * 64 // data_w,
         "flush_timeout_g": 32, "ring_log2_g": ring_log2},
        extra_env={"SINK_RING_LOG2": str(ring_log2)})
