# SPDX-License-Identifier: MIT
"""Smoke test of the make bench report machinery (scripts/bench_report.py,
scripts/bench_resources.py) on one small monitor description: the config
resources fragment (generate + ghdl synth + yosys), a library fragment, the
paper's exploration designs (descriptions derived from the Y9 config, wrappers
analysed by GHDL; no synthesis here: `make explore-bench` does it), a generic
fragment as other bench targets write them, then report.json / report.md with
every field of every figure. The full report is `make bench`, not part of
`make test`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import bench_report  # noqa: E402
import bench_resources  # noqa: E402

SMALL = """\
jointer: 1
monitor:
  name: bench_smoke
  bus: {addr_width: 12}
  clocks: [{name: axi, period_ns: 10}]
lmics:
  - name: m
    clock: axi
    sniffers:
      - name: ops
        interfacer: {type: events, width: 1}
        dcapfs:
          - {name: fires, extractor: event, event: 0, width: 8, filter: none}
"""

# the TECS paper's Table 3 minus Y0 (LUT, FF)
PAPER_DELTAS = {"Y1": (278, 299), "Y2": (100, 228), "Y3": (81, 179), "Y4": (94, 194), "Y5": (119, 234),
                "Y6": (305, 353), "Y7": (293, 319), "Y8": (115, 248), "Y9": (321, 373)}
# the TECS paper's Table 2: levels, operation events, bits per event
TABLE2 = {"Y1": ("transaction", 0, 0), "Y2": ("task", 0, 0), "Y3": ("operation", 1, 5),
          "Y4": ("operation", 2, 10), "Y5": ("operation", 3, 20), "Y6": ("transaction task", 0, 0),
          "Y7": ("transaction operation", 2, 10), "Y8": ("task operation", 2, 10),
          "Y9": ("transaction task operation", 2, 10)}


def script(*args, cwd=REPO):
    r = subprocess.run([sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bench")
    frags = tmp / "bench" / "fragments"
    cfg = tmp / "bench_smoke.yaml"
    cfg.write_text(SMALL)
    # relative paths, as make passes them
    out = script(REPO / "scripts" / "bench_resources.py", "configs", cfg.name, "--out", "bench",
                 "--fragment", "bench/fragments/config-resources.json", cwd=tmp)
    # the library fragment from hdl_check's own table, two entities
    lib_json = tmp / "hdl_resources.json"
    script(REPO / "scripts" / "hdl_check.py", "resources", "--top", "jointer_dcapf_counter",
           "--top", "jointer_eig_events", "--workdir", tmp / "lib", "--json", lib_json)
    script(REPO / "scripts" / "bench_resources.py", "library", lib_json,
           "--fragment", frags / "hdl-resources.json")
    # a fragment as another helper's target writes it (section + figures only)
    (frags / "other.json").write_text(json.dumps({"section": "Some other figure", "figures": [
        {"name": "rate", "value": 3.5, "unit": "MB/s", "anchor": 2, "anchor_source": "a paper",
         "note": "n"}, {"name": "label", "value": "x", "unit": "", "anchor": None,
                        "anchor_source": None, "note": ""}]}))
    summary = script(REPO / "scripts" / "bench_report.py", "run", "--build", tmp)  # no target: report only
    rep = json.loads((tmp / "bench" / "report.json").read_text())
    return {"tmp": tmp, "rep": rep, "md": (tmp / "bench" / "report.md").read_text(),
            "summary": summary, "config_out": out,
            "lib": json.loads(lib_json.read_text())}


def test_every_figure_has_every_field(report):
    rep = report["rep"]
    assert bench_report.check(report["tmp"] / "bench" / "report.json") == []
    assert rep["problems"] == []
    for f in rep["figures"]:
        assert set(bench_report.FIELDS) <= set(f), f
        if isinstance(f["value"], (int, float)) and isinstance(f["anchor"], (int, float)) and f["anchor"]:
            assert f["ratio"] == round(f["value"] / f["anchor"], 4)
        else:
            assert f["ratio"] is None
    sections = {f["section"] for f in rep["figures"]}
    assert sections == {"Resources: generated tops of configs/", "Resources: library entities (default generics)",
                        "Some other figure", "make bench itself"}
    other = [f for f in rep["figures"] if f["section"] == "Some other figure"]
    assert [(f["name"], f["value"], f["unit"], f["anchor"], f["ratio"]) for f in other] == [
        ("rate", 3.5, "MB/s", 2, 1.75), ("label", "x", "", None, None)]


def test_resources_match_hdl_check(report):
    """The fragments carry hdl_check's own counts (LUT, FF, CARRY4 cells)."""
    figs = {f["name"]: f["value"] for f in report["rep"]["figures"]}
    for ent, res in report["lib"].items():
        assert figs[f"{ent} LUT"] == res["lut"]
        assert figs[f"{ent} FF"] == res["ff"]
        assert figs[f"{ent} CARRY4"] == res.get("CARRY4", 0)
    line = [l for l in report["config_out"].splitlines() if l.startswith("[configs 1/1] bench_smoke:")]
    assert len(line) == 1, report["config_out"]
    lut, ff = figs["bench_smoke LUT"], figs["bench_smoke FF"]
    assert f": {lut} LUT" in line[0] and f", {ff} FF," in line[0]
    assert figs["bench_smoke top"] == f"{lut} LUT / {ff} FF"
    assert lut > 0 and ff > 0


def test_markdown_and_summary(report):
    md, summary = report["md"], report["summary"]
    for section in ("Resources: generated tops of configs/", "Resources: library entities (default generics)",
                    "Some other figure", "make bench itself", "Summary"):
        assert f"## {section}" in md
    assert "| bench_smoke | bench_smoke_monitor |" in md
    assert "== make bench summary" in summary
    assert "Some other figure" in summary and "1.75" in summary   # a fragment with no summary flag: all


def test_summarise_counts_lutram_and_bram():
    s = bench_resources.summarise({"lut": 10, "ff": 7, "CARRY4": 2, "RAM32M": 3, "SRLC32E": 2,
                                   "RAMB18E1": 3, "RAMB36E1": 1, "DSP48E1": 4})
    assert s == {"lut": 10, "lut_mem": 10 + 3 * 4 + 2, "ff": 7, "carry4": 2, "bram": 2.5, "dsp": 4}
    with pytest.raises(ValueError):
        bench_resources.summarise({"lut": 1, "ff": 1, "RAM999X": 1})


def test_check_reports_missing_fields(tmp_path):
    bad = {"figures": [{"section": "s", "name": "a", "value": 2, "unit": "u", "anchor": 4,
                        "anchor_source": "x", "note": "", "ratio": 0.4}], "sections": [], "commit": "c",
           "cpus": 2, "problems": []}
    (tmp_path / "r.json").write_text(json.dumps(bad))
    assert bench_report.check(tmp_path / "r.json") == ["figure 0 (a): ratio 0.4 != value / anchor"]
    del bad["figures"][0]["note"]
    bad["figures"][0]["ratio"] = 0.5
    (tmp_path / "r.json").write_text(json.dumps(bad))
    assert bench_report.check(tmp_path / "r.json") == ["figure 0 (a): no 'note'"]


def test_exploration_table_is_the_papers():
    v = {x[0]: x for x in bench_resources.VARIANTS}
    y0 = v["Y0"]
    assert {n: (x[5] - y0[5], x[6] - y0[6]) for n, x in v.items() if n != "Y0"} == PAPER_DELTAS
    base = yaml.safe_load((REPO / "configs" / "selective_accumulations.yaml").read_text())
    for name, (levels, events, bits) in TABLE2.items():
        _, trans, task, ev, b = v[name][:5]
        cfg = bench_resources.variant_config(base, name, trans, task, ev, b)
        snif = {s["name"]: s for s in cfg["lmics"][0]["sniffers"]}
        assert " ".join(snif) == levels
        if "transaction" in snif:
            (d,) = snif["transaction"]["dcapfs"]
            assert (d["name"], d["width"], d["extractor"]) == ("bytes_written", 23, "event")
        if "task" in snif:
            (d,) = snif["task"]["dcapfs"]
            assert (d["name"], d["width"], d["extractor"]) == ("compute_cycles", 53, "time")
        if events:
            op = snif["operation"]
            assert op["interfacer"] == {"type": "events", "width": events}
            assert [(d["event"], d["width"]) for d in op["dcapfs"]] == [(i, bits) for i in range(events)]
    # Y9 is configs/selective_accumulations.yaml itself (but its name)
    y9 = bench_resources.variant_config(base, "Y9", True, True, 2, 10)
    assert y9["lmics"] == base["lmics"]


def test_y9_action_transactions_as_cosimulated(tmp_path):
    """The model gives Y9 the count the co-simulated demo expects (sim/cosim/scenarios/demo.yaml)."""
    base = yaml.safe_load((REPO / "configs" / "selective_accumulations.yaml").read_text())
    demo = yaml.safe_load((REPO / "sim" / "cosim" / "scenarios" / "demo.yaml").read_text())
    _, _, tx = bench_resources.explore_design(bench_resources.VARIANTS[-1], tmp_path, base)
    assert tx == demo["expect"]["monitoring_transactions"] == 10


def test_exploration_design_analyses(tmp_path):
    """Y5 (three events, the third from the result writes) and Y6: the generated
    monitor and the wrapper elaborate with the coprocessor under GHDL."""
    import hdl_check
    base = yaml.safe_load((REPO / "configs" / "selective_accumulations.yaml").read_text())
    for name in ("Y5", "Y6"):
        v = next(x for x in bench_resources.VARIANTS if x[0] == name)
        files, top, tx = bench_resources.explore_design(v, tmp_path, base)
        # filter init 3 (transaction) + run + stop + result words: Y5 3 counters, Y6 1 + 2 (53-bit)
        assert tx == {"Y5": 2 + 3, "Y6": 3 + 2 + 3}[name]
        text = files[-1].read_text()
        if name == "Y5":
            assert "operation_events(2) => ev_result" in text
            assert "ev_result <= soc_dma_wvalid and soc_dma_wready;" in text
        else:
            assert "transaction_wvalid => soc_dma_wvalid" in text and "task_done => soc_task_done" in text
            assert 'transaction_awcache => "0011"' in text
        hdl_check.analyse(tmp_path / name.lower() / "work", hdl_check.library_files() + files, [top])
