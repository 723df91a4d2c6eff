# SPDX-License-Identifier: MIT
"""scripts/impl.py without the tools: the routed-timing fragment shows, beside
each routed Fmax, the same domain's xc7 LUT levels and first-order estimate
from the config-resources fragment of the same bench run (empty without it),
the slack against the YAML clock, the goal (250 MHz where sniffers run,
200 for the AXI4-Lite clock alone, at least the YAML clock + 10 %) and
whether it is met; the wb2axip source is refused with a
one-line error when it holds no pinned commit."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import impl  # noqa: E402


def result(name, fmax):
    return {"name": name, "top": name, "clocks_mhz": {"s_axi_aclk": 100.0, "pl_clk": 156.25},
            "roles": {"s_axi_aclk": "bus", "pl_clk": "sniffer"},
            "variants": {"s_axi_aclk": "small", "pl_clk": "split counter (1 DCAPFs)"},
            "cells": {"LUT4": 10, "FF": 20, "CCU2C": 3, "DP16KD": 0, "DPR16X4": 1}, "seeds_n": 3,
            "packed": {"TRELLIS_COMB": 17},
            "grades": {"8": {"s_axi_aclk": {"fmax": fmax, "target": 100.0, "seeds": [fmax, fmax + 5, fmax + 9],
                                            "start": "a", "end": "b"},
                             "pl_clk": {"fmax": 125.0, "target": 156.2, "seeds": [125.0]}}}}


def rows(frag):
    return json.loads(frag.read_text())["tables"][0]["rows"]


def test_fragment_levels_beside_routed(tmp_path):
    (tmp_path / "config-resources.json").write_text(json.dumps({"section": "s", "figures": [], "tables": [
        {"title": "t", "columns": ["config", "clock domain", "LUT levels", "goal", "within", "est. Fmax MHz",
                                   "YAML clock MHz", "meets"],
         "rows": [["mon", "s_axi_aclk", 5, 4, "no", 278, 100, "yes"]]}]}))
    frag = tmp_path / "impl.json"
    impl.fragment([result("mon", 200.0)], frag, 3)
    got = {r[1]: r for r in rows(frag)}
    # monitor, clock, grade, target, Fmax, slack = 10 - 5 ns, goal, met, meets YAML + 10 %,
    # blocks, levels, estimate, path
    assert got["s_axi_aclk"] == ["mon", "s_axi_aclk", "8", "100", 200.0, 5.0, 200.0, "yes", "yes", "small",
                                 5, 278, "a -> b"]
    assert got["pl_clk"][5] == round(6.4 - 8.0, 2) and got["pl_clk"][10:12] == ["", ""]   # negative slack
    assert got["pl_clk"][6:10] == [250.0, "no", "no", "split counter (1 DCAPFs)"]


def test_fragment_without_levels(tmp_path):
    frag = tmp_path / "impl.json"
    impl.fragment([result("mon", 50.0)], frag, 3)
    assert rows(frag)[0][5:12] == [-10.0, 200.0, "no", "no", "small", "", ""]


def test_domains_meeting_yaml(tmp_path):
    # 100 MHz + 10 % = 110: 111 meets, 109.9 does not; pl (156.25 -> 171.9) at 125 never
    frag = tmp_path / "impl.json"
    impl.fragment([result("a", 111.0), result("b", 109.9)], frag, 3)
    data = json.loads(frag.read_text())
    assert "Grade 8: 1 of 4 domains meet their YAML clock + 10 %." in data["text"]
    fig = next(f for f in data["figures"] if f["name"].startswith("domains meeting"))
    assert (fig["value"], fig["anchor"]) == (1, 4)


def test_goals():
    assert impl.goal_mhz("sniffer", 100.0) == 250.0 and impl.goal_mhz("bus", 100.0) == 200.0
    assert impl.goal_mhz("bus", 200.0) == 220.0       # the YAML clock + 10 % when it is higher
    assert impl.goal_mhz(None, 100.0) is None          # the anchor: no goal


def test_wb2axip_without_the_commit(tmp_path, monkeypatch):
    monkeypatch.setattr(impl, "BUILD", tmp_path / "impl")
    empty = tmp_path / "empty.git"
    subprocess.run(["git", "init", "--bare", "-q", str(empty)], check=True)
    with pytest.raises(SystemExit) as e:
        impl.wb2axip(str(empty))
    assert f"no commit {impl.WB2AXIP_COMMIT}" in str(e.value) and "\n" not in str(e.value)
