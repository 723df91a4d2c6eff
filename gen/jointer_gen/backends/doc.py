# SPDX-License-Identifier: MIT
"""Documentation backend: doc/<name>.md and doc/<name>.html (same tables).

Rows are prepared here from the elaborated design; the templates print them.
"""

from __future__ import annotations

from ..model import datapath, timing
from ..model.views import Design
from . import OutFile
from .templates import render_file


def _filter(dc) -> str:
    """The filter column: reset bounds, or none (`filter: none`)."""
    return f"0x{dc.low:X}..0x{dc.high:X}" if dc.has_filter else "none"


def _trace_where(d: Design, dc) -> tuple[str, str]:
    """A trace's place (its RAM window, or a sink's registers and ring) and the
    wrapper that reads it (a sink: the wrappers that start and drain it)."""
    t = d.trace(dc.name)
    lanes = (f", lanes {', '.join(dc.lane_names)}" + (" and sync" if dc.sync else "")) if dc.lanes else ""
    spans = f", spans {', '.join(sp.name for sp in dc.spans)}" if dc.spans else ""
    if dc.is_sink:
        return (f"sink registers 0x{t['reg_offset']:X}, records in a ring in memory ({dc.sink.encoding})"
                f"{lanes}{spans}",
                f"{d.name}_sink_start_{dc.name}(), {d.name}_drain_{dc.name}(), {d.name}_sink_stop_{dc.name}()")
    fn = f"{d.name}_trace_read_{dc.name}()" + (f", {d.name}_drain_{dc.name}()" if dc.mode == "relay" else "")
    return f"trace 0x{t['ram_offset']:X}, {dc.depth} records ({dc.mode}){lanes}{spans}", fn


def context(d: Design) -> dict:
    rows = []
    for lv in d.lmics:
        for sv in lv.sniffers:
            for dc in sv.model.dcapfs:
                if dc.is_trace:
                    where, function = _trace_where(d, dc)
                    agg, width = "-", "-"
                else:
                    m = d.metric(dc.name)
                    where = f"0x{m['result_offset']:X}" + (f" ({m['words']} words)" if m["words"] > 1 else "")
                    function = f"{d.name}_read_{dc.name}()"
                    agg, width = dc.aggregator, str(dc.width)
                    if dc.threshold_irq:
                        where += f", threshold 0x{m['threshold_offset']:X}"
                ext = dc.extractor + (f" ({dc.sample})" if dc.extractor == "event" else "")
                label = datapath.lane_label(sv.model, dc)
                if dc.lanes:
                    pass                     # the lanes are in the where column
                elif label is not None:
                    ext += f", event {label}"
                elif sv.model.interfacer.kind.main_lanes(sv.model.interfacer.params) > 1:
                    ext += f", event {dc.event}"
                rows.append({"lmic": lv.model.name, "sniffer": sv.model.name,
                             "observes": sv.summary, "name": dc.name, "extractor": ext,
                             "aggregator": agg, "width": width, "filter": _filter(dc),
                             "where": where, "function": function,
                             "description": dc.description})
    ports = []
    owner = {}
    for sv in d.sniffers:
        for o in sv.observed:
            owner[f"{sv.model.name}_{o.sig}"] = sv.model.name
    for p in d.top["ports"]:
        ports.append({"name": p.name, "direction": p.direction, "vtype": p.vtype,
                      "owner": owner.get(p.name, "")})
    clocks = []
    for i, c in enumerate(d.monitor.clocks):
        role = "bus clock: s_axi_aclk" if i == 0 else f"port {c.name}_clk"
        clocks.append({"name": c.name, "role": role,
                       "period": f"{c.period_ns:g} ns" if c.period_ns is not None else ""})
    return {"dcapf_rows": rows, "ports": ports, "clocks": clocks, "timing": _timing(d),
            "base_address": f"0x{d.monitor.bus.base_address:08X}"}


def _timing(d: Design) -> list[dict]:
    """Per LMIC clock, the blocks' variants (model/timing.py); [] when every
    domain keeps its small blocks by default (the docs then say nothing)."""
    rows = []
    for t in timing.domains(d.monitor):
        fast = "; ".join(f"{n}: {', '.join(b)}" for n, b in t["fast"].items())
        rows.append({"clock": t["clock"], "mode": t["mode"],
                     "target": f"{t['target_ns']:g} ns" if t["target_ns"] is not None else "none",
                     "fast": fast or "none (small blocks)"})
    if all(r["mode"] == "auto" and r["fast"].startswith("none") for r in rows):
        return []
    return rows


def emit(d: Design) -> list[OutFile]:
    doc = context(d)
    return [render_file(d, "doc/monitor.md.j2", f"doc/{d.name}.md", "doc-markdown", doc=doc),
            render_file(d, "doc/monitor.html.j2", f"doc/{d.name}.html", "doc-html", doc=doc)]
