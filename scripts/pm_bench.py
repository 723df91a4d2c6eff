#!/usr/bin/env python3
"""Resources of the program monitor example (configs/program_monitor.yaml):
yosys LUT/FF (synth_xilinx xc7, as hdl_check.py resources) of its sniffer (a
MicroBlaze program monitor with 32 addresses of 32 bits, a 1024-record trace
and a match counter) and of the generated top. Writes a `make bench` fragment:

    python3 scripts/pm_bench.py --out build/bench/fragments/pm-bench.json
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CONFIG = REPO / "configs" / "program_monitor.yaml"
NAME = "program_monitor"
TOPS = [(f"{NAME}_mb_pc_sniffer", "sniffer mb_pc (pc, microblaze, 32 addresses of 32 bits, "
         "1024-record trace, 32-bit match counter)"),
        (f"{NAME}_monitor", "the whole generated top (DCI, global block, CDC, LMIC, the sniffer)")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="fragment JSON to write")
    ap.add_argument("--build", default=str(REPO / "build" / "pm_bench"))
    args = ap.parse_args()
    build = Path(args.build)
    subprocess.run([sys.executable, "-m", "jointer_gen", str(CONFIG), "-o", str(build), "-q"],
                   check=True, env={**os.environ, "PYTHONPATH": str(REPO / "gen")})
    gen = build / NAME
    manifest = json.loads((gen / "manifest.json").read_text())
    table = build / "resources.json"
    (build / "synth").mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, str(REPO / "scripts" / "hdl_check.py"), "resources", "--workdir",
           str(build / "synth"), "--json", str(table), "--files",
           *[str(gen / p) for p in manifest["compile_order"]]]
    for top, _ in TOPS:
        cmd += ["--top", top]
    subprocess.run(cmd, check=True)
    res = json.loads(table.read_text())
    figures = []
    for top, note in TOPS:
        for kind in ("lut", "ff"):
            figures.append({"name": f"{top} {kind.upper()}", "value": res[top][kind], "unit": kind.upper(),
                            "anchor": None, "anchor_source": None,
                            "note": note + "; yosys synth_xilinx -family xc7 -flatten -noiopad"})
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"section": "Program monitor (configs/program_monitor.yaml)",
                               "figures": figures}, indent=2) + "\n")
    print(f"pm-bench: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
