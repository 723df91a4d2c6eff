# SPDX-License-Identifier: MIT
"""The testbench runtime of generated monitors (sim/jointer_tb), without a
simulator: every interfacer kind of the generator has a driver; the
recorder rebuilds each cycle's value from its changes; the emitter stage of
the reference (conditions, the register behind checkers, the increment);
the coverage counts. The runtime against the RTL: test_tb_monitors.py."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace as NS

import pytest

SIM = Path(__file__).resolve().parents[1]
REPO = SIM.parent
sys.path[:0] = [str(SIM / "eig"), str(REPO / "gen")]

from jointer_sim.model import Candidate, Event  # noqa: E402
from jointer_tb import reference  # noqa: E402
from jointer_tb.kinds import DRIVERS, MODULES, driver_for  # noqa: E402
from jointer_tb.record import Domain  # noqa: E402


def test_every_interfacer_kind_has_a_driver():
    from jointer_gen.interfacers import KINDS
    assert sorted(DRIVERS) == sorted(KINDS)
    assert len(MODULES) == len(DRIVERS)                     # one module per kind, no kind twice


def test_an_unknown_kind_names_the_registry():
    with pytest.raises(KeyError, match="kind 'level' has no testbench driver.*sim/jointer_tb/kinds/level.py"):
        driver_for("level")


def domain(changes: dict, end: int) -> Domain:
    d = Domain("clk", None, 10)
    d.changes, d.end = changes, end
    return d


def test_series_from_changes():
    d = domain({"a": [(1, 0), (3, 5), (4, 6), (7, 0)]}, 8)
    assert d.series("a") == [0, 0, 0, 5, 6, 6, 6, 0, 0]


def test_handshakes_need_valid_and_ready_of_the_same_cycle():
    d = domain({"v": [(1, 0), (2, 1), (5, 0)], "r": [(1, 1), (3, 0), (4, 1)], "x": [(1, 7), (4, 9)]}, 6)
    assert d.handshakes("v", "r", {"data": "x"}) == [(2, {"data": 7}), (4, {"data": 9})]
    assert d.handshakes("v", None, {}) == [(2, {}), (3, {}), (4, {})]


def sniffer(registered: bool = False, **kw) -> NS:
    """A sniffer of the spec with one event source (the kind's own, 2 lanes)."""
    base = dict(name="s", lanes=2, conditions=[], increment="bytes", dcapfs=[], event_bits=32,
                sources={"": {"lanes": 2, "registered": registered, "carries_data": True, "data_width": 32}})
    return NS(**{**base, **kw})


def test_events_without_checkers_are_the_candidates():
    ev = reference.events(sniffer(), "", {5: Candidate(3, 0x1234, 8), 9: Candidate(1, 7, 70000)})
    assert ev == {5: Event(3, 0x1234, 8), 9: Event(1, 7, 70000 & 0xFFFF)}


def test_checkers_gate_every_lane_and_the_emitter_adds_a_cycle():
    conds = [NS(kind="range", a=0x100, b=0x1FF), NS(kind="mask", a=0x3, b=0)]
    sn = sniffer(conditions=conds, registered=True, increment="one")
    ev = reference.events(sn, "", {1: Candidate(3, 0x104, 4), 2: Candidate(3, 0x105, 4), 3: Candidate(1, 0x200, 4)})
    assert ev == {2: Event(3, 0x104, 1), 3: Event(0, 0x105, 1), 4: Event(0, 0x200, 1)}


def test_coverage_counts_events_inside_and_outside_each_window():
    dc = NS(name="d", event=1, source="", lane=1)
    sn = sniffer(dcapfs=[dc])
    evs = {1: Event(2, 5, 1), 2: Event(2, 50, 1), 3: Event(1, 6, 1), 4: Event(3, 10, 1)}
    cov = reference.coverage(sn, {"": evs}, {"d": (5, 10)})
    assert cov == {"events": [2, 3], "d": {"window": [5, 10], "inside": 2, "outside": 1}}


def test_a_second_source_and_a_wide_address():
    """One tap per bus: a latency source weighs one and takes no conditions; a 40-bit tap's
    data keeps its upper bits; each DCAPF takes its lane of its source; the coverage by source."""
    conds = [NS(kind="range", a=0x1000, b=0x1FFF)]
    srcs = {"": {"lanes": 1, "registered": True, "carries_data": True, "data_width": 40},
            "lat": {"lanes": 1, "registered": False, "carries_data": False, "data_width": 32}}
    dcs = [NS(name="b", source="", lane=0, weight_one=False, lanes=[]),
           NS(name="l", source="lat", lane=0, weight_one=True, lanes=[])]
    sn = sniffer(conditions=conds, sources=srcs, event_bits=64, lanes=1, dcapfs=dcs)
    own = reference.events(sn, "", {1: Candidate(1, 0x8_0000_1004, 16), 2: Candidate(1, 0x1008, 32)})
    assert own == {2: Event(0, 0x8_0000_1004, 16), 3: Event(1, 0x1008, 32)}    # the range: 40 bits
    lat = reference.events(sn, "lat", {2: Candidate(1, 77, 5)})
    assert lat == {2: Event(1, 77, 1)}                                          # weight one, no checker
    evs = {"": own, "lat": lat}
    assert reference.unit_events(sn, evs, 2) == [(0, 0x8_0000_1004, 16), (1, 77, 1)]
    assert reference.unit_events(sn, evs, 3) == [(1, 0x1008, 32), (0, 0, 1)]
    assert reference.coverage(sn, evs, {})["events"] == {"": [1], "lat": [1]}
