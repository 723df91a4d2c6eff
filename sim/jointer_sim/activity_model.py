# SPDX-License-Identifier: MIT
"""Reference models of the bus utilization / contention interfacers
(jointer_eig_activity, jointer_eig_contention; the bus utilization, contention and global monitors of PMTS).

Written from doc/internals/eig.md, not from the VHDL. Both register their
inputs once: step(valid, ready, rst) takes the inputs of cycle n (int bit
masks, bit i = channel / master i) and returns the Candidate the DUT shows
in cycle n+1. A cycle with rst is not observed: no lane fires for it.

Lane layout (also the generator's lane names, gen/jointer_gen/interfacers/axi_util.py):
  activity:   0 cycles, 1+3c transfer_c, 2+3c stall_c, 3+3c idle_c
  contention: 0 cycles, 1 contention, 2 single_wait, 3 no_wait, 4 busy,
              5 idle, 6+2i grant_i, 7+2i wait_i

Also `classify_channel(valid, ready)` and `ActivityCounts`, the per-class
cycle counts a DCAPF sum of each lane reaches (used by the generator and
co-simulation tests).
"""

from __future__ import annotations

from .model import Candidate

AXI_CHANNELS = ("aw", "w", "b", "ar", "r")      # the order of every axi_util tap
AXI_CLASSES = ("transfer", "stall", "idle")
CONTENTION_LANES = ("cycles", "contention", "single_wait", "no_wait", "busy", "idle")


def activity_lanes(channels: int) -> int:
    return 1 + 3 * channels


def contention_lanes(masters: int) -> int:
    return 6 + 2 * masters


class ActivityModel:
    """jointer_eig_activity with `channels` VALID/READY pairs."""

    def __init__(self, channels: int):
        assert 1 <= channels <= 10
        self.channels = channels
        self.out = Candidate(0, 0, 1)

    def step(self, valid: int, ready: int, rst: bool = False) -> Candidate:
        if rst:
            self.out = Candidate(0, 0, 1)
            return self.out
        lanes, stall = 1, 0
        for c in range(self.channels):
            v, r = (valid >> c) & 1, (ready >> c) & 1
            cls = 0 if v and r else 1 if v else 2     # transfer, stall, idle
            lanes |= 1 << (1 + 3 * c + cls)
            stall |= (cls == 1) << c
        self.out = Candidate(lanes, stall, 1)
        return self.out


class ContentionModel:
    """jointer_eig_contention with `masters` VALID/READY pairs."""

    def __init__(self, masters: int):
        assert 1 <= masters <= 13
        self.masters = masters
        self.out = Candidate(0, 0, 1)

    def step(self, valid: int, ready: int, rst: bool = False) -> Candidate:
        if rst:
            self.out = Candidate(0, 0, 1)
            return self.out
        mask = (1 << self.masters) - 1
        valid, ready = valid & mask, ready & mask
        waiting = valid & ~ready & mask
        granted = valid & ready
        nwait = bin(waiting).count("1")
        lanes = 1                                   # cycles
        lanes |= 1 << (1 if nwait >= 2 else 2 if nwait == 1 else 3)
        lanes |= 1 << (4 if valid else 5)
        for i in range(self.masters):
            lanes |= ((granted >> i) & 1) << (6 + 2 * i)
            lanes |= ((waiting >> i) & 1) << (7 + 2 * i)
        self.out = Candidate(lanes, nwait, 1)
        return self.out


def lane_counts(cands, lanes: int) -> list[int]:
    """How often each lane fired over a sequence of candidates."""
    counts = [0] * lanes
    for c in cands:
        for k in range(lanes):
            counts[k] += (c.valid >> k) & 1
    return counts
