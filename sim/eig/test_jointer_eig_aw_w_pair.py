# SPDX-License-Identifier: MIT
"""jointer_eig_aw_w_pair: the AW/W queues the AXI write taps share.

Random pushes on both sides (each side leading in phases, so that both
queues fill up and entries are dropped), a random aw_pop_en (an AW entry
that stays for several W entries, as a per-beat tap does) and a reset in
the middle. The reference model keeps the two queues: every cycle, fire,
aw_head and w_head must be what it says; then the cycle's pops and pushes
take effect, a push finding its queue full and not draining being dropped.
"""
import random
from collections import deque

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from jointer_sim import run

CYCLES = 3000


class PairModel:
    def __init__(self, aw_depth, w_depth):
        self.depth = (aw_depth, w_depth)
        self.aw, self.w = deque(), deque()

    def cycle(self, aw_push, aw_in, w_push, w_in, aw_pop_en):
        """(fire, aw_head, w_head, dropped) of this cycle; then its pops and pushes."""
        fire = bool(self.aw and self.w)
        heads = (self.aw[0], self.w[0]) if fire else (None, None)
        aw_pop = fire and aw_pop_en
        dropped = 0
        for q, push, val, depth, pop in ((self.aw, aw_push, aw_in, self.depth[0], aw_pop),
                                         (self.w, w_push, w_in, self.depth[1], fire)):
            room = len(q) < depth or pop          # full, but draining this cycle: room
            if pop:
                q.popleft()
            if push and room:
                q.append(val)
            dropped += push and not room
        return fire, heads[0], heads[1], dropped

    def reset(self):
        self.aw.clear()
        self.w.clear()


@cocotb.test()
async def random_pairs(dut):
    aw_depth, w_depth = int(dut.aw_depth_g.value), int(dut.w_depth_g.value)
    aw_w, w_w = len(dut.aw_in), len(dut.w_in)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for s in ("aw_push", "aw_in", "w_push", "w_in", "aw_pop_en"):
        getattr(dut, s).value = 0
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    model = PairModel(aw_depth, w_depth)
    fires = drops = full_aw = full_w = 0
    for cyc in range(CYCLES):
        await FallingEdge(dut.clk)
        phase = (cyc // 300) % 3          # AW leads, W leads, balanced
        p_aw, p_w = ((0.7, 0.3), (0.3, 0.7), (0.5, 0.5))[phase]
        v = dict(aw_push=random.random() < p_aw, aw_in=random.getrandbits(aw_w),
                 w_push=random.random() < p_w, w_in=random.getrandbits(w_w),
                 aw_pop_en=random.random() < 0.6)
        if cyc == CYCLES // 2:            # a reset in the middle of the traffic
            dut.rst.value = 1
        for s, x in v.items():
            getattr(dut, s).value = int(x)
        await Timer(1, unit="ns")         # the combinational outputs of this cycle
        full_aw += len(model.aw) == aw_depth
        full_w += len(model.w) == w_depth
        if cyc == CYCLES // 2:
            model.reset()
        else:
            fire, aw_head, w_head, dropped = model.cycle(**v)
            drops += dropped
            assert int(dut.fire.value) == int(fire), (cyc, "fire", model.aw, model.w)
            if fire:
                assert int(dut.aw_head.value) == aw_head, (cyc, "aw_head")
                assert int(dut.w_head.value) == w_head, (cyc, "w_head")
                fires += 1
        await RisingEdge(dut.clk)
        dut.rst.value = 0
    # the traffic reached what it is there for: many pairs, both queues full at times
    assert fires > CYCLES // 5 and full_aw > 20 and full_w > 20 and drops > 20, \
        (fires, full_aw, full_w, drops)
    dut._log.info("%d cycles: %d pairs, AW queue full %d cycles, W queue full %d cycles, %d dropped",
                  CYCLES, fires, full_aw, full_w, drops)


@pytest.mark.parametrize("aw_w,w_w,aw_depth,w_depth", [(32, 3, 8, 8), (5, 4, 2, 16), (1, 9, 16, 4)])
def test_jointer_eig_aw_w_pair(aw_w, w_w, aw_depth, w_depth):
    run("jointer_eig_aw_w_pair", __name__,
        {"aw_w_g": aw_w, "w_w_g": w_w, "aw_depth_g": aw_depth, "w_depth_g": w_depth},
        name=f"jointer_eig_aw_w_pair_{aw_depth}_{w_depth}")
