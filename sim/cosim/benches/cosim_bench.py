# SPDX-License-Identifier: MIT
"""Co-simulation (run.py --bench): cycles/s in both simulators and the AXI4-Lite
transactions of one monitoring action, as a make bench fragment."""

from __future__ import annotations

import json
import statistics
from pathlib import Path


from cosim_build import load_scenario
from cosim_common import COSIM, REPO
from cosim_runners import run_scenario  # noqa: F401


BENCH_SCENARIOS = [COSIM / "scenarios" / "demo.yaml", COSIM / "scenarios" / "bench" / "demo_1024.yaml"]
HOST_ACCESS_NS = 221   # PAPI-on-FPGA paper: one AXI-Lite read from a Zynq's Cortex-A9 (raw pointer)
PAPER_Y9_MON_US = 5.945  # the TECS paper's Table 4: Y9 monitoring latency (Mon.)


def bench(json_out: Path | None, repeat: int = 5, fragment: Path | None = None) -> int:
    """Simulated cycles per second, Verilator vs GHDL (median of runs taken in
    turn, one simulator then the other), the AXI4-Lite transactions of one Y9
    monitoring action (the demo's own count), and those of the generic app's
    whole flow on every configs/ example (smoke scenario, Verilator)."""
    rows, ok, result = [], True, {}
    for path in BENCH_SCENARIOS:
        # warm-up (builds) in both, then the runs side by side: Verilator, GHDL, Verilator, ...
        good, reports, diffs = run_scenario(path, show=False)
        ok &= good
        runs = {"verilator": [], "ghdl": []}
        for k in range(repeat):
            for sim in ("verilator", "ghdl"):
                if sim == "ghdl" and k >= 3:   # GHDL: 3 runs (a run is seconds of cocotb start-up)
                    continue
                runs[sim].append(run_scenario(path, (sim,), show=False)[1][sim])
        med = {sim: statistics.median(r["wall_s"] for r in rs) for sim, rs in runs.items()}
        sc = load_scenario(path)
        cycles = sum(reports["verilator"]["cycles"].values())
        entry = {"scenario": sc.name, "sim_time_ns": reports["verilator"]["sim_time_ps"] / 1000,
                 "cycles": reports["verilator"]["cycles"], "identical": not diffs,
                 "monitoring_transactions": reports["verilator"]["metrics"].get("monitoring_transactions")}
        for sim in ("verilator", "ghdl"):
            wall = max(med[sim], 1e-9)
            entry[sim] = {"wall_s": med[sim], "runs": len(runs[sim]), "cycles_per_s": cycles / wall,
                          "wall_s_runs": [r["wall_s"] for r in runs[sim]]}
        entry["ratio"] = entry["verilator"]["cycles_per_s"] / entry["ghdl"]["cycles_per_s"]
        result[sc.name] = entry
        rows.append(entry)

    # every configs/ example: the generic app (open + self-test, NO_FILTERING, run, stop,
    # read every metric, STATUS and trace FILL) on the smoke scenario, Verilator
    examples = {}
    for cfg in sorted((REPO / "configs").glob("*.yaml")):
        good, reports, _ = run_scenario(COSIM / "scenarios" / "smoke" / "smoke.yaml", ("verilator",),
                                        config=cfg, show=False)
        rep = reports["verilator"]
        # the count is the figure; the smoke checks (every metric at its reset value) do not
        # hold for a monitor that counts time on its own (e.g. idle cycles): reported, not fatal
        ok &= rep.get("app_rc") == 0 and rep.get("monitor_transactions") is not None
        examples[cfg.stem] = {"transactions": rep.get("monitor_transactions"), "pass": good,
                              "app_rc": rep.get("app_rc"), "metrics": len(rep.get("metrics", {}))}
    result["examples"] = examples

    def si(v: float) -> str:
        for unit, f in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
            if v >= f:
                return f"{v / f:.2f} {unit}"
        return f"{v:.0f}"

    print("co-simulation speed: simulated clock cycles (every domain) per second of wall time,")
    print("the application's run only (builds and simulator start-up excluded); median of runs taken in turn")
    hdr = f"  {'scenario':12} {'sim time':>10} {'cycles':>8} {'verilator':>14} {'ghdl':>14} {'ratio':>8}"
    print(hdr)
    print("  " + "-" * (len(hdr) - 2))
    for e in rows:
        print(f"  {e['scenario']:12} {e['sim_time_ns'] / 1000:8.1f} us {sum(e['cycles'].values()):8d} "
              f"{si(e['verilator']['cycles_per_s']) + 'c/s':>14} {si(e['ghdl']['cycles_per_s']) + 'c/s':>14} "
              f"{e['ratio']:7.0f}x")
    tx = rows[0]["monitoring_transactions"]
    print(f"AXI4-Lite transactions for one monitoring action on Y9 (initialise the filter, run, stop, "
          f"read every metric): {tx} (goal <= 10){'' if tx is not None and tx <= 10 else '  ** over the goal **'}")
    if tx is not None:
        print(f"  modeled host time at {HOST_ACCESS_NS} ns per access (PAPI-on-FPGA paper): {tx * HOST_ACCESS_NS / 1000:.3f} us; "
              f"the TECS paper's Y9 monitoring latency (Table 4): {PAPER_Y9_MON_US} us")
    print("AXI4-Lite transactions of the generic app's whole flow (open + self-test, NO_FILTERING, run, "
          "stop, read everything), smoke scenario, Verilator:")
    for n, e in examples.items():
        print(f"  {n:28} {e['transactions']:>5}  ({e['metrics']} values read; idle checks "
              f"{'pass' if e['pass'] else 'differ: the monitor counts without traffic'}; app exit {e['app_rc']})")
    if not all(e["identical"] for e in rows):
        print("** the simulators' reports differ **")
    if json_out:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"written: {json_out}")
    if fragment:
        bench_fragment(fragment, rows, examples)
    return 0 if ok and tx is not None and tx <= 10 else 1


def bench_fragment(path: Path, rows: list[dict], examples: dict) -> None:
    """The figures of bench() as a make bench report fragment (scripts/bench_report.py)."""
    figs = []
    for e in rows:
        n = e["scenario"]
        for sim in ("verilator", "ghdl"):
            figs.append({"name": f"{n}: {sim} cycles/s", "value": round(e[sim]["cycles_per_s"]),
                         "unit": "cycles/s", "anchor": None, "anchor_source": None, "summary": n == "demo",
                         "note": f"median of {e[sim]['runs']} runs ({sum(e['cycles'].values())} cycles, "
                                 f"{e['sim_time_ns'] / 1000:.1f} us simulated); wall s: "
                                 + " ".join(f"{w:.3g}" for w in e[sim]["wall_s_runs"])})
        figs.append({"name": f"{n}: Verilator / GHDL", "value": round(e["ratio"], 1), "unit": "x",
                     "anchor": None, "anchor_source": None, "summary": n == "demo",
                     "note": "same scenario, runs taken in turn" + ("" if e["identical"] else
                                                                    "; the simulators' reports DIFFER")})
    tx = rows[0]["monitoring_transactions"]
    if tx is not None:
        figs.append({"name": "Y9: AXI-Lite transactions per monitoring action", "value": tx, "unit": "transactions",
                     "anchor": 10, "anchor_source": "goal: <= 10 (co-simulation issue)", "summary": True,
                     "note": "demo app, counted by the co-simulation: initialise the filter, run, stop, read "
                             "every metric"})
        figs.append({"name": "Y9: modeled host time per monitoring action", "value": round(tx * HOST_ACCESS_NS / 1000, 3),
                     "unit": "us", "anchor": PAPER_Y9_MON_US,
                     "anchor_source": "the TECS paper's Table 4: Y9 Mon. (measured on a Zynq)", "summary": True,
                     "note": f"{tx} transactions x {HOST_ACCESS_NS} ns (PAPI-on-FPGA paper: one AXI-Lite read, raw pointer)"})
    ex_rows = []
    for n, e in examples.items():
        t = e["transactions"]
        figs.append({"name": f"{n}: AXI-Lite transactions, generic app flow", "value": t, "unit": "transactions",
                     "anchor": None, "anchor_source": None, "detail": True,
                     "note": f"modeled host time {t * HOST_ACCESS_NS / 1000:.3f} us at {HOST_ACCESS_NS} ns each"})
        ex_rows.append([n, t, round(t * HOST_ACCESS_NS / 1000, 3), e["metrics"],
                        "pass" if e["pass"] else "some metrics count without traffic"])
    text = ["Co-simulation (sim/cosim): the real C driver against the RTL. Speed: simulated clock cycles "
            "(every clock domain) per second of wall time of the application's run (builds and simulator "
            "start-up excluded), median of runs taken in turn in both simulators.",
            f"Host time is modeled as transactions x {HOST_ACCESS_NS} ns, the time of one AXI-Lite access "
            "from a Zynq's Cortex-A9 measured in the PAPI-on-FPGA paper; the TECS paper's Table 4 monitoring "
            "latencies, measured on the board: Y1 4.617, Y2 5.128, Y3 4.692, Y4 5.207, Y5 5.365, Y6 5.278, "
            "Y7 5.593, Y8 5.685, Y9 5.945 us (Y9 is the demo's monitor)."]
    frag = {"section": "Co-simulation: speed and bus transactions", "order": 50, "text": text, "figures": figs,
            "tables": [{"title": "Every configs/ example: AXI-Lite transactions of the generic app's whole flow "
                                 "(open + self-test: ID, VERSION, CONFIG_HASH, SCRATCH; NO_FILTERING; run; stop; "
                                 "read every metric, STATUS, trace FILL), smoke scenario, Verilator",
                        "columns": ["config", "transactions", f"modeled host time (us, {HOST_ACCESS_NS} ns each)",
                                    "values read", "smoke checks (every metric at reset value)"],
                        "rows": ex_rows}]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(frag, indent=1) + "\n")
    print(f"written: {path}")
