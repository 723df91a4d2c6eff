# SPDX-License-Identifier: MIT
"""make gen-bench: generator wall time and the resources of the generated Y9 top.

  python -m jointer_gen.tools.bench [--out build/bench] [--runs 5]

1. Wall time of `python -m jointer_gen configs/stress_15x4.yaml` (every
   output, process start included): one warm-up run, then --runs timed runs;
   prints each and the median against the 0.5 s goal.
2. The Selective Accumulations (Y9) monitor: generated, then yosys
   synth_xilinx -family xc7 -flatten -noiopad through scripts/hdl_check.py
   resources; prints LUT/FF and the number of host-visible 32-bit registers.
With --fragment F: the figures as a fragment of the make bench report
(scripts/bench_report.py).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
GOAL_S = 0.5


def time_generator(config: Path, out: Path, runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) seconds of each run of the generator process."""
    import resource
    env = dict(os.environ, PYTHONPATH=str(REPO / "gen"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmd = [sys.executable, "-m", "jointer_gen", str(config), "-o", str(out), "-q"]
    subprocess.run(cmd, env=env, check=True)            # warm-up: bytecode and template caches
    wall, cpu = [], []
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, env=env, check=True)
        wall.append(time.perf_counter() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return wall, cpu


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(REPO / "build" / "bench"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--fragment", help="write the figures here (a make bench report fragment)")
    args = ap.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    figures = generator_figures(out, args.runs)
    rc, y9 = y9_figures(out)
    if args.fragment:
        frag = Path(args.fragment)
        frag.parent.mkdir(parents=True, exist_ok=True)
        frag.write_text(json.dumps({"section": "Generator", "order": 30, "figures": figures + y9}, indent=1) + "\n")
    return rc


def generator_figures(out: Path, runs: int) -> list[dict]:
    """Time the generator on stress_15x4, print the times, return them as report figures."""
    wall, cpu = time_generator(REPO / "configs" / "stress_15x4.yaml", out / "gen", runs)
    files = len(json.loads((out / "gen" / "stress_15x4" / "manifest.json").read_text())["files"])
    med = statistics.median(wall)
    print("== generator (stress_15x4: 4 LMICs x 15 sniffers, all outputs, process start included) ==")
    print(f"gen-bench: {files} files; wall " + " ".join(f"{t:.3f}" for t in wall)
          + f" s; median {med:.3f} s (goal <= {GOAL_S} s: {'met' if med <= GOAL_S else 'NOT met'})")
    print(f"gen-bench: CPU (user+sys) median {statistics.median(cpu):.3f} s; load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} CPUs")
    load = os.getloadavg()[0]
    return [
        {"name": "generator wall time, stress_15x4 (median)", "value": round(med, 3), "unit": "s",
         "anchor": GOAL_S, "anchor_source": "goal: <= 0.5 s (generator issue)", "summary": True,
         "note": f"median of {runs} runs after a warm-up, process start included, {files} files; "
                 "runs: " + " ".join(f"{t:.3f}" for t in wall) + f"; load average {load:.2f}"},
        {"name": "generator CPU time, stress_15x4 (median)", "value": round(statistics.median(cpu), 3),
         "unit": "s", "anchor": None, "anchor_source": None, "note": "user + system"},
        {"name": "files generated, stress_15x4", "value": files, "unit": "files", "anchor": None,
         "anchor_source": None, "note": ""}]


def y9_figures(out: Path) -> tuple[int, list[dict]]:
    """Generate the Y9 monitor, synthesise its top with yosys, print and return
    (the synthesis' return code, its figures)."""
    sys.path.insert(0, str(REPO / "gen"))
    from jointer_gen.cli import generate
    from jointer_gen.output import write_tree
    design, rendered = generate(str(REPO / "configs" / "selective_accumulations.yaml"))
    dest = out / "gen" / design.name
    write_tree(rendered, dest)
    manifest = json.loads(rendered["manifest.json"])
    vhdl = [str(dest / p) for p in manifest["compile_order"]]
    regs = sum(1 for r in design.register_map if "end" not in r)
    stat = out / "gen_y9_resources.json"
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "hdl_check.py"), "resources",
                        "--files", *vhdl, "--top", manifest["top"], "--workdir", str((out / "gen-synth").resolve()),
                        "--json", str(stat)], capture_output=True, text=True)
    print("== generated Y9 top (yosys synth_xilinx -family xc7 -flatten -noiopad) ==")
    print(r.stdout.strip() or r.stderr.strip())
    if r.returncode != 0 or not stat.exists():
        return r.returncode, []
    res = json.loads(stat.read_text())[manifest["top"]]
    top, span = manifest["top"], design.layout.span
    print(f"gen-bench: {top}: {res['lut']} LUT, {res['ff']} FF; {regs} host-visible 32-bit registers ({span} bytes)")
    return r.returncode, [
        {"name": "Y9 top LUT", "value": res["lut"], "unit": "LUT", "anchor": None, "anchor_source": None,
         "note": f"{top}, yosys synth_xilinx -family xc7 -flatten -noiopad"},
        {"name": "Y9 top FF", "value": res["ff"], "unit": "FF", "anchor": None, "anchor_source": None,
         "note": top},
        {"name": "Y9 host-visible registers", "value": regs, "unit": "32-bit registers",
         "anchor": None, "anchor_source": None,
         "note": f"{span} bytes of address space (the TECS paper's DCI, section 4.1, has 16 "
                 "registers for four sniffers)"}]


if __name__ == "__main__":
    sys.exit(main())
