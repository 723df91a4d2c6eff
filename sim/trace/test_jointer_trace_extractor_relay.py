# SPDX-License-Identifier: MIT
"""jointer_trace_extractor in relay mode (mode_g = trace_relay_c): a host
drains the buffer while the producer keeps writing, against
jointer_sim.model.TraceModel(relay=True).

Every cycle the pointers, fill, flags, read pointer and lost counter are
compared with the model. The host, as the driver does it: waits a random
time, takes FILL and RPTR, reads min(FILL, chunk) records (one word per
cycle, while events keep arriving), then pulses tr_ack with the count. The
producer comes in bursts faster than one drain (more records arrive during a
drain than it reads). At the end the host drains what is left; the records
it read must be exactly the recorded events, in order, and tr_lost the
exact number dropped (0 for the fast host, > 0 for the slow one). Then an
oversized ack (clamped to FILL), a clear (rptr, lost to 0) and a saturation
check of the lost counter (forced near 2**32 in the model only when the
run is long enough; here: lost counts up to its exact value)."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.model import TraceModel

RELAY = 2  # trace_relay_c


class Host:
    """The drain loop of the driver, one bus word per cycle."""

    def __init__(self, depth, chunk, wait):
        self.depth, self.chunk, self.wait = depth, chunk, wait
        self.countdown = random.randint(*wait)
        self.addrs = []     # words still to address
        self.words = []     # words read in this drain
        self.pending = 0    # records of this drain
        self.drained = []   # every record read, in order
        self.drains = 0
        self.max_during = 0  # most records that arrived during one drain

    def cycle(self, dut):
        """Returns (rd_addr, ack) for this cycle; ack is None or a count."""
        if self.addrs:
            return self.addrs.pop(0), None
        if self.pending:
            if len(self.words) == 2 * self.pending:  # all read: release them
                n = self.pending
                w = self.words
                self.drained += [(w[2 * k], w[2 * k + 1]) for k in range(n)]
                self.pending, self.words = 0, []
                self.countdown = random.randint(*self.wait)
                self.drains += 1
                self.max_during = max(self.max_during, int(dut.tr_fill.value) - n)
                return random.getrandbits(32), n
            return random.getrandbits(32), None
        if self.countdown > 0:
            self.countdown -= 1
            return random.getrandbits(32), None
        fill, rptr = int(dut.tr_fill.value), int(dut.tr_rptr.value)
        n = min(fill, self.chunk)
        if n == 0:
            self.countdown = random.randint(*self.wait)
            return random.getrandbits(32), None
        self.pending = n
        self.addrs = [2 * ((rptr + k) % self.depth) + h for k in range(n) for h in (0, 1)]
        return self.addrs.pop(0), None

    def collect(self, dut, addressed):
        if self.pending and addressed:
            self.words.append(int(dut.tr_rd_data.value))


@cocotb.test()
async def relay_drain(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    depth, slow = 1 << p["depth_log2"], p["slow"]
    model = TraceModel(depth, relay=True, has_filter=False)
    host = Host(depth, chunk=depth, wait=(60, 4 * depth + 60) if slow else (0, 3))
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for sig in (dut.run_en, dut.use_filter, dut.clear, dut.init_we, dut.init_sel, dut.init_hi,
                dut.init_data, dut.ev_good, dut.ev_data, dut.timestamp, dut.tr_rd_addr,
                dut.tr_ack, dut.tr_ack_n):
        sig.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    dut.run_en.value = 1
    timestamp = random.getrandbits(32)
    recorded, dropped = [], 0
    n = 3000 + 40 * depth
    burst, in_burst = 0, False

    async def one_cycle(good, data, rd_addr, ack, clear=0):
        nonlocal timestamp
        dut.ev_good.value, dut.ev_data.value, dut.timestamp.value = good, data, timestamp
        dut.tr_rd_addr.value, dut.clear.value = rd_addr, clear
        dut.tr_ack.value = int(ack is not None)
        dut.tr_ack_n.value = ack if ack is not None else random.getrandbits(32)  # ignored without ack
        wrote = model.step(good, data, timestamp, 1, 0, clear, None, rd_addr, ack)
        timestamp = (timestamp + random.choice([1, 1, 2, 5, 300])) & 0xFFFFFFFF
        await FallingEdge(dut.clk)
        got = (int(dut.tr_wptr.value), int(dut.tr_fill.value), int(dut.tr_full.value),
               int(dut.tr_overflow.value), int(dut.tr_rptr.value), int(dut.tr_lost.value),
               int(dut.tr_rd_data.value))
        exp = (model.wptr, model.fill, int(model.full), int(model.overflow), model.rptr,
               model.lost, model.rd_data)
        assert got == exp, f"(wptr, fill, full, overflow, rptr, lost, rd_data) = {got}, expected {exp}"
        return wrote

    for cycle in range(n):
        if burst == 0:  # bursts of 0.9 events per cycle (faster than a drain), then gaps
            in_burst = not in_burst
            burst = random.randint(1, max(1, depth // 2)) if in_burst else random.randint(depth + 4, 3 * depth + 8)
            p_good = 0.9 if in_burst else 0.05
        burst -= 1
        good = int(random.random() < p_good)
        data = random.getrandbits(32)
        rd_addr, ack = host.cycle(dut)
        ts = timestamp
        wrote = await one_cycle(good, data, rd_addr, ack)
        host.collect(dut, host.pending and len(host.words) < 2 * host.pending)
        if good:
            if wrote:
                recorded.append((ts, data))
            else:
                dropped += 1
    # the producer stops; the host drains the rest
    host.wait = (0, 0)
    for _ in range(4 * depth + 16):
        rd_addr, ack = host.cycle(dut)
        await one_cycle(0, 0, rd_addr, ack)
        host.collect(dut, host.pending and len(host.words) < 2 * host.pending)
    assert model.fill == 0 and not host.pending
    assert host.drained == recorded, "the drained records are not the recorded events in order"
    assert int(dut.tr_lost.value) == dropped == model.lost
    if slow:
        assert dropped > 0
    else:
        assert dropped == 0 and host.max_during > 0
    dut._log.info("depth %d %s host: %d cycles, %d events, %d drained in %d drains "
                  "(up to %d records arrived during one), %d lost",
                  depth, "slow" if slow else "fast", n, len(recorded) + dropped, len(host.drained),
                  host.drains, host.max_during, dropped)
    # an ack larger than FILL releases FILL records; clear zeroes rptr and lost
    for _ in range(depth - 1):  # not full: the next record is written
        await one_cycle(1, 7, 0, None)
    await one_cycle(1, 8, 0, 0xFFFFFFFF)  # record and release in the same cycle
    assert model.fill == 1 and model.rptr == model.wptr - 1 & (depth - 1)
    await one_cycle(0, 0, 0, None, clear=1)
    assert model.rptr == 0 and model.lost == 0 and model.fill == 0


# depth 2 only with the slow host: a 2-record buffer cannot absorb a burst during one drain
@pytest.mark.parametrize("depth_log2,slow", [(1, True), (4, False), (4, True), (6, False), (6, True)],
                         ids=["2-slow_host", "16-fast_host", "16-slow_host", "64-fast_host", "64-slow_host"])
def test_trace_extractor_relay(depth_log2, slow):
    run("jointer_trace_extractor", __name__,
        {"index_g": 0, "depth_log2_g": depth_log2, "mode_g": RELAY, "has_filter_g": False},
        name="jointer_trace_extractor_relay",
        extra_env={"JOINTER_PARAMS": json.dumps({"depth_log2": depth_log2, "slow": slow})})
