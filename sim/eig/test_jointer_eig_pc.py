# SPDX-License-Identifier: MIT
"""jointer_eig_pc (program monitor interfacer): random PC streams against
random programmed address tables, reprogramming mid-stream, enable masks,
duplicate addresses (the lowest index wins), INIT words outside the table
ignored; every cycle compared with jointer_sim.pm_model.PcModel."""
import json
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from jointer_sim import run
from jointer_sim.pm_model import PcModel


@cocotb.test()
async def random_pc_stream(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    pc_w, num, base = p["pc_w"], p["num"], p["base"]
    model = PcModel(pc_w, num, base)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.pc_pc.value = 0
    dut.pc_valid.value = 1
    dut.init_we.value = 0
    dut.init_sel.value = 0
    dut.init_hi.value = 0
    dut.init_data.value = 0
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    pcmask = (1 << pc_w) - 1
    table = [random.getrandbits(pc_w) for _ in range(num)]
    matches = writes = 0
    seen = set()
    for cycle in range(4000):
        if cycle % 500 == 0:  # a new pool of addresses (duplicates on purpose)
            table = [random.choice(table) if random.random() < 0.15 else random.getrandbits(pc_w)
                     for _ in range(num)]
        we = sel = hi = data = 0
        r = random.random()
        if r < 0.08:  # an INIT word: the table (mostly), the mask, or a word outside it
            we = 1
            w = 0 if random.random() < 0.2 else \
                random.choice(list(range(1, num + 1)) * 3 + [num + 1, num + 2, -1, -2])
            if w < 0 and base == 0:
                w = num + 3
            sel, hi = base + w // 2, w % 2
            if w == 0:
                data = random.choice([(1 << num) - 1, random.getrandbits(32), 0, random.getrandbits(32)])
            elif 1 <= w <= num:
                data = table[w - 1] | (random.getrandbits(32 - pc_w) << pc_w if pc_w < 32 else 0)
            else:
                data = random.getrandbits(32)
            sel &= 0xFF
            writes += 1
        pc = random.choice(table) if random.random() < 0.6 else random.getrandbits(pc_w)
        valid = int(random.random() < 0.8)
        dut.pc_pc.value = pc & pcmask
        dut.pc_valid.value = valid
        dut.init_we.value = we
        dut.init_sel.value = sel
        dut.init_hi.value = hi
        dut.init_data.value = data
        exp = model.step(pc, valid, we, sel, hi, data)
        await FallingEdge(dut.clk)
        got = (int(dut.cand_valid.value), int(dut.cand_data.value), int(dut.cand_bytes.value))
        assert got == tuple(exp), (f"cycle {cycle}: got {got}, expected {tuple(exp)}; "
                                   f"mask 0x{model.en:X}, table {model.addr}, pc 0x{pc:X}")
        matches += exp.valid
        if exp.valid:
            seen.add(exp.data)
    # drain the pipeline, then a hard reset clears the mask: nothing matches
    dut.init_we.value = 0
    dut.rst.value = 1
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    model.reset()
    for cycle in range(50):
        pc = random.choice(table)
        dut.pc_pc.value = pc
        dut.pc_valid.value = 1
        exp = model.step(pc, 1)
        await FallingEdge(dut.clk)
        assert int(dut.cand_valid.value) == 0 == exp.valid
    assert matches > 200 and len(seen) > min(num, 8) // 2
    dut._log.info("%d cycles, %d INIT words, %d matches, %d distinct indices",
                  4000, writes, matches, len(seen))


@pytest.mark.parametrize("pc_w,num,base", [(32, 32, 3), (32, 1, 0), (12, 5, 0), (8, 32, 250 - 16),
                                           (1, 2, 1)])
def test_pc(pc_w, num, base):
    run("jointer_eig_pc", __name__,
        {"pc_w_g": pc_w, "num_addr_g": num, "init_base_g": base},
        extra_env={"JOINTER_PARAMS": json.dumps({"pc_w": pc_w, "num": num, "base": base})})
