# SPDX-License-Identifier: MIT
"""jointer_dcapf_init: bounds loaded by INIT writes addressed to index_g,
restored by hard reset (also mid-run), against the bounds of
jointer_sim.model.DcapfModel. With ev_w_g 64 (an address wider than 32
bits) a bound is two INIT words (init_word 0: bits 31..0, 1: bits 63..32),
written in any order; with width_g below the bound's width the outputs show
the bound narrowed (its low width_g bits, every bit above set when some bit
above was set), which orders the same against data below 2^width_g."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run, slv
from jointer_sim.model import DcapfModel


def shown(value: int, width: int, ev: int) -> int:
    """What the entity shows of a bound: narrowed to width bits plus "some bit above"."""
    low_bits = (1 << width) - 1
    return value if width >= ev or value <= low_bits else (value & low_bits) | (((1 << ev) - 1) & ~low_bits)


@cocotb.test()
async def random_loads(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    index, ev, width = p["index"], p["ev"], p["width"]
    model = DcapfModel(low=p["low"], high=p["high"], bits=ev)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.init_we.value = 0
    dut.init_sel.value = 0
    dut.init_hi.value = 0
    dut.init_word.value = 0
    dut.init_data.value = 0
    await ClockCycles(dut.clk, 2)
    await FallingEdge(dut.clk)
    loads = 0
    n = 3000
    for cycle in range(n):
        rst = int(random.random() < 0.01)
        we = int(random.random() < 0.5)
        sel = index if random.random() < 0.6 else random.getrandbits(8)
        hi, word = random.getrandbits(1), random.getrandbits(1) if ev > 32 else 0
        data = random.choice([0, 0xFFFFFFFF, random.getrandbits(ev - 32 if word else 32)]) \
            if random.random() < 0.3 else random.getrandbits(32)
        dut.rst.value = rst
        dut.init_we.value = we
        dut.init_sel.value = sel
        dut.init_hi.value = hi
        dut.init_word.value = word
        dut.init_data.value = data
        if rst:
            model.reset()
        elif we and sel == index:
            model.load(hi, data, word)
            loads += 1
        await FallingEdge(dut.clk)
        got = (int(dut.low.value), int(dut.high.value))
        exp = (shown(model.low, width, ev), shown(model.high, width, ev))
        assert got == exp, f"cycle {cycle}: got {[hex(x) for x in got]}, expected {[hex(x) for x in exp]}"
    dut._log.info("checked %d random cycles, %d loads for index %d (%d of %d bits), with random resets",
                  n, loads, index, width, ev)


@pytest.mark.parametrize("index,low,high,width,ev", [
    (0, 0, 0xFFFFFFFF, 32, 32), (5, 0x100, 0x1FF, 32, 32), (255, 0xDEADBEEF, 0x12345678, 32, 32),
    (3, 0x1000_0000, 0x1FFF_FFFF, 40, 64), (7, 0x8_1000_0000, 0xFF_FFFF_FFFF, 33, 64),
    (1, 0, (1 << 64) - 1, 64, 64), (2, 0x100, 0xFFFF_FFFF, 32, 64)])
def test_init(index, low, high, width, ev):
    generics = {"index_g": index, "low_reset_g": slv(low, ev), "high_reset_g": slv(high, ev)}
    if ev > 32:
        generics.update(ev_w_g=ev, width_g=width)
    run("jointer_dcapf_init", __name__, generics,
        extra_env={"JOINTER_PARAMS": json.dumps({"index": index, "low": low, "high": high,
                                                 "width": width, "ev": ev})})
