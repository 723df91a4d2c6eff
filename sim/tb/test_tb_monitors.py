# SPDX-License-Identifier: MIT
"""The generated testbench against the RTL (GHDL): the slice `make test` runs.

- every_kind (sim/tb/configs/, one sniffer of each interfacer kind, two
  clocks) and the issue's stream + DMA monitor (sim/cosim/scenarios/configs/
  stream_dma.yaml) pass, every value equal to the reference model, and the
  traffic reached every sniffer (event instances on each);
- the testbench can fail: the same flow on a monitor whose generated VHDL was
  changed (the AXI4 sniffer's emitter counting ones instead of bytes) fails
  on exactly that metric, the others still equal;
- a stimulus module of the user's own (the README's example) takes over a
  sniffer and fixes its mode: its metrics are what it drove, exactly.
The wide runs (every configs/*.yaml monitor, three seeds): `make sim-all`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SIM = Path(__file__).resolve().parents[1]
REPO = SIM.parent
CYCLES = 1200


def env() -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(SIM), str(REPO / "gen")])}


def run_tb(config: Path, out: Path, seed: int, *extra: str) -> tuple[int, dict, str]:
    """python3 -m jointer_tb CONFIG (generate + run): (exit status, report.json, output)."""
    p = subprocess.run([sys.executable, "-m", "jointer_tb", str(config), "--out", str(out), "--seed", str(seed),
                        "--cycles", str(CYCLES), *extra], capture_output=True, text=True, env=env(), timeout=1200)
    report = next(out.glob("run/*/report.json"), None)
    return p.returncode, json.loads(report.read_text()) if report else {}, p.stdout[-6000:] + p.stderr[-3000:]


@pytest.mark.parametrize("config,seed", [(SIM / "tb" / "configs" / "every_kind.yaml", 1),
                                         (SIM / "cosim" / "scenarios" / "configs" / "stream_dma.yaml", 2)],
                         ids=["every_kind", "stream_dma"])
def test_monitor_passes(tmp_path, config, seed):
    rc, report, out = run_tb(config, tmp_path, seed)
    assert rc == 0, out
    assert report["seed"] == seed and report["rows"] and all(r["ok"] for r in report["rows"])
    # every event source of every sniffer saw traffic (a sniffer of several sources: by source)
    per_source = {(s, k): sum(v) for s, c in report["coverage"].items()
                  for k, v in (c["events"].items() if isinstance(c["events"], dict) else [("", c["events"])])}
    quiet = [f"{s}{'.' + k if k else ''}" for (s, k), n in per_source.items() if n == 0]
    assert quiet == [], f"no event instance on {quiet}"


def test_a_changed_monitor_fails(tmp_path):
    """bytes_written counts bursts (increment one) in the RTL: that row differs, the others agree."""
    out = tmp_path / "gen"
    subprocess.run([sys.executable, "-m", "jointer_gen", str(REPO / "configs" / "selective_accumulations.yaml"),
                    "-o", str(out), "-q"], env=env(), check=True)
    gen = out / "selective_accumulations"
    cfg = gen / "hdl" / "selective_accumulations_config.vhd"
    text, n = re.subn(r"(sn_transaction_increment_c\s*:\s*natural\s*:=\s*)increment_bytes_c", r"\1increment_one_c",
                      cfg.read_text())
    assert n == 1
    cfg.write_text(text)
    p = subprocess.run([sys.executable, str(gen / "tb" / "run.py"), "--seed", "5", "--cycles", str(CYCLES),
                        "--build", str(tmp_path / "run")], capture_output=True, text=True, env=env(), timeout=1200)
    assert p.returncode == 1, p.stdout[-4000:]
    rows = json.loads((tmp_path / "run" / "report.json").read_text())["rows"]
    bad = [r for r in rows if not r["ok"]]
    assert [r["what"] for r in bad] == ["bytes_written"], bad
    assert bad[0]["got"] < bad[0]["expected"]
    assert "1 of" in p.stdout and "values differ from the reference model" in p.stdout


STIMULUS = '''
from cocotb.triggers import RisingEdge

SNIFFERS = ["operation"]                 # its random traffic is replaced by this module's
MODES = {"operation": "no_filtering"}    # and its mode fixed


async def stimulus(tb):
    """37 forward firings (lane 0), one every 3 cycles of the accelerator's clock."""
    events, clk = tb.dut.operation_events, tb.clk["accel"]
    for _ in range(37):
        events.value = 0b01
        await RisingEdge(clk)
        events.value = 0
        for _ in range(2):
            await RisingEdge(clk)
'''


def test_own_stimulus(tmp_path):
    stim = tmp_path / "my_stim.py"
    stim.write_text(STIMULUS)
    rc, report, out = run_tb(REPO / "configs" / "selective_accumulations.yaml", tmp_path, 7, "--stim", str(stim))
    assert rc == 0, out
    got = {r["what"]: r["got"] for r in report["rows"]}
    assert got["forward_fires"] == 37 and got["mac_fires"] == 0
    assert report["modes"]["operation"] == "no_filtering" and all(r["ok"] for r in report["rows"])


def test_own_stimulus_naming_no_sniffer(tmp_path):
    stim = tmp_path / "bad_stim.py"
    stim.write_text(STIMULUS.replace('SNIFFERS = ["operation"]', 'SNIFFERS = ["operations"]'))
    rc, _, out = run_tb(REPO / "configs" / "selective_accumulations.yaml", tmp_path, 7, "--stim", str(stim))
    assert rc == 1
    assert "SNIFFERS / MODES name ['operations'], not sniffers of selective_accumulations" in out
