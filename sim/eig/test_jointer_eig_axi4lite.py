# SPDX-License-Identifier: MIT
"""jointer_eig_axi4lite: passive AXI4-Lite tap, write and read.

A write tap and a read tap watch one bus (tb_axi4lite_dual.vhd). The bus is
driven by axi_bus.Axi4Traffic in AXI4-Lite mode (AW before W by up to 8, W
before AW by up to 8 - the tap's bound -, both in the same cycle, random/zero WSTRB,
back-pressure, garbage payload while VALID is low) or by cocotbext-axi's
AxiLiteMaster + AxiLiteRam. axi_model.Recorder samples the handshakes; the
model pairs the k-th AW with the k-th W and gives each candidate's data,
bytes and cycle, compared exactly. A third tap (write, ranges_g 2) gives
the in-range bits of two constant ranges evaluated where it queues AWADDR:
they must be those of the address it pairs, in the same cycle.
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
from axi_model import Recorder, expect_pairs, lead_max, popcount
from axi_netlist import synth_netlist
from jointer_sim import run

TB = Path(__file__).with_name("tb_axi4lite_dual.vhd")
LEAD = 8                 # unmatched handshakes one side may have (the tap holds 8)


def capture_ranges(addr_w, ev_w=32):
    """The two ranges the wr tap of tb_axi4lite_dual evaluates where it queues AWADDR."""
    q = 1 << (min(addr_w, ev_w) - 2)
    return [(q, 3 * q - 1), (0, 2 * q + 5)]


def in_range_bits(addr, ranges):
    """bit k = low_k <= AWADDR <= high_k (the address fits the tap's event data)."""
    a = addr
    return sum(1 << k for k, (lo, hi) in enumerate(ranges) if lo <= a <= hi)


class TB_:
    def __init__(self, dut):
        self.dut = dut
        self.nbytes = len(dut.mon_wdata) // 8
        self.addr_w = len(dut.mon_awaddr)
        self.rng = random
        channels = {
            "aw": (dut.mon_awvalid, dut.mon_awready, {"addr": dut.mon_awaddr}),
            "w": (dut.mon_wvalid, dut.mon_wready, {"strb": dut.mon_wstrb}),
            "ar": (dut.mon_arvalid, dut.mon_arready, {"addr": dut.mon_araddr}),
        }
        taps = {t: (getattr(dut, f"{t}_valid"), getattr(dut, f"{t}_data"), getattr(dut, f"{t}_bytes"))
                for t in ("w", "r")}
        taps["wr"] = (dut.wr_valid, dut.wr_rng, dut.wr_bytes)  # the in-range bits as its data
        self.rec = Recorder(dut.clk, dut.rst, channels, taps)

    async def start(self, traffic=True):
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        self.bus = Axi4Traffic(dut, dut.clk, self.rng, aw_lead=LEAD, w_lead=LEAD,
                               beat_lead=10 ** 6, aw_queue=10 ** 6, max_reads=4, lite=True)
        if traffic:
            cocotb.start_soon(self.bus.run())
        await ClockCycles(dut.clk, 2)
        self.rec.start()
        await ClockCycles(dut.clk, 3)
        dut.rst.value = 0

    def add(self, n):
        """n writes and n reads; write modes come in runs so that leads build up."""
        writes, run = [], 0
        for _ in range(n):
            if run == 0:
                run, mode = self.rng.randint(1, 10), self.rng.choice(WRITE_MODES)
            run -= 1
            kind = self.rng.choice(["full", "random", "zero", "single"])
            strb = {"full": (1 << self.nbytes) - 1, "random": self.rng.getrandbits(self.nbytes),
                    "zero": 0, "single": 1 << self.rng.randrange(self.nbytes)}[kind]
            writes.append((self.rng.getrandbits(self.addr_w), strb, mode))
        base = len(self.bus.wq)
        for k, (addr, strb, mode) in enumerate(writes):
            wait = k + 1
            if mode == "w_first":          # let W lead by several writes of the run
                extra = self.rng.randrange(LEAD)
                while wait < n and wait - k <= extra and writes[wait][2] == "w_first":
                    wait += 1
            self.bus.add_write(addr, [strb], 2, mode, wait_w=base + wait)
            self.bus.add_read(self.rng.getrandbits(self.addr_w), 1, 2)

    async def wait_idle(self, limit=100000):
        for _ in range(limit // 50):
            if self.bus.idle:
                break
            await ClockCycles(self.dut.clk, 50)
        assert self.bus.idle, "traffic did not finish"
        await ClockCycles(self.dut.clk, 8)

    def check(self):
        nb = self.nbytes
        models = {
            "w": lambda hs: expect_pairs([(t, f["addr"]) for t, f in hs["aw"]],
                                         [(t, popcount(f["strb"])) for t, f in hs["w"]]),
            "r": lambda hs: [(t + 1, f["addr"], nb) for t, f in hs["ar"]],
            "wr": lambda hs: [(c, in_range_bits(d, capture_ranges(self.addr_w, len(self.dut.wr_data))), b) for c, d, b in
                              expect_pairs([(t, f["addr"]) for t, f in hs["aw"]],
                                           [(t, popcount(f["strb"])) for t, f in hs["w"]])],
        }
        counts = check_taps(self.rec, self.dut._log, models)
        aw = [t for t, _ in self.rec.hs["aw"]]
        w = [t for t, _ in self.rec.hs["w"]]
        cov = dict(aw_lead=lead_max(aw, w), w_lead=lead_max(w, aw),
                   same_cycle=len(set(aw) & set(w)), zero_strb=sum(1 for _, f in self.rec.hs["w"]
                                                                   if f["strb"] == 0))
        assert cov["aw_lead"] <= LEAD and cov["w_lead"] <= LEAD, cov   # stimulus inside the bound
        self.dut._log.info("checked %d write and %d read candidates (%d with in-range bits); coverage %s",
                           counts["w"], counts["r"], counts["wr"], cov)
        return counts, cov


@cocotb.test()
async def random_transfers(dut):
    """Random writes and reads with random AW/W skew and back-pressure."""
    tb = TB_(dut)
    await tb.start()
    tb.add(int(os.environ["TAP_N"]))
    await tb.wait_idle()
    counts, cov = tb.check()
    assert cov["aw_lead"] >= 4 and cov["w_lead"] >= 4 and cov["same_cycle"] > 0, cov
    assert cov["zero_strb"] > 0, cov
    dut._log.info("checked %d random transfers", counts["w"] + counts["r"])


@cocotb.test()
async def reset_mid_traffic(dut):
    """Reset with transfers open: nothing while rst is high, clean afterwards."""
    tb = TB_(dut)
    await tb.start()
    n = int(os.environ["TAP_N"]) // 4
    for _ in range(3):
        tb.add(n)
        for _ in range(tb.rng.randint(5, 200)):
            await RisingEdge(dut.clk)
            if tb.bus.idle:
                break
        dut.rst.value = 1
        tb.bus.stop()
        await tb.wait_idle()
        await ClockCycles(dut.clk, tb.rng.randint(0, 3))
        dut.rst.value = 0
        tb.bus.resume()
    tb.add(n)
    await tb.wait_idle()
    counts, _ = tb.check()
    dut._log.info("checked %d candidates around 3 resets", counts["w"] + counts["r"])


@cocotb.test()
async def cocotbext_master_ram(dut):
    """cocotbext-axi AxiLiteMaster + AxiLiteRam (from_prefix(dut, "mon")) with pauses."""
    from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiLiteRam

    tb = TB_(dut)
    await tb.start(traffic=False)
    logging.getLogger(f"cocotb.{dut._name}.mon").setLevel(logging.WARNING)
    dut.rst.value = 1
    bus = AxiLiteBus.from_prefix(dut, "mon")
    master = AxiLiteMaster(bus, dut.clk, dut.rst)
    ram = AxiLiteRam(bus, dut.clk, dut.rst, size=1 << 12)
    rng = tb.rng

    def pauses():
        while True:
            p = rng.choice([0.0, 0.3, 0.7])
            for _ in range(rng.randint(5, 40)):
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
    n = int(os.environ["TAP_N"]) // 4
    for _ in range(n):
        addr = rng.randrange(0, 0xF00)
        length = rng.randint(1, 4 * tb.nbytes)          # unaligned: partial strobes
        if rng.random() < 0.5:
            ops.append(master.init_write(addr, bytes(rng.getrandbits(8) for _ in range(length))))
        else:
            ops.append(master.init_read(addr, length))
        if len(ops) >= 4:
            await ops.pop(0).wait()
    for op in ops:
        await op.wait()
    await ClockCycles(dut.clk, 10)
    counts, _ = tb.check()
    assert counts["w"] > 0 and counts["r"] > 0
    dut._log.info("checked %d cocotbext-axi operations -> %d candidates", n, counts["w"] + counts["r"])


@pytest.mark.parametrize("cfg", [dict(addr_w_g=32, data_w_g=32), dict(addr_w_g=12, data_w_g=64),
                                 dict(addr_w_g=48, data_w_g=32, ev_w_g=64)],
                         ids=lambda c: f"a{c['addr_w_g']}_d{c['data_w_g']}")
def test_jointer_eig_axi4lite(cfg):
    run("tb_axi4lite_dual", __name__, cfg, extra_sources=[TB], name="jointer_eig_axi4lite",
        extra_env={"TAP_N": "1500"})


def test_jointer_eig_axi4lite_netlist():
    """The same cocotb tests on the netlist `ghdl synth` makes of the taps."""
    cfg = dict(dict(addr_w_g=32, data_w_g=32))
    net = synth_netlist("tb_axi4lite_dual", [TB], cfg, "tb_axi4lite_dual_net")
    run("tb_axi4lite_dual_net", __name__, {}, extra_sources=[net], toplevel="tb_axi4lite_dual_net",
        name="jointer_eig_axi4lite_netlist", extra_env={"TAP_N": "1000"})
