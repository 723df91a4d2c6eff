# SPDX-License-Identifier: MIT
"""The cycle-by-cycle comparison of the two simulators: the same scenario
(the same stimulus, the same application) runs in Verilator and in GHDL, each
harness logs every AXI handshake of its bus models (the AXI4-Lite masters on
s_axi and acc_axi, the memory on a trace sink's master port: time, clock,
cycle, bus, channel, address / data), and the two logs must be identical line
for line (flow/handshake_compare.py). Both harnesses take their timing from
harness/bus_timing.yaml: a contract changed for one simulator only must be
caught at the first handshake it moves.

Two scenarios cover every bus model: sink_slow (s_axi + the memory under
random back-pressure) and demo (s_axi + acc_axi); each runs under a name of
its own (build/cosim/run/cycle_*), apart from test_cosim.py's runs.
"""

import importlib.util
import sys
from pathlib import Path

import pytest
import yaml

COSIM = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("cosim_run", COSIM / "run.py")
cosim_run = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("cosim_run", cosim_run)
_spec.loader.exec_module(cosim_run)
import handshake_compare  # noqa: E402  (flow/, on the path through run.py)

CASES = {"sink_slow": {("s_axi", "AW"), ("s_axi", "W"), ("s_axi", "B"), ("s_axi", "AR"), ("s_axi", "R"),
                       ("m_axi_ev_sink", "AW"), ("m_axi_ev_sink", "W"), ("m_axi_ev_sink", "B")},
         "demo": {("s_axi", "AW"), ("s_axi", "R"), ("acc_axi", "AW"), ("acc_axi", "W"), ("acc_axi", "B"),
                  ("acc_axi", "AR"), ("acc_axi", "R")}}


def renamed(tmp_path: Path, scenario: str, name: str) -> Path:
    data = yaml.safe_load((COSIM / "scenarios" / f"{scenario}.yaml").read_text())
    data["scenario"] = name
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def channels(log: str) -> set:
    return {tuple(line.split()[3:5]) for line in Path(log).read_text().splitlines()}


@pytest.mark.parametrize("scenario", sorted(CASES))
def test_same_handshakes_cycle_by_cycle(tmp_path, scenario):
    path = renamed(tmp_path, scenario, f"cycle_{scenario}")
    ok, reports, diffs = cosim_run.run_scenario(path, handshakes=True, show=False)
    assert not diffs, diffs
    assert ok
    logs = {s: r["handshakes"] for s, r in reports.items()}
    for s, log in logs.items():
        assert CASES[scenario] <= channels(log), f"{s}: {sorted(CASES[scenario] - channels(log))} never seen"
    end = reports["verilator"]["sim_time_ps"]
    n = len(handshake_compare.read_log(logs["verilator"], end))
    assert n == len(handshake_compare.read_log(logs["ghdl"], end)) and n > 100


def test_contract_changed_for_one_simulator_is_caught(tmp_path):
    """GHDL with the memory's LCG increment one higher (a copy of the contract):
    other AWREADY/WREADY back-pressure, so the first memory handshake it moves
    is reported (with its cycle) while the masters' handshakes before it agree."""
    timing = yaml.safe_load((COSIM / "harness" / "bus_timing.yaml").read_text())
    timing["memory"]["lcg"]["inc"] += 1
    other = tmp_path / "bus_timing.yaml"
    other.write_text(yaml.safe_dump(timing))
    path = renamed(tmp_path, "sink_slow", "cycle_perturbed")
    ok, _, diffs = cosim_run.run_scenario(path, handshakes=True, show=False, timing={"ghdl": other})
    assert not ok
    first = [d for d in diffs if d.startswith("handshake ")]
    assert first and "m_axi_ev_sink" in first[0], diffs


def test_compare_logs_reports_the_first_differences(tmp_path):
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text("20 ev 4 m W 0x1 0xff 0\n10 ps 1 s_axi AR 0x40\n30 ev 6 m B 0\n")
    b.write_text("10 ps 1 s_axi AR 0x40\n20 ev 4 m W 0x1 0xff 0\n30 ev 6 m B 0\n")  # another order, same edge set
    assert handshake_compare.compare_logs(a, b) == []
    b.write_text("10 ps 1 s_axi AR 0x40\n25 ev 5 m W 0x1 0xff 0\n30 ev 6 m B 0\n")  # one beat a cycle later
    assert handshake_compare.compare_logs(a, b) == [
        "handshake 2: verilator 20 ev 4 m W 0x1 0xff 0 != ghdl 25 ev 5 m W 0x1 0xff 0"]
    assert handshake_compare.compare_logs(a, b, end_ps=20) == []     # only what precedes the end
    b.write_text("10 ps 1 s_axi AR 0x40\n")
    assert handshake_compare.compare_logs(a, b)[-1] == "handshakes: verilator 3 != ghdl 1"
    b.write_text("10 ps s_axi\n")
    with pytest.raises(ValueError, match="b.log:1: not a handshake line"):
        handshake_compare.read_log(b)
