# SPDX-License-Identifier: MIT
"""Trace-file export: the C reader through the binding equals the C CLI's
`trace --convert`; VCD parsed back with vcdvcd (an independent reader)
holds every record; the Perfetto JSON passes a strict check of the Trace
Event Format (docs: "Trace Event Format", Chrome/Perfetto JSON)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import vcdvcd
from conftest import CLI_DIR

import jointer
from jointer.export import convert, unwrap

# relay_t of relay_mon: 100 MHz LMIC clock (10 ns = 10000 ps a cycle); a 32-bit wrap,
# adjacent cycles (the strobe stays high) and gaps
TS = [0xFFFFFFF0, 0xFFFFFFF1, 0xFFFFFFF2, 0xFFFFFFFE, 5, 6, 100, 0x80000000]
DATA = [1, 2, 2, 0xFFFFFFFF, 0, 7, 0x12345678, 3]


def make(tmp_path, descs, name="run.jtr", mon="relay_mon", trace="relay_t", ts=TS, data=DATA, lost=4):
    p = str(tmp_path / name)
    jointer.write_trace_file(p, descs[mon], trace, np.array(list(zip(ts, data)), dtype=jointer.TRACE_DTYPE), lost)
    return p


def test_reader_equals_the_cli(tmp_path, descs):
    p = make(tmp_path, descs)
    h, rec = jointer.read_trace_file(p)
    assert (h["monitor"], h["trace"], h["clock_hz"], h["lost"], h["records"], h["complete"]) == \
        ("relay_mon", "relay_t", 100000000, 4, len(TS), True)
    assert h["config_hash"] == descs["relay_mon"].config_hash
    out = subprocess.run([os.path.join(CLI_DIR, "jointer-relay_mon"), "trace", "--convert", p, "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    cli = json.loads(out)
    assert [(r["timestamp"], r["data"]) for r in cli["records"]] == list(zip(rec["timestamp"].tolist(),
                                                                            rec["data"].tolist()))
    assert rec["timestamp"].tolist() == TS and rec["data"].tolist() == DATA
    assert (cli["lost"], cli["clock_hz"], cli["complete"]) == (4, 100000000, True)


def test_unwrap():
    assert unwrap(TS) == [0xFFFFFFF0, 0xFFFFFFF1, 0xFFFFFFF2, 0xFFFFFFFE, (1 << 32) + 5, (1 << 32) + 6,
                          (1 << 32) + 100, (1 << 32) + 0x80000000]


def test_vcd_parsed_back_holds_every_record(tmp_path, descs):
    p = make(tmp_path, descs)
    p2 = make(tmp_path, descs, "bus.jtr", "trace_mon", "bus_trace", [3, 4, 9], [0x1000, 0x1001, 0x1FFF], 0)
    out = str(tmp_path / "out.vcd")
    assert convert([p, p2], "vcd", out) == out
    v = vcdvcd.VCDVCD(out)
    assert float(v.timescale["timescale"]) == 1e-12
    cyc = unwrap(TS)
    for scope, cycles, data, per in (("relay_mon.relay_t", cyc, DATA, 10000),
                                     ("trace_mon.bus_trace", [3, 4, 9], [0x1000, 0x1001, 0x1FFF], 1000)):
        d = v[scope + ".data"].tv
        s = v[scope + ".strobe"].tv
        assert d[0] == (0, "x")
        assert [(t, int(x, 2)) for t, x in d[1:]] == [(c * per, x) for c, x in zip(cycles, data)]
        for c in cycles:   # strobe: 1 during the record's cycle
            assert v[scope + ".strobe"][c * per] == "1"
            if c + 1 not in cycles:
                assert v[scope + ".strobe"][(c + 1) * per] == "0"
        assert s[0] == (0, "0")
    with open(out) as f:
        assert "$var wire 32" in f.read()


ALLOWED_PH = {"B", "E", "X", "i", "I", "C", "M"}


def check_trace_events(doc):
    """Strict Trace Event Format check: the JSON object form, required keys
    and types per phase, instant scope, counter args, metadata names,
    and slices properly nested on each thread."""
    assert isinstance(doc, dict) and isinstance(doc["traceEvents"], list)
    assert doc.get("displayTimeUnit", "ms") in ("ms", "ns")
    tracks = {}
    for e in doc["traceEvents"]:
        assert set(e) <= {"name", "cat", "ph", "ts", "dur", "pid", "tid", "args", "s", "id"}, e
        assert e["ph"] in ALLOWED_PH and isinstance(e["name"], str) and e["name"], e
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int), e
        if e["ph"] == "M":
            assert e["name"] in ("process_name", "thread_name", "process_sort_index", "thread_sort_index")
            assert isinstance(e["args"]["name"], str)
            continue
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
        if e["ph"] == "i":
            assert e["s"] in ("g", "p", "t"), e
        if e["ph"] == "X":
            assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0, e
            tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
        if e["ph"] == "C":
            assert e["args"] and all(isinstance(x, (int, float)) for x in e["args"].values()), e
    for spans in tracks.values():
        stack = []
        for a, b in sorted(spans, key=lambda x: (x[0], -x[1])):
            while stack and stack[-1] <= a:
                stack.pop()
            assert not stack or b <= stack[-1], ("slices overlap without nesting", spans)
            stack.append(b)


def test_perfetto_json(tmp_path, descs):
    # program monitor records: indices main 0/1, work 2/3 (as in test_histogram_profile)
    recs = [(10, 0), (20, 2), (50, 3), (60, 2), (90, 3), (95, 1), (100, 3), (120, 0)]
    p = make(tmp_path, descs, "pm.jtr", ts=[t for t, _ in recs], data=[d for _, d in recs], lost=0)
    sym = tmp_path / "s.txt"
    sym.write_text("main 0x1000 0x1100\nwork 0x2000 0x2100\n")
    w = tmp_path / "w.csv"
    w.write_text("time_ms,mac_fires,bytes_written\n0.0,1,10\n100.2,5,20\n")
    out = convert([p], "perfetto", str(tmp_path / "t.json"), str(sym), str(w))

    def no_const(x):
        raise ValueError("non-standard JSON constant " + x)
    doc = json.loads(open(out).read(), parse_constant=no_const)
    check_trace_events(doc)
    ev = doc["traceEvents"]
    inst = [e for e in ev if e["ph"] == "i" and e["cat"] == "record"]
    assert [(e["args"]["cycle"], e["args"]["data"]) for e in inst] == recs
    assert [e["ts"] for e in inst] == [pytest.approx(t * 0.01) for t, _ in recs]   # 100 MHz: 0.01 us/cycle
    sl = sorted((e["name"], e["args"]["cycles"]) for e in ev if e["ph"] == "X")
    assert sl == [("main", 85), ("work", 30), ("work", 30)]
    assert [e for e in ev if e["name"] == "unmatched exit work"][0]["ts"] == pytest.approx(1.0)
    ctr = [(e["name"], e["ts"], e["args"]["value"]) for e in ev if e["ph"] == "C"]
    assert sorted(ctr) == sorted([("mac_fires", 0.0, 1), ("mac_fires", 100200.0, 5),
                                  ("bytes_written", 0.0, 10), ("bytes_written", 100200.0, 20)])
    names = {e["args"]["name"] for e in ev if e["ph"] == "M"}
    assert names == {"relay_mon", "relay_t", "watch"}


def test_command_line(tmp_path, descs):
    p = make(tmp_path, descs)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(jointer.__file__)))
    r = subprocess.run([sys.executable, "-m", "jointer", "convert", p, "--format", "vcd"], capture_output=True,
                       text=True, env=env)
    assert r.returncode == 0 and r.stdout.strip() == "wrote " + p[:-4] + ".vcd", r.stderr
    assert os.path.exists(p[:-4] + ".vcd")


# ---- one wrap rule: profile and Perfetto agree; stop-mode traces know their clock ----

@pytest.fixture(scope="module")
def pm_desc(tmp_path_factory):
    from conftest import REPO
    return jointer.Descriptor.from_yaml(os.path.join(REPO, "configs", "program_monitor.yaml"),
                                        str(tmp_path_factory.mktemp("pmdesc")))


# main (indices 0/1) spans a 32-bit wrap with work (2/3) inside: the deltas between consecutive
# records sum to 2^32 + 300 cycles for main, 0x70000000 for work
WRAP = [(100, 0), (0x80000000, 2), (0xF0000000, 3), (400, 1), (500, 2), (530, 3)]


def test_profile_and_perfetto_agree_across_a_wrap(tmp_path, pm_desc):
    p = str(tmp_path / "pm.jtr")
    jointer.write_trace_file(p, pm_desc, "pc_trace", np.array(WRAP, dtype=jointer.TRACE_DTYPE))
    h, rec = jointer.read_trace_file(p)
    assert h["clock_hz"] == 100000000                     # a stop-mode trace: its LMIC clock, not 0
    sym = tmp_path / "s.txt"
    sym.write_text("main 0x100 0x1F0\nwork 0x200 0x2F0\n")
    prof = jointer.profile(rec, str(sym))
    assert prof["main"]["total"] == (1 << 32) + 300 and prof["main"]["max"] == 0xFFFFFFFF   # saturates
    assert prof["work"]["total"] == 0x70000000 + 30 and prof["work"]["calls"] == 2
    out = convert([p], "perfetto", str(tmp_path / "t.json"), str(sym))
    doc = json.load(open(out))
    check_trace_events(doc)
    sl = {}
    for e in doc["traceEvents"]:
        if e["ph"] == "X":
            sl.setdefault(e["name"], []).append(e)
    assert {n: sum(e["args"]["cycles"] for e in v) for n, v in sl.items()} == \
        {n: prof[n]["total"] for n in ("main", "work")}
    main = sl["main"][0]
    assert main["dur"] == pytest.approx(((1 << 32) + 300) * 0.01) and main["ts"] == pytest.approx(1.0)
    assert unwrap([t for t, _ in WRAP])[3] == 100 + (1 << 32) + 300
    # the CLI's profile reads the trace file and the CSV trace --convert writes: the same totals
    cli_pm = os.path.join(os.path.dirname(CLI_DIR), "cli-pm", "jointer-program_monitor")
    if os.path.exists(cli_pm):
        csv_out = tmp_path / "t.csv"
        csv_out.write_text(subprocess.run([os.path.join(CLI_DIR, "jointer-relay_mon"), "trace", "--convert", p],
                                          capture_output=True, text=True, check=True).stdout)
        for inp in (p, str(csv_out)):
            r = subprocess.run([cli_pm, "profile", str(sym), "--input", inp, "--format", "csv"], capture_output=True,
                               text=True, timeout=30)
            assert r.returncode == 0, r.stderr
            rows = {ln.split(",")[0]: ln.split(",") for ln in r.stdout.splitlines()[1:]}
            assert int(rows["main"][2]) == (1 << 32) + 300 and int(rows["work"][2]) == 0x70000000 + 30


def test_vcd_of_a_stop_mode_trace_uses_its_clock(tmp_path, pm_desc):
    p = str(tmp_path / "pm.jtr")
    jointer.write_trace_file(p, pm_desc, "pc_trace", np.array([(3, 1), (5, 2)], dtype=jointer.TRACE_DTYPE))
    v = vcdvcd.VCDVCD(convert([p], "vcd", str(tmp_path / "pm.vcd")))
    data = [k for k in v.signals if k.endswith(".data")][0]
    assert [t for t, _ in v[data].tv[1:]] == [30000, 50000]   # 10 ns = 10000 ps a cycle


def test_cli_and_python_write_the_same_formats(tmp_path, descs):
    p = make(tmp_path, descs)
    for fmt in ("csv", "json", "vcd", "perfetto"):
        o = str(tmp_path / ("o." + fmt))
        convert([p], fmt, o)
        c = subprocess.run([os.path.join(CLI_DIR, "jointer-relay_mon"), "trace", "--convert", p, "--format", fmt],
                           capture_output=True, check=True).stdout
        mine = open(o, "rb").read()
        if fmt == "vcd":
            mine = mine.replace(b"$version jointer python %s $end" % jointer.__version__.encode(),
                                b"$version jointer cli $end")
        if fmt == "perfetto":
            mine = mine.replace(b"jointer python %s" % jointer.__version__.encode(), b"jointer cli")
        assert mine == c, fmt
