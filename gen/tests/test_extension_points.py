# SPDX-License-Identifier: MIT
"""Adding an interfacer kind, an output backend or a platform touches only
the new module(s), their templates and one registration line.

The test copies the generator to a scratch checkout (the VHDL library and the
drivers linked in), adds a kind (`level`: one event per cycle a 1-bit input
is high, on jointer_eig_events), a backend (a CSV register list) and a
platform (`toy`: a made-up PS with its own IP, pins, aperture, interrupt
controller and clock provider) exactly as gen/README.md says, generates a
monitor that uses all three, and checks:
- the tree differs from the original by the new files and one added line in
  each registry (interfacers.MODULES, render.BACKEND_MODULES,
  platforms.MODULES), nothing else;
- the new kind reaches the schema, the sniffer VHDL and the top's ports;
- the new backend's file is written, listed in the manifest, and its offsets
  are the ones of the generated C register header;
- the new platform reaches the schema (a YAML names it), the base address
  check (its aperture), the example block design (its PS cell and pins) and
  the device tree (its cells, interrupt controller, PL clock).
"""

from __future__ import annotations

import csv
import difflib
import filecmp
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PKG = REPO / "gen" / "jointer_gen"

LEVEL_KIND = '''"""`interfacer: {type: level}`: one event per cycle a 1-bit input is high
(jointer_eig_events, one lane, no value)."""

from __future__ import annotations

from .base import InterfacerNet, Kind


class Level(Kind):
    name = "level"
    entity = "jointer_eig_events"
    emit_data = ("value",)

    def summary(self, p: dict) -> str:
        return "cycles a level is high"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        net.generic("width_g", "positive", "1", "one lane")
        net.generic("data_w_g", "natural", "0", "no value")
        net.generic("edge_g", "boolean", "false", "an event per cycle the level is high")
        net.observe("level", 1, "the level", formal="ev_strobe")
        net.tie("ev_value", "(others => '0')")


KIND = Level()
'''

LEVEL_SCHEMA = {"type": "object", "additionalProperties": False, "properties": {"type": True}}

CSV_BACKEND = '''"""The register list as CSV (doc/<name>_registers.csv): offset, name,
access, reset, description; one row per register of the register map."""

from __future__ import annotations

import csv
import io

from ..model.views import Design
from . import OutFile


def emit(d: Design) -> list[OutFile]:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\\n")
    w.writerow(["offset", "name", "access", "reset", "description"])
    for r in d.register_map:
        w.writerow([f"0x{r['offset']:04X}", r["name"], r["access"], f"0x{r.get('reset', 0):X}", r["desc"]])
    return [OutFile(f"doc/{d.name}_registers.csv", out.getvalue(), "doc-registers-csv")]
'''

TOY_PLATFORM = '''"""`monitor.platform: toy`: a made-up PS (one master port, one PL clock)."""

from __future__ import annotations

from .base import Aperture, Platform

PLATFORM = Platform(
    name="toy", title="Toy SoC", address_bits=32,
    apertures=(Aperture("M_AXI_TOY", 0x6000_0000, 0x6FFF_FFFF),),
    part="xc7a35ticsg324-1L", ps_vlnv="example.com:ip:toy_ps:1.0", ps_cell="toy_ps", pl_clocks=1,
    clock_pin="toy_clk{i}", reset_pin="toy_resetn", irq_pin="toy_irq",
    master_clocks=(("M_AXI_TOY", "m_axi_toy_aclk"),), hp_port="S_AXI_TOY", hp_clock="s_axi_toy_aclk",
    ddr_segments=("S_AXI_TOY/TOY_DDR",), ddr_segments_high=(),
    address_cells=1, gic="toy_gic", pl_irq=5, pl_irq_text="toy_irq = GIC interrupt 37 -> N 5",
    clock_provider="toy_clocks", pl_clock=3, clock_text="<&toy_clocks 3> = toy_clk0", ps_bus="toy_bus",
)
'''

TOY_PS_TEMPLATE = """\
# the PS: {{ e.ps.title }}
set ps [create_bd_cell -type ip -vlnv {{ e.ps.vlnv }} {{ e.ps.cell }}]
{% for c in e.clocks if c.fclk %}
set_property CONFIG.TOY_CLK{{ c.index }}_MHZ {{ c.mhz }} $ps
{% endfor %}
"""

MONITOR = """\
jointer: 1
monitor:
  name: ext_demo
  platform: toy
  bus: {base_address: 0x60010000}
  clocks:
    - {name: ps, period_ns: 10}
lmics:
  - name: main
    clock: ps
    sniffers:
      - name: busy
        interfacer: {type: level}
        dcapfs:
          - {name: busy_cycles, extractor: event, width: 32}
"""


def add_line_after(path: Path, anchor: str, line: str) -> None:
    text = path.read_text()
    assert text.count(anchor) == 1, f"{path}: the registry line {anchor!r} is not unique"
    path.write_text(text.replace(anchor, anchor + line, 1))


def scratch_checkout(tmp: Path) -> Path:
    """tmp/repo with a copy of gen/jointer_gen and links to hdl/, drivers/, scripts/, LICENSE."""
    repo = tmp / "repo"
    shutil.copytree(PKG, repo / "gen" / "jointer_gen", ignore=shutil.ignore_patterns("__pycache__"))
    for d in ("hdl", "drivers", "scripts", "LICENSE"):
        (repo / d).symlink_to(REPO / d)
    return repo


def extend(pkg: Path) -> None:
    """Exactly what a developer writes: two modules, a schema fragment, two lines."""
    (pkg / "interfacers" / "level.py").write_text(LEVEL_KIND)
    (pkg / "interfacers" / "level.schema.json").write_text(json.dumps(LEVEL_SCHEMA, indent=2) + "\n")
    add_line_after(pkg / "interfacers" / "__init__.py", '    "axis_util",\n', '    "level",\n')
    (pkg / "backends" / "reglist_csv.py").write_text(CSV_BACKEND)
    add_line_after(pkg / "backends" / "render.py", '    "descfile",\n', '    "reglist_csv",\n')
    (pkg / "platforms" / "toy.py").write_text(TOY_PLATFORM)
    (pkg / "templates" / "vivado" / "ps" / "toy.tcl.j2").write_text(TOY_PS_TEMPLATE)
    add_line_after(pkg / "platforms" / "__init__.py", '    "zynqmp",\n', '    "toy",\n')


def tree_diff(a: Path, b: Path) -> tuple[set[str], dict[str, list[str]]]:
    """(files only in b, {file in both that differs: its changed lines})."""
    added, changed = set(), {}

    def walk(cmp: filecmp.dircmp, rel: str) -> None:
        added.update(f"{rel}{n}" for n in cmp.right_only)
        for n in cmp.diff_files:
            old = (Path(cmp.left) / n).read_text().splitlines()
            new = (Path(cmp.right) / n).read_text().splitlines()
            changed[f"{rel}{n}"] = [x for x in difflib.ndiff(old, new) if x[:2] in ("+ ", "- ")]
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{rel}{name}/")

    walk(filecmp.dircmp(a, b, ignore=["__pycache__"]), "")
    return added, changed


def test_new_kind_and_backend_touch_only_their_modules_and_one_line(tmp_path):
    repo = scratch_checkout(tmp_path)
    pkg = repo / "gen" / "jointer_gen"
    extend(pkg)

    added, changed = tree_diff(PKG, pkg)
    assert added == {"interfacers/level.py", "interfacers/level.schema.json", "backends/reglist_csv.py",
                     "platforms/toy.py", "templates/vivado/ps/toy.tcl.j2"}
    assert changed == {"interfacers/__init__.py": ['+     "level",'],
                       "backends/render.py": ['+     "reglist_csv",'],
                       "platforms/__init__.py": ['+     "toy",']}

    cfg = tmp_path / "ext_demo.yaml"
    cfg.write_text(MONITOR)
    env = dict(os.environ, PYTHONPATH=str(repo / "gen"), JOINTER_GEN_NO_CACHE="1")
    r = subprocess.run([sys.executable, "-m", "jointer_gen", str(cfg), "-o", str(tmp_path / "out")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    out = tmp_path / "out" / "ext_demo"

    # the kind: the top observes the level, the sniffer maps it onto the events lane
    top = (out / "hdl" / "ext_demo_monitor.vhd").read_text()
    assert re.search(r"\bbusy_level\s*:\s*in\s+std_logic", top), "the top has no busy_level port"
    sniffer = next((out / "hdl").glob("*busy*sniffer*.vhd")).read_text()
    assert "jointer_eig_events" in sniffer and re.search(r"ev_strobe\s*=>\s*\S*level", sniffer)

    # the backend: written, in the manifest, offsets as in the C register header
    manifest = json.loads((out / "manifest.json").read_text())
    assert {"path": "doc/ext_demo_registers.csv", "role": "doc-registers-csv"} in manifest["files"]
    rows = list(csv.DictReader(io.StringIO((out / "doc" / "ext_demo_registers.csv").read_text())))
    regs_h = (out / "c" / "ext_demo_regs.h").read_text()
    control = next(r for r in rows if r["name"] == "main.CONTROL")
    macro = re.search(r"#define\s+EXT_DEMO_MAIN_CONTROL\s+(?:\(?\s*)?(0x[0-9A-Fa-f]+)", regs_h)
    assert macro, "no EXT_DEMO_MAIN_CONTROL in the register header"
    assert int(control["offset"], 16) == int(macro.group(1), 16) and control["access"] == "rw"
    offsets = [int(r["offset"], 16) for r in rows]
    assert offsets == sorted(offsets) and len(rows) > 5

    # the platform: its PS and pins in the block design, its labels and cells in the device tree
    bd = (out / "ip" / "example_bd.tcl").read_text()
    assert "create_bd_cell -type ip -vlnv example.com:ip:toy_ps:1.0 toy_ps" in bd
    assert "set_property CONFIG.TOY_CLK0_MHZ 100 $ps" in bd
    assert "connect_bd_intf_net [get_bd_intf_pins toy_ps/M_AXI_TOY] [get_bd_intf_pins gp0_ic/S00_AXI]" in bd
    assert "connect_bd_net [get_bd_pins ext_demo_0/irq] [get_bd_pins toy_ps/toy_irq]" in bd
    assert "-target_address_space [get_bd_addr_spaces toy_ps/Data]" in bd
    dtsi = (out / "linux" / "ext_demo.dtsi").read_text()
    assert "\treg = <0x60010000 0x00001000>;\n" in dtsi and "clocks = <&toy_clocks 3>;" in dtsi
    dtso = (out / "linux" / "ext_demo.dtso").read_text()
    assert "&toy_bus {" in dtso and "interrupt-parent = <&toy_gic>;" in dtso and "interrupts = <0 5 4>;" in dtso
    # and its aperture: a base it does not reach is an error naming it
    cfg.write_text(MONITOR.replace("0x60010000", "0x43C00000"))
    r = subprocess.run([sys.executable, "-m", "jointer_gen", str(cfg), "-o", str(tmp_path / "out2")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 1 and "outside the PL apertures of platform toy (Toy SoC): expected an address " \
        "in M_AXI_TOY 0x60000000..0x6FFFFFFF" in r.stderr, r.stderr


def test_the_diff_check_sees_a_stray_edit(tmp_path):
    """The tree comparison is not blind: one more edited line elsewhere shows."""
    repo = scratch_checkout(tmp_path)
    pkg = repo / "gen" / "jointer_gen"
    extend(pkg)
    with open(pkg / "model" / "layout.py", "a") as f:
        f.write("# a stray line\n")
    _, changed = tree_diff(PKG, pkg)
    assert changed["model/layout.py"] == ["+ # a stray line"]
