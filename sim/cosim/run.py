#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build and run a co-simulation scenario in Verilator and/or GHDL, compare.

    python3 sim/cosim/run.py SCENARIO.yaml [--sim verilator|ghdl|both] [--waves]
                             [--config CONFIG.yaml] [--quiet] [--handshakes]

What it does (sim/cosim/README.md):
  1. jointer-gen CONFIG -> build/cosim/gen/<name>-<key>/ (VHDL, C, manifest.json)
  2. GHDL analysis of the library + generated VHDL (+ the demo top and the
     accelerator for `top: demo`), in manifest order
  3. Verilator: ghdl synth --out=verilog -> latch check (yosys) -> verilator
     -> harness + application -> run
  4. GHDL: the application as a shared library -> cocotb (harness/ghdl/cosim.py) -> run
  5. a table (metric, expected, verilator, ghdl); exit 1 unless every check
     passes and both reports are identical (--handshakes: and both logs of the
     bus models' AXI handshakes, cycle by cycle)

Everything built is cached under build/cosim/ by the content of its inputs:
one Verilator model per top (+ config), shared by every scenario that uses
it; one application per config and app. Builds are locked (pytest -n).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE / "flow"), str(HERE / "benches")]
import cosim_common  # noqa: E402
from cosim_common import BuildError, ghdl_verilog  # noqa: E402,F401
from cosim_build import Model, Scenario, generate, load_scenario  # noqa: E402,F401
from cosim_report import compare, table  # noqa: E402,F401
from cosim_runners import run_ghdl, run_scenario, run_verilator  # noqa: E402,F401
from cosim_bench import bench  # noqa: E402

# modules: cosim_common (paths, build system), cosim_build (scenario, generation,
# model, app), cosim_runners (Verilator, GHDL, one scenario), cosim_report
# (comparison, table), cosim_bench (--bench)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario", type=Path, nargs="*")
    ap.add_argument("--bench", action="store_true", help="cycles/s in both simulators (demo) and "
                    "the transactions of one Y9 monitoring action")
    ap.add_argument("--json", type=Path, help="--bench: write the figures here")
    ap.add_argument("--fragment", type=Path, help="--bench: write them as a make bench report fragment")
    ap.add_argument("--sim", choices=["verilator", "ghdl", "both"], default="both")
    ap.add_argument("--waves", action="store_true", help="write an FST waveform per simulator")
    ap.add_argument("--config", type=Path, help="use this monitor instead of the scenario's")
    ap.add_argument("--quiet", action="store_true", help="no build progress")
    ap.add_argument("--handshakes", action="store_true", help="log every AXI handshake of the bus models in "
                    "each simulator and compare the logs cycle by cycle")
    ap.add_argument("--html", type=Path, help="also write the (last) scenario's result as an HTML page")
    args = ap.parse_args()
    cosim_common.QUIET = args.quiet
    if args.bench:
        try:
            return bench(args.json, fragment=args.fragment)
        except BuildError as e:
            print(f"cosim: bench: {e}", file=sys.stderr)
            return 1
    if not args.scenario:
        ap.error("a scenario is required (or --bench)")
    sims = ("verilator", "ghdl") if args.sim == "both" else (args.sim,)
    ok = True
    for s in args.scenario:
        try:
            passed, reports, _ = run_scenario(s, sims, args.waves, args.config, handshakes=args.handshakes)
            ok &= passed
            if args.html:
                import cosim_html
                print(f"report: {cosim_html.write(args.html, load_scenario(Path(s), args.config), reports, passed)}")
        except BuildError as e:
            print(f"cosim: {s}: {e}", file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
