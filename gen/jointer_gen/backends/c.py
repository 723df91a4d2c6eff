# SPDX-License-Identifier: MIT
"""C backend: <name>_regs.h, <name>.h, <name>.c and <name>_selfcheck.c.

The table rows and what the self-check relations name are prepared here
from the elaborated design; the templates (templates/c/) print them. The
self-check's relations (templates/c/static_checks.j2, runtime_checks.j2)
restate the layout rules of doc/internals/layout.md in terms of the
generated macros and the driver's jointer_desc.h, so the compiler, not the
generator, evaluates them.
"""

from __future__ import annotations

from ..model import datapath, layout
from ..model.regmap import c_hex, clock_hz
from ..model.views import Design
from typing import NamedTuple

EXTRACTOR_C = {"event": "JOINTER_EXTRACTOR_EVENT", "time": "JOINTER_EXTRACTOR_TIME",
               "trace": "JOINTER_EXTRACTOR_TRACE"}
AGGREGATOR_C = {"sum": "JOINTER_AGGREGATOR_SUM", "max": "JOINTER_AGGREGATOR_MAX",
                "min": "JOINTER_AGGREGATOR_MIN", "last": "JOINTER_AGGREGATOR_LAST",
                "histogram": "JOINTER_AGGREGATOR_HISTOGRAM", "mean": "JOINTER_AGGREGATOR_MEAN"}


def context(d: Design) -> dict:
    N = d.NAME
    lmics, sniffers, metrics, traces = [], [], [], []
    first = 0
    for lv in d.lmics:
        lmics.append({"name": lv.model.name, "NAME": lv.model.name.upper(), "first_sniffer": first,
                      "num_sniffers": len(lv.sniffers), "num_irq": lv.layout.num_irq, "clock": lv.clock,
                      "clock_hz": clock_hz(d.monitor, lv.clock)})
        first += len(lv.sniffers)
        for sv in lv.sniffers:
            sniffers.append({"name": sv.model.name, "NAME": sv.model.name.upper(),
                             "lmic_name": lv.model.name, "lmic": lv.index, "index": sv.index,
                             "num_dcapfs": len(sv.model.dcapfs),
                             "pm_c": sv.model.interfacer.kind.c_fields(sv.model)
                             + (f", .data_width = {datapath.data_width(sv.model)}" if datapath.wide(sv.model) else "")})
    for m in d.metrics:
        flags = (["JOINTER_METRIC_WRAP"] if m["wrap"] else []) + \
            (["JOINTER_METRIC_THRESHOLD"] if m["threshold_irq"] else []) + \
            (["JOINTER_METRIC_FILTER"] if m["has_filter"] else [])
        metrics.append({**m, "SNIFFER": m["sniffer_name"].upper(),
                        "threshold_c": f"{N}_{m['NAME']}_THRESHOLD" if m["threshold_irq"]
                        else "JOINTER_NO_OFFSET",
                        "low_c": c_hex(m["low"]), "high_c": c_hex(m["high"]),
                        "extractor_c": EXTRACTOR_C[m["extractor"]],
                        "aggregator_c": AGGREGATOR_C[m["aggregator"]],
                        "flags_c": " | ".join(flags) or "0",
                        # NULL bounds = power-of-two boundaries
                        "bounds_c": (f"{d.name}_{m['name']}_bounds" if m["aggregator"] == "histogram"
                                     and m["boundaries"] != "pow2" else "NULL"),
                        "bounds": tuple(m["boundaries"])     # listed boundaries, printed by desc.c.j2
                        if m["aggregator"] == "histogram" and m["boundaries"] != "pow2" else ()})
    for t in d.traces:
        traces.append({**t, "SNIFFER": t["sniffer_name"].upper(), "low_c": c_hex(t["low"]),
                       "high_c": c_hex(t["high"]), "ring_c": 1 if t["ring"] else 0, "relay": t["mode"] == "relay", "clock_hz": t["clock_hz"],
                       "filter_c": 1 if t["has_filter"] else 0, "sink": t["sink_bytes"] != 0,
                       "spans_c": tuple(_span_c(sp) for sp in t["spans"]),
                       "lanes_c": ", ".join(f'"{n}"' for n in t["lane_names"])})
    return {"lmics": lmics, "sniffers": sniffers, "metrics": metrics, "traces": traces,
            "has_mark": any(s.is_mark for s in d.sniffers),
            "mark_sniffer": next((s.model.name for s in d.sniffers if s.is_mark), ""),
            "checks": _checks(d)}


def _span_c(sp) -> dict:
    """A span's jointer_span_desc initializer fields."""
    level = sp.begin < 0
    flags = (["JOINTER_SPAN_BY_ID"] if sp.by_id else []) + (["JOINTER_SPAN_TRACK_VALUE"] if sp.track_value else [])
    return {"name": sp.name, "begin": "JOINTER_SPAN_LEVEL" if level else f"{sp.begin}u",
            "end": "JOINTER_SPAN_LEVEL" if level else f"{sp.end}u", "flags": " | ".join(flags) or "0"}


class CheckItem(NamedTuple):
    """An element the self-check names (templates/c/static_checks.j2, runtime_checks.j2):
    its YAML name and the prefix of its macros in <name>_regs.h."""
    name: str
    NAME: str
    P: str                          # <MONITOR>_<ELEMENT>: its macros' prefix
    index_macro: str = ""           # a sniffer: <MONITOR>_SNIFFER_<S>; an LMIC: <MONITOR>_LMIC_<L>
    buckets: int = 1                # a result DCAPF: its 64-bit slots
    threshold: bool = False         # a result DCAPF: it has a THRESHOLD register
    sink: bool = False              # a trace: a sink (no RAM window)
    reg_words: int = 0              # a trace: its register block's words
    sniffer_macro: str = ""         # a metric or trace: <MONITOR>_SNIFFER_<its sniffer>
    threshold_c: str = ""           # a metric: its THRESHOLD macro or JOINTER_NO_OFFSET
    aggregator_c: str = ""          # a metric: its JOINTER_AGGREGATOR_*


class CheckLmic(NamedTuple):
    item: CheckItem
    sniffers: tuple                 # CheckItem
    dcapfs: tuple                   # CheckItem of its result DCAPFs, layout order
    traces: tuple                   # CheckItem of its traces, layout order
    ram_pairs: tuple                # (CheckItem, CheckItem) of its traces with a RAM window
    first_sniffer: int              # its first sniffer's index in the monitor


def _item(N: str, name: str, **kw) -> CheckItem:
    return CheckItem(name, name.upper(), f"{N}_{name.upper()}", **kw)


def _checks(d: Design) -> dict:
    """What the self-check's relations name: the global registers, the LMICs
    with their sniffers, result DCAPFs and traces, the metrics and the traces."""
    N, first, lmics = d.NAME, 0, []
    for lv in d.lmics:
        lmics.append(_lmic_checks(N, lv, first))
        first += len(lv.sniffers)
    return {"global_regs": tuple(layout.GLOBAL_REGS), "lmics": tuple(lmics),
            "metrics": tuple(_item(N, m["name"], buckets=m["buckets"], threshold=m["threshold_irq"],
                                   sniffer_macro=f"{N}_SNIFFER_{m['sniffer_name'].upper()}",
                                   threshold_c=f"{N}_{m['NAME']}_THRESHOLD" if m["threshold_irq"]
                                   else "JOINTER_NO_OFFSET", aggregator_c=AGGREGATOR_C[m["aggregator"]])
                             for m in d.metrics),
            "traces": tuple(_item(N, t["name"], sink=t["sink_bytes"] != 0,
                                  sniffer_macro=f"{N}_SNIFFER_{t['sniffer_name'].upper()}") for t in d.traces)}


def _lmic_checks(N: str, lv, first: int) -> CheckLmic:
    traces = tuple(_item(N, t.name, sink=t.sink, reg_words=t.reg_words) for t in lv.layout.traces)
    ram = [t for t in traces if not t.sink]     # sinks have no RAM window
    return CheckLmic(_item(N, lv.model.name, index_macro=f"{N}_LMIC_{lv.model.name.upper()}"),
                     tuple(_item(N, sv.model.name, index_macro=f"{N}_SNIFFER_{sv.model.name.upper()}")
                           for sv in lv.sniffers),
                     tuple(_item(N, dl.name, buckets=dl.buckets, threshold=dl.threshold_word >= 0)
                           for dl in lv.layout.dcapfs),
                     traces, tuple((a, b) for i, a in enumerate(ram) for b in ram[i + 1:]), first)
