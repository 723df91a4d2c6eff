#!/usr/bin/env python3
"""Resources of the transaction latency example (configs/axi_latency.yaml,
issue 7 part 2): yosys LUT/FF (synth_xilinx xc7, as hdl_check.py resources)
of its two sniffers (read latency with count, sum, min, max, mean and a
12-bucket histogram; write latency to B with max and a 7-bucket histogram),
its LMIC (with the histogram/mean snapshot words) and the generated top.
Writes a `make bench` fragment:

    python3 scripts/latency_bench.py --out build/bench/fragments/latency-bench.json
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CONFIG = REPO / "configs" / "axi_latency.yaml"
TOPS = [("axi_latency_rd_lat_sniffer", "sniffer rd_lat (axi4_latency read, 8 outstanding, 2-bit IDs; "
         "count, sum, min, max, mean 2x40 bits, histogram 12x32 bits)"),
        ("axi_latency_wr_lat_sniffer", "sniffer wr_lat (axi4_latency write to B; max, histogram 7x24 bits "
         "with a filter)"),
        ("axi_latency_mem_lmic", "its LMIC: both sniffers + registers and the snapshot words"),
        ("axi_latency_monitor", "the whole generated top (DCI, global block, LMIC, both sniffers)")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="fragment JSON to write")
    ap.add_argument("--build", default=str(REPO / "build" / "latency_bench"))
    args = ap.parse_args()
    build = Path(args.build)
    subprocess.run([sys.executable, "-m", "jointer_gen", str(CONFIG), "-o", str(build), "-q"],
                   check=True, env={**os.environ, "PYTHONPATH": str(REPO / "gen")})
    gen = build / "axi_latency"
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
    out.write_text(json.dumps({"section": "Transaction latency and histograms (configs/axi_latency.yaml)",
                               "figures": figures}, indent=2) + "\n")
    print(f"latency-bench: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
