#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Resources of the parts of one example monitor, for `make bench`: yosys
LUT/FF (synth_xilinx xc7, as hdl_check.py resources) of chosen entities of
its generated design (sniffers, LMIC) and of its top. One script for every
example (the table EXAMPLES); writes a bench fragment:

    python3 scripts/example_bench.py util --out build/bench/fragments/util-bench.json
    python3 scripts/example_bench.py pm|latency --out ...
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# name: (description, bench section, [(entity, note)])
EXAMPLES = {
    "util": ("bus_utilization", "Bus utilization and contention (configs/bus_utilization.yaml)", [
        ("bus_utilization_dma_sniffer", "sniffer dma (axi_util, 4 channels, 10 DCAPFs of 32/48 bits)"),
        ("bus_utilization_arbiter_sniffer", "sniffer arbiter (contention, 3 masters, 11 DCAPFs of 32/48 bits)"),
        ("bus_utilization_monitor", "the whole generated top (DCI, global block, CDC, LMIC, both sniffers)")]),
    "pm": ("program_monitor", "Program monitor (configs/program_monitor.yaml)", [
        ("program_monitor_mb_pc_sniffer", "sniffer mb_pc (pc, microblaze, 32 addresses of 32 bits, "
         "1024-record trace, 32-bit match counter)"),
        ("program_monitor_monitor", "the whole generated top (DCI, global block, CDC, LMIC, the sniffer)")]),
    "latency": ("axi_latency", "Transaction latency and histograms (configs/axi_latency.yaml)", [
        ("axi_latency_rd_lat_sniffer", "sniffer rd_lat (axi4_latency read, 8 outstanding, 2-bit IDs; "
         "count, sum, min, max, mean 2x40 bits, histogram 12x32 bits)"),
        ("axi_latency_wr_lat_sniffer", "sniffer wr_lat (axi4_latency write to B; max, histogram 7x24 bits "
         "with a filter)"),
        ("axi_latency_mem_lmic", "its LMIC: both sniffers + registers and the snapshot words"),
        ("axi_latency_monitor", "the whole generated top (DCI, global block, LMIC, both sniffers)")]),
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("example", choices=sorted(EXAMPLES))
    ap.add_argument("--out", required=True, help="fragment JSON to write")
    ap.add_argument("--build", help="work folder (default build/<example>_bench)")
    args = ap.parse_args(argv)
    name, section, tops = EXAMPLES[args.example]
    build = Path(args.build or REPO / "build" / f"{args.example}_bench")
    subprocess.run([sys.executable, "-m", "jointer_gen", str(REPO / "configs" / f"{name}.yaml"), "-o", str(build),
                    "-q"], check=True, env={**os.environ, "PYTHONPATH": str(REPO / "gen")})
    gen = build / name
    manifest = json.loads((gen / "manifest.json").read_text())
    table = build / "resources.json"
    (build / "synth").mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, str(REPO / "scripts" / "hdl_check.py"), "resources", "--workdir",
           str(build / "synth"), "--json", str(table), "--files",
           *[str(gen / p) for p in manifest["compile_order"]]]
    for top, _ in tops:
        cmd += ["--top", top]
    subprocess.run(cmd, check=True)
    res = json.loads(table.read_text())
    figures = []
    for top, note in tops:
        for kind in ("lut", "ff"):
            figures.append({"name": f"{top} {kind.upper()}", "value": res[top][kind], "unit": kind.upper(),
                            "anchor": None, "anchor_source": None,
                            "note": note + "; yosys synth_xilinx -family xc7 -flatten -noiopad"})
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"section": section, "figures": figures}, indent=2) + "\n")
    print(f"{args.example}-bench: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
