# SPDX-License-Identifier: MIT
"""jointer_eig_axi4_latency: per-transaction latency of a passive AXI4 tap.

Three taps watch one bus (tb_axi4_latency.vhd): read (AR -> RLAST), write
(AW -> WLAST) and write (AW -> B). The bus is driven by axi_bus.Axi4Traffic
(master and slave at once: W before/with/after AW, interleaved read data of
several IDs, back-pressure and idle phases on every channel), extended here
with a real B channel (responses of several IDs out of order across IDs, in
AW order per ID, after the AW and the WLAST beat). axi_model.Recorder
samples the handshakes; the models below compute, from those alone, the
exact candidates (cycle, latency, 1) of each tap. A second test uses
cocotbext-axi's AxiMaster + AxiRam; a third resets the taps mid-traffic.
"""

import logging
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

from axi_bus import LatencyTraffic
from axi_check import check_taps
from axi_model import (Recorder, expect_read_latency, expect_write_last_latency, expect_write_resp_latency,
                       lead_max, w_bursts)
from axi_netlist import synth_netlist
from jointer_sim import run

TB = Path(__file__).with_name("tb_axi4_latency.vhd")
TAPS = ("rl", "wl", "wr")


class TB_:
    def __init__(self, dut):
        self.dut = dut
        self.nbytes = len(dut.mon_wdata) // 8
        self.addr_w = len(dut.mon_awaddr)
        self.id_w = len(dut.mon_awid)
        self.max_out = int(os.environ["TAP_MAX_OUTSTANDING"])
        self.max_size = self.nbytes.bit_length() - 1
        self.rng = random
        channels = {
            "aw": (dut.mon_awvalid, dut.mon_awready, {"id": dut.mon_awid}),
            "w": (dut.mon_wvalid, dut.mon_wready, {"strb": dut.mon_wstrb, "last": dut.mon_wlast}),
            "b": (dut.mon_bvalid, dut.mon_bready, {"id": dut.mon_bid}),
            "ar": (dut.mon_arvalid, dut.mon_arready, {"id": dut.mon_arid}),
            "r": (dut.mon_rvalid, dut.mon_rready, {"id": dut.mon_rid, "last": dut.mon_rlast}),
        }
        taps = {t: (getattr(dut, f"{t}_valid"), getattr(dut, f"{t}_data"), getattr(dut, f"{t}_bytes"))
                for t in TAPS}
        self.rec = Recorder(dut.clk, dut.rst, channels, taps)

    async def start(self, traffic=True):
        dut = self.dut
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        m = self.max_out
        self.bus = LatencyTraffic(dut, dut.clk, self.rng, aw_lead=m, w_lead=m, beat_lead=1 << 20,
                                  aw_queue=1 << 12, max_reads=m, max_writes=m)
        if traffic:
            cocotb.start_soon(self.bus.run())
        await ClockCycles(dut.clk, 2)
        self.rec.start()
        await ClockCycles(dut.clk, 3)
        dut.rst.value = 0

    def burst_len(self):
        r = self.rng.random()
        if r < 0.6:
            return self.rng.randint(1, 4)
        if r < 0.95:
            return self.rng.randint(5, 32)
        return self.rng.randint(33, 256)

    def add_writes(self, n):
        ids = min(1 << self.id_w, 4)
        modes, mode = [], "free"
        for k in range(n):
            if k % 8 == 0:                # modes in runs, so that leads build up
                mode = self.rng.choice(("free", "aw_first", "w_first", "sync"))
            modes.append(mode)
        base = len(self.bus.wq)
        for k, mode in enumerate(modes):
            # a W-first AW may wait for later W-first bursts too: W leads by bursts
            wait, extra = k + 1, self.rng.randrange(self.max_out)
            while mode == "w_first" and wait < n and wait - k <= extra and modes[wait] == "w_first":
                wait += 1
            self.bus.add_write(self.rng.getrandbits(self.addr_w),
                               [(1 << self.nbytes) - 1] * self.burst_len(),
                               self.rng.randint(0, self.max_size), mode, self.rng.randrange(ids),
                               wait_w=base + wait)

    def add_reads(self, n):
        ids = min(1 << self.id_w, 4)
        for _ in range(n):
            self.bus.add_read(self.rng.getrandbits(self.addr_w), self.burst_len(),
                              self.rng.randint(0, self.max_size), self.rng.randrange(ids))

    async def wait_idle(self, limit=400000):
        for _ in range(limit // 50):
            if self.bus.idle:
                break
            await ClockCycles(self.dut.clk, 50)
        assert self.bus.idle, "traffic did not finish"
        await ClockCycles(self.dut.clk, 10)

    def check(self):
        models = {
            "rl": lambda hs: expect_read_latency(hs["ar"], hs["r"]),
            "wl": lambda hs: expect_write_last_latency(hs["aw"], hs["w"]),
            "wr": lambda hs: expect_write_resp_latency(hs["aw"], hs["b"]),
        }
        counts = check_taps(self.rec, self.dut._log, models)
        lat = {t: sorted(c[1] for c in self.rec.cands[t]) for t in TAPS}
        for t in TAPS:
            self.dut._log.info("tap %s: %d candidates, latency min %s max %s", t, counts[t],
                               lat[t][0] if lat[t] else None, lat[t][-1] if lat[t] else None)
        return counts, lat

    def bounds(self):
        """The stimulus stays inside the taps' bounds (or the test proves nothing)."""
        hs = self.rec.hs
        aw = [t for t, _ in hs["aw"]]
        wl = [t for t, _ in w_bursts(hs["w"])]
        cov = dict(
            reads_open=lead_max([t for t, _ in hs["ar"]], [t for t, f in hs["r"] if f["last"]]),
            writes_open=lead_max(aw, [t for t, _ in hs["b"]]),
            aw_lead=lead_max(aw, wl), w_lead=lead_max(wl, aw),
            w_before_aw=sum(1 for a, w in zip(aw, wl) if w < a),
            w_with_aw=sum(1 for a, w in zip(aw, wl) if w == a),
            b_ids=len(self.bus.b_ids))
        m = self.max_out
        assert cov["reads_open"] <= m and cov["writes_open"] <= m, cov
        assert cov["aw_lead"] <= m and cov["w_lead"] <= m, cov
        return cov


@cocotb.test()
async def random_transactions(dut):
    """Random reads and writes at once; exact latency of every transaction, all three taps."""
    tb = TB_(dut)
    await tb.start()
    n = int(os.environ["TAP_BURSTS"])
    tb.add_writes(n)
    tb.add_reads(n)
    await tb.wait_idle()
    counts, lat = tb.check()
    cov = tb.bounds()
    dut._log.info("coverage: %s", cov)
    assert counts == {"rl": n, "wl": n, "wr": n}, counts
    assert cov["w_before_aw"] > 0 and cov["w_with_aw"] > 0, cov
    assert lat["wl"][0] == 0 and lat["rl"][0] >= 1 and lat["wr"][0] >= 1, lat
    assert cov["reads_open"] >= min(3, tb.max_out) and cov["writes_open"] >= min(3, tb.max_out), cov
    assert cov["b_ids"] >= min(2, 1 << tb.id_w), cov
    assert cov["w_lead"] >= min(3, tb.max_out) and cov["aw_lead"] >= min(3, tb.max_out), cov


@cocotb.test()
async def reset_mid_traffic(dut):
    """Reset while transactions are open: nothing while rst is high, exact afterwards."""
    tb = TB_(dut)
    await tb.start()
    n = int(os.environ["TAP_BURSTS"]) // 3
    for _ in range(2):
        tb.add_writes(n)
        tb.add_reads(n)
        for _ in range(tb.rng.randint(30, 300)):
            await RisingEdge(dut.clk)
        dut.rst.value = 1
        tb.bus.stop()
        await tb.wait_idle()
        dut.rst.value = 0
        tb.bus.resume()
    tb.add_writes(n)
    tb.add_reads(n)
    await tb.wait_idle()
    counts, _ = tb.check()
    assert counts["rl"] >= n and counts["wl"] >= n and counts["wr"] >= n, counts


@cocotb.test()
async def cocotbext_master_ram(dut):
    """cocotbext-axi AxiMaster + AxiRam with pauses on every channel."""
    from cocotbext.axi import AxiBus, AxiMaster, AxiRam

    tb = TB_(dut)
    await tb.start(traffic=False)
    logging.getLogger(f"cocotb.{dut._name}.mon").setLevel(logging.WARNING)
    dut.rst.value = 1
    bus = AxiBus.from_prefix(dut, "mon")
    master = AxiMaster(bus, dut.clk, dut.rst)
    ram = AxiRam(bus, dut.clk, dut.rst, size=1 << 16)
    rng = tb.rng

    def pauses():
        while True:
            p = rng.choice([0.0, 0.3, 0.7])
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
    # AxiMaster splits an operation at 4 KiB boundaries; with few outstanding
    # transactions allowed, one single-burst operation at a time
    in_flight = 3 if tb.max_out >= 8 else 1
    for _ in range(int(os.environ["TAP_BURSTS"]) // 3):
        addr = rng.randrange(0, 0xE000)
        length = rng.randint(1, 512)
        if in_flight == 1:
            addr = rng.randrange(0, 0xE000, 0x1000)
        if rng.random() < 0.5:
            ops.append(master.init_write(addr, bytes(rng.getrandbits(8) for _ in range(length))))
        else:
            ops.append(master.init_read(addr, length))
        if len(ops) >= in_flight:
            await ops.pop(0).wait()
    for op in ops:
        await op.wait()
    await ClockCycles(dut.clk, 10)
    counts, _ = tb.check()
    assert tb.bounds()
    assert counts["rl"] > 0 and counts["wl"] > 0 and counts["wr"] == counts["wl"], counts


CONFIGS = [
    # data width, address width, ID width, max outstanding, transactions per direction
    dict(data_w_g=32, addr_w_g=32, id_w_g=4, max_outstanding_g=8, bursts=150),
    dict(data_w_g=64, addr_w_g=20, id_w_g=2, max_outstanding_g=3, bursts=120),
    dict(data_w_g=32, addr_w_g=32, id_w_g=1, max_outstanding_g=1, bursts=60),
]


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: f"o{c['max_outstanding_g']}_i{c['id_w_g']}")
def test_jointer_eig_axi4_latency(cfg):
    cfg = dict(cfg)
    bursts = cfg.pop("bursts")
    run("tb_axi4_latency", __name__, cfg, extra_sources=[TB], name="jointer_eig_axi4_latency",
        extra_env={"TAP_MAX_OUTSTANDING": str(cfg["max_outstanding_g"]), "TAP_BURSTS": str(bursts)})


def test_jointer_eig_axi4_latency_netlist():
    """The random-traffic test on the netlist `ghdl synth` makes of the taps."""
    cfg = dict(CONFIGS[0])
    cfg.pop("bursts")
    net = synth_netlist("tb_axi4_latency", [TB], cfg, "tb_axi4_latency_net")
    run("tb_axi4_latency_net", __name__, {}, extra_sources=[net], toplevel="tb_axi4_latency_net",
        name="jointer_eig_axi4_latency_netlist", testcase="random_transactions",
        extra_env={"TAP_MAX_OUTSTANDING": str(cfg["max_outstanding_g"]), "TAP_BURSTS": "80"})
