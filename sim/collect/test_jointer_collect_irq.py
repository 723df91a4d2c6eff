# SPDX-License-Identifier: MIT
"""jointer_collect_irq against a cycle model of its contract.

Sticky source bits: set by `set` pulses, cleared by a host w1c (`clr_we` +
`clr_data`, a set of the same cycle wins) and by `clr_src` (wins over set);
irq = OR(status and en) registered (of the status register: a cycle after
it). Random traffic on every input, every cycle compared.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from collect_util import MASK32, start_clock
from jointer_sim import run

CYCLES = 4000


class IrqModel:
    def __init__(self, n):
        self.n, self.mask = n, (1 << n) - 1
        self.status, self.irq = 0, 0

    def step(self, set_, clr_we, clr_data, clr_src, en):
        nxt = self.status
        if clr_we:
            nxt &= ~clr_data
        nxt = (nxt | set_) & ~clr_src & self.mask
        self.irq = int(self.status & en != 0)   # from the registered status
        self.status = nxt


@cocotb.test()
async def random_sources(dut):
    n = int(dut.num_g.value)
    mask = (1 << n) - 1
    start_clock(dut.clk, 10)
    for s in ("set", "clr_we", "clr_data", "clr_src", "en"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    model = IrqModel(n)
    en = 0
    raised = cleared = 0
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        # sparse pulses so that bits stay set for a while
        set_ = sum(1 << i for i in range(n) if random.random() < min(0.05, 0.3 / n))
        clr_we = int(random.random() < 0.1)
        clr_data = random.choice([random.getrandbits(32), 1 << random.randrange(32), MASK32])
        clr_src = sum(1 << i for i in range(n) if random.random() < 0.02)
        if random.random() < 0.05:
            en = random.getrandbits(n)
        dut.en.value = en
        dut.set.value = set_
        dut.clr_we.value = clr_we
        dut.clr_data.value = clr_data
        dut.clr_src.value = clr_src
        before = model.irq
        model.step(set_, clr_we, clr_data, clr_src, en)
        raised += model.irq > before
        cleared += model.irq < before
        await RisingEdge(dut.clk)
        await ReadOnly()
        assert int(dut.status.value) == model.status, (cycle, hex(int(dut.status.value)), hex(model.status))
        assert int(dut.irq.value) == model.irq, (cycle, model.irq)
    assert raised > 10 and cleared > 10, (raised, cleared)
    dut._log.info("checked %d random cycles (num_g %d): irq rose %d times, fell %d times",
                  CYCLES, n, raised, cleared)


@pytest.mark.parametrize("num", [1, 5, 32])
def test_irq(num):
    run("jointer_collect_irq", __name__, {"num_g": num})
