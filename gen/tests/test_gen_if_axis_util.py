# SPDX-License-Identifier: MIT
"""The axis_util interfacer kind (interfacers/axis_util.py): AXI4-Stream
utilization through jointer_eig_activity with one channel. Lanes against the
entity's layout (sim/jointer_sim/activity_model.py), lanes by name = by
number, the generated generics, port map, top-level ports and Vivado axis
interface, bad lanes with their exact messages, and the generated VHDL
analysed and elaborated with the library by GHDL."""
import json
import subprocess
import sys

from gentest_util import REPO, run_cli

sys.path.insert(0, str(REPO / "sim"))

YAML = """jointer: 1
monitor: {{name: stream_mon, clocks: [axi]}}
lmics:
  - name: lm
    sniffers:
      - name: st
        interfacer: {{type: axis_util}}
        dcapfs:
          - {{name: busy, extractor: event, event: {busy}, filter: none}}
          - {{name: held, extractor: event, event: {held}, filter: none}}
          - {{name: total, extractor: event, event: 0, width: 40, filter: none}}
"""


def design(busy="transfer", held="stall"):
    from jointer_gen.netlist.elaborate import elaborate
    from jointer_gen.load.loader import loads
    from jointer_gen.load.validate import validate
    src = loads(YAML.format(busy=busy, held=held), "m.yaml")
    return elaborate(validate(src), src, "m.yaml")


def test_lanes_follow_the_entity():
    from jointer_gen.interfacers import KINDS
    from jointer_sim.activity_model import activity_lanes
    names = KINDS["axis_util"].lane_names({})
    assert names == ["cycles", "transfer", "stall", "idle"] and len(names) == activity_lanes(1)


def test_lanes_by_name_are_lanes_by_number():
    d = design()
    sn = d.sniffers[0].model
    assert [dc.event for dc in sn.dcapfs] == [1, 2, 0]
    assert sn.interfacer.lanes == 4 and sn.increment == "one" and sn.data == "stalls"
    same = design(busy="1", held="2")
    assert same.config_hash == d.config_hash


def test_netlist_ports_and_bus_interface():
    d = design()
    sv = d.sniffers[0]
    inst = sv.instances[0]
    assert inst.entity == "jointer_eig_activity"
    assert list(inst.generics) == [("channels_g", "sn_st_channels_c")]
    assert list(inst.ports[:4]) == [("clk", "clk"), ("rst", "rst"), ("mon_valid(0)", "mon_tvalid"),
                              ("mon_ready(0)", "mon_tready")]
    assert [(o.sig, o.width) for o in sv.observed] == [("tvalid", None), ("tready", None)]
    assert [p.name for p in d.top["ports"] if p.name.startswith("st_")] == ["st_tvalid", "st_tready"]
    bif = next(b for b in d.bus_interfaces if b.name == "st")
    assert (bif.kind, bif.mode, bif.port_maps) == ("axis", "monitor",
                                                   [("TVALID", "st_tvalid"), ("TREADY", "st_tready")])
    assert "AXI4-Stream utilization" in sv.summary


def test_bad_lanes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text(YAML.format(busy="stalls", held="4"))
    rc, _, err = run_cli(["bad.yaml", "-o", "out"])
    assert rc == 1
    assert err.splitlines() == [
        "bad.yaml:9:51: error: unknown lane 'stalls' in lmics[lm].sniffers[st].dcapfs[busy] (did you "
        "mean 'stall'? expected a lane of the axis_util interfacer: cycles, transfer, stall, idle; or its "
        "number 0..3)",
        "bad.yaml:10:51: error: event 4 out of range in lmics[lm].sniffers[st].dcapfs[held]: the axis_util "
        "interfacer has 4 lanes (expected 0..3 or a lane name: cycles, transfer, stall, idle)",
        "jointer-gen: 2 errors; nothing written"]


def test_unknown_parameter(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text(YAML.format(busy=1, held=2).replace(
        "{type: axis_util}", "{type: axis_util, channels: [aw]}"))
    rc, _, err = run_cli(["bad.yaml", "-o", "out"])
    assert rc == 1
    assert err.splitlines()[0] == (
        "bad.yaml:7:39: error: unknown key 'channels' in lmics[lm].sniffers[st].interfacer "
        "('channels' is for type axi_util; expected one of: type)")


def test_vhdl_analyses_and_elaborates(tmp_path):
    from jointer_gen.output import write_tree
    from jointer_sim.runner import library_sources
    (tmp_path / "m.yaml").write_text(YAML.format(busy="transfer", held="stall"))
    from jointer_gen.cli import generate as gen
    d, files = gen(str(tmp_path / "m.yaml"))
    write_tree(files, tmp_path / d.name)
    work = tmp_path / "work"
    work.mkdir()
    vhdl = [str(p) for p in library_sources()] + [
        str(tmp_path / d.name / p) for p in json.loads(files["manifest.json"])["compile_order"]]
    for cmd in (["-i"] + vhdl, ["-m", d.top["entity"]]):
        r = subprocess.run(["ghdl", cmd[0], "--std=08", "--work=jointer", f"--workdir={work}", *cmd[1:]],
                           cwd=work, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
