# SPDX-License-Identifier: MIT
"""Testbench backend: tb/, a cocotb testbench of the monitor with real bus traffic.

- tb/<name>_tb.json: the facts the testbench needs, written once here from
  the elaborated design: clocks and resets, the s_axi port, and per sniffer
  its kind and parameters, its top-level ports, where its instance sits
  (top -> LMIC -> sniffer labels, to record the control its LMIC gives it),
  its conditions, emitter, data width and DCAPFs (extractor, aggregator,
  width, filter bounds, traces, histograms);
- tb/test_<name>.py: the cocotb test module (one test, `random_traffic`);
- tb/run.py: builds the monitor under GHDL with cocotb's runner and runs the
  test (`python3 tb/run.py --seed N`; `make sim CONFIG=...` does the same).

The traffic, the recording and the reference model live in the checkout's
sim/jointer_tb (a driver per interfacer kind, in sim/jointer_tb/kinds/),
which run.py finds through jointer_gen, as the generator finds the VHDL
library. Nothing here depends on the interfacer type: a kind is a name the
runtime looks up in its registry.
"""

from __future__ import annotations

import json

from ..model import datapath
from ..model.views import Design
from . import OutFile
from .templates import header, render_file


def spec_file(d: Design) -> str:
    return f"tb/{d.name}_tb.json"


def _label(instances, entity: str) -> str:
    """The label of the instance of `entity` (one per entity in a generated composition)."""
    return next(i.label for i in instances if i.entity == entity)


def _dcapf(sn, dc) -> dict:
    src, lane, one = datapath.lane_of(sn, dc)
    return {"name": dc.name, "extractor": dc.extractor, "aggregator": dc.aggregator, "width": dc.width,
            "source": src, "lane": lane, "weight_one": one, "lanes": list(dc.lanes),
            "sample": dc.sample or "increment", "event": dc.event, "low": dc.low, "high": dc.high,
            "has_filter": dc.has_filter, "runtime": dc.filter_runtime, "wrap": dc.wrap,
            "threshold_irq": dc.threshold_irq, "depth": dc.depth, "mode": dc.mode,
            "buckets": dc.buckets, "boundaries": dc.boundaries}


def _sniffer(d: Design, lv, sv) -> dict:
    sn = sv.model
    k, p = sn.interfacer.kind, sn.interfacer.params
    return {
        "name": sn.name, "lmic": lv.model.name, "clock": lv.clock, "kind": sn.interfacer.type,
        "params": p, "summary": sv.summary,
        "instance": [_label(d.top.instances, lv.entity), _label(lv.instances, sv.entity)],
        "observed": [{"sig": o.sig, "port": f"{sn.name}_{o.sig}", "width": o.width} for o in sv.observed],
        "lanes": sn.interfacer.lanes, "lane_names": k.lane_names(p),
        "conditions": [{"kind": c.kind, "a": c.a, "b": c.b} for c in sn.conditions],
        "increment": sn.increment, "data": sn.data, "data_width": datapath.data_width(sn),
        "emitter_registered": datapath.emitter_registered(sn), "init_slots": k.init_slots(sn),
        "event_bits": datapath.event_width(sn),
        "sources": {key: {"lanes": k.main_lanes(p) if not key else datapath.source(sn, key).lanes(p),
                          "registered": datapath.emitter_registered(sn, key),
                          "carries_data": not key or datapath.source(sn, key).carries_data,
                          "data_width": datapath.source_data_width(sn, key)}
                    for key in datapath.sources(sn)},
        "timestamp": sv.needs_timestamp, "dcapfs": [_dcapf(sn, dc) for dc in sn.dcapfs],
    }


def spec(d: Design) -> dict:
    clocks = [{"name": c.name, "port": "s_axi_aclk" if i == 0 else f"{c.name}_clk",
               "reset": "s_axi_aresetn" if i == 0 else f"{c.name}_resetn", "period_ns": c.sim_period_ns}
              for i, c in enumerate(d.monitor.clocks)]
    return {"generated": header(d), "name": d.name, "top": d.top["entity"], "config_hash": d.hash_hex, "jdesc": f"../{d.name}.jdesc",
            "manifest": "../manifest.json", "bus": {"prefix": "s_axi", "clock": clocks[0]["name"],
                                                    "addr_width": d.addr_width},
            "scratch": d.monitor.scratch, "clocks": clocks,
            "sniffers": [_sniffer(d, lv, sv) for lv in d.lmics for sv in lv.sniffers]}


def emit(d: Design) -> list[OutFile]:
    kinds = sorted({sv.model.interfacer.type for sv in d.sniffers})
    return [OutFile(spec_file(d), json.dumps(spec(d), indent=1) + "\n", "tb-spec"),
            render_file(d, "tb/test.py.j2", f"tb/test_{d.name}.py", "tb-test", kinds=kinds,
                        spec=spec_file(d).split("/")[-1]),
            render_file(d, "tb/run.py.j2", "tb/run.py", "tb-run")]
