# SPDX-License-Identifier: MIT
"""jointer_eig_axi4: passive AXI4 tap, per burst and per beat, both directions.

Four taps watch one bus (tb_axi4_quad.vhd): write per burst, write per beat,
read per burst, read per beat. The bus is driven by axi_bus.Axi4Traffic
(master and slave at once: W before/with/after AW, interleaved read data of
several IDs, random and zero WSTRB, back-pressure everywhere) or by
cocotbext-axi's AxiMaster + AxiRam. axi_model.Recorder samples the handshakes;
the reference models turn them into the exact candidates (data, bytes and the
cycle they are due) each tap must give. Generics: data width 32/64/128 (and 8),
address widths narrower and wider than 32, 1..4 ID bits, 4 or 8 outstanding.
"""

import logging
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

from axi_bus import WRITE_MODES, Axi4Traffic
from axi_check import check_taps
from axi_model import (Recorder, expect_axi4_read, expect_axi4_write, lead_max,
                       outstanding_reads, w_bursts)
from axi_netlist import synth_netlist
from jointer_sim import run

TB = Path(__file__).with_name("tb_axi4_quad.vhd")
TAPS = ("wb", "wp", "rb", "rp", "wr")


def capture_ranges(addr_w, ev_w=32):
    """The two ranges the wr tap of tb_axi4_quad evaluates at the AW capture."""
    a = min(addr_w, ev_w)
    q = 1 << (a - 2)
    return [(q, 3 * q - 1), (0, 2 * q + 5)]


def in_range_bits(addr, ranges):
    """What the wr tap gives instead of the address: bit k = low_k <= AWADDR <= high_k."""
    a = addr
    return sum(1 << k for k, (lo, hi) in enumerate(ranges) if lo <= a <= hi)
BEAT_LEAD = 250          # W beats ahead of their AW (the per-beat tap holds 255)


class TB_:
    def __init__(self, dut):
        self.dut = dut
        self.data_w = len(dut.mon_wdata)
        self.nbytes = self.data_w // 8
        self.addr_w = len(dut.mon_awaddr)
        self.id_w = len(dut.mon_awid)
        self.max_out = int(os.environ["TAP_MAX_OUTSTANDING"])
        self.max_size = self.nbytes.bit_length() - 1
        self.rng = random
        channels = {
            "aw": (dut.mon_awvalid, dut.mon_awready,
                   {"addr": dut.mon_awaddr, "len": dut.mon_awlen, "size": dut.mon_awsize}),
            "w": (dut.mon_wvalid, dut.mon_wready, {"strb": dut.mon_wstrb, "last": dut.mon_wlast}),
            "ar": (dut.mon_arvalid, dut.mon_arready,
                   {"id": dut.mon_arid, "addr": dut.mon_araddr, "len": dut.mon_arlen,
                    "size": dut.mon_arsize}),
            "r": (dut.mon_rvalid, dut.mon_rready, {"id": dut.mon_rid, "last": dut.mon_rlast}),
        }
        taps = {t: (getattr(dut, f"{t}_valid"), getattr(dut, f"{t}_data"), getattr(dut, f"{t}_bytes"))
                for t in TAPS}
        self.rec = Recorder(dut.clk, dut.rst, channels, taps)

    async def start(self, traffic=True):
        """Clock, every input driven, reset held with the clock running."""
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        # per-beat AW queue: 2^clog2(max_out + 1) entries
        aw_depth = 1 << self.max_out.bit_length()
        self.bus = Axi4Traffic(dut, dut.clk, self.rng, aw_lead=self.max_out, w_lead=self.max_out,
                               beat_lead=BEAT_LEAD, aw_queue=aw_depth - 1, max_reads=self.max_out)
        if traffic:
            cocotb.start_soon(self.bus.run())
        await ClockCycles(dut.clk, 2)
        self.rec.start()
        await ClockCycles(dut.clk, 3)
        dut.rst.value = 0

    # -- stimulus ----------------------------------------------------------
    def burst_len(self):
        r = self.rng.random()
        if r < 0.5:
            return self.rng.randint(1, 4)
        if r < 0.8:
            return self.rng.randint(5, 32)
        if r < 0.95:
            return self.rng.randint(33, 128)
        return self.rng.randint(129, 256)

    def strb(self, kind, addr, size, beat):
        full = (1 << self.nbytes) - 1
        if kind == "mixed":
            kind = self.rng.choice(["lanes", "random", "sparse", "zero", "full"])
        if kind == "lanes":          # the lanes a narrow INCR beat uses
            w = 1 << size
            off = ((addr >> size) + beat) * w % self.nbytes
            return ((1 << w) - 1) << off
        if kind == "random":
            return self.rng.getrandbits(self.nbytes)
        if kind == "sparse":
            return 1 << self.rng.randrange(self.nbytes) if self.rng.random() < 0.7 else 0
        if kind == "zero":
            return 0
        return full

    def add_writes(self, n, long_bursts=0):
        bursts, run = [], 0
        for k in range(n):
            if run == 0:                 # modes come in runs, so that leads build up
                run = self.rng.randint(1, 10)
                run_mode = self.rng.choice(WRITE_MODES)
            run -= 1
            length = 256 if k < long_bursts else self.burst_len()
            size = self.rng.randint(0, self.max_size)
            addr = self.rng.getrandbits(self.addr_w)
            kind = self.rng.choice(["lanes", "random", "sparse", "zero", "full", "mixed", "mixed"])
            strbs = [self.strb(kind, addr, size, b) for b in range(length)]
            mode = run_mode
            if mode == "w_first" and length > BEAT_LEAD:
                mode = "free"
            bursts.append(dict(addr=addr, strbs=strbs, size=size, mode=mode))
        # W-first AWs wait for a few more W bursts of their run: W leads by whole
        # bursts (within the bounds: complete bursts and held beats)
        base = len(self.bus.wq)
        for k, b in enumerate(bursts):
            wait, beats = k + 1, len(b["strbs"])
            if b["mode"] == "w_first":
                extra = self.rng.randrange(self.max_out)
                while (wait < n and wait - k <= extra and bursts[wait]["mode"] == "w_first"
                       and beats + len(bursts[wait]["strbs"]) <= BEAT_LEAD):
                    beats += len(bursts[wait]["strbs"])
                    wait += 1
            self.bus.add_write(b["addr"], b["strbs"], b["size"], b["mode"],
                               self.rng.getrandbits(self.id_w), wait_w=base + wait)

    def add_reads(self, n, long_bursts=0):
        ids = min(1 << self.id_w, 4)
        for k in range(n):
            length = 256 if k < long_bursts else self.burst_len()
            self.bus.add_read(self.rng.getrandbits(self.addr_w), length,
                              self.rng.randint(0, self.max_size), self.rng.randrange(ids))

    async def wait_idle(self, limit=200000):
        for _ in range(limit // 50):
            if self.bus.idle:
                break
            await ClockCycles(self.dut.clk, 50)
        assert self.bus.idle, "traffic did not finish"
        # let the taps drain (held per-beat W beats leave one per cycle)
        await ClockCycles(self.dut.clk, BEAT_LEAD + 10)

    # -- checking ----------------------------------------------------------
    def models(self):
        nb = self.nbytes
        return {
            "wb": lambda hs: expect_axi4_write(hs["aw"], hs["w"], per_beat=False),
            "wp": lambda hs: expect_axi4_write(hs["aw"], hs["w"], per_beat=True),
            "rb": lambda hs: expect_axi4_read(hs["ar"], hs["r"], per_beat=False, data_bytes=nb),
            "rp": lambda hs: expect_axi4_read(hs["ar"], hs["r"], per_beat=True, data_bytes=nb),
            # write per burst, filters evaluated at the AW capture, no address carried
            "wr": lambda hs: [(c, in_range_bits(d, capture_ranges(self.addr_w, len(self.dut.wr_data))), b)
                              for c, d, b in expect_axi4_write(hs["aw"], hs["w"], per_beat=False)],
        }

    def check(self):
        counts = check_taps(self.rec, self.dut._log, self.models())
        for t in TAPS:
            self.dut._log.info("checked %d candidates of tap %s", counts[t], t)
        return counts

    def coverage(self):
        """Scenario counts from the recorded handshakes (the stimulus must reach them)."""
        hs = self.rec.hs
        aw = [t for t, _ in hs["aw"]]
        bursts = w_bursts(hs["w"])
        cov = dict(aw_before_w=0, aw_with_w=0, aw_during_w=0, aw_after_w=0)
        for k, (tlast, beats) in enumerate(bursts[:len(aw)]):
            first = beats[0][0]
            if aw[k] < first:
                cov["aw_before_w"] += 1
            elif aw[k] == first:
                cov["aw_with_w"] += 1
            elif aw[k] <= tlast:
                cov["aw_during_w"] += 1
            else:
                cov["aw_after_w"] += 1
        cov["aw_lead"] = lead_max(aw, [t for t, _ in bursts])
        cov["w_lead"] = lead_max([t for t, _ in bursts], aw)
        cov["reads_in_flight"] = outstanding_reads(hs["ar"], hs["r"])
        inter, cur = 0, {}
        prev = None
        for t, f in hs["r"]:
            if prev is not None and f["id"] != prev and cur.get(prev):
                inter += 1                # switched away from an unfinished burst
            cur[f["id"]] = not f["last"]
            prev = f["id"]
        cov["r_interleaved"] = inter
        rlast = {t for t, f in hs["r"] if f["last"]}
        cov["ar_with_rlast"] = sum(1 for t, _ in hs["ar"] if t in rlast)
        cov["w_beats"] = len(hs["w"])
        cov["r_beats"] = len(hs["r"])
        cov["zero_strb_beats"] = sum(1 for _, f in hs["w"] if f["strb"] == 0)
        cov["len256"] = sum(1 for _, f in hs["aw"] if f["len"] == 255) + \
            sum(1 for _, f in hs["ar"] if f["len"] == 255)
        cov["peak_unreported_beats"] = self.bus.peak["unreported"]
        cov["peak_aw_queue"] = self.bus.peak["aw_queue"]
        cov["sizes"] = len({f["size"] for _, f in hs["aw"]} | {f["size"] for _, f in hs["ar"]})
        # the stimulus must stay inside the taps' bounds, or the test proves nothing
        assert cov["aw_lead"] <= self.max_out + 1 and cov["w_lead"] <= self.max_out + 1, cov
        assert cov["reads_in_flight"] <= self.max_out, cov
        return cov


@cocotb.test()
async def random_bursts(dut):
    """Random bursts on both directions at once; exact candidates of all four taps."""
    tb = TB_(dut)
    await tb.start()
    tb.add_writes(int(os.environ["TAP_BURSTS"]), long_bursts=1)
    tb.add_reads(int(os.environ["TAP_BURSTS"]), long_bursts=1)
    await tb.wait_idle()
    counts = tb.check()
    cov = tb.coverage()
    dut._log.info("coverage: %s", cov)
    dut._log.info("checked %d random bursts (%d W beats, %d R beats) -> %d candidates",
                  len(tb.bus.wq) + len(tb.bus.rq), cov["w_beats"], cov["r_beats"],
                  sum(counts.values()))
    for key in ("aw_before_w", "aw_with_w", "aw_during_w", "aw_after_w", "r_interleaved",
                "ar_with_rlast",
                "zero_strb_beats", "len256"):
        assert cov[key] > 0, f"stimulus never produced {key}: {cov}"
    assert cov["sizes"] == tb.max_size + 1, cov
    assert cov["aw_lead"] >= min(4, tb.max_out) and cov["w_lead"] >= min(4, tb.max_out), cov
    assert cov["reads_in_flight"] >= min(4, tb.max_out), cov


@cocotb.test()
async def reset_mid_traffic(dut):
    """Reset while bursts are in flight: nothing while rst is high, clean afterwards."""
    tb = TB_(dut)
    await tb.start()
    n = int(os.environ["TAP_BURSTS"]) // 2
    for rnd in range(3):
        tb.add_writes(n)
        tb.add_reads(n)
        # cut the traffic at a random point while transactions are open
        for _ in range(tb.rng.randint(20, 400)):
            await RisingEdge(dut.clk)
            if tb.bus.idle:
                break
        dut.rst.value = 1
        tb.bus.stop()                           # finish what started, start nothing new
        await tb.wait_idle()
        await ClockCycles(dut.clk, tb.rng.randint(0, 3))
        dut.rst.value = 0
        tb.bus.resume()
    tb.add_writes(n)
    tb.add_reads(n)
    await tb.wait_idle()
    counts = tb.check()
    assert len(tb.rec.rst_cycles) > 3 * 8
    dut._log.info("checked %d candidates around 3 resets (%d reset cycles)",
                  sum(counts.values()), len(tb.rec.rst_cycles))


@cocotb.test()
async def cocotbext_master_ram(dut):
    """cocotbext-axi AxiMaster + AxiRam (from_prefix(dut, "mon")) with pauses on every channel."""
    from cocotbext.axi import AxiBus, AxiMaster, AxiRam

    tb = TB_(dut)
    await tb.start(traffic=False)                 # inputs driven, reset held, no own driver
    logging.getLogger(f"cocotb.{dut._name}.mon").setLevel(logging.WARNING)
    dut.rst.value = 1
    bus = AxiBus.from_prefix(dut, "mon")
    master = AxiMaster(bus, dut.clk, dut.rst)
    ram = AxiRam(bus, dut.clk, dut.rst, size=1 << 16)
    rng = tb.rng

    def pauses():
        while True:
            p = rng.choice([0.0, 0.2, 0.6])
            for _ in range(rng.randint(10, 60)):
                yield rng.random() < p

    for ch in (master.write_if.aw_channel, master.write_if.w_channel, master.read_if.ar_channel,
               ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
               ram.read_if.ar_channel, ram.read_if.r_channel, master.write_if.b_channel,
               master.read_if.r_channel):
        ch.set_pause_generator(pauses())
    await ClockCycles(dut.clk, 4)
    dut.rst.value = 0
    await ClockCycles(dut.clk, 4)
    ops = []
    n = int(os.environ["TAP_BURSTS"]) // 2
    for _ in range(n):
        addr = rng.randrange(0, 0xE000)
        length = rng.randint(1, 3 * 256 * tb.nbytes // 8)
        size = rng.randint(0, tb.max_size)
        if rng.random() < 0.5:
            ops.append(master.init_write(addr, bytes(rng.getrandbits(8) for _ in range(length)),
                                         size=size))
        else:
            ops.append(master.init_read(addr, length, size=size))
        if len(ops) >= 3:                         # a few operations in flight at a time
            await ops.pop(0).wait()
    for op in ops:
        await op.wait()
    await ClockCycles(dut.clk, 10)
    counts = tb.check()
    dut._log.info("checked %d operations (%d AW, %d AR handshakes) -> %d candidates",
                  n, len(tb.rec.hs["aw"]), len(tb.rec.hs["ar"]), sum(counts.values()))
    assert counts["wb"] > 0 and counts["rb"] > 0


CONFIGS = [
    # data width, address width, ID width, max outstanding, bursts per direction
    dict(data_w_g=32, addr_w_g=32, id_w_g=4, max_outstanding_g=8, bursts=120),
    dict(data_w_g=64, addr_w_g=40, id_w_g=2, max_outstanding_g=4, bursts=120, ev_w_g=64),
    dict(data_w_g=128, addr_w_g=20, id_w_g=3, max_outstanding_g=8, bursts=100),
]


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: f"d{c['data_w_g']}_a{c['addr_w_g']}")
def test_jointer_eig_axi4(cfg):
    cfg = dict(cfg)
    bursts = cfg.pop("bursts")
    run("tb_axi4_quad", __name__, cfg, extra_sources=[TB], name="jointer_eig_axi4",
        extra_env={"TAP_MAX_OUTSTANDING": str(cfg["max_outstanding_g"]),
                   "TAP_BURSTS": str(bursts)})


def test_jointer_eig_axi4_netlist():
    """The same cocotb tests on the netlist `ghdl synth` makes of the taps."""
    cfg = dict(CONFIGS[0])
    cfg.pop("bursts")
    net = synth_netlist("tb_axi4_quad", [TB], cfg, "tb_axi4_quad_net")
    run("tb_axi4_quad_net", __name__, {}, extra_sources=[net], toplevel="tb_axi4_quad_net",
        name="jointer_eig_axi4_netlist", extra_env={"TAP_MAX_OUTSTANDING": str(cfg["max_outstanding_g"]), "TAP_BURSTS": "80"})
