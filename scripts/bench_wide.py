#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The price of an address as wide as its tap, for `make bench` (wide-bench).

    bench_wide.py --fragment F [--out build/bench/wide] [--jobs 2]

One monitor (the DMA half of sim/cosim/scenarios/configs/stream_dma.yaml: an
axi4 write tap with a windowed byte count, the last address written and a
latency histogram, on its own clock) generated with the tap's addr_width 32,
36, 40 (a Zynq UltraScale+ DMA reaching the DDR above 4 GB), 48 and 64; each
top synthesised with the project's flow (ghdl synth, yosys synth_xilinx
-family xc7 -flatten -noiopad, as bench_resources.py). Figures: LUT and FF of
each top and the delta against the 32-bit tap. A tap of up to 32 bits is the
monitor as it always was (32-bit event data, one INIT word per bound); a
wider one carries 64-bit event data (two INIT words per bound), and pays for
the address bits the YAML asked for in the tap's capture, the filter and the
last-address DCAPF (the unused upper bits of a 64-bit path are constants that
synthesis removes).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "gen"))
import bench_resources as br  # noqa: E402
from bench_report import figure, write_fragment  # noqa: E402

WIDTHS = (32, 36, 40, 48, 64)


def config(addr_width: int) -> dict:
    return {
        "jointer": 1,
        "monitor": {"name": "wide_bench", "bus": {"addr_width": 12, "base_address": 0x43C00000},
                    "clocks": [{"name": "ps", "period_ns": 10}, {"name": "pl", "period_ns": 5}]},
        "lmics": [{"name": "pl", "clock": "pl", "sniffers": [
            {"name": "dma", "interfacer": {"type": "axi4", "direction": "write", "addr_width": addr_width,
                                           "data_width": 64, "id_width": 2, "latency_end": "response"},
             "dcapfs": [
                 {"name": "window_bytes", "extractor": "event", "width": 40,
                  "filter": {"low": 0x10000000, "high": 0x1000FFFF}},
                 {"name": "last_addr", "extractor": "event", "sample": "data", "aggregator": "last",
                  "width": addr_width, "filter": "none"},
                 {"name": "write_latency", "extractor": "event", "event": "latency", "sample": "data",
                  "aggregator": "histogram", "buckets": 8, "width": 24, "filter": "none"}]}]}],
    }


def jobs(out: Path) -> list:
    """(name, synthesis job) per address width."""
    todo = []
    for w in WIDTHS:
        d = out / f"addr{w}"
        d.mkdir(parents=True, exist_ok=True)
        path = d / "wide_bench.yaml"
        path.write_text(yaml.safe_dump(config(w), sort_keys=False))
        files, top, _ = br.generate(path, d / "gen")
        todo.append((f"{w}-bit tap", lambda f=files, t=top, wd=d / "synth": br.synth(f, t, wd)))
    return todo


def finish(fragment: str, results: dict) -> int:
    s = {n: br.summarise(r) for n, r in results.items() if "error" not in r}
    errs = [f"{n}: {r['error']}" for n, r in results.items() if "error" in r]
    base = s.get("32-bit tap")
    rows, figs = [], []
    for w in WIDTHS:
        name = f"{w}-bit tap"
        if name not in s:
            continue
        v = s[name]
        dl, df = (v["lut"] - base["lut"], v["ff"] - base["ff"]) if base else (None, None)
        rows.append([name, v["lut"], v["ff"], dl, df])
        figs.append(figure(f"axi4 DMA top, {name} LUT", v["lut"], "LUT", detail=w != 40, summary=w == 40))
        figs.append(figure(f"axi4 DMA top, {name} FF", v["ff"], "FF", detail=w != 40, summary=w == 40))
    if base and "40-bit tap" in s:
        figs.insert(0, figure("LUT of a 40-bit address vs 32", s["40-bit tap"]["lut"] - base["lut"], "LUT",
                              summary=True, note="whole top: window, last address, latency histogram"))
        figs.insert(1, figure("FF of a 40-bit address vs 32", s["40-bit tap"]["ff"] - base["ff"], "FF",
                              summary=True, note="whole top"))
    write_fragment(fragment, "Addresses as wide as the tap (wide-bench)", figs, order=66, tables=[{
        "title": "an axi4 write tap (window bytes, last address, latency histogram), whole generated top, "
                 "yosys xc7",
        "columns": ["tap", "LUT", "FF", "LUT vs 32-bit", "FF vs 32-bit"], "rows": rows}],
        text=[__doc__.split("\n\n")[2].strip()])
    for e in errs:
        print(f"wide-bench: error: {e}")
    return 1 if errs else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fragment", required=True)
    ap.add_argument("--out", default=str(REPO / "build" / "bench" / "wide"))
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    results = br.run_jobs(jobs(Path(args.out)), args.jobs, "wide")
    return finish(args.fragment, results)


if __name__ == "__main__":
    sys.exit(main())
