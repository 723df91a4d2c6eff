# SPDX-License-Identifier: MIT
"""Tests of jointer-topology (drivers/python/jointer/topology.py, `python3 -m jointer topology` and the wrapper scripts/jointer-topology (Cazanove et
al., "Extracting the Topology of a Hardware Platform Using Hardware Events"):
the paper's own Basic-Path-per-population table gives the topology derived by
hand below; counters synthesised from a planted structure (noise, Basic Paths
merged in some populations, untriggered events) give back exactly that
structure; the three input formats (wide CSV, appended `jointer read --format
csv`, `perf stat -x,`); the real jointer CLI over a fake UIO device feeding
the tool; bad inputs (file:line, exit code, nothing written).
"""
import contextlib
import importlib.util
import io
import os
import random
import re
import subprocess
import stat
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
ROOT = os.path.dirname(SCRIPTS)
TOOL = os.path.join(SCRIPTS, "jointer-topology")
PAPER_BP = os.path.join(ROOT, "doc", "topology", "basic_paths.tsv")
PAPER_POP = os.path.join(ROOT, "doc", "topology", "populations.tsv")
EXAMPLE = os.path.join(ROOT, "doc", "topology", "example_samples.csv")

sys.path.insert(0, os.path.join(ROOT, "drivers", "python"))
from jointer import topology as jt  # noqa: E402

# The paper's tables, typed in again here (not read from doc/topology).
PAPER_NAMES = [
    ("L2M", ["BUS_ACCESS", "BUS_ACCESS_LD", "L2_CACHE_REFILL"]),
    ("L2WB", ["BUS_ACCESS_ST", "L2_CACHE_WB"]),
    ("LD", ["LD_RETIRED"]),
    ("L1M", ["L1D_CACHE_REFILL", "L1_CACHE_WB", "L2_CACHE"]),
    ("ST", ["ST_RETIRED"]),
    ("L1D", ["L1D_CACHE", "MEM_ACCESS"]),
    ("CORE", ["BR_IMMED_RETIRED", "BR_PRED", "BUS_CYCLES", "CPU_CYCLES", "L1I_CACHE",
              "PC_WRITE_RETIRED", "time execution", "INST_RETIRED"]),
]
PAPER_POPS = [
    ("intAdd", ["CORE"]),
    ("readL1", ["CORE", "LD", "L1D"]),
    ("readL2", ["CORE", "LD", "L1D", "L1M"]),
    ("readMem", ["CORE", "LD", "L1D", "L1M", "L2M"]),
    ("writeL1", ["CORE", "ST", "L1D"]),
    ("writeL2", ["CORE", "ST", "L1D", "L1M"]),
    ("writeMem", ["CORE", "ST", "L1D", "L1M", "L2M", "L2WB"]),
]
# By hand from PAPER_POPS: the populations of each BP are
#   CORE all 7; L1D all but intAdd; L1M readL2 readMem writeL2 writeMem;
#   LD readL1 readL2 readMem; ST writeL1 writeL2 writeMem; L2M readMem writeMem;
#   L2WB writeMem.  BP_i -> BP_j iff pops(i) is a strict subset of pops(j):
PAPER_IMPLICATIONS = {
    ("L2M", "L1M"), ("L2M", "L1D"), ("L2M", "CORE"),
    ("L2WB", "L2M"), ("L2WB", "L1M"), ("L2WB", "ST"), ("L2WB", "L1D"), ("L2WB", "CORE"),
    ("LD", "L1D"), ("LD", "CORE"), ("L1M", "L1D"), ("L1M", "CORE"),
    ("ST", "L1D"), ("ST", "CORE"), ("L1D", "CORE"),
}
# ... and without the edges implied by a longer path (L2WB -> L2M -> L1M -> L1D -> CORE,
# L2WB -> ST -> L1D, LD -> L1D): the memory hierarchy of the Cortex-A53 as the paper draws it.
PAPER_TOPOLOGY = {
    ("L1D", "CORE"), ("LD", "L1D"), ("ST", "L1D"), ("L1M", "L1D"),
    ("L2M", "L1M"), ("L2WB", "L2M"), ("L2WB", "ST"),
}
PAPER_DOT = """digraph topology {
\tgraph [rankdir=BT]
\tnode [fontname=Helvetica shape=box]
\tL2M [label="L2M\\nBUS_ACCESS, BUS_ACCESS_LD, L2_CACHE_REFILL"]
\tL2WB [label="L2WB\\nBUS_ACCESS_ST, L2_CACHE_WB"]
\tLD [label="LD\\nLD_RETIRED"]
\tL1M [label="L1M\\nL1D_CACHE_REFILL, L1_CACHE_WB, L2_CACHE"]
\tST [label="ST\\nST_RETIRED"]
\tL1D [label="L1D\\nL1D_CACHE, MEM_ACCESS"]
\tCORE [label="CORE\\nBR_IMMED_RETIRED, BR_PRED, BUS_CYCLES\\nCPU_CYCLES, L1I_CACHE, PC_WRITE_RETIRED\\n\
time execution, INST_RETIRED"]
\tL2M -> L1M
\tL2WB -> L2M
\tL2WB -> ST
\tLD -> L1D
\tL1M -> L1D
\tST -> L1D
\tL1D -> CORE
}
"""


def tool(*args):
    """scripts/jointer-topology ARGS, in-process (the executable only calls
    main(); test_executable_wrapper runs it for real): (rc, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = jt.main([str(a) for a in args])
        except SystemExit as e:
            rc = e.code
    return rc, out.getvalue(), err.getvalue()


def run_tool(*args):
    """The executable itself, in a subprocess."""
    p = subprocess.run([TOOL] + [str(a) for a in args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


# ---------------------------------------------------------------- the paper's table

def test_paper_tables_on_disk_are_the_papers():
    assert jt.read_basic_path_names(PAPER_BP) == PAPER_NAMES
    assert jt.read_population_table(PAPER_POP) == PAPER_POPS


def test_paper_table_gives_the_paper_topology():
    topo = jt.topology_from_table(PAPER_POPS, PAPER_NAMES)
    assert set(topo.implications) == PAPER_IMPLICATIONS and len(topo.implications) == 15
    assert set(topo.edges) == PAPER_TOPOLOGY and len(topo.edges) == 7
    assert topo.absent == []
    assert topo.appears == dict(PAPER_POPS)
    assert jt.to_dot(topo) == PAPER_DOT


def test_paper_table_cli_writes_dot_svg_png_and_table(tmp_path):
    dot, svg, png = tmp_path / "t.dot", tmp_path / "t.svg", tmp_path / "t.png"
    rc, out, err = run_tool("--populations", PAPER_POP, "--basic-paths", PAPER_BP,
                            "--dot", dot, "--svg", svg, "--png", png)
    assert rc == 0 and err == "", err
    assert dot.read_text() == PAPER_DOT
    titles = re.findall(r'<g id="edge\d+" class="edge">\s*<title>([^<]*)</title>', svg.read_text())
    assert sorted(t.replace("&#45;&gt;", "->") for t in titles) == sorted("%s->%s" % e for e in PAPER_TOPOLOGY)
    nodes = re.findall(r'<g id="node\d+" class="node">\s*<title>([^<]*)</title>', svg.read_text())
    assert sorted(nodes) == sorted(n for n, _ in PAPER_NAMES)
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(head[16:20], "big") > 100
    topo_section = out.split("Topology (transitive reduction): 7 edges\n")[1]
    assert topo_section == "".join("  %s -> %s\n" % e for e in [
        ("L2M", "L1M"), ("L2WB", "L2M"), ("L2WB", "ST"), ("LD", "L1D"),
        ("L1M", "L1D"), ("ST", "L1D"), ("L1D", "CORE")])
    assert "  readMem     CORE, LD, L1D, L1M, L2M\n" in out
    assert "  CORE  BR_IMMED_RETIRED, BR_PRED, BUS_CYCLES, CPU_CYCLES, L1I_CACHE, " \
           "PC_WRITE_RETIRED, time execution, INST_RETIRED\n" in out
    rc2, out2, _ = tool("--populations", PAPER_POP)        # names optional: same edges
    assert rc2 == 0
    assert sorted(out2.split("Topology")[1].splitlines()) == sorted(out.split("Topology")[1].splitlines())


# ---------------------------------------------------------------- planted structure

UNTRIGGERED = ["EXC_TAKEN", "MEMORY_ERROR"]
# populations where two Basic Paths are driven by one factor (a MAG merges them);
# another population that triggers both independently splits them again
MERGED = {"readMem": ("LD", "L1D"), "writeMem": ("L1M", "L2M"), "writeL2": ("ST", "CORE")}


def synth_paper_rows(seed=2, runs=12, noise=0.01, floor=0):
    """Counter samples with the paper's structure: per run a random activity
    factor per Basic Path of the population, each event weight * factor with
    1% noise; events of other Basic Paths count `floor` noise (0..floor)."""
    rng = random.Random(seed)
    events = [e for _, ev in PAPER_NAMES for e in ev] + UNTRIGGERED
    weight = {e: rng.uniform(0.5, 4.0) for e in events}
    rows = []
    for pop, bps in PAPER_POPS:
        for _ in range(runs):
            factor = {b: rng.uniform(1e3, 1e6) for b in bps}
            if pop in MERGED:
                a, b = MERGED[pop]
                factor[a] = factor[b]
            row = {"population": pop}
            for name, ev in PAPER_NAMES:
                for e in ev:
                    if name in bps:
                        row[e] = round(weight[e] * factor[name] * (1 + rng.gauss(0, noise)))
                    else:
                        row[e] = rng.randint(0, floor)
            for e in UNTRIGGERED:
                row[e] = rng.randint(0, floor)
            rows.append(row)
    return ["population"] + events, rows


def write_wide(path, header, rows):
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(str(r[h]) for h in header) + "\n")


def test_planted_paper_structure_is_recovered(tmp_path):
    header, rows = synth_paper_rows()
    csvf = tmp_path / "samples.csv"
    write_wide(csvf, header, rows)
    runs = jt.read_samples(str(csvf))
    assert len(runs) == 84 and runs[0].line == 2 and runs[0].population == "intAdd"
    topo = jt.topology_from_samples(jt.collect(runs), names=PAPER_NAMES)
    assert sorted(topo.basic_paths) == sorted(PAPER_NAMES)
    # ordered by the number of populations, then by column
    assert [n for n, _ in topo.basic_paths] == ["CORE", "L1D", "L1M", "LD", "ST", "L2M", "L2WB"]
    assert {p: set(b) for p, b in topo.appears.items()} == {p: set(b) for p, b in PAPER_POPS}
    assert set(topo.implications) == PAPER_IMPLICATIONS
    assert set(topo.edges) == PAPER_TOPOLOGY
    assert topo.untriggered == UNTRIGGERED and topo.unmatched_names == [] and topo.absent == []
    # the merges are in the MAGs of their populations and gone from the intersection
    assert topo.mags["readMem"].has_edge("LD_RETIRED", "L1D_CACHE")
    assert topo.mags["writeMem"].has_edge("L1D_CACHE_REFILL", "BUS_ACCESS")
    assert topo.mags["writeL2"].has_edge("ST_RETIRED", "CPU_CYCLES")
    assert not topo.intersection.has_edge("LD_RETIRED", "L1D_CACHE")
    assert not topo.intersection.has_edge("L1D_CACHE_REFILL", "BUS_ACCESS")
    # MAG sizes: the triggered events' cliques (plus the merged pair's product)
    k = {n: len(ev) for n, ev in PAPER_NAMES}

    def clique_edges(bps, merged=None):
        sizes = [k[b] for b in bps if not merged or b not in merged]
        if merged:
            sizes.append(k[merged[0]] + k[merged[1]])
        return sum(s * (s - 1) // 2 for s in sizes)
    for pop, bps in PAPER_POPS:
        assert topo.mags[pop].number_of_edges() == clique_edges(bps, MERGED.get(pop)), pop
    assert topo.intersection.number_of_edges() == clique_edges([n for n, _ in PAPER_NAMES])
    # the same DOT statements as from the paper's table (in Basic Path order)
    assert sorted(jt.to_dot(topo).splitlines()) == sorted(PAPER_DOT.splitlines())


def test_strict_intersection_keeps_only_edges_of_every_population():
    header, rows = synth_paper_rows()
    samples = jt.collect([jt.Run(r["population"], {e: float(r[e]) for e in header[1:]}, "x", i)
                          for i, r in enumerate(rows, 2)])
    topo = jt.topology_from_samples(samples, intersection="strict", names=PAPER_NAMES)
    # only CORE is in every population: every other event ends up alone
    single = sorted(e for n, ev in PAPER_NAMES if n != "CORE" for e in ev)
    assert sorted(ev for _, ev in topo.basic_paths) == sorted(
        [PAPER_NAMES[-1][1]] + [[e] for e in single])
    assert [n for n, _ in topo.basic_paths][0] == "CORE"
    assert topo.unmatched_names == ["L2M", "L2WB", "L1M", "L1D"]


def test_min_count_separates_noise_floor_from_triggered(tmp_path):
    header, rows = synth_paper_rows(floor=3)
    csvf = tmp_path / "floor.csv"
    write_wide(csvf, header, rows)
    samples = jt.collect(jt.read_samples(str(csvf)))
    topo = jt.topology_from_samples(samples, min_count=3, names=PAPER_NAMES)
    assert set(topo.edges) == PAPER_TOPOLOGY and topo.untriggered == UNTRIGGERED
    # without it, every noise floor is an event triggered (and uncorrelated)
    # everywhere: only CORE stays a clique, every Basic Path appears in every
    # population and no implication is left
    topo0 = jt.topology_from_samples(samples, names=PAPER_NAMES)
    assert topo0.edges == [] and topo0.implications == [] and topo0.untriggered == []
    single = [[e] for n, ev in PAPER_NAMES if n != "CORE" for e in ev] + [[e] for e in UNTRIGGERED]
    assert sorted(ev for _, ev in topo0.basic_paths) == sorted(single + [PAPER_NAMES[-1][1]])
    everything = [n for n, _ in topo0.basic_paths]
    assert all(b == everything for b in topo0.appears.values())


def small_samples(sign=1.0, seed=7):
    """A, B1+B2 (B2 = sign * B1 + offset), C; populations p1: A; p2: A, B; p3: A, B, C."""
    rng = random.Random(seed)
    runs = []
    for pop, active in (("p1", "A"), ("p2", "AB"), ("p3", "ABC")):
        for i in range(8):
            f = {x: rng.uniform(100, 1000) for x in active}
            v = {"a": f["A"] * 3, "b1": 0.0, "b2": 0.0, "c": 0.0}
            if "B" in active:
                v["b1"] = f["B"] * (1 + rng.gauss(0, 0.001))
                v["b2"] = 5000 + sign * 2 * f["B"]
            if "C" in active:
                v["c"] = f["C"]
            runs.append(jt.Run(pop, v, "mem", i + 1))
    return jt.collect(runs)


def test_auto_names_and_absolute_correlation():
    pos = jt.topology_from_samples(small_samples(1.0))
    assert pos.basic_paths == [("BP1", ["a"]), ("BP2", ["b1", "b2"]), ("BP3", ["c"])]
    assert pos.edges == [("BP2", "BP1"), ("BP3", "BP2")]
    assert pos.implications == [("BP2", "BP1"), ("BP3", "BP1"), ("BP3", "BP2")]
    neg = jt.topology_from_samples(small_samples(-1.0))      # r = -1: two Basic Paths
    assert neg.basic_paths == [("BP1", ["a"]), ("BP2", ["b1"]), ("BP3", ["b2"]), ("BP4", ["c"])]
    assert neg.edges == [("BP2", "BP1"), ("BP3", "BP1"), ("BP4", "BP2"), ("BP4", "BP3")]
    absn = jt.topology_from_samples(small_samples(-1.0), absolute=True)
    assert absn.basic_paths == pos.basic_paths and absn.edges == pos.edges
    g = absn.intersection
    assert g.number_of_edges() == 1 and g.edges["b1", "b2"] == {}
    assert absn.mags["p2"].edges["b1", "b2"]["r"] < -0.999


# ---------------------------------------------------------------- input formats

def jointer_read_csv(values):
    """What `jointer read --format csv` prints for the Y9 fixture."""
    meta = [("transaction", "bytes_written", 23), ("task", "compute_cycles", 53),
            ("operation", "forward_fires", 10), ("operation", "mac_fires", 10)]
    lines = ["lmic,sniffer,metric,width,value"]
    lines += ["accel,%s,%s,%d,%d" % (s, m, w, values[m]) for s, m, w in meta]
    return "\n".join(lines) + "\n"


def test_jointer_read_csv_appended_and_population_comments(tmp_path):
    f = tmp_path / "runs.csv"
    vals = [dict(bytes_written=i * 10, compute_cycles=i * 100 + 1, forward_fires=0, mac_fires=i)
            for i in range(1, 7)]
    text = "".join(jointer_read_csv(v) for v in vals[:3])
    text += "# population: other\n" + "".join(jointer_read_csv(v) for v in vals[3:])
    f.write_text(text)
    runs = jt.read_samples(str(f), "first")
    assert [(r.population, r.line) for r in runs] == [
        ("first", 2), ("first", 7), ("first", 12), ("other", 18), ("other", 23), ("other", 28)]
    assert [r.values for r in runs] == [{k: float(x) for k, x in v.items()} for v in vals]
    rc, out, err = tool(f)
    assert rc == 1 and err == ("jointer-topology: error: %s:2: no population: give the file as "
                               "POPULATION=%s or put '# population: NAME' before its runs\n" % (f, f))


def test_perf_stat_csv_runs(tmp_path):
    def perf_run(cyc, ins, header=True):
        s = "# started on Sun Nov 22 05:00:00 2026\n\n" if header else ""
        return s + ("%d,,cycles:u,1204272,100.00,,\n%d,,instructions:u,1204272,100.00,0.70,insn per cycle\n"
                    "1.20,msec,task-clock:u,1204272,100.00,0.697,CPUs utilized\n\n" % (cyc, ins))
    f = tmp_path / "perf.txt"
    f.write_text("# population: A\n" + perf_run(10, 20) + perf_run(11, 22) + perf_run(12, 25)
                 + "# population: B\n" + perf_run(5, 1, False) + perf_run(6, 2, False) + perf_run(9, 3, False))
    runs = jt.read_samples(str(f))
    assert [(r.population, r.line) for r in runs] == [
        ("A", 4), ("A", 10), ("A", 16), ("B", 21), ("B", 25), ("B", 29)]
    assert runs[1].values == {"cycles:u": 11.0, "instructions:u": 22.0, "task-clock:u": 1.2}
    assert runs[5].values == {"cycles:u": 9.0, "instructions:u": 3.0, "task-clock:u": 1.2}


def test_wide_csv_repeated_header_ignored_column_and_population_argument(tmp_path):
    f = tmp_path / "w.csv"
    f.write_text("time_ms,x,y\n1.0,1,2\n2.0,2,4\ntime_ms,x,y\n3.5,3,7\n")
    runs = jt.read_samples(str(f), "pop", ignore=["time_ms"])
    assert [(r.population, r.line, r.values) for r in runs] == [
        ("pop", 2, {"x": 1.0, "y": 2.0}), ("pop", 3, {"x": 2.0, "y": 4.0}), ("pop", 5, {"x": 3.0, "y": 7.0})]


def test_example_in_doc_runs(tmp_path):
    header, rows = synth_paper_rows()
    write_wide(tmp_path / "regen.csv", header, rows)
    body = [x for x in open(EXAMPLE).read().splitlines(True) if not x.startswith("#")]
    assert "".join(body) == (tmp_path / "regen.csv").read_text()
    rc, out, err = tool(EXAMPLE, "--basic-paths", PAPER_BP, "--dot", tmp_path / "e.dot")
    assert rc == 0, err
    assert sorted((tmp_path / "e.dot").read_text().splitlines()) == sorted(PAPER_DOT.splitlines())
    assert out.startswith("jointer-topology: 7 populations, 84 runs, 22 events; threshold 0.9 (r), "
                          "min count 0, shared intersection\n")


# ---------------------------------------------------------------- end to end: the jointer CLI

@pytest.fixture(scope="module")
def jointer_cli(tmp_path_factory):
    """The jointer CLI over the Y9 fixture descriptor, built as drivers.mk's
    cli-fixture does (-O0 to keep the test fast)."""
    d = os.path.join(ROOT, "drivers")
    tmp = tmp_path_factory.mktemp("cli")
    out = str(tmp / "jointer-accel_mon")
    # the fixture's descriptor, generated from drivers/tests/fixtures/accel_mon.yaml as drivers.mk does
    subprocess.run([sys.executable, "-m", "jointer_gen", os.path.join(d, "tests", "fixtures", "accel_mon.yaml"),
                    "-o", str(tmp / "gen"), "-q"], check=True, timeout=120,
                   env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "gen")))
    c = str(tmp / "gen" / "accel_mon" / "c")
    # the whole library (as DRV_LIB of drivers.mk), the CLI, the fixture descriptor
    srcs = sorted(os.path.join(d, "src", f) for f in os.listdir(os.path.join(d, "src")) if f.endswith(".c")) \
        + sorted(os.path.join(d, "cli", f) for f in os.listdir(os.path.join(d, "cli")) if f.endswith(".c")) \
        + [os.path.join(c, "accel_mon.c")]
    cmd = ["gcc", "-std=c99", "-O0", "-I" + d + "/include", "-I" + d + "/src", "-I" + d + "/tests",
           "-I" + c, "-DJOINTER_CLI_CFG=accel_mon_cfg"]
    subprocess.run(cmd + srcs + ["-o", out], check=True, timeout=120)
    spec = importlib.util.spec_from_file_location("jointer_test_cli", os.path.join(d, "tests", "test_cli.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return out, mod


def test_jointer_cli_read_csv_end_to_end(tmp_path, jointer_cli):
    exe, cli = jointer_cli
    dev = cli.Device(str(tmp_path), "y9", cli.Y9, "ACCEL_MON")
    env = dict(os.environ, JOINTER_UIO_SYSFS=dev.sysfs)
    r = cli.Y9
    rng = random.Random(9)
    files = {}
    # compute: mac_fires + compute_cycles; store: + bytes_written; forward: + forward_fires
    for pop, active in (("compute", "A"), ("store", "AB"), ("forward", "ABC")):
        path = tmp_path / (pop + ".csv")
        with open(path, "w") as f:
            for _ in range(6):
                mac = rng.randint(100, 1000) if "A" in active else 0
                byt = rng.randint(1000, 4000000) if "B" in active else 0
                fwd = rng.randint(1, 1000) if "C" in active else 0
                cyc = 7 * mac + 3 + (5 << 32) if "A" in active else 0
                dev.poke(r["ACCEL_MON_MAC_FIRES_RESULT"], mac)
                dev.poke(r["ACCEL_MON_COMPUTE_CYCLES_RESULT"], cyc & 0xFFFFFFFF)
                dev.poke(r["ACCEL_MON_COMPUTE_CYCLES_RESULT"] + 4, cyc >> 32)
                dev.poke(r["ACCEL_MON_BYTES_WRITTEN_RESULT"], byt)
                dev.poke(r["ACCEL_MON_FORWARD_FIRES_RESULT"], fwd)
                p = subprocess.run([exe, "--device", "uio:" + dev.path, "read", "--format", "csv"],
                                   env=env, capture_output=True, text=True, timeout=30)
                assert p.returncode == 0, p.stderr
                assert p.stdout == jointer_read_csv(dict(bytes_written=byt, compute_cycles=cyc,
                                                         forward_fires=fwd, mac_fires=mac))
                f.write(p.stdout)
        files[pop] = path
    rc, out, err = tool(*["%s=%s" % (p, f) for p, f in files.items()], "--dot", tmp_path / "y9.dot")
    assert rc == 0, err
    assert "\n  BP1   compute_cycles, mac_fires\n  BP2   bytes_written\n  BP3   forward_fires\n" in out
    assert "\nTopology (transitive reduction): 2 edges\n  BP2 -> BP1\n  BP3 -> BP2\n" in out
    assert (tmp_path / "y9.dot").read_text() == """digraph topology {
\tgraph [rankdir=BT]
\tnode [fontname=Helvetica shape=box]
\tBP1 [label="BP1\\ncompute_cycles, mac_fires"]
\tBP2 [label="BP2\\nbytes_written"]
\tBP3 [label="BP3\\nforward_fires"]
\tBP2 -> BP1
\tBP3 -> BP2
}
"""


# ---------------------------------------------------------------- bad input

BAD = [
    ("wide.csv", "population,x,y\np,1,2\np,2\n", [], "{f}:3: 2 fields, the header has 3"),
    ("wide.csv", "population,x,y\np,1,2\np,2,abc\n", [], "{f}:3: column 'y': 'abc' is not a number"),
    ("wide.csv", "population,x,x\n", [], "{f}:1: column 'x' appears twice in the header"),
    ("wide.csv", "x,y\n1,2\n", [], "{f}:1: no 'population' column: add one, or give the file as "
                                    "POPULATION={f}"),
    ("wide.csv", "population,x,y\np,1,2\np,2,3\nq,1,1\n", [],
     "{f}:2: population 'p' has 2 runs, a correlation needs at least 3"),
    ("wide.csv", "population,x,y\n", [], "{f}: a header and no runs"),
    ("wide.csv", "", [], "{f}: no samples (the file is empty)"),
    ("p.txt", "1.001048,1234,,cycles,1204272,100.00,,\n", ["pop="],
     "{f}:1: not a header (it has numbers): expected a CSV header (population and event names), "
     "`jointer read --format csv` output or `perf stat -x,` lines (without -I/-A/--per-*)"),
    ("p.txt", "# started on Sun Nov 22 05:00:00 2026\n\n1.001048,1234,,cycles,1204272,100.00,,\n", ["pop="],
     "{f}:3: empty event name (perf stat -I/-A/--per-* output is not accepted: one line per event and run)"),
    ("j.csv", "lmic,sniffer,metric,width,value\na,s,m,8,1\na,s,m,8,2\n", ["pop="],
     "{f}:3: metric 'm' twice in one `jointer read` output (run started at line 2)"),
    ("j.csv", "lmic,sniffer,metric,width,value\na,s,m,8,-1\n", ["pop="],
     "{f}:2: value '-1' is not an unsigned integer"),
    ("j.csv", "lmic,sniffer,metric,width,value\na,s,m,8,1\nlmic,sniffer,metric,width,value\na,s,n,8,1\n",
     ["pop="], "{f}:4: the run has not the events of {f}:2; missing: m; extra: n"),
    ("p.txt", "<not counted>,,cycles,0,0.00,,\n", ["pop="],
     "{f}:1: event 'cycles' is <not counted>: drop it from the perf command line or give it its own counter"),
    ("p.txt", "10,,cycles,0.12%,1204,100.00,,\n", ["pop="],
     "{f}:1: a variance column (perf stat -r): record one run per `perf stat` instead"),
    ("t.tsv", "Population\tBasic Paths\np\tA, , B\n", ["--populations"], "{f}:2: empty item in 'A, , B'"),
    ("t.tsv", "p A, B\n", ["--populations"], "{f}:1: expected NAME<TAB>ITEM, ITEM, ... (no tab)"),
    ("t.tsv", "p\tA\np\tB\n", ["--populations"], "{f}:2: 'p' already defined at line 1"),
    ("t.tsv", "p\tCORE, XX\n", ["--basic-paths", PAPER_BP, "--populations"],
     "{f}:1: Basic Path 'XX' of population 'p' is not in the Basic Path table "
     "(CORE, L1D, L1M, L2M, L2WB, LD, ST)"),
]


@pytest.mark.parametrize("name,text,pre,msg", BAD, ids=[b[3].split(": ", 1)[1][:40] for b in BAD])
def test_bad_input_file_line_exit_1_nothing_written(tmp_path, name, text, pre, msg):
    f = tmp_path / name
    f.write_text(text)
    dot = tmp_path / "out.dot"
    if pre and pre[-1] == "pop=":
        args = pre[:-1] + ["pop=%s" % f]
    else:
        args = pre + [f]
    rc, out, err = tool(*args, "--dot", dot)
    assert (rc, out, err) == (1, "", "jointer-topology: error: %s\n" % msg.format(f=f))
    assert not dot.exists() and sorted(os.listdir(tmp_path)) == [name]


@pytest.mark.parametrize("args,msg", [
    ([], "no input: give counter samples ([POPULATION=]FILE ...) or --populations TSV"),
    (["x.csv", "--populations", PAPER_POP], "give counter samples or --populations, not both"),
    (["--populations", PAPER_POP, "--threshold", "1.5"], "--threshold must be in (0, 1], got 1.5"),
    (["--populations", PAPER_POP, "--intersection", "some"], None),
])
def test_usage_errors_exit_2(args, msg):
    rc, out, err = tool(*args)
    assert rc == 2 and out == "" and err.startswith("usage: jointer-topology")
    if msg:
        assert err.endswith("jointer-topology: error: %s\n" % msg)
    else:
        assert "argument --intersection: invalid choice: 'some'" in err


def test_missing_file_and_unwritable_output(tmp_path):
    rc, out, err = tool("p=%s" % (tmp_path / "none.csv"))
    assert rc == 1 and err == "jointer-topology: error: %s: cannot read: No such file or directory\n" % (
        tmp_path / "none.csv")
    rc, out, err = tool("--populations", PAPER_POP, "--dot", tmp_path / "a.dot",
                        "--svg", tmp_path / "no" / "t.svg")
    assert rc == 1 and "cannot write: No such file or directory" in err
    assert os.listdir(tmp_path) == []                      # a.dot not written either


def test_executable_wrapper_exit_codes(tmp_path):
    f = tmp_path / "bad.csv"
    f.write_text("population,x\np,1\np,oops\n")
    assert run_tool(f) == (1, "", "jointer-topology: error: %s:3: column 'x': 'oops' is not a number\n" % f)
    rc, out, err = run_tool("--threshold", "0", "--populations", PAPER_POP)
    assert rc == 2 and out == "" and err.endswith("jointer-topology: error: --threshold must be in (0, 1], got 0\n")
    assert "Traceback" not in err


def test_table_equal_population_sets_absent_and_unrelated_basic_paths():
    # B and D always appear together: neither implies the other; C in no
    # population; E alone in r, unrelated to everything
    topo = jt.topology_from_table([("p", ["A"]), ("q", ["A", "B", "D"]), ("r", ["E"])],
                                  [("A", ["a"]), ("B", ["b"]), ("C", ["c"]), ("D", ["d1", "d2"]), ("E", ["e"])])
    assert topo.implications == [("B", "A"), ("D", "A")] and topo.edges == [("B", "A"), ("D", "A")]
    assert topo.absent == ["C"]
    assert jt.to_dot(topo) == """digraph topology {
\tgraph [rankdir=BT]
\tnode [fontname=Helvetica shape=box]
\tA [label="A\\na"]
\tB [label="B\\nb"]
\tD [label="D\\nd1, d2"]
\tE [label="E\\ne"]
\tB -> A
\tD -> A
}
"""
    text = jt.to_text(topo)
    assert text.endswith("Topology (transitive reduction): 2 edges\n  B -> A\n  D -> A\n  unrelated: E\n\n"
                         "Basic Paths in no population (not in the topology): C\n")


def test_outputs_get_the_umask_mode_not_0600(tmp_path):
    """--dot/--svg/--table files are written like any file (0666 & ~umask), not 0600."""
    dot = tmp_path / "t.dot"
    old = os.umask(0o022)
    try:
        rc, _, err = run_tool("--populations", PAPER_POP, "--basic-paths", PAPER_BP, "--dot", dot)
    finally:
        os.umask(old)
    assert rc == 0, err
    assert stat.S_IMODE(dot.stat().st_mode) == 0o644


def test_python_module_command_is_the_tool(tmp_path):
    """`python3 -m jointer topology ARGS` is jointer-topology ARGS: same
    output, same exit code, same errors (the installed host package's way in)."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "drivers", "python"))
    args = ["--populations", PAPER_POP, "--basic-paths", PAPER_BP]
    mod = subprocess.run([sys.executable, "-m", "jointer", "topology"] + args + ["--dot", str(tmp_path / "m.dot")],
                         capture_output=True, text=True, timeout=60, env=env)
    rc, out, err = run_tool(*args, "--dot", tmp_path / "w.dot")
    assert (mod.returncode, rc) == (0, 0), mod.stderr + err
    assert mod.stdout.replace("m.dot", "X") == out.replace("w.dot", "X")
    assert (tmp_path / "m.dot").read_text() == (tmp_path / "w.dot").read_text()
    bad = subprocess.run([sys.executable, "-m", "jointer", "topology", str(tmp_path / "none.csv")],
                         capture_output=True, text=True, timeout=60, env=env)
    assert bad.returncode == 1 and bad.stderr.startswith("jointer-topology: error: ")
