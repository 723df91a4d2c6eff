# SPDX-License-Identifier: MIT
"""jointer_eig_id_table: the outstanding-transaction table the AXI4 taps share.

Random opens and closing beats with few IDs (so several transactions of one
ID are open at once, and closes of IDs with nothing open happen), a full
table, closes and opens of the same ID in one cycle, and a reset in the
middle. The reference model keeps one FIFO of payloads per ID and a count of
open transactions: every cycle, `hit` and `hit_pay` must be what it says
(the oldest open transaction of close_id, seen before the open of the same
cycle), and an open finds room when fewer than max_outstanding_g stay open
after this cycle's close.
"""
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from jointer_sim import run

CYCLES = 4000


class TableModel:
    def __init__(self, n):
        self.n = n
        self.fifos = {}

    def open_count(self):
        return sum(len(q) for q in self.fifos.values())

    def cycle(self, open_hs, open_id, open_pay, close_hs, close_id, close_last):
        """(hit, hit_pay, dropped) of this cycle; the cycle's close, then its open, take effect."""
        q = self.fifos.get(close_id, [])
        hit = bool(close_hs and q)
        pay = q[0] if hit else None
        if hit and close_last:
            q.pop(0)
        dropped = bool(open_hs and self.open_count() >= self.n)
        if open_hs and not dropped:
            self.fifos.setdefault(open_id, []).append(open_pay)
        return hit, pay, dropped

    def reset(self):
        self.fifos = {}


@cocotb.test()
async def random_traffic(dut):
    n, id_w, pay_w = int(dut.max_outstanding_g.value), len(dut.open_id), len(dut.open_pay)
    ids = min(2 ** id_w, 3)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for s in ("open_hs", "open_id", "open_pay", "close_hs", "close_id", "close_last"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    model = TableModel(n)
    hits = full_drops = both_same = 0
    for cyc in range(CYCLES):
        await FallingEdge(dut.clk)
        phase = (cyc // 500) % 2           # phases: filling up (more opens), draining
        p_open = 0.6 if phase == 0 else 0.3
        o_hs = random.random() < p_open
        o_id = random.randrange(ids)
        o_pay = random.getrandbits(pay_w)
        c_hs = random.random() < (0.35 if phase == 0 else 0.6)
        c_id = o_id if random.random() < 0.2 else random.randrange(ids)
        c_last = random.random() < 0.7
        if cyc == CYCLES // 2:             # a reset in the middle of the traffic
            dut.rst.value = 1
        for s, v in (("open_hs", o_hs), ("open_id", o_id), ("open_pay", o_pay), ("close_hs", c_hs),
                     ("close_id", c_id), ("close_last", c_last)):
            getattr(dut, s).value = int(v)
        await Timer(1, unit="ns")         # the combinational outputs of this cycle
        if cyc == CYCLES // 2:
            model.reset()
        else:
            exp_hit, exp_pay, dropped = model.cycle(o_hs, o_id, o_pay, c_hs, c_id, c_last)
            got_hit = int(dut.hit.value)
            assert got_hit == int(exp_hit), (cyc, "hit", got_hit, exp_hit, model.fifos)
            if exp_hit:
                assert int(dut.hit_pay.value) == exp_pay, (cyc, "pay", hex(int(dut.hit_pay.value)), hex(exp_pay))
                hits += 1
            full_drops += dropped
            both_same += o_hs and c_hs and o_id == c_id and exp_hit
        await RisingEdge(dut.clk)
        dut.rst.value = 0
    # the traffic reached what it is there for: many hits, a full table, same-ID open + close
    assert hits > CYCLES // 10 and full_drops > 20 and both_same > 20, (hits, full_drops, both_same)
    dut._log.info("%d cycles: %d hits, %d opens on a full table, %d same-ID open+close cycles",
                  CYCLES, hits, full_drops, both_same)


@pytest.mark.parametrize("n,id_w,pay_w", [(4, 2, 12), (8, 1, 32), (1, 3, 5)])
def test_jointer_eig_id_table(n, id_w, pay_w):
    run("jointer_eig_id_table", __name__, {"max_outstanding_g": n, "id_w_g": id_w, "pay_w_g": pay_w})
