# SPDX-License-Identifier: MIT
"""Adding an interfacer kind or an output backend touches only the new
module(s) and one registration line.

The test copies the generator to a scratch checkout (the VHDL library and the
drivers linked in), adds a kind (`level`: one event per cycle a 1-bit input
is high, on jointer_eig_events) and a backend (a CSV register list) exactly as
gen/README.md says, generates a monitor that uses both, and checks:
- the tree differs from the original by the new files and one added line in
  each registry (interfacers.MODULES, render.BACKEND_MODULES), nothing else;
- the new kind reaches the schema, the sniffer VHDL and the top's ports;
- the new backend's file is written, listed in the manifest, and its offsets
  are the ones of the generated C register header.
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

MONITOR = """\
jointer: 1
monitor:
  name: ext_demo
  bus: {base_address: 0x43C00000}
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
    assert added == {"interfacers/level.py", "interfacers/level.schema.json", "backends/reglist_csv.py"}
    assert changed == {"interfacers/__init__.py": ['+     "level",'],
                       "backends/render.py": ['+     "reglist_csv",']}

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


def test_the_diff_check_sees_a_stray_edit(tmp_path):
    """The tree comparison is not blind: one more edited line elsewhere shows."""
    repo = scratch_checkout(tmp_path)
    pkg = repo / "gen" / "jointer_gen"
    extend(pkg)
    with open(pkg / "model" / "layout.py", "a") as f:
        f.write("# a stray line\n")
    _, changed = tree_diff(PKG, pkg)
    assert changed["model/layout.py"] == ["+ # a stray line"]
