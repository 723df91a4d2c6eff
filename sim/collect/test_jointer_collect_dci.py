# SPDX-License-Identifier: MIT
"""jointer_collect_dci: the AXI4-Lite slave over register-port targets.

The targets (global + LMICs) are emulated in Python: each access is logged
with the value the target returned, answered after a random latency (1 cycle
like the LMIC, up to 60 cycles like a slow CDC bridge), with SLVERR on some
words (as a strict LMIC does); answers are held by the targets until their
next request, writes performed on t_commit. The emulator checks the
register-port protocol: one-cycle one-hot t_req, one request at a time,
t_we/t_addr/t_wdata stable from the request through the acknowledge, and
t_commit exactly once for each OKAY write (never for a read, an SLVERR or
after a reset): with the answer for a target behind a bridge (bridged_g),
one cycle later for a target on the bus clock, with t_we/t_addr/t_wdata
still the write's then and no reset in either cycle.

- random_storm: AxiLiteMaster with random back-pressure/idle on all five
  channels (one phase) and none (another), reads and writes in flight
  together, random addresses over the whole AXI space (windows beyond the
  last LMIC included), random data. Every response is checked: in-range
  accesses reach the right target with the right word/data in issue order
  and return what the target answered (OKAY/SLVERR); out-of-range ones never
  reach a target and answer OKAY/0 or SLVERR (strict).
- channel_order: a raw driver sends W long before AW, AW long before W, both
  together, AR while a lone W waits (W is taken only with its AW); holds
  BREADY/RREADY low for random times while BVALID/RVALID, the response and
  RDATA (the target's held answer) must stay stable.
- alternation: reads and writes waiting together are served alternately.
- silent_target: targets without a bridge that never answer some requests
  are answered SLVERR/0 by the DCI's own timeout, within its bound.
- reset_mid_transaction: s_axi_aresetn while a target is busy (its answer
  dropped, or arriving during reset: then never committed), in the address
  handshake after a write's answer (a bus-clock target's commit is dropped),
  while BVALID/RVALID wait, while a lone W waits; afterwards every access
  completes correctly.
"""
import collections
import logging
import random

import cocotb
import pytest
from cocotb.triggers import Event, FallingEdge, ReadOnly, RisingEdge, with_timeout
from cocotbext.axi import AxiLiteBus, AxiLiteMaster

from collect_util import MASK32, OKAY, SLVERR, params, params_env, start_clock
from jointer_sim import run

ADDR_W, WINDOW_LOG2, NUM_LMICS = 10, 7, 2
STORM = 4000


def default_word(t, addr):
    return ((t << 28) ^ (addr * 2654435761)) & MASK32


class Targets:
    """Register-port targets 0..n-1 behind the DCI, with a protocol checker.

    The two phases of doc/internals/collect.md: a request is answered after a random
    latency; the answer (rdata, err) is held by its target until that target's
    next request (the DCI reads it as RDATA); a write is only captured then and
    performed when t_commit comes, which the DCI must pulse exactly once for
    an OKAY write, for that target only, and never otherwise: with the
    answer for a target behind a bridge (bit t of `bridged`), one cycle
    later for one on the bus clock (t_we/t_addr/t_wdata still the write's).
    Targets that have not answered yet drive garbage, except target 0 (the
    global block), which the DCI takes ungated: it shows 0 from every t_start
    (an access starts) until it answers a request of its own."""

    def __init__(self, dut, n, latency, bridged):
        self.dut, self.n, self.latency, self.bridged = dut, n, latency, bridged
        self.late = None         # an OKAY write to a bus-clock target, answered last cycle
        self.mem = [dict() for _ in range(n)]
        self.log = []            # (target, we, addr, wdata, rdata, err) in request order
        self.pending = None
        self.held = [None] * n   # (rdata, err) each target holds
        self.held[0] = (0, 0)
        self.starts = 0
        self.drop_on_reset = True
        self.cycle = 0
        self.accesses = 0
        self.commits = 0
        self.drop_next = False   # the next request is never answered (a silent target)

    def start(self):
        d = self.dut
        d.t_ack.value = 0
        d.t_rdata.value = 0
        d.t_err.value = 0
        cocotb.start_soon(self._run())

    def _drive(self, ack):
        d = self.dut
        rdata = err = 0
        for t in range(self.n):
            h = self.held[t] if self.held[t] is not None else (random.getrandbits(32), random.getrandbits(1))
            rdata |= h[0] << (32 * t)
            err |= h[1] << t
        d.t_ack.value = ack
        d.t_rdata.value = rdata
        d.t_err.value = err

    async def _run(self):
        d = self.dut
        acked = None
        while True:
            await RisingEdge(d.s_axi_aclk)
            # t_start of the cycle that just ended (sampled at the edge, before
            # the DCI's registers move): the global block's answer went to 0
            started = d.t_start.value.is_resolvable and int(d.t_start.value)
            self.cycle += 1
            acked = None
            if started:
                self.held[0] = (0, self.held[0][1])
                self.starts += 1
            p = self.pending
            if p is not None and p["due"] == self.cycle:
                self.held[p["t"]] = (p["rdata"], p["err"])
                self._drive(1 << p["t"])
                acked, self.pending = p, None
            else:
                self._drive(0)
            await ReadOnly()
            for q in (acked, self.pending):
                if q is not None:  # held from the request through the acknowledge
                    assert int(d.t_we.value) == q["we"], q
                    assert int(d.t_addr.value) == q["addr"], q
                    if q["we"]:
                        assert int(d.t_wdata.value) == q["wdata"], q
            self._check_commit(acked)
            if not int(d.s_axi_aresetn.value) and self.drop_on_reset:
                self.pending = None

            req = int(d.t_req.value) if d.t_req.value.is_resolvable else 0
            if req:
                assert req & (req - 1) == 0, f"t_req not one-hot: {req:b}"
                assert self.pending is None, "a second request while one is pending"
                t = req.bit_length() - 1
                we, addr = int(d.t_we.value), int(d.t_addr.value)
                wdata = int(d.t_wdata.value) if we else 0   # (the master leaves WDATA X on reads)
                err = int(addr % 5 == 4)
                rdata = 0
                if not err and not we:
                    rdata = self.mem[t].get(addr, default_word(t, addr))
                self.log.append((t, we, addr, wdata if we else None, rdata, err))
                self.accesses += 1
                if self.drop_next:
                    self.drop_next = False
                    continue
                self.pending = {"t": t, "we": we, "addr": addr, "wdata": wdata, "rdata": rdata,
                                "err": err, "due": self.cycle + self.latency()}


    def _check_commit(self, acked):
        """t_commit of this cycle: the OKAY write answered now (bridged target)
        or in the last cycle (bus-clock target), never in a reset."""
        d = self.dut
        live = int(d.s_axi_aresetn.value)
        okay = acked if acked is not None and acked["we"] and not acked["err"] and live else None
        due = [q for q in (self.late if live else None,
                           okay if okay is not None and self.bridged >> okay["t"] & 1 else None)
               if q is not None]
        self.late = okay if okay is not None and not self.bridged >> okay["t"] & 1 else None
        commit = int(d.t_commit.value) if d.t_commit.value.is_resolvable else -1
        want = sum(1 << q["t"] for q in due)
        assert commit == want, f"t_commit {commit:b}, expected {want:b} (answered {acked})"
        for q in due:           # phase 2: the captured write is performed
            assert (int(d.t_we.value), int(d.t_addr.value), int(d.t_wdata.value)) \
                == (1, q["addr"], q["wdata"]), q
            self.mem[q["t"]][q["addr"]] = q["wdata"]
            self.commits += 1


def split(addr):
    """(target or None, word address inside the window) of a byte address."""
    t = addr >> WINDOW_LOG2
    return (t if t <= NUM_LMICS else None), (addr >> 2) & ((1 << (WINDOW_LOG2 - 2)) - 1)


async def setup(dut, latency):
    start_clock(dut.s_axi_aclk, 10)
    for s in ("awaddr", "awprot", "awvalid", "wdata", "wstrb", "wvalid", "bready",
              "araddr", "arprot", "arvalid", "rready"):
        getattr(dut, f"s_axi_{s}").value = 0
    targets = Targets(dut, NUM_LMICS + 1, latency, params()["bridged"])
    targets.start()
    dut.s_axi_aresetn.value = 0
    for _ in range(4):
        await RisingEdge(dut.s_axi_aclk)
    dut.s_axi_aresetn.value = 1
    await RisingEdge(dut.s_axi_aclk)
    return targets


def check_in_order(ops, log, strict):
    """ops: (we, byte addr, wdata, resp, rdata) in issue order, one channel."""
    entries = iter(log)
    for we, addr, wdata, resp, rdata in ops:
        t, word = split(addr)
        if t is None:
            assert resp == (SLVERR if strict else OKAY), (hex(addr), resp)
            assert we or rdata == 0, (hex(addr), rdata)
            continue
        lt, lwe, laddr, lwdata, lrdata, lerr = next(entries)
        assert (lt, lwe, laddr) == (t, we, word), ((lt, lwe, laddr), (t, we, word), hex(addr))
        if we:
            assert lwdata == wdata, (hex(addr), lwdata, wdata)
        assert resp == (SLVERR if lerr else OKAY), (hex(addr), resp, lerr)
        if not we and not lerr:
            assert rdata == lrdata, (hex(addr), hex(rdata), hex(lrdata))
    assert next(entries, None) is None, "target accesses nobody asked for"


def pauses(p):
    while True:
        yield random.random() < p


@cocotb.test()
async def random_storm(dut):
    strict = params()["strict"]
    targets = await setup(dut, lambda: random.choice([1, 1, 1, 2, 3, 7]) if random.random() < 0.97
                          else random.randrange(20, 60))
    axi = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi"), dut.s_axi_aclk, dut.s_axi_aresetn,
                        reset_active_level=False)
    for log in (axi.write_if.log, axi.read_if.log):
        log.setLevel(logging.WARNING)
    channels = (axi.write_if.aw_channel, axi.write_if.w_channel, axi.write_if.b_channel,
                axi.read_if.ar_channel, axi.read_if.r_channel)
    writes, reads = [], []
    inflight, count = collections.deque(), 0
    for phase in range(2):
        for ch in channels:
            ch.set_pause_generator(pauses(random.choice([0.2, 0.5, 0.8])) if phase == 0 else None)
            ch.pause = False  # (clearing the generator leaves the last value)
        for _ in range(STORM // 2):
            addr = random.getrandbits(ADDR_W) & ~3
            if random.random() < 0.7:  # mostly inside the windows of the targets
                addr %= (NUM_LMICS + 1) << WINDOW_LOG2
            last_is_write = random.random() < 0.5
            if last_is_write:
                data = random.getrandbits(32)
                writes.append((addr, data, axi.init_write(addr, data.to_bytes(4, "little"))))
            else:
                reads.append((addr, axi.init_read(addr, 4)))
            count += 1
            inflight.append((writes[-1][2] if last_is_write else reads[-1][1]))
            if random.random() < 0.3:
                await RisingEdge(dut.s_axi_aclk)
            while len(inflight) > 8:  # at most 8 accesses queued in the master
                while inflight and inflight[0].is_set():
                    inflight.popleft()
                if len(inflight) > 8:
                    await RisingEdge(dut.s_axi_aclk)
        for e in [e for *_, e in writes] + [e for _, e in reads]:
            await with_timeout(e.wait(), 100, "us")
    wlog = [e for e in targets.log if e[1] == 1]
    rlog = [e for e in targets.log if e[1] == 0]
    check_in_order([(1, a, d, int(e.data.resp), 0) for a, d, e in writes], wlog, strict)
    check_in_order([(0, a, None, int(e.data.resp), int.from_bytes(e.data.data, "little"))
                    for a, e in reads], rlog, strict)
    out = sum(split(a)[0] is None for a, *_ in writes + reads)
    dut._log.info("checked %d random AXI-Lite accesses (%d writes, %d reads, %d beyond the last "
                  "LMIC, %d target accesses)", len(writes) + len(reads), len(writes), len(reads),
                  out, targets.accesses)


class Raw:
    """Hand-driven AXI4-Lite channels (valid/ready sampled mid-cycle)."""

    def __init__(self, dut):
        self.dut = dut
        self.clk = dut.s_axi_aclk

    async def idle(self, n):
        for _ in range(n):
            await FallingEdge(self.clk)

    async def send(self, ch, fields, delay):
        d = self.dut
        await self.idle(delay + 1)
        for k, v in fields.items():
            getattr(d, f"s_axi_{k}").value = v
        getattr(d, f"s_axi_{ch}valid").value = 1
        while True:
            ready = int(getattr(d, f"s_axi_{ch}ready").value)
            await FallingEdge(self.clk)
            if ready:
                getattr(d, f"s_axi_{ch}valid").value = 0
                return

    async def recv(self, ch, delay):
        """Wait for xVALID, keep xREADY low for `delay` cycles (checking that the
        response is held), then take it. Returns (resp, rdata)."""
        d = self.dut
        v = getattr(d, f"s_axi_{ch}valid")
        while not int(v.value):
            await FallingEdge(self.clk)
        held = (int(getattr(d, f"s_axi_{ch}resp").value), int(d.s_axi_rdata.value))
        for _ in range(delay):
            await FallingEdge(self.clk)
            now = (int(v.value), int(getattr(d, f"s_axi_{ch}resp").value), int(d.s_axi_rdata.value))
            assert now[0] == 1 and (now[1] == held[0]) and (ch == "b" or now[2] == held[1]), (ch, now, held)
        getattr(d, f"s_axi_{ch}ready").value = 1
        await FallingEdge(self.clk)
        getattr(d, f"s_axi_{ch}ready").value = 0
        return held

    async def write(self, addr, data, aw_delay=0, w_delay=0, b_delay=0):
        aw = cocotb.start_soon(self.send("aw", {"awaddr": addr}, aw_delay))
        w = cocotb.start_soon(self.send("w", {"wdata": data, "wstrb": 0xF}, w_delay))
        resp, _ = await self.recv("b", b_delay)
        assert aw.done() and w.done()
        return resp

    async def read(self, addr, ar_delay=0, r_delay=0):
        ar = cocotb.start_soon(self.send("ar", {"araddr": addr}, ar_delay))
        resp, data = await self.recv("r", r_delay)
        assert ar.done()
        return resp, data


def expect(targets, strict, we, addr, wdata):
    """(resp, rdata) the DCI must answer, from the emulator's memory now."""
    t, word = split(addr)
    if t is None:
        return (SLVERR if strict else OKAY), 0
    if word % 5 == 4:
        return SLVERR, 0
    return OKAY, 0 if we else targets.mem[t].get(word, default_word(t, word))


def in_range_addr():
    while True:
        a = random.getrandbits(ADDR_W) & ~3
        if split(a)[0] is not None and random.random() < 0.9:
            return a
        if random.random() < 0.1:
            return a


@cocotb.test()
async def channel_order(dut):
    strict = params()["strict"]
    targets = await setup(dut, lambda: random.choice([1, 2, 5]))
    raw = Raw(dut)
    n = 0

    async def one_ordered(mode):
        nonlocal n
        addr, data = in_range_addr(), random.getrandbits(32)
        exp = expect(targets, strict, 1, addr, data)
        if mode == 0:    # W long before AW
            resp = await raw.write(addr, data, aw_delay=random.randrange(20, 80), b_delay=random.randrange(4))
        elif mode == 1:  # AW long before W
            resp = await raw.write(addr, data, w_delay=random.randrange(20, 80), b_delay=random.randrange(4))
        elif mode == 2:  # together, BREADY held low
            resp = await raw.write(addr, data, b_delay=random.randrange(0, 30))
        elif mode == 3:  # a read, RREADY held low
            exp = expect(targets, strict, 0, addr, 0)
            got = await raw.read(addr, ar_delay=random.randrange(3), r_delay=random.randrange(0, 30))
            assert got == exp, (hex(addr), got, exp)
            n += 1
            return
        else:            # a lone W waits while a read goes through, then AW
            raddr = in_range_addr()
            w = cocotb.start_soon(raw.send("w", {"wdata": data, "wstrb": 0xF}, 0))
            rexp = expect(targets, strict, 0, raddr, 0)
            got = await raw.read(raddr, ar_delay=3, r_delay=random.randrange(5))
            assert got == rexp, (hex(raddr), got, rexp)
            # the DCI waits for AW before it takes W (READY low until the answer)
            assert not w.done(), "W taken without its AW"
            exp = expect(targets, strict, 1, addr, data)
            aw = cocotb.start_soon(raw.send("aw", {"awaddr": addr}, random.randrange(5)))
            resp, _ = await raw.recv("b", random.randrange(5))
            await aw
            await w
            n += 1
        assert (resp, 0) == exp, (mode, hex(addr), resp, exp)
        n += 1

    for k in range(150):
        await with_timeout(one_ordered(k % 5), 20, "us")
    dut._log.info("checked %d hand-ordered accesses (W before AW, AW before W, held B/R, "
                  "read overtaking a lone W)", n)


@cocotb.test()
async def alternation(dut):
    strict = params()["strict"]
    targets = await setup(dut, lambda: 2)
    axi = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi"), dut.s_axi_aclk, dut.s_axi_aresetn,
                        reset_active_level=False)
    for log in (axi.write_if.log, axi.read_if.log):
        log.setLevel(logging.WARNING)
    checked = 0
    for _ in range(20):
        first = len(targets.log)
        k = random.randrange(4, 12)
        evs = []
        for _ in range(k):
            evs.append(axi.init_write(random.randrange(1 << (WINDOW_LOG2 + 1)) & ~3,
                                      random.getrandbits(32).to_bytes(4, "little")))
            evs.append(axi.init_read(random.randrange(1 << (WINDOW_LOG2 + 1)) & ~3, 4))
        for e in evs:
            await with_timeout(e.wait(), 100, "us")
        kinds = [e[1] for e in targets.log[first:]]
        assert len(kinds) == 2 * k, kinds
        # while both kinds wait, they alternate: no kind twice in a row until
        # one of them runs out
        body = kinds[:-2]
        assert all(a != b for a, b in zip(body, body[1:])), kinds
        checked += 2 * k
    dut._log.info("checked %d accesses issued in read/write bursts: served alternately", checked)


@cocotb.test()
async def reset_mid_transaction(dut):
    strict = params()["strict"]
    slow = {"on": False}
    targets = await setup(dut, lambda: random.randrange(10, 40) if slow["on"] else 1)
    raw = Raw(dut)
    clk = dut.s_axi_aclk
    n = 0

    async def pulse_reset(cycles):
        dut.s_axi_aresetn.value = 0
        for s in ("awvalid", "wvalid", "arvalid", "bready", "rready"):
            getattr(dut, f"s_axi_{s}").value = 0
        for _ in range(cycles):
            await RisingEdge(clk)
        await FallingEdge(clk)
        dut.s_axi_aresetn.value = 1
        await FallingEdge(clk)

    async def check_some(k):
        nonlocal n
        for _ in range(k):
            addr = in_range_addr()
            if random.random() < 0.5:
                data = random.getrandbits(32)
                exp = expect(targets, strict, 1, addr, data)
                resp = await with_timeout(raw.write(addr, data, random.randrange(3), random.randrange(3)),
                                          10, "us")
                assert (resp, 0) == exp, (hex(addr), resp, exp)
            else:
                exp = expect(targets, strict, 0, addr, 0)
                got = await with_timeout(raw.read(addr, random.randrange(3), random.randrange(3)), 10, "us")
                assert got == exp, (hex(addr), got, exp)
            n += 1

    for k in range(48):
        case = k % 6
        addr = in_range_addr()
        while split(addr)[0] is None:
            addr = in_range_addr()
        if case in (0, 1):  # target busy: its answer is dropped (0) or comes during reset (1)
            slow["on"] = case == 0
            targets.drop_on_reset = case == 0
            task = cocotb.start_soon(raw.read(addr) if random.random() < 0.5
                                     else raw.write(addr, random.getrandbits(32)))
            while targets.pending is None:
                await RisingEdge(clk)
            task.cancel()
            await pulse_reset(random.randrange(1, 4) if case == 1 else random.randrange(2, 20))
            slow["on"] = False
            targets.drop_on_reset = True
        elif case == 2:     # BVALID waiting (BREADY low)
            aw = cocotb.start_soon(raw.send("aw", {"awaddr": addr}, 0))
            w = cocotb.start_soon(raw.send("w", {"wdata": 1, "wstrb": 0xF}, 0))
            while not int(dut.s_axi_bvalid.value):
                await FallingEdge(clk)
            await pulse_reset(random.randrange(1, 6))
            assert not int(dut.s_axi_bvalid.value)
        elif case == 3:     # RVALID waiting
            ar = cocotb.start_soon(raw.send("ar", {"araddr": addr}, 0))
            while not int(dut.s_axi_rvalid.value):
                await FallingEdge(clk)
            await pulse_reset(random.randrange(1, 6))
            assert not int(dut.s_axi_rvalid.value)
        elif case == 4:     # a lone W accepted, AW never came
            w = cocotb.start_soon(raw.send("w", {"wdata": 2, "wstrb": 0xF}, 0))
            await raw.idle(5)
            await pulse_reset(random.randrange(1, 6))
        else:               # in the address handshake of a write, after its answer: a
            # target on the bus clock is not committed (the emulator checks it)
            task = cocotb.start_soon(raw.write(addr, random.getrandbits(32)))
            await FallingEdge(clk)
            while not (int(dut.t_ack.value) and int(dut.t_we.value)):
                await FallingEdge(clk)
            await RisingEdge(clk)      # the handshake cycle starts: reset from its start
            dut.s_axi_aresetn.value = 0
            task.cancel()
            await pulse_reset(random.randrange(1, 4))
        await check_some(4)
    dut._log.info("checked %d accesses after 48 resets in the middle of transactions", n)


@cocotb.test()
async def silent_target(dut):
    """Targets without a bridge (bridged_g = 0) that never answer some
    requests: each such access is answered SLVERR, RDATA 0, TIMEOUT cycles
    after its request; the others as usual."""
    if not params()["silent"]:
        return      # the run where every target has a bridge (slow answers)
    strict = params()["strict"]
    targets = await setup(dut, lambda: random.choice([1, 2, 3]))
    raw = Raw(dut)
    silent = 0
    for k in range(80):
        addr = in_range_addr()
        while split(addr)[0] is None:
            addr = in_range_addr()
        drop = k % 3 == 0
        targets.drop_next = drop
        we, data = random.random() < 0.5, random.getrandbits(32)
        exp = (SLVERR, 0) if drop else expect(targets, strict, int(we), addr, data)
        t0 = targets.cycle
        if we:
            got = (await with_timeout(raw.write(addr, data), 5, "us"), 0)
        else:
            got = await with_timeout(raw.read(addr), 5, "us")
        assert got == exp, (k, hex(addr), got, exp)
        if drop:
            silent += 1
            assert targets.cycle - t0 <= TIMEOUT + 8, (k, targets.cycle - t0)
        assert targets.drop_next is False
    dut._log.info("%d accesses, %d to a silent target answered SLVERR after the timeout", 80, silent)


TIMEOUT = 8
ALL_BRIDGED = (1 << (NUM_LMICS + 1)) - 1


@pytest.mark.parametrize("strict", [False, True])
def test_dci(strict):
    """Every target behind a bridge: they take up to 60 cycles."""
    run("jointer_collect_dci", __name__,
        {"addr_w_g": ADDR_W, "num_lmics_g": NUM_LMICS, "window_log2_g": WINDOW_LOG2,
         "strict_g": strict, "bridged_g": ALL_BRIDGED},
        extra_env=params_env(strict=strict, silent=False, bridged=ALL_BRIDGED))


def test_dci_mixed():
    """LMIC 0 behind a bridge, the global block and LMIC 1 on the bus clock
    (their commit a cycle after the answer); a timeout beyond the slowest
    answer of the emulated targets (60 cycles)."""
    run("jointer_collect_dci", __name__,
        {"addr_w_g": ADDR_W, "num_lmics_g": NUM_LMICS, "window_log2_g": WINDOW_LOG2,
         "strict_g": False, "bridged_g": 0b010, "timeout_g": 64},
        extra_env=params_env(strict=False, silent=False, bridged=0b010), name="jointer_collect_dci_mixed")


def test_dci_silent():
    """No target behind a bridge: the DCI's own timeout answers silent ones."""
    run("jointer_collect_dci", __name__,
        {"addr_w_g": ADDR_W, "num_lmics_g": NUM_LMICS, "window_log2_g": WINDOW_LOG2,
         "strict_g": False, "bridged_g": 0, "timeout_g": TIMEOUT},
        extra_env=params_env(strict=False, silent=True, bridged=0), testcase="silent_target",
        name="jointer_collect_dci_silent")
