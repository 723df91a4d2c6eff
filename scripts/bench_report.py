#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make bench: run the bench targets, then one report of every figure.

  bench_report.py run [--build build] [--make make] TARGET...
      runs `make TARGET` for each bench target in turn (progress and wall time
      per step; a failing step is reported, the others still run), then `build`
  bench_report.py build [--build build]
      collects every fragment build/bench/fragments/*.json and writes
      build/bench/report.md (human) and build/bench/report.json (machine:
      one object per figure), and prints the summary table
  bench_report.py check REPORT.json
      checks that every figure of a report has every field (make test's smoke
      test runs it too)

A fragment is what one bench target measured:

  {"section": "<title>", "order": <optional number, sections sort by it>,
   "text": ["<optional paragraph>", ...],
   "tables": [{"title": "...", "columns": [...], "rows": [[...], ...]}],   (optional)
   "figures": [{"name": "...", "value": <number or string>, "unit": "...",
                "anchor": <number or null>, "anchor_source": "<or null>",
                "note": "...", "summary": <optional bool>, "detail": <optional bool>}]}

`anchor` is the value the figure is compared with (a paper's number or a
goal), `anchor_source` says where it comes from. A figure with "detail": true
is in report.json but shown in report.md only through the fragment's tables.
The summary table lists the figures marked "summary": true, and every figure
of a fragment that marks none (fragments of other targets, up to 8 each).
Any fragment found is reported, in a section of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIELDS = ("section", "name", "value", "unit", "anchor", "anchor_source", "note", "ratio")
GOAL_S = 20 * 60  # make bench on a 2-core machine
SUMMARY_MAX = 8


# ---- writing fragments (used by the bench scripts) -----------------------------------------

def figure(name: str, value, unit: str, anchor=None, anchor_source: str | None = None,
           note: str = "", summary: bool = False, detail: bool = False) -> dict:
    f = {"name": name, "value": value, "unit": unit, "anchor": anchor,
         "anchor_source": anchor_source if anchor is not None else None, "note": note}
    if summary:
        f["summary"] = True
    if detail:
        f["detail"] = True
    return f


def write_fragment(path: Path | str, section: str, figures: list[dict], order: float | None = None,
                   tables: list[dict] | None = None, text: list[str] | None = None) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    frag = {"section": section, "figures": figures}
    if order is not None:
        frag["order"] = order
    if tables:
        frag["tables"] = tables
    if text:
        frag["text"] = text
    path.write_text(json.dumps(frag, indent=1) + "\n")
    return path


# ---- collecting -----------------------------------------------------------------------------

def ratio(value, anchor):
    """value / anchor when both are numbers (anchor non-zero), else None."""
    num = (int, float)
    if isinstance(value, bool) or isinstance(anchor, bool):
        return None
    if isinstance(value, num) and isinstance(anchor, num) and anchor != 0:
        return round(value / anchor, 4)
    return None


def load_fragments(fragdir: Path) -> tuple[list[dict], list[str]]:
    """Every fragment of fragdir, sorted by (order, section); problems found."""
    frags, problems = [], []
    for p in sorted(fragdir.glob("*.json")):
        try:
            frag = json.loads(p.read_text())
        except (OSError, ValueError) as e:
            problems.append(f"{p.name}: unreadable ({e})")
            continue
        if not isinstance(frag, dict) or not isinstance(frag.get("figures"), list):
            problems.append(f"{p.name}: not a fragment (no 'figures' list)")
            continue
        frag.setdefault("section", p.stem)
        frag["file"] = p.name
        for i, f in enumerate(frag["figures"]):
            miss = [k for k in ("name", "value", "unit") if k not in f]
            if miss:
                problems.append(f"{p.name}: figure {i} has no {', '.join(miss)}")
        frag["figures"] = [f for f in frag["figures"] if all(k in f for k in ("name", "value", "unit"))]
        frags.append(frag)
    frags.sort(key=lambda f: (f.get("order", 50), f["section"]))
    return frags, problems


def flat_figures(frags: list[dict]) -> list[dict]:
    out = []
    for frag in frags:
        for f in frag["figures"]:
            anchor = f.get("anchor")
            out.append({"section": frag["section"], "name": f["name"], "value": f["value"],
                        "unit": f["unit"], "anchor": anchor,
                        "anchor_source": f.get("anchor_source") if anchor is not None else None,
                        "note": f.get("note") or "", "ratio": ratio(f["value"], anchor),
                        "summary": bool(f.get("summary")), "fragment": frag["file"]})
    return out


def summary_rows(frags: list[dict]) -> list[dict]:
    rows = []
    for frag in frags:
        figs = flat_figures([frag])
        marked = [f for f in figs if f["summary"]]
        rows += marked if marked else [f for f in figs][:SUMMARY_MAX]
    return rows


# ---- formatting -----------------------------------------------------------------------------

def fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e15:
            return str(int(v))
        if abs(v) >= 1e6:
            return f"{v:.3g}"
        if abs(v) >= 100:
            return f"{v:.1f}"
        return f"{v:.4g}"
    return str(v)


def text_table(header: list[str], rows: list[list[str]]) -> str:
    w = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    lines = ["  ".join(str(c).ljust(w[i]) for i, c in enumerate(header)).rstrip(),
             "  ".join("-" * x for x in w)]
    for r in rows:
        lines.append("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip())
    return "\n".join(lines)


def md_table(header: list, rows: list[list]) -> str:
    def cell(c):
        return fmt(c).replace("|", "\\|")
    out = ["| " + " | ".join(map(str, header)) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def summary_text(frags: list[dict]) -> str:
    """The summary: a line per section, then its figures (name, value, unit, anchor, ratio)."""
    rows, heads = [], []
    for frag in frags:
        figs = summary_rows([frag])
        if figs:
            heads.append(len(rows))
            rows.append([frag["section"], "", "", "", ""])
            rows += [["  " + f["name"], fmt(f["value"]), f["unit"], fmt(f["anchor"]), fmt(f["ratio"])]
                     for f in figs]
    header = ["figure", "value", "unit", "anchor", "ratio"]
    body = [r for i, r in enumerate(rows) if i not in heads]
    w = [max([len(header[i])] + [len(r[i]) for r in body]) for i in range(len(header))]
    out = ["  ".join(h.ljust(w[i]) for i, h in enumerate(header)).rstrip(), "  ".join("-" * x for x in w)]
    for i, r in enumerate(rows):
        out.append(r[0] if i in heads else "  ".join(c.ljust(w[j]) for j, c in enumerate(r)).rstrip())
    return "\n".join(out)


def machine() -> dict:
    return {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()],
            "date_utc": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")}


def commit() -> str:
    r = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                       capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else "unknown"


def build(bench: Path, quiet: bool = False) -> int:
    frags, problems = load_fragments(bench / "fragments")
    figs = flat_figures(frags)
    meta = {"commit": commit(), **machine()}
    report = {"report": "jointer make bench", **meta, "problems": problems,
              "sections": [{"section": f["section"], "fragment": f["file"], "text": f.get("text", []),
                            "tables": f.get("tables", [])} for f in frags],
              "figures": [{k: v for k, v in f.items() if k != "summary"} for f in figs]}
    (bench / "report.json").write_text(json.dumps(report, indent=1) + "\n")

    md = ["# jointer: make bench report", "",
          f"Commit {meta['commit']}, {meta['date_utc']} UTC, {meta['cpus']} CPUs, load average "
          f"{' '.join(map(str, meta['load_average']))} when the report was written. "
          "Every figure is also in report.json (one object per figure: section, name, value, unit, "
          "anchor, anchor_source, note, ratio = value / anchor).", ""]
    if problems:
        md += ["**Problems:**", ""] + [f"- {p}" for p in problems] + [""]
    md += ["## Summary", "", md_table(["section", "figure", "value", "unit", "anchor", "ratio"],
                                      [[f["section"], f["name"], f["value"], f["unit"], f["anchor"],
                                        f["ratio"]] for f in summary_rows(frags)]), ""]
    for frag in frags:
        md += [f"## {frag['section']}", ""]
        for t in frag.get("text", []):
            md += [t, ""]
        for t in frag.get("tables", []):
            if t.get("title"):
                md += [f"**{t['title']}**", ""]
            md += [md_table(t["columns"], t["rows"]), ""]
        shown = [f for f in frag["figures"] if not f.get("detail")]
        if shown:
            md += [md_table(["figure", "value", "unit", "anchor", "ratio", "anchor source", "note"],
                            [[f["name"], f["value"], f["unit"], f.get("anchor"),
                              ratio(f["value"], f.get("anchor")), f.get("anchor_source") or "",
                              f.get("note") or ""] for f in shown]), ""]
        md += [f"<sub>fragment: fragments/{frag['file']}</sub>", ""]
    (bench / "report.md").write_text("\n".join(md))
    if not quiet:
        print()
        print(f"== make bench summary ({len(figs)} figures in {len(frags)} sections; "
              f"{bench / 'report.md'}, {bench / 'report.json'}) ==")
        print(summary_text(frags))
        for p in problems:
            print(f"bench-report: problem: {p}")
    return 1 if problems else 0


def check(path: Path) -> list[str]:
    """Every figure of a report.json has every field, with the right types."""
    rep = json.loads(path.read_text())
    errs = []
    for k in ("figures", "sections", "commit", "cpus", "problems"):
        if k not in rep:
            errs.append(f"report has no {k!r}")
    for i, f in enumerate(rep.get("figures", [])):
        for k in FIELDS:
            if k not in f:
                errs.append(f"figure {i} ({f.get('name')}): no {k!r}")
        if not isinstance(f.get("value"), (int, float, str)) or isinstance(f.get("value"), bool):
            errs.append(f"figure {i} ({f.get('name')}): value {f.get('value')!r} is not a number or string")
        if f.get("anchor") is not None and not f.get("anchor_source"):
            errs.append(f"figure {i} ({f.get('name')}): an anchor without anchor_source")
        if f.get("ratio") != ratio(f.get("value"), f.get("anchor")):
            errs.append(f"figure {i} ({f.get('name')}): ratio {f.get('ratio')} != value / anchor")
    return errs


# ---- running the targets ----------------------------------------------------------------------

def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(targets: list[str], bench: Path, make: str) -> int:
    fragdir = bench / "fragments"
    logdir = bench / "logs"
    logdir.mkdir(parents=True, exist_ok=True)
    load0 = os.getloadavg()
    t_all = time.monotonic()
    steps = []
    for i, t in enumerate(targets, 1):
        print(f"[bench {i}/{len(targets)}] make {t} ...", flush=True)
        t0, c0 = time.monotonic(), cpu_children()
        with open(logdir / f"{t}.log", "w") as log:
            p = subprocess.Popen([make, "--no-print-directory", t], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, bufsize=1)
            for line in p.stdout:
                sys.stdout.write(line)
                log.write(line)
            rc = p.wait()
        dt, cpu = time.monotonic() - t0, cpu_children() - c0
        steps.append((t, rc, dt, cpu))
        print(f"[bench {i}/{len(targets)}] make {t}: {'ok' if rc == 0 else f'FAILED (exit {rc})'} "
              f"in {dt:.1f} s, CPU {cpu:.1f} s (log: {logdir / (t + '.log')}); {time.monotonic() - t_all:.0f} s so far",
              flush=True)
    total = time.monotonic() - t_all
    cpu_total = sum(c for *_, c in steps)
    load1 = os.getloadavg()
    figs = [figure("make bench, every step", round(total, 1), "s", GOAL_S, "goal: < 20 min on 2 cores",
                   note=f"wall time; load average {load0[0]:.2f} at the start, {load1[0]:.2f} at the end, on "
                        f"{os.cpu_count()} CPUs (other jobs on the machine slow it down)", summary=True),
            figure("make bench, CPU time (user + system)", round(cpu_total, 1), "s", None,
                   note=f"of every process it ran; on an idle machine of {os.cpu_count()} CPUs the wall time "
                        f"is about {cpu_total / max(os.cpu_count() or 1, 1):.0f} s or more", summary=True)]
    figs += [figure(f"make {t}", round(dt, 1), "s", note=("ok" if rc == 0 else f"FAILED (exit {rc})")
                    + f"; CPU {cpu:.1f} s") for t, rc, dt, cpu in steps]
    failed = [t for t, rc, *_ in steps if rc]
    figs.append(figure("failed steps", ", ".join(failed) if failed else "none", "", summary=True))
    write_fragment(fragdir / "zz-bench-steps.json", "make bench itself", figs, order=99,
                   text=["Wall time of each bench target (builds included), measured in this run."])
    rc = build(bench)
    if failed:
        print(f"make bench: FAILED steps: {' '.join(failed)} (their logs: {logdir})")
    print(f"make bench: {total:.0f} s in all (goal < {GOAL_S} s), CPU {cpu_total:.0f} s, load average "
          f"{load0[0]:.1f} at the start, {load1[0]:.1f} at the end")
    return 1 if failed or rc else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--build", default="build")
    r.add_argument("--make", default=os.environ.get("MAKE", "make"))
    r.add_argument("targets", nargs="*")
    b = sub.add_parser("build")
    b.add_argument("--build", default="build")
    c = sub.add_parser("check")
    c.add_argument("report", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "check":
        errs = check(args.report)
        for e in errs:
            print(f"error: {e}")
        print(f"check: {args.report}: {'every figure has every field' if not errs else f'{len(errs)} problem(s)'}")
        return 1 if errs else 0
    bench = Path(args.build) / "bench"
    (bench / "fragments").mkdir(parents=True, exist_ok=True)
    if args.cmd == "build":
        return build(bench)
    return run(args.targets, bench, args.make)


if __name__ == "__main__":
    sys.exit(main())
