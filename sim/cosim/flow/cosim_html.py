# SPDX-License-Identifier: MIT
"""Co-simulation (run.py --html, used by `make demo`): one scenario's result as
a self-contained HTML page: the metric table (expected, each simulator) and a
bar chart of the metrics next to their expected values (matplotlib, inline
SVG; each metric labelled with its unit, the value axis says its scale), written to a temporary file and renamed (nothing half-written)."""

from __future__ import annotations

import html
import io
import os
import tempfile
from pathlib import Path


def unit(name: str) -> str:
    """The unit of a metric by its name: cycles (latencies, times), bytes, else events."""
    n = name.lower()
    if any(w in n for w in ("cycle", "lat", "time", "duration")):
        return "cycles"
    return "bytes" if "byte" in n else "events"


def _plot_svg(names: list[str], expected: list, values: dict[str, list], title: str = "") -> str:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.fonttype"] = "none"        # text stays text: searchable, smaller
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(names) + 1.6), layout="constrained")
    ys = range(len(names))
    h = 0.8 / (len(values) + 1)
    ax.barh([y - 0.4 + h / 2 for y in ys], [e or 0 for e in expected], h, label="expected", color="#999999")
    for i, (sim, vals) in enumerate(values.items(), 1):
        ax.barh([y - 0.4 + h / 2 + i * h for y in ys], [v or 0 for v in vals], h, label=sim)
    ax.set_yticks(list(ys), ["%s (%s)" % (n, unit(n)) for n in names])
    ax.invert_yaxis()
    log = any((e or 0) > 0 for e in expected)
    if log:
        ax.set_xscale("symlog")
    ax.set_xlabel("metric value, in the unit after its name%s" % (" (symlog scale)" if log else ""))
    ax.set_title(title or "Metrics: simulators vs expected")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def write(path: Path, sc, reports: dict[str, dict], ok: bool) -> Path:
    sims = list(reports)
    any_rep = next(iter(reports.values()))
    expect = dict(any_rep.get("expect", {}))
    for r in reports.values():
        for k, v in r.get("app_expect", {}).items():
            expect.setdefault(k, v)
    names = []
    for r in reports.values():
        names += [n for n in r.get("metrics", {}) if n not in names]
    rows = []
    for n in names:
        vals = [reports[s].get("metrics", {}).get(n) for s in sims]
        e = expect.get(n)
        mark = "" if e is None else ("ok" if all(v == e for v in vals) else "FAIL")
        rows.append("<tr><td>%s</td><td>%s</td>%s<td>%s</td></tr>" % (
            html.escape(n), "" if e is None else e, "".join(f"<td>{v}</td>" for v in vals), mark))
    numeric = [n for n in names if all(isinstance(reports[s].get("metrics", {}).get(n), int) for s in sims)]
    svg = _plot_svg(numeric, [expect.get(n) for n in numeric],
                    {s: [reports[s]["metrics"][n] for n in numeric] for s in sims},
                    "Scenario %s: metrics per simulator and expected" % sc.name) if numeric else ""
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>jointer: scenario {html.escape(sc.name)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}} table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.2em .6em;text-align:right}} td:first-child{{text-align:left}}</style>
</head><body>
<h1>jointer co-simulation: {html.escape(sc.name)}</h1>
<p>Monitor <code>{html.escape(sc.config.name)}</code>, application <code>{html.escape(sc.app)}</code>,
simulators {", ".join(sims)}: <b>{"PASS" if ok else "FAIL"}</b>. Every metric was read through the
generated C driver and libjointer; "expected" comes from the scenario or the application's own
C reference.</p>
<table><tr><th>metric</th><th>expected</th>{"".join(f"<th>{s}</th>" for s in sims)}<th></th></tr>
{chr(10).join(rows)}
</table>
<h2>Metrics</h2>
{svg}
</body></html>
"""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".report-", dir=path.parent)
    with os.fdopen(fd, "w") as f:
        f.write(page)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path
