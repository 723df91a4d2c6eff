# SPDX-License-Identifier: MIT
"""Co-simulation (run.py): the comparison of the two simulators' reports and
the result table."""

from __future__ import annotations

from pathlib import Path


from cosim_common import COMPARED, REPO


def compare(reports: dict[str, dict]) -> list[str]:
    """Differences between the reports of the simulators (empty: identical)."""
    sims = list(reports)
    diffs = []
    for a, b in zip(sims, sims[1:]):
        ra, rb = reports[a], reports[b]
        for k in COMPARED:
            va, vb = ra.get(k), rb.get(k)
            if va == vb:
                continue
            if isinstance(va, dict) and isinstance(vb, dict):
                for n in list(va) + [n for n in vb if n not in va]:
                    if va.get(n) != vb.get(n):
                        diffs.append(f"{k}.{n}: {a} {va.get(n)} != {b} {vb.get(n)}")
            else:
                diffs.append(f"{k}: {a} {va} != {b} {vb}")
    return diffs


def x_note(rep: dict) -> str:
    """GHDL's reads of non-0/1 values, with the signals read (most first)."""
    sig = rep.get("x_signals") or {}
    top = ", ".join(f"{n} {k}" for n, k in list(sig.items())[:6]) + (", ..." if len(sig) > 6 else "")
    return (f"{rep['x_reads']} reads of non-0/1 values (read as 0)" + (f": {top}" if top else "")
            + " (an output of the top not yet driven: U or X until its reset or its first write)")


def compare_files(reports: dict[str, dict]) -> list[str]:
    """The trace files of the simulators: the same names, byte for byte the same."""
    sims, diffs = list(reports), []
    for a, b in zip(sims, sims[1:]):
        fa = {Path(p).name: p for p in reports[a].get("trace_files", [])}
        fb = {Path(p).name: p for p in reports[b].get("trace_files", [])}
        if sorted(fa) != sorted(fb):
            diffs.append(f"trace files: {a} {sorted(fa)} != {b} {sorted(fb)}")
        for n in sorted(set(fa) & set(fb)):
            if Path(fa[n]).read_bytes() != Path(fb[n]).read_bytes():
                diffs.append(f"trace file {n}: {a} and {b} differ")
    return diffs


def fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, int) and v > 9:
        return f"{v} (0x{v:X})" if v > 0xFFFF else str(v)
    return str(v)


def table(sc: Scenario, reports: dict[str, dict], diffs: list[str]) -> str:
    sims = list(reports)
    any_rep = next(iter(reports.values()))
    expect = any_rep.get("expect", {})
    app_exp = {}
    for r in reports.values():
        app_exp.update(r.get("app_expect", {}))
    names = []
    for r in reports.values():
        names += [n for n in r.get("metrics", {}) if n not in names]
    names += [n for n in expect if n not in names]
    rows = [("metric", "expected", *sims, "")]
    for n in names:
        e = expect.get(n, app_exp.get(n))
        vals = [reports[s].get("metrics", {}).get(n) for s in sims]
        if e is not None:
            mark = "ok" if all(v == e for v in vals) else "FAIL"
        else:
            mark = "" if len(set(map(str, vals))) == 1 else "DIFF"
        rows.append((n, fmt(e) if e is not None else "", *map(fmt, vals), mark))
    rows.append(("", "", *[""] * len(sims), ""))
    rows.append(("AXI-Lite transactions (monitor)", "", *[str(reports[s].get("monitor_transactions")) for s in sims], ""))
    if any(r.get("accel_transactions") for r in reports.values()):
        rows.append(("AXI-Lite transactions (accel)", "", *[str(reports[s].get("accel_transactions")) for s in sims], ""))
    rows.append(("simulated time (ns)", "", *[f"{reports[s].get('sim_time_ps', 0) / 1000:.1f}" for s in sims], ""))
    for c in any_rep.get("cycles", {}):
        rows.append((f"cycles of clock {c}", "", *[str(reports[s].get("cycles", {}).get(c)) for s in sims], ""))
    rows.append(("wall time (s)", "", *[f"{reports[s].get('wall_s', 0):.3g}" for s in sims], ""))
    rows.append(("app exit code", "0", *[str(reports[s].get("app_rc")) for s in sims], ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = [f"scenario {sc.name}: {sc.path.relative_to(REPO) if sc.path.is_relative_to(REPO) else sc.path}"
           f" (config {sc.config.name}, top {any_rep.get('top')}, app {sc.app})"]
    for i, r in enumerate(rows):
        out.append("  " + "  ".join(c.ljust(widths[j]) if j == 0 else c.rjust(widths[j])
                                    for j, c in enumerate(r)).rstrip())
        if i == 0:
            out.append("  " + "  ".join("-" * w for w in widths))
    vl = reports.get("verilator", {}).get("app_output", "").strip()
    if vl:  # the application's own output (Verilator runs it on the harness' stdout)
        out.append("  application output (verilator):")
        out += ["    " + l for l in vl.splitlines()[-15:]]
    for s in sims:
        for e in reports[s].get("errors", []):
            out.append(f"  {s}: error: {e}")
        if reports[s].get("x_reads"):
            out.append(f"  {s}: note: {x_note(reports[s])}")
        for p in reports[s].get("trace_files", []):
            out.append(f"  {s}: trace file: {p}")
        if reports[s].get("waves"):
            out.append(f"  {s}: waveform: {reports[s]['waves']}")
    for dline in diffs:
        out.append(f"  MISMATCH between simulators: {dline}")
    return "\n".join(out)
