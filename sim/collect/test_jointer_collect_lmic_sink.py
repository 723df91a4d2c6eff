# SPDX-License-Identifier: MIT
"""jointer_collect_lmic_sink: the 8 SINK registers of an LMIC's sink traces.

Two sinks at word offsets 8 and 20 of a 64-word window. A Python model of the
register block (layout.SINK_REGS: rw RPTR, WATERMARK, BASE, SIZE, CONTROL
bit 0; CLEAR and SYNC one-cycle pulses reading 0; ro WPTR, STATUS, LOST from the
sink) is driven with random writes and reads; every read of every word of
the window is compared (rd_data, rd_hit), and so are the configuration
outputs and the IRQ pulses (rising edges of irq_wm and of STATUS.ERROR).
"""
import random
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from jointer_sim import run

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "gen"))
from jointer_gen.model.layout import SINK_REGS  # noqa: E402

WORDS = [8, 20]
M32 = 0xFFFFFFFF


def field(sig, k, w):
    return (int(sig.value) >> (w * k)) & ((1 << w) - 1)


@cocotb.test()
async def registers(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value, dut.wr.value, dut.rd_addr.value, dut.wr_addr.value, dut.wr_data.value = 1, 0, 0, 0, 0
    dut.sk_wptr.value = dut.sk_lost.value = dut.sk_status.value = dut.sk_irq_wm.value = 0
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    rw = {k: {n: 0 for n in ("RPTR", "WATERMARK", "BASE", "SIZE", "CONTROL")} for k in range(2)}
    ro = {k: {"WPTR": 0, "LOST": 0, "STATUS": 0} for k in range(2)}
    irq_wm = [0, 0]
    for step in range(3000):
        await FallingEdge(dut.clk)
        # the sink's side changes
        k = random.randrange(2)
        ro[k]["WPTR"], ro[k]["LOST"] = random.getrandbits(32), random.getrandbits(32)
        ro[k]["STATUS"] = random.getrandbits(3) if random.random() < 0.3 else ro[k]["STATUS"]
        irq_wm[k] = random.getrandbits(1)
        dut.sk_wptr.value = ro[0]["WPTR"] | ro[1]["WPTR"] << 32
        dut.sk_lost.value = ro[0]["LOST"] | ro[1]["LOST"] << 32
        dut.sk_status.value = ro[0]["STATUS"] | ro[1]["STATUS"] << 3
        dut.sk_irq_wm.value = irq_wm[0] | irq_wm[1] << 1
        # a read of any word (combinational)
        a = random.randrange(64)
        dut.rd_addr.value = a
        # maybe a write
        wr = random.random() < 0.5
        k, name = random.randrange(2), random.choice(list(SINK_REGS))
        v = random.getrandbits(32)
        dut.wr.value, dut.wr_addr.value, dut.wr_data.value = int(wr), WORDS[k] + SINK_REGS[name], v
        await Timer(1, "ns")
        want, hit = 0, 0
        for s in range(2):
            off = a - WORDS[s]
            if 0 <= off < 8:
                hit = 1
                n = next(x for x, w in SINK_REGS.items() if w == off)
                want = ro[s][n] if n in ro[s] else rw[s][n] & (1 if n == "CONTROL" else M32)
        assert (int(dut.rd_data.value), int(dut.rd_hit.value)) == (want, hit), \
            f"step {step}: word {a}: {int(dut.rd_data.value):#x}/{int(dut.rd_hit.value)}, expected {want:#x}/{hit}"
        await RisingEdge(dut.clk)
        clear, sync = [0, 0], [0, 0]
        if wr and name in rw[k]:
            rw[k][name] = v
            if name == "CONTROL":
                clear[k], sync[k] = (v >> 1) & 1, (v >> 2) & 1
        await Timer(1, "ns")
        for s in range(2):
            assert field(dut.sk_rptr, s, 32) == rw[s]["RPTR"]
            assert field(dut.sk_watermark, s, 32) == rw[s]["WATERMARK"]
            assert field(dut.sk_base, s, 32) == rw[s]["BASE"]
            assert field(dut.sk_size, s, 32) == rw[s]["SIZE"]
            assert field(dut.sk_enable, s, 1) == rw[s]["CONTROL"] & 1
            assert field(dut.sk_clear, s, 1) == clear[s], f"step {step}: CLEAR pulse of sink {s}"
            assert field(dut.sk_sync, s, 1) == sync[s], f"step {step}: SYNC pulse of sink {s}"
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    await Timer(1, "ns")
    assert int(dut.sk_base.value) == 0 and int(dut.sk_enable.value) == 0


@cocotb.test()
async def irq_edges(dut):
    """wm_set pulses for one cycle when irq_wm rises, err_set when STATUS.ERROR rises."""
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value, dut.wr.value = 1, 0
    dut.sk_irq_wm.value = dut.sk_status.value = 0
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    seen = []
    for level_wm, level_st in [(0, 0), (1, 0), (1, 0), (0, 1), (0, 1), (2, 1), (0, 0), (2, 8), (2, 8)]:
        await FallingEdge(dut.clk)
        dut.sk_irq_wm.value, dut.sk_status.value = level_wm, level_st
        await Timer(1, "ns")
        seen.append((int(dut.wm_set.value), int(dut.err_set.value)))
    assert seen == [(0, 0), (1, 0), (0, 0), (0, 1), (0, 0), (2, 0), (0, 0), (2, 2), (0, 0)], seen


def test_collect_lmic_sink():
    run("jointer_collect_lmic_sink", __name__,
        {"addr_w_g": 6, "num_sinks_g": 2, "sink_reg_word_g": WORDS})
