# SPDX-License-Identifier: MIT
"""Co-simulation (run.py): running a built scenario in Verilator (the C++
harness) and in GHDL (cocotb), and one scenario end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


from cosim_build import Model, Scenario, generate, ghdl_lib, load_scenario
from cosim_common import BUILD, BUS_TIMING, HARNESS, LIBRARY, BuildError, log
from cosim_report import compare, compare_files, table  # noqa: F401
import handshake_compare


# ---- running -------------------------------------------------------------------------------

def run_dir(sc: Scenario, sim: str) -> Path:
    d = BUILD / "run" / sc.name / sim
    d.mkdir(parents=True, exist_ok=True)
    return d


def handshake_log(d: Path, on: bool) -> Path | None:
    """The handshake log of a run in d (harness/*/handshake_log), or None."""
    log_path = d / "handshakes.log"
    log_path.unlink(missing_ok=True)
    return log_path if on else None


def run_verilator(sc: Scenario, model: Model, waves: bool, handshakes: bool = False,
                  timing: Path = BUS_TIMING) -> dict:
    exe = model.vl_exe(sc, waves)
    top = model.top_info()
    d = run_dir(sc, "verilator")
    report = d / "report.json"
    report.unlink(missing_ok=True)
    cmd = [exe, "--scenario", sc.path, "--top", top, "--timing", timing, "--report", report]
    hs = handshake_log(d, handshakes)
    if hs:
        cmd += ["--handshakes", hs]
    fst = d / f"{sc.name}.fst"
    if waves:
        cmd += ["--fst", fst]
    log(f"verilator: running {sc.name}")
    return _run_for_report("verilator", sc, [str(c) for c in cmd], d, None, report,
                           fst if waves else None, hs, tail=3000)


def run_ghdl(sc: Scenario, model: Model, waves: bool, handshakes: bool = False,
             timing: Path = BUS_TIMING) -> dict:
    import find_libpython
    import cocotb_tools.config as ccfg

    model.analyse()
    so = ghdl_lib(sc, model.gdir, model.man)
    top = model.top_info()
    d = run_dir(sc, "ghdl")
    report = d / "report.json"
    report.unlink(missing_ok=True)
    env = dict(os.environ)
    env.pop("PYTEST_CURRENT_TEST", None)
    env["PATH"] = env.get("PATH", "") + os.pathsep + str(ccfg.libs_dir)
    env["PYTHONPATH"] = os.pathsep.join([str(HARNESS / "ghdl"), *sys.path])
    env["PYGPI_PYTHON_BIN"] = sys.executable
    env["GPI_USERS"] = ";".join([find_libpython.find_libpython(), ccfg.pygpi_entry_point()])
    env.update({"COCOTB_TOPLEVEL": model.top, "COCOTB_TEST_MODULES": "cosim",
                "TOPLEVEL_LANG": "vhdl", "COCOTB_TRUST_INERTIAL_WRITES": "1",
                "COCOTB_RESULTS_FILE": str(d / "results.xml"),
                "COSIM_SCENARIO": str(sc.path), "COSIM_TOP": str(top),
                "COSIM_APP_LIB": str(so), "COSIM_REPORT": str(report), "COSIM_TIMING": str(timing)})
    hs = handshake_log(d, handshakes)
    if hs:
        env["COSIM_HANDSHAKES"] = str(hs)
    fst = d / f"{sc.name}.fst"
    cmd = ["ghdl", "-r", "--std=08", f"--work={LIBRARY}", f"--workdir={model.work}",
           "--time-resolution=ps", model.top, f"--vpi={ccfg.lib_entry('vpi', 'ghdl')}",
           "--ieee-asserts=disable"] + ([f"--fst={fst}"] if waves else [])
    log(f"ghdl: running {sc.name} (cocotb)")
    return _run_for_report("ghdl", sc, cmd, d, env, report, fst if waves else None, hs, tail=4000)


def _run_for_report(sim: str, sc: Scenario, cmd: list, d: Path, env, report: Path, fst, hs,
                    tail: int) -> dict:
    """Run one simulation in d, keep its output in run.log, and return the
    report the harness wrote, with the log, the app output, the waves and
    the handshake log named in it; no report is a BuildError with the
    output's tail."""
    for old in d.glob("*.jtr"):          # the application writes its trace files here
        old.unlink()
    r = subprocess.run(cmd, cwd=d, env=env, capture_output=True, text=True)
    (d / "run.log").write_text(r.stdout + r.stderr)
    if not report.exists():
        raise BuildError(f"{sim} run of {sc.name} wrote no report (exit {r.returncode}):\n"
                         + (r.stdout + r.stderr)[-tail:])
    rep = json.loads(report.read_text())
    rep["log"] = str(d / "run.log")
    rep["trace_files"] = [str(p) for p in sorted(d.glob("*.jtr"))]
    rep["app_output"] = r.stdout + r.stderr
    if fst:
        rep["waves"] = str(fst)
    if hs:
        rep["handshakes"] = str(hs)
    return rep


def run_scenario(path: Path, sims=("verilator", "ghdl"), waves: bool = False,
                 config: Path | None = None, show: bool = True,
                 repair: bool = True, handshakes: bool = False,
                 timing: dict | None = None) -> tuple[bool, dict, list[str]]:
    """Build and run one scenario; returns (passed, reports by simulator, differences).
    repair=False: GHDL's Verilog without the repairs (a test that they matter).
    handshakes: each simulator also logs the handshakes of its bus models
    (report key "handshakes": the log's path). timing: simulator -> another
    contract file than harness/bus_timing.yaml (a test that a difference is seen)."""
    sc = load_scenario(Path(path), config)
    gdir, man = generate(sc.config)
    model = Model(sc, gdir, man, repair)
    reports = {}
    for s in sims:
        run = run_verilator if s == "verilator" else run_ghdl
        reports[s] = run(sc, model, waves, handshakes, (timing or {}).get(s, BUS_TIMING))
    diffs = compare(reports) + compare_files(reports) + handshake_compare.compare(reports) \
        if len(reports) > 1 else []
    ok = all(r.get("pass") for r in reports.values()) and not diffs
    if show:
        for s, r in reports.items():
            if not r.get("pass") and r.get("app_output"):
                print(f"--- {s} output (last lines) ---")
                print("\n".join(r["app_output"].splitlines()[-25:]))
        print(table(sc, reports, diffs))
        print(f"result: {'PASS' if ok else 'FAIL'}" + (" (both simulators identical)" if ok and len(sims) > 1 else ""))
    return ok, reports, diffs
