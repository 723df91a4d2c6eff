#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every interfacer kind alone and beside every other kind, generated and
checked the way a user's own monitor is: the combination matrix.

A monitor a user writes is another YAML: any kinds, in one LMIC or in
several clock domains. This matrix makes, from a sample sniffer set per kind
(SAMPLES: one or two sniffers with the DCAPFs that kind is used with), one
monitor description per

  single   the kind alone, in an LMIC on the bus clock (no crossing);
  same     two kinds in one LMIC on a clock of its own (one bridge);
  split    two kinds in two LMICs, the first on the bus clock, the second on
           a clock of its own (a mark sniffer always on the bus clock);
and two of every kind together (k_every_kind_1: one LMIC; _2: an LMIC per
kind, on the bus clock and a clock of its own in turn);

and runs each through the flows a user runs on their own monitor:
`jointer-gen`, `ghdl synth` of the whole top (the CDC check's netlist: GHDL
-> Verilog -> yosys), the CDC check (every crossing proven), the Verilator
build of GHDL's Verilog (the co-simulation's model), and, for the single
kinds (one clock: an unbounded pdr proof of a minute or less), the formal
proof of the AXI4-Lite slave (scripts/formal.py).

  combo_check.py all      every single kind, every pair same and split
  combo_check.py slice    what `make test` runs: the two every-kind monitors
                          (every kind twice, every pair side by side), the
                          pairs that once failed (axi4 + axi4_latency) both
                          ways, and one single kind with its formal proof
  combo_check.py list     the configurations, one per line
  options: --jobs N, --only NAME..., --no-formal, --json OUT, --out DIR

Results go to build/combo/<config>/ (its YAML, the generated files, the
netlist and the Verilator model). Exit status 0 only when every stage of
every configuration passes.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import itertools
import json
import subprocess
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "gen"))
sys.path.insert(0, str(REPO / "scripts"))
BUILD = REPO / "build" / "combo"

# The pairs that once crashed GHDL 2.0.0 (a record port with unconstrained
# elements shared by two AXI4 taps): always in the slice.
ONCE_FAILED = [("axi4", "axi4_latency")]

# Per kind, the sniffers a monitor of that kind holds in the matrix (names get
# a per-config prefix). Between them they use every extractor, aggregator and
# filter form the kind is used with, both directions of the bus taps, a
# capture-time filter, conditions, a threshold IRQ, a trace of each mode.
SAMPLES: dict[str, list[dict]] = {
    "axi4": [
        {"interfacer": {"type": "axi4", "direction": "write", "addr_width": 32, "data_width": 64,
                        "id_width": 2},
         "dcapfs": [{"name": "bytes", "extractor": "event", "width": 32,
                     "filter": {"low": 0x1000_0000, "high": 0x1FFF_FFFF}},
                    {"name": "bursts", "extractor": "event", "event": "bursts", "width": 16, "filter": "none"},
                    {"name": "beats", "extractor": "event", "event": "beats", "width": 16, "filter": "none"},
                    {"name": "lat", "extractor": "event", "event": "latency", "sample": "data",
                     "aggregator": "histogram", "buckets": 4, "width": 16, "filter": "none"}]},
        {"interfacer": {"type": "axi4", "direction": "write", "addr_width": 40, "data_width": 128,
                        "id_width": 4, "latency_end": "response"},
         "dcapfs": [{"name": "hi_bytes", "extractor": "event", "width": 48,
                     "filter": {"low": 0x8_1000_0000, "high": 0x8_1FFF_FFFF}},
                    {"name": "lat", "extractor": "event", "event": "latency", "sample": "data",
                     "aggregator": "max", "width": 16, "filter": {"low": 0, "high": 0xFFFF}},
                    {"name": "stalls", "extractor": "event", "event": "stall", "width": 32, "filter": "none"}]},
        {"interfacer": {"type": "axi4", "direction": "read", "addr_width": 32, "data_width": 32,
                        "id_width": 4, "per_beat": True},
         "conditions": [{"range": [0x100, 0xFFFF_FFFF]}],
         "dcapfs": [{"name": "beats", "extractor": "event", "width": 24, "filter": "none",
                     "threshold_irq": True}]},
    ],
    "axi4_latency": [
        {"interfacer": {"type": "axi4_latency", "direction": "read", "id_width": 2},
         "dcapfs": [{"name": "hist", "extractor": "event", "sample": "data", "aggregator": "histogram",
                     "buckets": 6, "width": 16, "filter": "none"},
                    {"name": "mean", "extractor": "event", "sample": "data", "aggregator": "mean",
                     "width": 32, "filter": "none"}]},
        {"interfacer": {"type": "axi4_latency", "direction": "write", "end": "response", "id_width": 1},
         "dcapfs": [{"name": "worst", "extractor": "event", "sample": "data", "aggregator": "max",
                     "width": 16, "filter": {"low": 0, "high": 0xFFFF}}]},
    ],
    "axi4lite": [
        {"interfacer": {"type": "axi4lite", "direction": "write", "addr_width": 20},
         "dcapfs": [{"name": "bytes", "extractor": "event", "width": 32,
                     "filter": {"low": 0x100, "high": 0x1FF}},
                    {"name": "last_addr", "extractor": "event", "sample": "data", "aggregator": "last",
                     "width": 20, "filter": "none"}]},
    ],
    "axi_util": [
        {"interfacer": {"type": "axi_util", "channels": ["aw", "w", "b", "ar", "r"]},
         "dcapfs": [{"name": "r_stalls", "extractor": "event", "event": "r_stall", "width": 32,
                     "filter": "none"},
                    {"name": "longest", "extractor": "time", "event": "cycles", "aggregator": "max",
                     "width": 16, "filter": "none"}]},
    ],
    "axis": [
        {"interfacer": {"type": "axis", "data_width": 64, "keep": True, "count": "packets",
                        "dest_width": 4},
         "emit": {"data": "tdest"},
         "dcapfs": [{"name": "bytes", "extractor": "event", "width": 48, "filter": {"low": 0, "high": 3}},
                    {"name": "log", "extractor": "trace", "mode": "ring", "depth": 16,
                     "filter": "none"},
                    {"name": "beats", "extractor": "event", "event": "beats", "width": 32, "filter": "none"},
                    {"name": "stalls", "extractor": "event", "event": "stall", "width": 32, "filter": "none"},
                    {"name": "longest", "extractor": "time", "event": "cycles", "aggregator": "max",
                     "width": 16, "filter": "none"}]},
        {"interfacer": {"type": "axis", "data_width": 32},
         "conditions": [{"mask": 0xFF, "value": 0x5A}],
         "dcapfs": [{"name": "frames", "extractor": "event", "event": "packets", "width": 32,
                     "filter": {"low": 0x100, "high": 0xFFFF_FFFF}},
                    {"name": "bytes", "extractor": "event", "width": 32, "filter": "none"}]},
    ],
    "axis_util": [
        {"interfacer": {"type": "axis_util"},
         "dcapfs": [{"name": "stalls", "extractor": "event", "event": "stall", "width": 32,
                     "filter": "none"},
                    {"name": "cycles", "extractor": "event", "event": "cycles", "width": 48,
                     "filter": "none"}]},
    ],
    "contention": [
        {"interfacer": {"type": "contention", "masters": 3},
         "dcapfs": [{"name": "contended", "extractor": "event", "event": "contention", "width": 32,
                     "filter": "none"},
                    {"name": "runs", "extractor": "time", "event": "cycles", "aggregator": "max",
                     "width": 16, "filter": {"low": 2, "high": 3}}]},
    ],
    "events": [
        {"interfacer": {"type": "events", "width": 3, "data_width": 16, "edge": True},
         "emit": {"increment": "one"},
         "dcapfs": [{"name": "ev2", "extractor": "event", "event": 2, "width": 12,
                     "on_overflow": "wrap", "threshold_irq": True},
                    {"name": "vmax", "extractor": "event", "event": 1, "sample": "data",
                     "aggregator": "max", "width": 16, "filter": "none"},
                    {"name": "relay", "extractor": "trace", "mode": "relay", "depth": 32,
                     "filter": "none"}]},
    ],
    "mark": [
        {"interfacer": {"type": "mark"},
         "dcapfs": [{"name": "marks", "extractor": "trace", "depth": 16, "filter": "none"}]},
    ],
    "pc": [
        {"interfacer": {"type": "pc", "pc_width": 24, "addresses": 4},
         "emit": {"data": "index"},
         "dcapfs": [{"name": "calls", "extractor": "event", "width": 32, "filter": "none"},
                    {"name": "trace", "extractor": "trace", "depth": 16, "filter": "none"}]},
    ],
    "start_done": [
        {"interfacer": {"type": "start_done"},
         "dcapfs": [{"name": "busy", "extractor": "time", "width": 40},
                    {"name": "longest", "extractor": "time", "aggregator": "max", "width": 24,
                     "filter": "none"},
                    {"name": "sink", "extractor": "trace", "mode": "sink", "filter": "none",
                     "sink": {"data_width": 64, "encoding": "compact", "ring_bytes": 0x10000}}]},
    ],
}

SHORT = {"axi4": "a4", "axi4_latency": "a4l", "axi4lite": "al", "axi_util": "au", "axis": "as",
         "axis_util": "asu", "contention": "ct", "events": "ev", "mark": "mk", "pc": "pc",
         "start_done": "sd"}


def kinds() -> list[str]:
    from jointer_gen.interfacers import KINDS
    return list(KINDS)


def sniffers(kind: str, tag: str) -> list[dict]:
    """The sample sniffers of kind, named <tag><i>_..., their DCAPFs alike."""
    out = []
    for i, s in enumerate(SAMPLES[kind]):
        name = f"{tag}{i}"
        sn = {"name": name, "interfacer": dict(s["interfacer"])}
        for k in ("conditions", "emit"):
            if s.get(k):
                sn[k] = s[k]
        sn["dcapfs"] = [dict(d, name=f"{name}_{d['name']}") for d in s["dcapfs"]]
        out.append(sn)
    return out


def description(name: str, layout: str, ks: tuple) -> dict:
    """The monitor description of one configuration."""
    clocks = [{"name": "axi", "period_ns": 10}, {"name": "fast", "period_ns": 4}]
    groups = [sniffers(k, SHORT[k] + "xyz"[i] if len(ks) < 3 else SHORT[k]) for i, k in enumerate(ks)]
    on_bus = "mark" in ks                   # a mark sniffer sits on the bus clock
    if layout == "single":
        lmics = [{"name": "l0", "clock": "axi", "sniffers": groups[0]}]
    elif layout == "same":
        lmics = [{"name": "l0", "clock": "axi" if on_bus else "fast",
                  "sniffers": [s for g in groups for s in g]}]
    else:                                   # one LMIC per kind, the bus clock and "fast" in turn
        order = sorted(range(len(ks)), key=lambda i: ks[i] != "mark")
        lmics = [{"name": f"l{j}", "clock": "axi" if j % 2 == 0 else "fast", "sniffers": groups[i]}
                 for j, i in enumerate(order)]
    used = {lm["clock"] for lm in lmics}
    return {"jointer": 1,
            "monitor": {"name": name, "bus": {"base_address": 0x43C00000},
                        "clocks": [c for c in clocks if c["name"] == "axi" or c["name"] in used]},
            "lmics": lmics}


def matrix(ks: list[str]) -> list[dict]:
    """Every configuration: the singles, then every pair same and split."""
    out = [{"name": f"k_{k}", "layout": "single", "kinds": (k,)} for k in ks]
    for ka, kb in itertools.combinations(ks, 2):
        for layout, sfx in (("same", "1"), ("split", "2")):
            out.append({"name": f"k_{SHORT[ka]}_{SHORT[kb]}_{sfx}", "layout": layout, "kinds": (ka, kb)})
    for layout, sfx in (("same", "1"), ("split", "2")):
        out.append({"name": f"k_every_kind_{sfx}", "layout": layout, "kinds": tuple(ks)})
    return out


def slice_of(ks: list[str]) -> list[dict]:
    """make test's slice: every kind in one monitor, in one LMIC and in an LMIC
    of its own on alternating clocks (every pair side by side, every kind
    twice); the pairs that once failed, both ways; one single with its proof."""
    by = {(c["kinds"], c["layout"]): c for c in matrix(ks)}
    want = [(tuple(ks), "same"), (tuple(ks), "split")]
    for pair in ONCE_FAILED:
        want += [(pair, "same"), (pair, "split")]
    want.append((("axi4_latency",), "single"))
    return [by[w] for w in want]


def run(cmd: list, cwd: Path, log: Path, timeout: int = 1800) -> tuple[bool, str]:
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    log.write_text(r.stdout + r.stderr)
    return r.returncode == 0, (r.stdout + r.stderr).strip()[-600:]


def verilator_build(verilog: Path, top: str, work: Path) -> tuple[bool, str]:
    """The co-simulation's Verilator model of GHDL's Verilog, built (-O0: the
    check is that it builds, not how fast it runs)."""
    obj = work / "verilator"
    return run(["verilator", "--cc", str(verilog), "--top-module", top, "--prefix", "Vtop", "-Mdir", str(obj),
                "-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-UNOPTFLAT", "--build", "-O0",
                "-CFLAGS", "-O0", "-j", "1"], work, work / "verilator.log")


def check_one(cfg: dict, out: Path, formal: bool) -> dict:
    """Every stage of one configuration; stops at the first that fails."""
    from jointer_gen.tools import cdc_check
    work = out / cfg["name"]
    work.mkdir(parents=True, exist_ok=True)
    desc = description(cfg["name"], cfg["layout"], cfg["kinds"])
    ymlf = work / f"{cfg['name']}.yaml"
    ymlf.write_text(yaml.safe_dump(desc, sort_keys=False))
    res = {"name": cfg["name"], "layout": cfg["layout"], "kinds": list(cfg["kinds"]), "stages": {}}
    st = res["stages"]

    def stage(name, fn):
        t0 = time.monotonic()
        try:
            ok, detail = fn()
        except (SystemExit, Exception) as e:         # a flow's own failure message
            ok, detail = False, str(e)[-800:]
        st[name] = {"ok": ok, "seconds": round(time.monotonic() - t0, 1)}
        if not ok:
            st[name]["detail"] = detail
        return ok

    cdc = {}

    def synth_and_cdc():
        cdc.update(cdc_check.check_config(ymlf, work))
        return not cdc["errors"], "; ".join(cdc["errors"][:3])

    if not stage("ghdl synth + cdc", synth_and_cdc):
        return res
    top = cdc["top"]
    verilog = work / "work" / cfg["name"] / f"{top}.v"
    if not stage("verilator", lambda: verilator_build(verilog, top, work)):
        return res
    if formal and cfg["layout"] == "single":
        stage("formal", lambda: run([sys.executable, str(REPO / "scripts" / "formal.py"), "config", str(ymlf),
                                     "--timeout", "900"], REPO, work / "formal.log"))
    return res


def line(res: dict) -> str:
    st = res["stages"]
    ok = all(s["ok"] for s in st.values())
    parts = ", ".join(f"{k} {'ok' if v['ok'] else 'FAIL'} {v['seconds']} s" for k, v in st.items())
    return f"combo-check: {'ok  ' if ok else 'FAIL'} {res['name']:30} {res['layout']:6} {parts}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("what", choices=["all", "slice", "list"])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="+", help="these configurations only (names of `list`)")
    ap.add_argument("--no-formal", action="store_true")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--out", type=Path, default=BUILD)
    a = ap.parse_args(argv)
    ks = kinds()
    missing = [k for k in ks if k not in SAMPLES]
    if missing:
        print(f"combo-check: no sample sniffers for the kind(s) {', '.join(missing)} "
              f"(add them to SAMPLES in {Path(__file__).name})", file=sys.stderr)
        return 2
    cfgs = matrix(ks) if a.what in ("all", "list") else slice_of(ks)
    if a.only:
        unknown = set(a.only) - {c["name"] for c in matrix(ks)}
        if unknown:
            print(f"combo-check: unknown configuration(s) {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        cfgs = [c for c in matrix(ks) if c["name"] in a.only]
    if a.what == "list":
        for c in cfgs:
            print(f"{c['name']:30} {c['layout']:6} {' + '.join(c['kinds'])}")
        return 0
    t0 = time.monotonic()
    print(f"combo-check: {len(cfgs)} configurations, {a.jobs} at a time -> {a.out}", flush=True)
    results = []
    with cf.ProcessPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        futs = [ex.submit(check_one, c, a.out, not a.no_formal) for c in cfgs]
        for i, f in enumerate(cf.as_completed(futs), 1):
            res = f.result()
            results.append(res)
            print(f"[{i}/{len(cfgs)}] {line(res)}", flush=True)
            for name, s in res["stages"].items():
                if not s["ok"]:
                    print(f"    {name}: {s['detail']}", flush=True)
    bad = [r for r in results if not all(s["ok"] for s in r["stages"].values())]
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(sorted(results, key=lambda r: r["name"]), indent=1) + "\n")
    print(f"combo-check: {len(results) - len(bad)}/{len(results)} configurations pass "
          f"({time.monotonic() - t0:.0f} s wall)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
