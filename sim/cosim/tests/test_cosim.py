# SPDX-License-Identifier: MIT
"""Co-simulation tests (sim/cosim/README.md): every scenario of scenarios/ in
Verilator and in GHDL; each must pass its exact expectations and both
simulators must report identical metrics, transaction counts and simulated
time, and log the same AXI handshakes of their bus models, cycle by cycle. Plus checks that the machinery can fail: a wrong expectation fails, a
difference between the simulators is reported, GHDL's Verilog is repaired.

Run alone: python3 -m pytest -q sim/cosim/tests/test_cosim.py (-n 2 splits the
scenarios; the Verilator models are built once, under a lock, and cached in
build/cosim/).
"""

import importlib.util
import json
import sys
from pathlib import Path

import pytest
import yaml

COSIM = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("cosim_run", COSIM / "run.py")
cosim_run = importlib.util.module_from_spec(_spec)
sys.modules["cosim_run"] = cosim_run
_spec.loader.exec_module(cosim_run)

SCENARIOS = sorted((COSIM / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.stem for s in SCENARIOS])
def test_scenario(scenario):
    data = yaml.safe_load(scenario.read_text())
    assert data.get("expect"), f"{scenario.name}: a scenario needs exact expectations"
    ok, reports, diffs = cosim_run.run_scenario(scenario, handshakes=True)
    assert set(reports) == {"verilator", "ghdl"}
    assert not diffs, f"{scenario.stem}: the simulators differ: {diffs}"
    for sim, rep in reports.items():
        failed = [c for c in rep["checks"] if not c["ok"]]
        assert rep["pass"], (f"{scenario.stem} in {sim}: app_rc {rep['app_rc']}, "
                             f"errors {rep['errors']}, failed checks {failed}")
        assert rep["checks"], f"{scenario.stem} in {sim}: nothing was checked"
    assert ok


def test_wrong_expectation_fails(tmp_path):
    """A scenario whose expectation is off by one must fail (GHDL: cheap)."""
    src = COSIM / "scenarios" / "two_clocks.yaml"
    data = yaml.safe_load(src.read_text())
    data["scenario"] = "selftest_wrong_expect"
    data["expect"]["gpio_write_bytes"] += 1
    path = tmp_path / "wrong.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    ok, reports, _ = cosim_run.run_scenario(path, sims=("ghdl",), show=False)
    assert not ok
    bad = [c for c in reports["ghdl"]["checks"] if not c["ok"]]
    assert [c["name"] for c in bad] == ["gpio_write_bytes"]
    assert bad[0]["got"] == bad[0]["expected"] - 1


def test_wrong_cut_bursts_fails(tmp_path):
    """The memory model's cut_bursts is checked like any metric: the reset of
    sink_reset_mid_burst cuts exactly one burst, so expecting none fails
    (GHDL: cheap), and that is the only check that fails."""
    data = yaml.safe_load((COSIM / "scenarios" / "sink_reset_mid_burst.yaml").read_text())
    data["scenario"] = "selftest_wrong_cut_bursts"
    data["expect"]["mem.m_axi_ev_sink.cut_bursts"] = 0
    path = tmp_path / "wrong_cut.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    ok, reports, _ = cosim_run.run_scenario(path, sims=("ghdl",), show=False)
    assert not ok
    bad = [c for c in reports["ghdl"]["checks"] if not c["ok"]]
    assert [(c["name"], c["got"]) for c in bad] == [("mem.m_axi_ev_sink.cut_bursts", 1)]


def test_unrepaired_verilog_is_caught(tmp_path):
    """Without run.py's repair of GHDL's >32-bit constants (ghdl/ghdl#2002),
    Verilator reads wrong results: the comparison with GHDL must catch it."""
    data = yaml.safe_load((COSIM / "scenarios" / "two_clocks.yaml").read_text())
    data["scenario"] = "selftest_unrepaired"
    path = tmp_path / "raw.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    sc = cosim_run.load_scenario(path)
    gdir, man = cosim_run.generate(sc.config)
    model = cosim_run.Model(sc, gdir, man, repair=False)
    model.verilog()
    if model.repairs == 0:
        pytest.skip("this GHDL writes no string constants: nothing to catch")
    ok, reports, diffs = cosim_run.run_scenario(path, show=False, repair=False)
    assert not ok and not reports["verilator"]["pass"] and reports["ghdl"]["pass"]
    assert any(d.startswith("metrics.gpio_write_bytes:") for d in diffs), diffs


def test_simulator_difference_is_reported():
    a = {"app_rc": 0, "metrics": {"x": 1, "y": 2}, "sim_time_ps": 10, "cycles": {"bus": 1}}
    b = json.loads(json.dumps(a))
    assert cosim_run.compare({"verilator": a, "ghdl": b}) == []
    b["metrics"]["y"] = 3
    b["sim_time_ps"] = 20
    d = cosim_run.compare({"verilator": a, "ghdl": b})
    assert any(s.startswith("metrics.y:") for s in d) and any(s.startswith("sim_time_ps:") for s in d)


def test_ghdl_verilog_string_constants_are_rewritten():
    """ghdl/ghdl#2002: >32-bit constants come out as Verilog strings."""
    text = ('  assign n1_o = n2_o & "0000000000000000000000000000000011111111111111111111111111111111";'
            '  // (signal)\n  localparam [33:0] n3_o = "00X1";\n  /* x.vhd:1:1 */\n')
    fixed, n = cosim_run.ghdl_verilog.fix_string_constants(text)
    assert n == 2
    assert "64'b0000000000000000000000000000000011111111111111111111111111111111" in fixed
    assert "4'b00x1" in fixed and '"' not in fixed.split("//")[0]
    with pytest.raises(cosim_run.ghdl_verilog.VerilogError):
        cosim_run.ghdl_verilog.fix_string_constants('  assign a = "hello";\n')
