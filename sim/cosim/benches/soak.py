#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make soak: the three soak scenarios (scenarios/soak/) in
Verilator: 3 x 340,000 torn-free 64-bit reads of a sum that crosses 2^32 at
almost every event and of the 64-bit timestamp, at LMIC/bus clock ratios
2.7:1, 1:5.3 and 1.0007:1 (a slow drift through every phase), with a soft
reset every 5,000 reads and a bus reset every 8,500; writes a make bench fragment with the totals.

    python3 sim/cosim/benches/soak.py [--fragment F]

A hang fails the scenario (its run_ns bound); every expectation is exact.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

COSIM = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(COSIM / "flow"))
from cosim_runners import run_scenario  # noqa: E402

SCENARIOS = sorted((COSIM / "scenarios" / "soak").glob("*.yaml"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fragment", type=Path)
    a = ap.parse_args(argv)
    totals = {"reads": 0, "torn": 0, "decreasing": 0, "ts_decreasing": 0, "soft_resets": 0, "bus_resets": 0,
              "failed": 0}
    rows = []
    for sc in SCENARIOS:
        ok, reports, _ = run_scenario(sc, sims=("verilator",), show=True)
        m = reports["verilator"].get("metrics", {})
        for k in ("reads", "torn", "decreasing", "ts_decreasing", "soft_resets", "bus_resets"):
            totals[k] += int(m.get(k, 0))
        totals["failed"] += not ok
        rows.append([sc.stem, m.get("reads"), m.get("torn"), m.get("decreasing"), m.get("ts_decreasing"),
                     m.get("soft_resets"), m.get("bus_resets"), "yes" if m.get("exact") == 1 else "no", "PASS" if ok else "FAIL"])
    print(f"soak: {totals['reads']} reads, {totals['torn']} torn, {totals['decreasing']} decreasing, "
          f"{totals['failed']} failed or hung scenarios")
    if a.fragment:
        a.fragment.parent.mkdir(parents=True, exist_ok=True)
        fig = lambda n, v, u, anchor=None, note="": {"name": n, "value": v, "unit": u, "anchor": anchor,  # noqa: E731
                                                      "anchor_source": "goal" if anchor is not None
                                                      else None, "note": note, "summary": True}
        a.fragment.write_text(json.dumps({
            "section": "Soak: torn-free reads across 2^32", "order": 40,
            "figures": [fig("soak reads", totals["reads"], "reads", 1_000_000, "64-bit results + timestamps"),
                        fig("soak torn reads", totals["torn"], "reads", 0),
                        fig("soak decreasing reads", totals["decreasing"] + totals["ts_decreasing"], "reads", 0),
                        fig("soak hangs or failures", totals["failed"], "scenarios", 0)],
            "tables": [{"title": "Verilator, one row per clock ratio (sim/cosim/scenarios/soak/)",
                        "columns": ["scenario", "reads", "torn", "decreasing", "ts decreasing", "soft resets",
                                    "bus resets", "exact count", "result"], "rows": rows}],
            "text": ["Each read pair is a 64-bit result (a sum that crosses 2^32 at almost every event) and the "
                     "64-bit timestamp; a torn read is a result that is not a multiple of the event value. "
                     "Bus resets here fall between two accesses (the harness's bus master is reset with them); "
                     "a bus reset in the middle of a crossing is the CDC bridge's own test bench "
                     "(sim/collect/test_jointer_collect_cdc.py)."]}, indent=2) + "\n")
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
