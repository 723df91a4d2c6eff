# SPDX-License-Identifier: MIT
"""The `axi4` and `axis` stimulus kinds (harness/ghdl/axi_stim.py, the
reference; harness/verilator/axi_stim.cpp, its twin): the expectations of
scenarios/stream_dma.yaml follow from the stimulus alone, computed here
again from the sequence it plays (frames, beats, stall cycles; bytes of the
bursts inside the DMA filter's window; the latency histogram and maximum of
the writes, AW to B); the sequence keeps the AXI rules the taps rely on; the
parameter checks. Both simulators playing the scenario with these counts:
test_cosim.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

COSIM = Path(__file__).resolve().parents[1]
REPO = COSIM.parents[1]
sys.path[:0] = [str(COSIM / "harness" / "ghdl"), str(REPO / "sim")]

from axi_stim import Axi4Stim, AxisStim  # noqa: E402
from bus_timing import BusTiming  # noqa: E402
from jointer_sim.model import histogram_boundaries  # noqa: E402
from stimulus import Stim  # noqa: E402

SCENARIO = COSIM / "scenarios" / "stream_dma.yaml"
TIMING = BusTiming.load(str(COSIM / "harness" / "bus_timing.yaml"))
LCG = {k: TIMING.get("memory", "lcg", k) for k in ("mul", "inc", "mask", "shift", "percent")}


def top_widths(config: str, tmp: Path) -> dict:
    """{top-level port: width} of the monitor's observed ports (the generated testbench's spec)."""
    subprocess.run([sys.executable, "-m", "jointer_gen", str(REPO / config), "-o", str(tmp), "-q"], check=True,
                   env={"PYTHONPATH": str(REPO / "gen"), "PATH": "/usr/bin:/bin"})
    spec = json.loads(next(tmp.glob("*/tb/*_tb.json")).read_text())
    return {o["port"]: o["width"] or 1 for s in spec["sniffers"] for o in s["observed"]}


def played(entry: dict, widths: dict):
    """The entry's stimulus as the GHDL harness builds it, run to its end: (stim, per-cycle classes)."""
    s = Stim(None, entry, None, {}, widths, "test", TIMING)
    pre = entry.get("prefixes", [entry.get("prefix")])
    stim = (Axi4Stim if entry["kind"] == "axi4" else AxisStim)(s.random_params(entry["kind"], pre), LCG)
    valid, ready = ("tvalid", "tready") if entry["kind"] == "axis" else ("wvalid", "wready")
    classes = []
    while not stim.done:
        o = stim.edge()
        classes.append((o[valid], o[ready]))
    return stim, classes


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    sc = yaml.safe_load(SCENARIO.read_text())
    widths = top_widths(sc["config"], tmp_path_factory.mktemp("gen"))
    return sc, {e["kind"]: played(e, widths) for e in sc["stimulus"]}


def expected(sc, runs) -> dict:
    stream, classes = runs["axis"]
    dma, _ = runs["axi4"]
    cfg = yaml.safe_load((REPO / sc["config"]).read_text())
    dcs = {d["name"]: d for lm in cfg["lmics"] for s in lm["sniffers"] for d in s["dcapfs"]}
    low, high = dcs["window_bytes"]["filter"]["low"], dcs["window_bytes"]["filter"]["high"]
    hlow, hhigh = dcs["high_window_bytes"]["filter"]["low"], dcs["high_window_bytes"]["filter"]["high"]
    lat = [b - aw for _, _, aw, _, b in dma.bursts]
    bounds = histogram_boundaries(dcs["write_latency"]["buckets"], "pow2")
    out = {"frames": len(stream.packets), "beats": sum(n for n, _, _ in stream.packets),
           "stall_cycles": sum(1 for v, r in classes if v and not r),
           "window_bytes": sum(8 * n for a, n, *_ in dma.bursts if low <= a <= high),
           "high_window_bytes": sum(8 * n for a, n, *_ in dma.bursts if hlow <= a <= hhigh),
           "longest_write": max(lat)}
    for k in range(len(bounds) + 1):
        out[f"write_latency.bucket{k}"] = sum(1 for x in lat if sum(1 for b in bounds if x >= b) == k)
    return out


def test_expectations_follow_from_the_stimulus(scenario):
    sc, runs = scenario
    want = expected(sc, runs)
    assert {k: sc["expect"].get(k) for k in want} == want
    assert want["frames"] == 40 and len(runs["axi4"][0].bursts) == 24


def test_traffic_covers_what_the_monitor_counts(scenario):
    """Stalls on every channel, both sides of the window, bursts of many lengths."""
    sc, runs = scenario
    stream, classes = runs["axis"]
    dma, _ = runs["axi4"]
    assert sum(1 for v, r in classes if v and not r) > 20 and sum(1 for v, r in classes if r and not v) > 20
    inside = [a for a, *_ in dma.bursts if 0x10000000 <= a <= 0x1000FFFF]
    above = [a for a, *_ in dma.bursts if 0x810000000 <= a <= 0x81000FFFF]
    assert 0 < len(inside) < len(dma.bursts) and 0 < len(above) < len(dma.bursts)
    assert len({n for _, n, *_ in dma.bursts}) > 8 and len({n for n, _, _ in stream.packets}) > 6
    assert len({b - aw for _, _, aw, _, b in dma.bursts}) > 8


def test_axi_rules(scenario):
    """VALID held until its handshake, payload stable meanwhile, AW before W, WLAST on the last
    beat, B after WLAST, one burst at a time."""
    widths = top_widths(yaml.safe_load(SCENARIO.read_text())["config"], Path(pytest.importorskip("tempfile").mkdtemp()))
    entry = next(e for e in yaml.safe_load(SCENARIO.read_text())["stimulus"] if e["kind"] == "axi4")
    s = Stim(None, entry, None, {}, widths, "test", TIMING)
    stim = Axi4Stim(s.random_params("axi4", entry["prefixes"]), LCG)
    prev, beats = None, []
    while not stim.done:
        o = dict(stim.edge())
        if prev:
            for ch, payload in (("aw", ("awaddr", "awlen")), ("w", ("wlast", "wdata")), ("b", ("bresp",))):
                if prev[ch + "valid"] and not prev[ch + "ready"]:
                    assert o[ch + "valid"] and all(o[x] == prev[x] for x in payload), (stim.n, ch)
            if prev["wvalid"] and prev["wready"]:
                beats.append(prev["wlast"])
        prev = o
    for addr, n, aw, last, b in stim.bursts:
        assert aw < last < b
    assert beats.count(1) == len(stim.bursts) == 24 and len(beats) == sum(n for _, n, *_ in stim.bursts)


@pytest.mark.parametrize("bad,message", [
    ({"max_len": 0}, "max_len must be 1..256"), ({"valid_stall": 100}, "valid_stall and ready_stall 0..99"),
    ({"addr_span": 0}, "addr_span must be >= 1"), ({"size": 4}, "2^size <= the data bytes (8)")])
def test_bad_parameters(scenario, bad, message, tmp_path):
    widths = {"dma_wstrb": 8, "dma_awvalid": 1}
    entry = {"kind": "axi4", "prefix": "dma", **bad}
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("^", r"\^")):
        Stim(None, entry, None, {}, widths, "stimulus[1]", TIMING).random_params("axi4", ["dma"])


TWIN_MAIN = r'''
#include <cstdio>
#include <cstdlib>
#include "axi_stim.h"
// argv: timing axis write start count seed max_len valid_stall ready_stall gap addr addr_span
//       resp_delay id size strb dest keep alias edges; prints every edge's values
int main(int argc, char **argv)
{
    if (argc != 21)
        return 2;
    BusTiming t = BusTiming::load(argv[1]);
    auto u = [&](int i) { return (uint64_t)std::strtoull(argv[i], nullptr, 0); };
    AxiRandParams p;
    p.write = u(3) != 0; p.start = u(4); p.count = u(5); p.seed = u(6); p.max_len = u(7);
    p.valid_stall = u(8); p.ready_stall = u(9); p.gap = u(10); p.addr = u(11); p.addr_span = u(12);
    p.resp_delay = u(13); p.id = u(14); p.size = u(15); p.strb = u(16); p.dest = u(17); p.keep = u(18);
    p.alias = u(19);
    AxiRandStim s(u(2) != 0, p, t);
    for (uint64_t n = 0; n < u(20); ++n) {
        for (const auto &kv : s.edge())
            std::printf("%s=%llu ", kv.first.c_str(), (unsigned long long)kv.second);
        std::printf("%d\n", s.done() ? 1 : 0);
    }
    return 0;
}
'''
PARAMS = ("write", "start", "count", "seed", "max_len", "valid_stall", "ready_stall", "gap", "addr", "addr_span",
          "resp_delay", "id", "size", "strb", "dest", "keep", "alias")
TWIN_CASES = {
    "write": dict(write=1, start=3, count=9, seed=5, max_len=16, valid_stall=20, ready_stall=30, gap=5,
                  addr=0x1000F000, addr_span=0x2000, resp_delay=50, id=2, size=3, strb=0xFF),
    "write_above_4g": dict(write=1, start=0, count=9, seed=5, max_len=8, valid_stall=20, ready_stall=30, gap=2,
                           addr=0x1000F000, addr_span=0x2000, resp_delay=5, id=1, size=3, strb=0xFF,
                           alias=0x8_0000_0000),
    "read": dict(write=0, start=0, count=7, seed=77, max_len=256, valid_stall=60, ready_stall=10, gap=0,
                 addr=0x40, addr_span=0x100000, resp_delay=3, id=1, size=2, strb=0),
    "always": dict(write=1, start=0, count=5, seed=1, max_len=4, valid_stall=0, ready_stall=0, gap=0,
                   addr=0, addr_span=16, resp_delay=0, id=0, size=0, strb=1),
    "axis": dict(start=2, count=12, seed=11, max_len=12, valid_stall=30, ready_stall=25, gap=6, dest=5, keep=0xFF),
    "axis_stalled": dict(start=0, count=3, seed=3, max_len=3, valid_stall=99, ready_stall=99, gap=1, keep=0xF),
    "none": dict(count=0, seed=9, max_len=1),
}


def python_lines(case: dict, axis: bool, edges: int) -> list[str]:
    p = {k: case.get(k, 0) for k in PARAMS}
    p["write"] = bool(p["write"])
    stim = (AxisStim if axis else Axi4Stim)(p, LCG)
    out = []
    for _ in range(edges):
        o = stim.edge()
        out.append(" ".join(f"{k}={o[k]}" for k in sorted(o)) + f" {int(stim.done)}")
    return out


@pytest.fixture(scope="module")
def twin(tmp_path_factory):
    d = tmp_path_factory.mktemp("twin")
    (d / "main.cpp").write_text(TWIN_MAIN)
    vl = COSIM / "harness" / "verilator"
    exe = d / "twin"
    subprocess.run(["g++", "-std=c++17", "-O1", "-Wall", "-Wextra", "-I", str(vl), str(d / "main.cpp"),
                    str(vl / "axi_stim.cpp"), str(vl / "bus_timing.cpp"), str(vl / "util.cpp"), "-lyaml-cpp",
                    "-o", str(exe)], check=True)
    return exe


@pytest.mark.parametrize("name", TWIN_CASES)
def test_cpp_twin_drives_the_same_values(twin, name):
    """harness/verilator/axi_stim.cpp against the Python reference, every value of every edge
    (both directions, the stream, stalls from 0 to 99 %, a late start, no burst at all)."""
    case, axis, edges = TWIN_CASES[name], name.startswith("axis"), 3000
    args = [str(COSIM / "harness" / "bus_timing.yaml"), str(int(axis))] + \
        [str(case.get(k, 0)) for k in PARAMS] + [str(edges)]
    got = subprocess.run([str(twin), *args], capture_output=True, text=True, check=True).stdout.split("\n")[:-1]
    want = python_lines(case, axis, edges)                # both: signals in name order, then done
    first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), None)
    assert first is None and len(got) == len(want), f"edge {first}: C++ {got[first]} vs Python {want[first]}"
    assert want[-1].endswith(" 1"), "the stimulus ends within the edges"
