# SPDX-License-Identifier: MIT
"""The expected state of a sniffer after the run: the project's reference
model (sim/jointer_sim/model.py) fed with what the sniffer saw.

Per sniffer: the kind's interfacer model gives the candidates of each cycle
(kinds/), for each event source the sniffer holds (one tap per bus: the
kind's own interfacer "" and the extra ones its DCAPFs' lanes need, the
spec's `sources`); the condition checkers and the emitter (registered
behind checkers, on a source that carries the tap's data, else transparent:
gen/jointer_gen/model/datapath.py) turn them into event instances; a DCAPF
takes its lane of its source's (a lane weighing one counts one per event); the dispenser, DCAPFs and traces (SnifferModel) take
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


def unit(dc, bits: int = 32):
    """The model of one DCAPF or trace (a sink trace: a stand-in that takes its INIT words);
    bits: the sniffer's event data width (64: an address wider than 32 bits)."""
    if dc.extractor == "trace":
        depth = dc.depth if dc.mode != "sink" else 2
        return TraceModel(depth, ring=dc.mode == "ring", low=dc.low, high=dc.high,
                          has_filter=dc.has_filter, relay=dc.mode == "relay", lanes=len(dc.lanes))
    return DcapfModel(dc.extractor, dc.aggregator, dc.width, dc.wrap, dc.sample, dc.low, dc.high,
                      has_filter=dc.has_filter, buckets=dc.buckets, boundaries=dc.boundaries or "pow2",
                      runtime=dc.runtime, bits=bits)


def sniffer_model(sn) -> SnifferModel:
    words = 2 if sn.event_bits > 32 else 1           # INIT words per bound
    m = SnifferModel([(unit(dc, sn.event_bits), dc.lane) for dc in sn.dcapfs], lanes=sn.lanes, words=words)
    if sn.init_slots:               # INIT words of the interfacer after the DCAPFs' (a PC table)
        m.dispenser = DispenserModel(len(sn.dcapfs) + sn.init_slots, words)
    return m


def matches(c, data: int) -> bool:
    if c.kind == "range":
        return c.a <= data <= c.b
    return data & c.a == c.b


def events(sn, key: str, cands: dict) -> dict:
    """{cycle: Event} the DCAPFs see from source `key`: conditions (a source behind
    checkers), increment (an extra source's events weigh one), the emitter's register."""
    src = sn.sources[key]
    lanes, mask = (1 << src["lanes"]) - 1, (1 << sn.event_bits) - 1
    delay = 1 if src["registered"] else 0
    out = {}
    for c, cand in cands.items():
        good = cand.valid & lanes
        if src["registered"] and not all(matches(k, cand.data & mask) for k in sn.conditions):
            good = 0
        inc = cand.bytes & 0xFFFF if sn.increment == "bytes" and not key else 1
        out[c + delay] = Event(good, cand.data & mask, inc)
    return out


def unit_events(sn, evs: dict, c: int) -> list:
    """(good, data, inc) of each DCAPF in cycle c: its lane of its source's event (a
    trace of several lanes: the mask of its lanes)."""
    out = []
    for dc in sn.dcapfs:
        ev = evs[dc.source].get(c, NO_EVENT)
        if dc.lanes:                # a trace of several lanes: bit i = its lane i fired
            good = sum((ev.good >> ln & 1) << i for i, ln in enumerate(dc.lanes))
        else:
            good = ev.good >> dc.lane & 1
        out.append((good, ev.data, 1 if dc.weight_one else ev.inc))
    return out


def control(dom, sn) -> dict:
    """The recorded control of a sniffer: {port: per-cycle values}."""
    return {k: dom.series(f"{sn.name}.#{k}") for k in CONTROL + (("timestamp",) if sn.timestamp else ())}


def coverage(sn, evs: dict, bounds: dict) -> dict:
    """Event instances per lane of each source, and per filter the events of its lane
    inside and outside its window (whatever the mode: what the traffic offered)."""
    lanes = {key: [sum(e.good >> k & 1 for e in evs[key].values()) for k in range(src["lanes"])]
             for key, src in sn.sources.items()}
    out = {"events": lanes[""] if list(lanes) == [""] else lanes}
    for dc in sn.dcapfs:
        if dc.name in bounds:
            lo, hi = bounds[dc.name]
            on = [e.data for e in evs[dc.source].values() if e.good >> dc.lane & 1]
            inside = sum(1 for d in on if lo <= d <= hi)
            out[dc.name] = {"window": [lo, hi], "inside": inside, "outside": len(on) - inside}
    return out


def run(sn, driver, dom, bounds: dict | None = None) -> SnifferModel:
    """The sniffer's model after every recorded cycle (its `coverage` attribute:
    coverage() of the run)."""
    ctrl = control(dom, sn)
    cands = driver.sources(dom, ctrl)
    evs = {key: events(sn, key, cands[key]) for key in sn.sources}
    m = sniffer_model(sn)
    ts = ctrl.get("timestamp")
    for c in range(1, dom.cycle + 1):
        m.step_units(*(ctrl[k][c] for k in CONTROL), unit_events(sn, evs, c), ts[c] & MASK32 if ts else 0)
    m.coverage = coverage(sn, evs, bounds or {})
    return m
