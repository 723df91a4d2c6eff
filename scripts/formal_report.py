#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What scripts/formal.py prints and files beside its proofs: a counterexample
decoded into the master's and the resets' changes at each bus edge, and the
bench report's "formal" section."""

from __future__ import annotations

import re
from pathlib import Path

WATCH = re.compile(r"^(s_axi_(aclk|aresetn|awvalid|wvalid|arvalid|bready|rready)|\w+_resetn|\w+_clk)$")


def cex_summary(workdir: Path) -> str:
    """Where a counterexample of the bmc engines ends, and what the master and the
    resets showed at each rising edge of the bus clock (changes only): decoded
    from abc's witness (engine_*/trace.aiw, one line of input bits per frame)
    with sby's map of the inputs."""
    job = workdir / "job"
    frame, lines = None, []
    for log in job.glob("engine_*/logfile.txt"):
        m = re.search(r"was asserted in frame (\d+)", log.read_text())
        if m:
            frame = int(m.group(1))
    aim, aiw = job / "model" / "design_aiger.aim", next(iter(job.glob("engine_*/trace.aiw")), None)
    if aiw is None or not aim.is_file():
        return f"frame {frame}" if frame is not None else "no trace"
    names = {}
    for ln in aim.read_text().splitlines():
        f = ln.split()
        if len(f) == 4 and f[0] == "input" and f[2] == "0" and WATCH.match(f[3]):
            names[int(f[1])] = f[3]
    rows = aiw.read_text().split()
    lens = [len(r) for r in rows]
    n_in = max(set(lens), key=lens.count, default=0)     # the input lines (one per frame)
    frames = [r for r in rows if len(r) == n_in and n_in > max(names, default=0)]
    last, edges, prev = {}, 0, None
    for k, bits in enumerate(frames):     # the values the bus clock's rising edges sample:
        cur = {n: bits[i] for i, n in names.items()}   # those of the step before the edge's
        rising = prev is not None and prev.get("s_axi_aclk") == "0" and cur.get("s_axi_aclk") == "1"
        now, prev = prev, cur
        if not rising:
            continue
        edges += 1
        changed = [f"{n.replace('s_axi_', '')}={v}" for n, v in sorted(now.items())
                   if last.get(n) != v and not n.endswith("clk")]
        if changed:
            lines.append(f"bus edge {edges} (step {k}): " + " ".join(changed))
        last = now
    lines.append(f"end: step {len(frames) - 1}, {edges} rising bus edges")
    return (f"frame {frame}; " if frame is not None else "") + "\n  ".join([""] + lines)


def fragment(results: list[dict], path: Path) -> None:
    """The bench report's section: one row per proof (scripts/bench_report.py)."""
    from bench_report import figure, write_fragment
    rows, figs = [], []
    for r in results:
        if "clocks" not in r:
            rows.append([r["proof"], "", "", "", "", "", "", r["status"], r["seconds"], ""])
            continue
        depth = (f"{r['depth_steps']} steps (>= {r['min_bus_cycles']} bus cycles)" if r["depth_steps"]
                 else "unbounded")
        rows.append([r["proof"], r["clocks"], f"{r['mode']} ({r['engine']})", r["bound"],
                     ", ".join(map(str, r.get("cdc_timeouts_generated") or [])) or "-",
                     ", ".join(map(str, r.get("cdc_timeouts_proven") or [])) or "-", depth,
                     r["status"], r["seconds"], "" if r.get("cpu_seconds") is None else r["cpu_seconds"]])
        figs.append(figure(f"{r['proof']} proof", r["status"], "", note=f"{r['mode']} {depth}, bound "
                           f"{r['bound']} bus cycles, {r['seconds']} s", summary=r["clocks"] > 1))
    ok = sum(r["ok"] for r in results)
    figs.append(figure("formal proofs as expected", f"{ok}/{len(results)}", "", summary=True))
    figs.append(figure("formal, every proof (wall times summed)", round(sum(r["seconds"] for r in results), 1),
                       "s", 30 * 60,
                       "goal: < 30 min on 2 cores", summary=True))
    write_fragment(path, "formal: the AXI4-Lite slave of every configs/ top", figs, order=46,
                   text=["SymbiYosys (yowasp-sby), the project's property set sim/formal/axil_props.v: "
                         "handshake, stability, ordering, no response in or right after a reset, the "
                         "response bound; the master may raise VALID in the first cycle after a reset and "
                         "every reset is free (wall time depends on the machine's load; CPU s is the "
                         "solvers' own). The toys (sim/formal/broken_slaves.v) check the checker. "
                         "Multi-clock tops, split at the bridges (scripts/formal_split.py): the bridges keep "
                         "the contract sim/formal/cdc_contract.v with every clock and reset free (crossing), "
                         "and the properties hold with the contract assumed and every flip-flop off the bus "
                         "clock cut (bus side): unbounded, every clock ratio and phase, the generated bridge "
                         "timeout. And whole: multiclock on, abc bmc3, every reset free, every clock free "
                         "except the bus clock, which toggles at every step (sim/formal/clock_env.v, "
                         "HOLD 1): the other clocks run at any rate up to the bus clock's, any phase, or "
                         "stop; the RAMs, the sniffers and the LMICs' blocks behind their ports are cut "
                         "points (their outputs free at every step: an over-approximation, a pass holds for "
                         "the real design); the depth is twice the response bound in bus cycles; the "
                         "bridges' timeout generic as in the table (scripts/formal.py: why the proof at 16 "
                         "stands for the generated value)."],
                   tables=[{"title": "proofs (bound: bus cycles the slave may stall an access)",
                            "columns": ["proof", "clocks", "mode", "bound", "bridge timeout (generated)",
                                        "bridge timeout (proven)", "depth", "status", "wall s", "CPU s"],
                            "rows": rows}])
