# SPDX-License-Identifier: MIT
"""An accelerator's timeline from one sink, end to end (scenarios/timeline/tiles.yaml):
the generic app starts and syncs the sink, the 8 tiles run, the app writes
timeline.jtr; both simulators pass, identical, trace files byte for byte
the same. Then the file is converted by libjointer's converters (the Python
package: the code of `jointer trace --convert`) and read back:

- Perfetto: one slice per tile, named "tile", its id 0x100 + k, its duration
  the 30 cycles of 5 ns between start and done exactly, and its begin on the
  host's clock (the simulated time, which stands for CLOCK_MONOTONIC) within
  one cycle plus the measured register-write latency (the sync slot) of the
  time the stimulus drove the start; one instant per strobe, named after
  its lane, with the tile's id; the sync instant;
- the spans CSV: the same 8 spans, in seconds;
- the records CSV: 41 rows (the sync and 40 strobes), lanes and values;
- VCD: a wire per lane and the value, the first start rising at its time.
Every expected value is computed here from the scenario, never from a run.
"""

import csv
import importlib.util
import io
import json
import sys
from pathlib import Path

import yaml

COSIM = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("cosim_run", COSIM / "run.py")
cosim_run = importlib.util.module_from_spec(_spec)
sys.modules["cosim_run"] = cosim_run
_spec.loader.exec_module(cosim_run)

SCENARIO = COSIM / "scenarios" / "timeline" / "tiles.yaml"
PERIOD_PS = 5000                       # clock acc
LANES = ["start", "done", "load", "compute", "store"]


def _stimulus():
    """{lane: [(edge, id)]} of the scenario's pulses (edge: of clock acc, after the stimulus start)."""
    sc = yaml.safe_load(SCENARIO.read_text())
    out = {}
    for s in sc["stimulus"]:
        lane = LANES[s["bit"]]
        out[lane] = [(s["start"] + k * s["every"], s["value"] + k * s["value_step"]) for k in range(s["count"])]
    return out


EPOCH_NS = 7_000_000_000               # the host's clock of the apps: simulated time + this (cosim_app.h)


def _edge_ps(stimulus_start_ns, edge):
    """Edge n of clock acc on the host's clock (ps): the first edge strictly after the
    start is edge 0 (sim/cosim/README.md)."""
    sim_ps = (stimulus_start_ns - EPOCH_NS) * 1000
    return (sim_ps // PERIOD_PS + 1 + edge) * PERIOD_PS + EPOCH_NS * 1000


def test_tiles_timeline(tmp_path):
    import jointer
    from jointer.export import convert

    ok, reports, diffs = cosim_run.run_scenario(SCENARIO, handshakes=True, show=False)
    assert not diffs, diffs
    assert ok and all(r["pass"] for r in reports.values()), [r["checks"] for r in reports.values()]
    rep = reports["verilator"]
    jtr = next(p for p in rep["trace_files"] if p.endswith("timeline.jtr"))
    h, _ = jointer.read_trace_file(jtr)
    (before, after), = h["syncs"]
    slot_ps = (after - before) * 1000
    assert 0 < slot_ps < 1_000_000 and h["lanes"] == LANES and h["clock"] == "acc" and h["spans"] == ["tile"]
    start_ns = rep["metrics"]["host_ns.stimulus_start"]
    assert before > EPOCH_NS
    stim = _stimulus()

    out = tmp_path / "t.json"
    convert([jtr], "perfetto", str(out))
    events = json.loads(out.read_text())["traceEvents"]
    slices = [e for e in events if e.get("cat") == "span"]
    assert len(slices) == 8
    for k, ((s_edge, tid), (d_edge, did)) in enumerate(zip(stim["start"], stim["done"])):
        e = slices[k]
        assert (e["name"], e["ph"], e["args"]["id"]) == ("tile", "X", tid) and did == tid, e
        assert round(e["dur"] * 1e6) == (d_edge - s_edge) * PERIOD_PS, e          # 0.15 us exactly
        truth = _edge_ps(start_ns, s_edge)
        assert abs(round(e["ts"] * 1e6) - truth) <= PERIOD_PS + slot_ps, (k, e["ts"], truth, slot_ps)
    instants = [e for e in events if e.get("cat") == "record"]
    assert [e["name"] for e in instants].count("sync") == 1
    for lane in LANES:
        got = [e["args"]["value"] for e in instants if e["name"] == lane]
        assert got == [v for _, v in stim[lane]], lane

    spans = tmp_path / "t.spans.csv"
    convert([jtr], "spans", str(spans))
    rows = list(csv.DictReader(io.StringIO("".join(l for l in spans.read_text().splitlines(True)
                                                   if not l.startswith("#")))))
    assert [(r["span"], int(r["id"]), r["status"]) for r in rows] == [("tile", v, "ok") for _, v in stim["start"]]
    for r, e in zip(rows, slices):
        assert abs(float(r["begin_s"]) * 1e6 - e["ts"]) < 1e-6 and r["duration_s"] == "0.00000015"

    recs = tmp_path / "t.csv"
    convert([jtr], "csv", str(recs))
    rows = list(csv.DictReader(io.StringIO("".join(l for l in recs.read_text().splitlines(True)
                                                   if not l.startswith("#")))))
    assert len(rows) == 41 and rows[0]["lane"] == "sync"
    assert sorted((r["lane"], int(r["value"])) for r in rows[1:]) == sorted(
        (lane, v) for lane in LANES for _, v in stim[lane])

    vcd = tmp_path / "t.vcd"
    convert([jtr], "vcd", str(vcd))
    text = vcd.read_text()
    ids = {line.split()[4]: line.split()[3] for line in text.splitlines() if line.startswith("$var")}
    assert set(ids) == {"value", "sync", *LANES} and "$var wire 26 " in text      # 32 - 6 tag bits
    first = text.index("\n1" + ids["start"] + "\n")
    t = int(text[:first].rsplit("\n#", 1)[1].split("\n")[0])
    assert t == round(slices[0]["ts"] * 1e6), (t, slices[0]["ts"])
