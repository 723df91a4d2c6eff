# SPDX-License-Identifier: MIT
"""jointer_collect_desc_rom: the descriptor ROM's registered read.

Random addresses (every word of 2**addr_w_g, those beyond the contents
included) and a random enable every cycle: q must be the word at the address
of the last cycle with en high (0 beyond the contents, 0 before the first
read), held while en is low. Contents: random words (sizes below, at and
above a power of two) handed over as the words_g generic.
"""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from collect_util import params, params_env, start_clock
from jointer_sim import run, slv

CYCLES = 2000


@cocotb.test()
async def random_reads(dut):
    words = params()["words"]
    addr_w = len(dut.addr)
    start_clock(dut.clk, 10)
    dut.en.value = 0
    dut.addr.value = 0
    expected, reads, beyond = 0, 0, 0
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk)
        en = int(random.random() < 0.6)
        addr = random.getrandbits(addr_w)
        dut.en.value = en
        dut.addr.value = addr
        if en:
            expected = words[addr] if addr < len(words) else 0
            reads += 1
            beyond += addr >= len(words)
        await RisingEdge(dut.clk)
        await ReadOnly()
        assert int(dut.q.value) == expected, (cycle, addr, hex(int(dut.q.value)), hex(expected))
    assert reads > CYCLES // 2
    if len(words) < 1 << addr_w:
        assert beyond > 10, beyond
    dut._log.info("checked %d cycles, %d reads (%d beyond the %d words)", CYCLES, reads, beyond, len(words))


@pytest.mark.parametrize("addr_w,n", [(1, 1), (3, 8), (5, 23), (7, 88)])
def test_desc_rom(addr_w, n):
    rnd = random.Random(addr_w * 1000 + n)
    words = [rnd.getrandbits(32) for _ in range(n)]
    run("jointer_collect_desc_rom", __name__, {"addr_w_g": addr_w, "words_g": [slv(w) for w in words]},
        extra_env=params_env(words=words))
