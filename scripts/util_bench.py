#!/usr/bin/env python3
"""Resources of the bus utilization example (configs/bus_utilization.yaml):
yosys LUT/FF (synth_xilinx xc7, as hdl_check.py resources) of its two
sniffers (an axi_util sniffer on 4 AXI4 channels with 10 DCAPFs, a
contention sniffer of 3 masters with 11 DCAPFs) and of the generated top.
Writes a `make bench` fragment:

    python3 scripts/util_bench.py --out build/bench/fragments/util-bench.json
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CONFIG = REPO / "configs" / "bus_utilization.yaml"
TOPS = [("bus_utilization_dma_sniffer", "sniffer dma (axi_util, 4 channels, 10 DCAPFs of 32/48 bits)"),
        ("bus_utilization_arbiter_sniffer", "sniffer arbiter (contention, 3 masters, 11 DCAPFs of 32/48 bits)"),
        ("bus_utilization_monitor", "the whole generated top (DCI, global block, CDC, LMIC, both sniffers)")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="fragment JSON to write")
    ap.add_argument("--build", default=str(REPO / "build" / "util_bench"))
    args = ap.parse_args()
    build = Path(args.build)
    subprocess.run([sys.executable, "-m", "jointer_gen", str(CONFIG), "-o", str(build), "-q"],
                   check=True, env={**os.environ, "PYTHONPATH": str(REPO / "gen")})
    gen = build / "bus_utilization"
    manifest = json.loads((gen / "manifest.json").read_text())
    table = build / "resources.json"
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
    out.write_text(json.dumps({"section": "Bus utilization and contention (configs/bus_utilization.yaml)",
                               "figures": figures}, indent=2) + "\n")
    print(f"util-bench: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
