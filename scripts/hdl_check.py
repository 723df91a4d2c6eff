#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Synthesis checks and resource estimates for VHDL designs.

  hdl_check.py synth      every library entity (default generics): ghdl synth,
                          no warning but the known-benign ones, Verilog written
                          by `ghdl synth --out=verilog` has no latch (yosys)
  hdl_check.py tests      every library entity has a test module
                          (hdl/<area>/<entity>.vhd -> sim/<area>/test_<entity>.py)
  hdl_check.py resources  yosys synth_xilinx -family xc7 -flatten -noiopad
                          LUT/FF per entity, as a table (for make bench)

  --files F... --top T    check a design outside the library (generated tops):
                          the library plus F..., top entity T

Why the latch check: Debian's GHDL 2.0.0 drops the default arm of case/select
multiplexers when it writes Verilog (ghdl/ghdl#2041); Verilator and yosys then
see a latch. RTL must not rely on a reachable `others` arm.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import ghdl_verilog  # repairs of GHDL 2.0.0's Verilog (this folder)
import logic_depth  # LUT levels per clock domain (this folder)

REPO = Path(__file__).resolve().parents[1]
HDL = REPO / "hdl"
SIM = REPO / "sim"
LIBRARY = "jointer"
# warnings ghdl synth may print without failing the check
BENIGN = [re.compile(r'unhandled attribute "async_reg"')]
ENTITY_RE = re.compile(r"^\s*entity\s+(\w+)\s+is", re.M | re.I)


def library_files() -> list[Path]:
    return sorted(HDL.rglob("*.vhd"))


def entities(files: list[Path]) -> list[tuple[str, Path]]:
    out = []
    for f in files:
        for m in ENTITY_RE.finditer(re.sub(r"--[^\n]*", "", f.read_text())):
            out.append((m.group(1).lower(), f))
    return out


def sh(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def analyse(workdir: Path, files: list[Path], tops: list[str]) -> None:
    """Import every file into library jointer and analyse what the tops need."""
    workdir.mkdir(parents=True, exist_ok=True)
    for cf_file in workdir.glob("*.cf"):
        cf_file.unlink()
    r = sh(["ghdl", "-i", "--std=08", f"--work={LIBRARY}", f"--workdir={workdir}",
            *map(str, files)], workdir)
    if r.returncode:
        sys.exit(f"ghdl -i failed:\n{r.stderr}")
    for top in tops:
        r = sh(["ghdl", "-m", "--std=08", f"--work={LIBRARY}", f"--workdir={workdir}", top], workdir)
        if r.returncode:
            sys.exit(f"ghdl -m {top} failed:\n{r.stderr}")


def synth_one(workdir: Path, top: str) -> tuple[str, list[str]]:
    """ghdl synth + Verilog + latch check of one top; returns (top, problems)."""
    problems = []
    base = ["ghdl", "synth", "--std=08", f"--work={LIBRARY}", f"--workdir={workdir}"]
    r = sh(base + [top], workdir)
    if r.returncode:
        return top, [f"ghdl synth failed:\n{r.stderr.strip()}"]
    for line in r.stderr.splitlines():
        if "warning" in line and not any(b.search(line) for b in BENIGN):
            problems.append(f"ghdl synth warning: {line.strip()}")
    verilog = workdir / f"{top}.v"
    r = sh(base + ["--out=verilog", top], workdir)
    if r.returncode:
        return top, problems + [f"ghdl synth --out=verilog failed:\n{r.stderr.strip()}"]
    try:
        text, _, _ = ghdl_verilog.repair(r.stdout)
    except ghdl_verilog.VerilogError as e:
        return top, problems + [str(e)]
    verilog.write_text(text)
    r = sh(["yosys", "-q", "-p", f"read_verilog {verilog}; hierarchy -top {top}; proc; "
            "select -assert-none t:$dlatch"], workdir)
    if r.returncode == 0:
        # GHDL 2.0 can turn an array register written at a computed index into a
        # combinational loop with no flip-flop at all: yosys `check` sees it
        c = sh(["yosys", "-q", "-p", f"read_verilog {verilog}; hierarchy -top {top}; proc; "
                "opt_clean; check -assert"], workdir)
        if c.returncode:
            msgs = [l.strip() for l in (c.stdout + c.stderr).splitlines()
                    if "Warning" in l or "ERROR" in l or "loop" in l.lower()]
            problems.append("yosys check fails on the Verilog ghdl writes (a combinational "
                            "loop or multiple drivers?): " + "; ".join(msgs[:4])[:500])
    if r.returncode:
        out = (r.stdout + r.stderr).splitlines()
        latches = [l.strip() for l in out if "dlatch" in l]
        if latches:
            problems.append("latch in the Verilog ghdl writes (a reachable `others` arm?): "
                            + "; ".join(latches[:4]))
        else:  # yosys could not read the Verilog (e.g. GHDL writes 0'b for a null range)
            problems.append("yosys cannot read the Verilog ghdl writes (a zero-width signal or "
                            "port?): " + "; ".join(l.strip() for l in out if l.strip())[:400])
    return top, problems


def resources_one(workdir: Path, top: str) -> tuple[str, dict]:
    verilog = workdir / f"{top}.v"
    _, problems = synth_one(workdir, top)  # always fresh: never count a stale netlist
    if problems:
        return top, {"error": "; ".join(problems)[:300]}
    stat, netlist = workdir / f"{top}.stat", workdir / f"{top}.json"
    r = sh(["yosys", "-q", "-p", f"read_verilog {verilog}; synth_xilinx -family xc7 -flatten "
            f"-noiopad -top {top}; tee -q -o {stat} stat; write_json {netlist}"], workdir)
    if r.returncode:
        return top, {"error": r.stderr.strip()[-300:]}
    luts = ffs = 0
    counts = {}
    for line in stat.read_text().splitlines():
        m = re.match(r"\s+(\S+)\s+(\d+)$", line)
        if m:
            counts[m.group(1)] = int(m.group(2))
    for cell, n in counts.items():
        if re.fullmatch(r"LUT\d", cell):
            luts += n
        elif re.fullmatch(r"FD[A-Z]*", cell):
            ffs += n
    extra = {k: v for k, v in counts.items() if re.fullmatch(r"(RAM\w+|SRL\w+|CARRY4|DSP\w+)", k)}
    levels = {dom: d["levels"] for dom, d in logic_depth.depth(json.loads(netlist.read_text()), top).items()}
    return top, {"lut": luts, "ff": ffs, **extra, "depth": levels}


def check_tests(ents: list[tuple[str, Path]]) -> list[str]:
    missing = []
    for name, path in ents:
        area = path.parent.relative_to(HDL)
        candidates = [SIM / area / f"test_{name}.py", SIM / area / name]
        if not any(c.exists() for c in candidates):
            missing.append(f"{path.relative_to(REPO)}: no test module (expected "
                           f"{candidates[0].relative_to(REPO)})")
    return missing


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("action", choices=["synth", "tests", "resources"])
    ap.add_argument("--files", nargs="*", default=[], help="extra VHDL files (a generated design)")
    ap.add_argument("--top", action="append", default=[], help="top entity to check (default: every library entity)")
    ap.add_argument("--workdir", default=str(REPO / "build" / "synth"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--json", help="write the resource table as JSON here")
    args = ap.parse_args()

    lib = library_files()
    ents = entities(lib)
    if args.action == "tests":
        missing = check_tests(ents)
        for m in missing:
            print(f"error: {m}")
        print(f"tests: {len(ents) - len(missing)}/{len(ents)} entities have a test module")
        return 1 if missing else 0

    files = lib + [Path(f).resolve() for f in args.files]
    tops = args.top or [e for e, _ in ents]
    workdir = Path(args.workdir)
    analyse(workdir, files, tops)
    worker = synth_one if args.action == "synth" else resources_one
    failed = 0
    results = {}
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        for top, res in pool.map(lambda t: worker(workdir, t), tops):
            results[top] = res
            if args.action == "synth":
                status = "ok" if not res else "FAIL"
                print(f"synth {status:4} {top}")
                for p in res:
                    print(f"    {p}")
                failed += bool(res)
    if args.action == "resources":
        print(f"{'entity':40} {'LUT':>6} {'FF':>6}  other")
        for top, res in results.items():
            if "error" in res:
                print(f"{top:40} error: {res['error']}")
                failed += 1
                continue
            other = " ".join(f"{k}={v}" for k, v in res.items() if k not in ("lut", "ff"))
            print(f"{top:40} {res['lut']:>6} {res['ff']:>6}  {other}")
        if args.json:
            import json
            Path(args.json).write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    else:
        print(f"synth: {len(tops) - failed}/{len(tops)} designs pass ghdl synth and the latch check")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
