# SPDX-License-Identifier: MIT
"""jointer_collect_lmic_wsel: wsel(k) = (wr_addr = first_g + k), from the
address of the cycle before when pipelined_g (a large window), of this cycle
otherwise. Random addresses, most of them in or next to the decoded run, a
new one every cycle or held for a few cycles (as the LMIC port holds its
captured address), checked every cycle against the expected one-hot word."""
import random

import cocotb
import pytest
from cocotb.triggers import FallingEdge, Timer

from collect_util import params, params_env, start_clock
from jointer_sim import run

ADDR_W, FIRST, WORDS = 6, 5, 3
CYCLES = 600


def expected(addr: int) -> int:
    """wsel as an integer, wsel(0) the most significant bit (0 to words_g - 1)."""
    k = addr - FIRST
    return 1 << (WORDS - 1 - k) if 0 <= k < WORDS else 0


@cocotb.test()
async def decode(dut):
    pipelined = params()["pipelined"]
    start_clock(dut.clk, 10)
    addr = random.randrange(1 << ADDR_W)
    dut.wr_addr.value = addr
    await FallingEdge(dut.clk)
    hits = 0
    for _ in range(CYCLES):
        prev = addr               # the address the last rising edge sampled
        if random.random() < 0.5:
            addr = random.randrange(FIRST - 2, FIRST + WORDS + 2) if random.random() < 0.8 \
                else random.randrange(1 << ADDR_W)
        dut.wr_addr.value = addr  # mid-cycle: the next rising edge samples it
        await Timer(1, "ns")
        want = expected(prev if pipelined else addr)
        got = int(dut.wsel.value)
        assert got == want, (addr, prev, bin(got), bin(want))
        hits += want != 0
        await FallingEdge(dut.clk)
    assert hits > CYCLES // 5, hits
    dut._log.info("checked %d cycles, %d of them selecting a word (pipelined %s)", CYCLES, hits, pipelined)


@pytest.mark.parametrize("pipelined", [False, True])
def test_lmic_wsel(pipelined):
    run("jointer_collect_lmic_wsel", __name__,
        {"addr_w_g": ADDR_W, "first_g": FIRST, "words_g": WORDS, "pipelined_g": pipelined},
        extra_env=params_env(pipelined=pipelined))
