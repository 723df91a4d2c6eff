# SPDX-License-Identifier: MIT
"""jointer_eig_axis: passive AXI4-Stream tap, per beat and per packet.

A beats tap and a packets tap watch one stream (tb_axis_dual.vhd), driven by
cocotbext-axi's AxiStreamSource/AxiStreamSink (from_prefix(dut, "mon")) with
pause generators on both sides: random packets with random per-byte TKEEP
(full, random, sparse, whole null beats) and TDEST. axi_model.Recorder
samples the handshakes; the model gives each candidate's data (TDATA low 32
bits or TDEST), bytes (popcount(TKEEP), or data_w/8 without keep; per packet
the sum, saturating at 65535) and cycle, compared exactly. Resets land in the
middle of packets: the model restarts at each reset like the tap.
"""

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Timer

from axi_check import check_taps
from axi_model import Recorder, expect_axis
from axi_netlist import synth_netlist
from jointer_sim import run

TB = Path(__file__).with_name("tb_axis_dual.vhd")


class TB_:
    def __init__(self, dut):
        self.dut = dut
        self.nbytes = len(dut.mon_tdata) // 8
        self.dest_w = len(dut.mon_tdest)
        self.has_keep = os.environ["TAP_KEEP"] == "1"
        self.data_sel = int(os.environ["TAP_SEL"])
        self.rng = random
        channels = {"t": (dut.mon_tvalid, dut.mon_tready,
                          {"data": dut.mon_tdata, "keep": dut.mon_tkeep, "last": dut.mon_tlast,
                           "dest": dut.mon_tdest})}
        taps = {t: (getattr(dut, f"{t}_valid"), getattr(dut, f"{t}_data"), getattr(dut, f"{t}_bytes"))
                for t in ("b", "p")}
        self.rec = Recorder(dut.clk, dut.rst, channels, taps)

    async def start(self):
        from cocotbext.axi import AxiStreamBus, AxiStreamSink, AxiStreamSource

        dut = self.dut
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut.rst.value = 1
        for name in ("tdata", "tkeep", "tlast", "tvalid", "tready", "tdest"):
            getattr(dut, f"mon_{name}").value = 0
        await ClockCycles(dut.clk, 2)
        bus = AxiStreamBus.from_prefix(dut, "mon")
        # no reset for the stream models: traffic goes on while the tap resets
        self.source = AxiStreamSource(bus, dut.clk)
        self.sink = AxiStreamSink(bus, dut.clk)
        self.source.set_pause_generator(self.pauses())
        self.sink.set_pause_generator(self.pauses())
        self.rec.start()
        await ClockCycles(dut.clk, 3)
        dut.rst.value = 0

    def pauses(self):
        rng = self.rng
        while True:
            p = rng.choice([0.0, 0.0, 0.2, 0.5, 0.9])
            for _ in range(rng.randint(5, 80)):
                yield rng.random() < p

    def frame(self, length=None, kind=None):
        from cocotbext.axi import AxiStreamFrame

        rng = self.rng
        if length is None:
            length = rng.randint(1, rng.choice([1, 4, 20, 100]) * self.nbytes)
        kind = kind or rng.choice(["full", "random", "sparse", "null_beats"])
        if kind == "full":
            keep = [1] * length
        elif kind == "random":
            keep = [rng.getrandbits(1) for _ in range(length)]
        elif kind == "sparse":
            keep = [int(rng.random() < 0.1) for _ in range(length)]
        else:                      # whole beats without a valid byte
            keep = [int((i // self.nbytes) % 3 != 1) for i in range(length)]
        return AxiStreamFrame(bytes(rng.getrandbits(8) for _ in range(length)), tkeep=keep,
                              tdest=rng.getrandbits(self.dest_w))

    async def send(self, n, big=False):
        for _ in range(n):
            await self.source.send(self.frame())
        if big:                    # a packet of more than 65535 bytes (saturates)
            await self.source.send(self.frame(length=65536 + self.rng.randint(0, 4 * self.nbytes),
                                                 kind="full"))

    async def drain(self):
        await self.source.wait()
        await ClockCycles(self.dut.clk, 4)
        self.sink.clear()

    def check(self):
        nb, keep, sel = self.nbytes, self.has_keep, self.data_sel
        models = {"b": lambda hs: expect_axis(hs["t"], False, nb, keep, sel),
                  "p": lambda hs: expect_axis(hs["t"], True, nb, keep, sel)}
        counts = check_taps(self.rec, self.dut._log, models)
        beats = self.rec.hs["t"]
        self.dut._log.info("checked %d beat and %d packet candidates (%d null beats, max packet "
                           "bytes %s)", counts["b"], counts["p"],
                           sum(1 for _, f in beats if f["keep"] == 0),
                           max((c[2] for c in self.rec.cands["p"]), default=None))
        return counts


@cocotb.test()
async def random_packets(dut):
    """Random packets, TKEEP patterns and back-pressure; exact candidates in both modes."""
    tb = TB_(dut)
    await tb.start()
    await tb.send(int(os.environ["TAP_N"]), big=tb.nbytes >= 8)
    await tb.drain()
    counts = tb.check()
    assert counts["p"] > 0 and counts["b"] > counts["p"]
    if tb.nbytes >= 8:
        assert max(c[2] for c in tb.rec.cands["p"]) == 0xFFFF


@cocotb.test()
async def reset_mid_packet(dut):
    """Resets in the middle of packets while the stream goes on."""
    tb = TB_(dut)
    await tb.start()
    sender = cocotb.start_soon(tb.send(int(os.environ["TAP_N"])))
    for _ in range(6):
        await ClockCycles(dut.clk, tb.rng.randint(20, 300))
        dut.rst.value = 1
        await ClockCycles(dut.clk, tb.rng.randint(1, 6))
        dut.rst.value = 0
    await sender
    await tb.drain()
    await Timer(1, "ns")
    counts = tb.check()
    assert len(tb.rec.rst_cycles) >= 6 + 5
    dut._log.info("checked %d candidates around 6 resets", counts["b"] + counts["p"])


CONFIGS = [
    dict(data_w_g=32, has_keep_g=True, dest_w_g=4, data_sel_g=0),
    dict(data_w_g=8, has_keep_g=True, dest_w_g=3, data_sel_g=1),
    dict(data_w_g=128, has_keep_g=False, dest_w_g=6, data_sel_g=0),
    dict(data_w_g=64, has_keep_g=True, dest_w_g=32, data_sel_g=1),
]


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: f"d{c['data_w_g']}_k{int(c['has_keep_g'])}"
                                                       f"_s{c['data_sel_g']}")
def test_jointer_eig_axis(cfg):
    run("tb_axis_dual", __name__, cfg, extra_sources=[TB], name="jointer_eig_axis",
        extra_env={"TAP_KEEP": str(int(cfg["has_keep_g"])), "TAP_SEL": str(cfg["data_sel_g"]),
                   "TAP_N": "200"})


def test_jointer_eig_axis_netlist():
    """The same cocotb tests on the netlist `ghdl synth` makes of the taps."""
    cfg = dict(CONFIGS[3])
    net = synth_netlist("tb_axis_dual", [TB], cfg, "tb_axis_dual_net")
    run("tb_axis_dual_net", __name__, {}, extra_sources=[net], toplevel="tb_axis_dual_net",
        name="jointer_eig_axis_netlist", extra_env={"TAP_KEEP": str(int(cfg["has_keep_g"])), "TAP_SEL": str(cfg["data_sel_g"]), "TAP_N": "150"})
