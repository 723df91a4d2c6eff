# SPDX-License-Identifier: MIT
"""Co-simulation: the Python API drives the GHDL model of a generated monitor
(sim/cosim, scenario two_clocks: two LMICs on unrelated clocks, AXI4-Lite
traffic) through the same simulation seam the C applications use
(platform_monitor_io of platform_ghdl.c), with sim/cosim/apps/py_scenario.py
in place of scenario.c. Its report must pass the scenario's expectations
and equal the C application's, metric for metric."""
import os
import sys

from conftest import REPO

SCENARIO = os.path.join(REPO, "sim", "cosim", "scenarios", "two_clocks.yaml")


def test_python_app_equals_the_c_app(monkeypatch):
    sys.path.insert(0, os.path.join(REPO, "sim", "cosim"))
    import run as cosim_run
    ok_c, rep_c, _ = cosim_run.run_scenario(SCENARIO, sims=("ghdl",), show=False)
    monkeypatch.setenv("COSIM_PY_APP", os.path.join(REPO, "sim", "cosim", "apps", "py_scenario.py"))
    ok_p, rep_p, _ = cosim_run.run_scenario(SCENARIO, sims=("ghdl",), show=False)
    c, p = rep_c["ghdl"], rep_p["ghdl"]
    assert ok_c, c.get("errors")
    assert ok_p and p["app_rc"] == 0, (p.get("errors"), p.get("app_output", "")[-3000:])
    assert [k["name"] for k in p["checks"] if k["ok"]] == [k["name"] for k in c["checks"] if k["ok"]]
    assert p["metrics"].pop("py_app") == 1 and "py_app" not in c["metrics"]   # the Python app ran
    # the C app's readings of the host's clock (host_ns.*: a timeline's sync) are its own
    mine = lambda m: {k: v for k, v in m.items() if not k.startswith("host_ns.")}  # noqa: E731
    assert mine(p["metrics"]) == mine(c["metrics"])
    assert p["metrics"]["gpio_write_bytes"] == 300 and p["metrics"]["dma_read_bytes"] == 832
