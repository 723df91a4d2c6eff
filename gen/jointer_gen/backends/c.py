"""C backend: <name>_regs.h, <name>.h, <name>.c and <name>_selfcheck.c.

The table rows and what the self-check relations name are prepared here
from the elaborated design; the templates (templates/c/) print them. The
self-check's relations (templates/c/static_checks.j2, runtime_checks.j2)
restate the layout rules of doc/internals.md section 4 in terms of the
generated macros and the driver's jointer_desc.h, so the compiler, not the
generator, evaluates them.
"""

from __future__ import annotations

from .. import layout
from ..elaborate import Design, c_hex

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
                      "num_sniffers": len(lv.sniffers), "num_irq": lv.layout.num_irq})
        first += len(lv.sniffers)
        for sv in lv.sniffers:
            sniffers.append({"name": sv.model.name, "NAME": sv.model.name.upper(),
                             "lmic_name": lv.model.name, "lmic": lv.index, "index": sv.index,
                             "num_dcapfs": len(sv.model.dcapfs),
                             "pm_c": sv.model.interfacer.kind.c_fields(sv.model)})
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
                       "filter_c": 1 if t["has_filter"] else 0, "sink": t["sink_bytes"] != 0})
    return {"lmics": lmics, "sniffers": sniffers, "metrics": metrics, "traces": traces,
            "has_mark": any(s.is_mark for s in d.sniffers),
            "mark_sniffer": next((s.model.name for s in d.sniffers if s.is_mark), ""),
            "checks": _checks(d)}


def _checks(d: Design) -> dict:
    """What the self-check's compile-time relations (templates/c/static_checks.j2)
    name: the global registers and, per LMIC, its sniffers, result DCAPFs and traces."""
    return {"global_regs": tuple(layout.GLOBAL_REGS), "lmics": [_lmic_checks(lv) for lv in d.lmics]}


def _lmic_checks(lv) -> dict:
    def named(x) -> dict:
        return {"name": x.name, "NAME": x.name.upper()}
    ram = [named(t) for t in lv.layout.traces if not t.sink]     # sinks have no RAM window
    return {**named(lv.model),
            "sniffers": [named(sv.model) for sv in lv.sniffers],
            "dcapfs": [{**named(dl), "buckets": dl.buckets, "threshold": dl.threshold_word >= 0}
                       for dl in lv.layout.dcapfs],
            "traces": [{**named(t), "sink": t.sink, "reg_words": t.reg_words} for t in lv.layout.traces],
            "ram_pairs": [(a, b) for i, a in enumerate(ram) for b in ram[i + 1:]]}
