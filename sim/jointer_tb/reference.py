# SPDX-License-Identifier: MIT
"""The expected state of a sniffer after the run: the project's reference
model (sim/jointer_sim/model.py) fed with what the sniffer saw.

Per sniffer: the kind's interfacer model gives the candidates of each cycle
(kinds/); the condition checkers and the emitter (registered behind
checkers, else transparent: gen/jointer_gen/model/datapath.py) turn them
into event instances; the dispenser, DCAPFs and traces (SnifferModel) take
them with the control its LMIC gave it in the same cycle (PROG, RUN,
SOFT_RESET, CONTROL and INIT writes, recorded at the sniffer's ports) and the
timestamp of its traces. Filters evaluated earlier in the datapath (at an
AXI4 tap's AW capture, in a registered emitter) see the same bounds as the
DCAPF's own filter would, since the bounds only change before the traffic.
"""

from __future__ import annotations

from jointer_sim.model import (DcapfModel, DispenserModel, Event, SnifferModel, TraceModel)

CONTROL = ("prog", "run", "soft_reset", "ctrl_we", "init_we", "init_data")
MASK32 = 0xFFFFFFFF
NO_EVENT = Event(0, 0, 0)


def unit(dc):
    """The model of one DCAPF or trace (a sink trace: a stand-in that takes its INIT words)."""
    if dc.extractor == "trace":
        depth = dc.depth if dc.mode != "sink" else 2
        return TraceModel(depth, ring=dc.mode == "ring", low=dc.low, high=dc.high,
                          has_filter=dc.has_filter, relay=dc.mode == "relay")
    return DcapfModel(dc.extractor, dc.aggregator, dc.width, dc.wrap, dc.sample, dc.low, dc.high,
                      has_filter=dc.has_filter, buckets=dc.buckets, boundaries=dc.boundaries or "pow2",
                      runtime=dc.runtime)


def sniffer_model(sn) -> SnifferModel:
    m = SnifferModel([(unit(dc), dc.event) for dc in sn.dcapfs], lanes=sn.lanes)
    if sn.init_slots:               # INIT words of the interfacer after the DCAPFs' (a PC table)
        m.dispenser = DispenserModel(len(sn.dcapfs) + sn.init_slots)
    return m


def matches(c, data: int) -> bool:
    if c.kind == "range":
        return c.a <= data <= c.b
    return data & c.a == c.b


def events(sn, cands: dict) -> dict:
    """{cycle: Event} the DCAPFs see: conditions, increment, the emitter's register."""
    lanes = (1 << sn.lanes) - 1
    delay = 1 if sn.emitter_registered else 0
    out = {}
    for c, cand in cands.items():
        good = cand.valid & lanes
        if not all(matches(k, cand.data & MASK32) for k in sn.conditions):
            good = 0
        inc = cand.bytes & 0xFFFF if sn.increment == "bytes" else 1
        out[c + delay] = Event(good, cand.data & MASK32, inc)
    return out


def control(dom, sn) -> dict:
    """The recorded control of a sniffer: {port: per-cycle values}."""
    return {k: dom.series(f"{sn.name}.#{k}") for k in CONTROL + (("timestamp",) if sn.timestamp else ())}


def coverage(sn, evs: dict, bounds: dict) -> dict:
    """Event instances per lane, and per filter the events of its lane inside
    and outside its window (whatever the mode: what the traffic offered)."""
    lanes = [sum(e.good >> k & 1 for e in evs.values()) for k in range(sn.lanes)]
    out = {"events": lanes}
    for dc in sn.dcapfs:
        if dc.name in bounds:
            lo, hi = bounds[dc.name]
            on = [e.data for e in evs.values() if e.good >> dc.event & 1]
            inside = sum(1 for d in on if lo <= d <= hi)
            out[dc.name] = {"window": [lo, hi], "inside": inside, "outside": len(on) - inside}
    return out


def run(sn, driver, dom, bounds: dict | None = None) -> SnifferModel:
    """The sniffer's model after every recorded cycle (its `coverage` attribute:
    coverage() of the run)."""
    ctrl = control(dom, sn)
    evs = events(sn, driver.candidates(dom, ctrl))
    m = sniffer_model(sn)
    ts = ctrl.get("timestamp")
    for c in range(1, dom.cycle + 1):
        ev = evs.get(c, NO_EVENT)
        m.step(*(ctrl[k][c] for k in CONTROL), ev.good, ev.data, ev.inc, ts[c] & MASK32 if ts else 0)
    m.coverage = coverage(sn, evs, bounds or {})
    return m
