# SPDX-License-Identifier: MIT
"""jointer_collect_dispenser against DispenserModel (sim/jointer_sim/model.py).

Random PROG/RUN/SOFT_RESET/CONTROL-write/INIT-write traffic, biased towards
INIT mode so the write pointer walks past 2 x num_dcapfs and restarts often
(INIT over INIT, INIT after other modes). Every cycle the combinational
outputs (run_en, use_filter, clear) and the INIT load (init_we_o, init_sel,
init_hi, init_data_o: combinational too, in the init_we cycle) are compared
with the model. words_g 2 (event data wider than 32 bits): two INIT words
per bound, init_word says which (low, low, high, high per DCAPF).
init_reg_g (the fast variant): the INIT load one cycle later, the rest as
before.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from collect_util import start_clock
from jointer_sim import run
from jointer_sim.model import DispenserModel, PROG_INIT

CYCLES = 4000


@cocotb.test()
async def random_control(dut):
    n, words = int(dut.num_dcapfs_g.value), int(dut.words_g.value)
    lag = int(dut.init_reg_g.value)
    start_clock(dut.clk, 10)
    for s in ("prog", "run", "soft_reset", "ctrl_we", "init_we", "init_data"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    model = DispenserModel(n, words)
    prog, run_ = 0, 0
    loads = restarts = 0
    pending = [None] * lag     # the INIT loads of the last lag cycles, oldest first
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        # the LMIC changes PROG/RUN only with a CONTROL write (ctrl_we)
        r = random.random()
        ctrl_we = init_we = soft = 0
        if r < 0.08:
            ctrl_we = 1
            prog = PROG_INIT if random.random() < 0.5 else random.randrange(4)
            run_ = random.getrandbits(1)
            soft = int(random.random() < 0.3)
            restarts += prog == PROG_INIT
        elif r < 0.55:
            init_we = 1
        data = random.getrandbits(32)
        dut.prog.value = prog
        dut.run.value = run_
        dut.soft_reset.value = soft
        dut.ctrl_we.value = ctrl_we
        dut.init_we.value = init_we
        dut.init_data.value = data
        out = model.step(prog, run_, soft, ctrl_we, init_we, data)
        await ReadOnly()
        got = (int(dut.run_en.value), int(dut.use_filter.value), int(dut.clear.value))
        assert got == (int(out.run_en), int(out.use_filter), int(out.clear)), (cycle, got, out)
        init = out.init
        if lag:
            pending.append(init)
            init = pending.pop(0)
        assert int(dut.init_we_o.value) == (init is not None), (cycle, init)
        if init is not None:
            loads += 1
            got = (int(dut.init_sel.value), int(dut.init_hi.value), int(dut.init_data_o.value)) \
                + ((int(dut.init_word.value),) if words > 1 else ())
            assert got == init, (cycle, got, init)
            assert words > 1 or int(dut.init_word.value) == 0, cycle
    assert loads > 100 and restarts > 50, (loads, restarts)
    dut._log.info("checked %d random cycles: %d INIT loads, %d pointer restarts (num_dcapfs %d, %d "
                  "word(s) per bound)", CYCLES, loads, restarts, n, words)


@pytest.mark.parametrize("num_dcapfs,words", [(1, 1), (3, 1), (128, 1), (3, 2), (128, 2)])
def test_dispenser(num_dcapfs, words):
    run("jointer_collect_dispenser", __name__, {"num_dcapfs_g": num_dcapfs, "words_g": words})


@pytest.mark.parametrize("num_dcapfs,words", [(3, 1), (128, 1), (3, 2)])
def test_dispenser_registered(num_dcapfs, words):
    run("jointer_collect_dispenser", __name__, {"num_dcapfs_g": num_dcapfs, "words_g": words, "init_reg_g": True})
