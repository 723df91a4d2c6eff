#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The price of several lanes in one trace, for `make bench` (lanes-bench).

    bench_lanes.py --fragment F [--out build/bench/lanes] [--jobs 2]

One monitor (a 16-strobe events sniffer with an 8-bit value, on its own
clock, a sink trace into a ring in memory: the accelerator timeline of
sim/cosim/scenarios/configs/tiles_timeline.yaml, widened) generated with the
sink recording one lane as before (`event: 0`, no tag), then 1, 2, 4, 8 and
16 lanes (`lanes:`), and 4 lanes with the host's sync (`sync: true`); each
top synthesised with the project's flow (ghdl synth, yosys synth_xilinx
-family xc7 -flatten -noiopad, as bench_resources.py). Figures: LUT and FF of
each top, the delta against the one-lane sink, and the cost per extra lane
(the 16-lane top against the 1-lane one, over 15). The lanes themselves are
wires (the tag is the strobes, the value shifts up): what a lane adds is an
input of the OR that makes the record strobe and of the in-range AND.
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

BASE = {
    "jointer": 1,
    "monitor": {"name": "lanes_bench", "bus": {"addr_width": 12, "base_address": 0x43C00000},
                "clocks": [{"name": "ps", "period_ns": 10}, {"name": "acc", "period_ns": 5}]},
    "lmics": [{"name": "acc", "clock": "acc", "sniffers": [
        {"name": "kernel", "interfacer": {"type": "events", "width": 16, "data_width": 8},
         "dcapfs": [{"name": "timeline", "extractor": "trace", "mode": "sink", "filter": "none",
                     "sink": {"data_width": 64, "max_burst": 16, "fifo_depth": 32, "ring_bytes": 0x4000}}]}]}],
}
VARIANTS = [("1 lane, no tag (event: 0)", 0, False), ("1 lane", 1, False), ("2 lanes", 2, False),
            ("4 lanes", 4, False), ("4 lanes and sync", 4, True), ("8 lanes", 8, False), ("16 lanes", 16, False)]


def config(lanes: int, sync: bool) -> dict:
    cfg = yaml.safe_load(yaml.safe_dump(BASE))
    dc = cfg["lmics"][0]["sniffers"][0]["dcapfs"][0]
    if lanes:
        dc["lanes"] = list(range(lanes))
        dc["sync"] = sync
    else:
        dc["event"] = 0
    return cfg


def jobs(out: Path) -> list:
    """(name, synthesis job) per variant."""
    todo = []
    for name, lanes, sync in VARIANTS:
        d = out / f"lanes{lanes}{'_sync' if sync else ''}"
        d.mkdir(parents=True, exist_ok=True)
        path = d / "lanes_bench.yaml"
        path.write_text(yaml.safe_dump(config(lanes, sync), sort_keys=False))
        files, top, _ = br.generate(path, d / "gen")
        todo.append((name, lambda f=files, t=top, w=d / "synth": br.synth(f, t, w)))
    return todo


def finish(fragment: str, results: dict) -> int:
    rows, figs, errs = [], [], []
    s = {n: br.summarise(r) for n, r in results.items() if "error" not in r}
    errs = [f"{n}: {r['error']}" for n, r in results.items() if "error" in r]
    base = s.get(VARIANTS[0][0])
    for name, lanes, sync in VARIANTS:
        if name not in s:
            continue
        v = s[name]
        dl, df = (v["lut"] - base["lut"], v["ff"] - base["ff"]) if base else (None, None)
        rows.append([name, v["lut"], v["ff"], dl, df])
        figs.append(figure(f"sink trace top, {name} LUT", v["lut"], "LUT", detail=True))
        figs.append(figure(f"sink trace top, {name} FF", v["ff"], "FF", detail=True))
    if "1 lane" in s and "16 lanes" in s:
        per_lut = (s["16 lanes"]["lut"] - s["1 lane"]["lut"]) / 15
        per_ff = (s["16 lanes"]["ff"] - s["1 lane"]["ff"]) / 15
        figs.insert(0, figure("LUT per extra lane of a trace", round(per_lut, 2), "LUT", summary=True,
                              note="(16 lanes - 1 lane) / 15, whole top"))
        figs.insert(1, figure("FF per extra lane of a trace", round(per_ff, 2), "FF", summary=True,
                              note="(16 lanes - 1 lane) / 15, whole top"))
    if "4 lanes" in s and "4 lanes and sync" in s:
        figs.insert(2, figure("LUT of the host sync (4 lanes)", s["4 lanes and sync"]["lut"] - s["4 lanes"]["lut"],
                              "LUT", summary=True, note="the sync tag bit and CONTROL.SYNC"))
    write_fragment(fragment, "Several lanes in one trace (lanes-bench)", figs, order=65, tables=[{
        "title": "a sink trace of a 16-strobe events sniffer (8-bit value), whole generated top, yosys xc7",
        "columns": ["trace records", "LUT", "FF", "LUT vs 1 lane, no tag", "FF vs 1 lane, no tag"],
        "rows": rows}], text=[__doc__.split("\n\n")[2].strip()])
    for e in errs:
        print(f"lanes-bench: error: {e}")
    return 1 if errs else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fragment", required=True)
    ap.add_argument("--out", default=str(REPO / "build" / "bench" / "lanes"))
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    results = br.run_jobs(jobs(Path(args.out)), args.jobs, "lanes")
    return finish(args.fragment, results)


if __name__ == "__main__":
    sys.exit(main())
