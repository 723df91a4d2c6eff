# SPDX-License-Identifier: MIT
"""Generated VHDL: every example's design (library + generated files, in the
manifest's order) analyses, passes `ghdl synth` without warnings, and the
Verilog GHDL writes has no latch (scripts/hdl_check.py synth, the same check
as the library's). Also: the generated instances match the library's entity
interfaces (every formal exists, every port without a default is mapped),
and the generated text follows the VHDL rules (no `when others`, work.)."""
import json
import re
import subprocess
import sys

import pytest

from gentest_util import EXAMPLES, REPO, generated
from jointer_gen.output import write_tree

sys.path.insert(0, str(REPO / "sim"))
from jointer_sim.runner import entity_interface, library_sources  # noqa: E402


@pytest.mark.parametrize("name", EXAMPLES)
def test_synth_and_latch_check(tmp_path, name):
    design, files = generated(name)
    write_tree(files, tmp_path / name)
    vhdl = [str(tmp_path / name / p) for p in json.loads(files["manifest.json"])["compile_order"]]
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "hdl_check.py"), "synth", "--files", *vhdl,
                        "--top", design.top["entity"], "--workdir", str(tmp_path / "synth"), "--jobs", "1"],
                       capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"synth ok   {design.top['entity']}" in r.stdout


def _instances(design):
    for lv in design.lmics:
        for sv in lv.sniffers:
            yield from sv.instances
        yield from lv.instances
    yield from design.top["instances"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_instances_match_library_interfaces(name):
    design, _ = generated(name)
    lib = library_sources()
    seen = {}
    for inst in _instances(design):
        if not inst.entity.startswith("jointer_"):
            continue
        if inst.entity not in seen:
            gitems, pitems, pnames = entity_interface(inst.entity, lib)
            gnames = {n.strip().lower() for g in gitems for n in g.split(":")[0].split(",")}
            required = {n.strip().lower() for p in pitems if ":=" not in p and " in " in f" {p.split(':')[1]} "
                        for n in p.split(":")[0].split(",")}
            seen[inst.entity] = (gnames, {n.lower() for n in pnames}, required)
        gnames, pnames, required = seen[inst.entity]
        assert {f for f, _ in inst.generics} <= gnames, inst.label
        # the port of a formal: x(3) (a slice) -> x
        formals = {re.sub(r"[.(].*", "", f) for f, _ in inst.ports}
        assert formals <= pnames, (inst.label, formals - pnames)
        assert required <= formals, (inst.label, required - formals)


@pytest.mark.parametrize("name", EXAMPLES)
def test_vhdl_rules(name):
    _, files = generated(name)
    for rel in json.loads(files["manifest.json"])["compile_order"]:
        text = files[rel]
        assert not re.search(r"^\s*when\s+others\s*=>", text, re.M | re.I), rel
        assert "library jointer" not in text.lower(), rel          # work. references only
        for line in text.splitlines():
            assert len(line) <= 200, rel


def test_edge_designs_elaborate(tmp_path):
    """The README example (every key: axis, traces, conditions, both start/done
    modes...) and the edge cases analyse and elaborate with the library."""
    from gentest_util import edge_configs
    from jointer_gen.cli import generate
    for cfg in edge_configs(tmp_path):
        design, files = generate(str(cfg))
        write_tree(files, tmp_path / design.name)
        work = tmp_path / f"work_{design.name}"
        work.mkdir()
        vhdl = [str(p) for p in library_sources()] + [str(tmp_path / design.name / p)
                                                        for p in json.loads(files["manifest.json"])["compile_order"]]
        for cmd in (["-i"] + vhdl, ["-m", design.top["entity"]]):
            r = subprocess.run(["ghdl", cmd[0], "--std=08", "--work=jointer", f"--workdir={work}", *cmd[1:]],
                               cwd=work, capture_output=True, text=True)
            assert r.returncode == 0, (cfg.name, r.stderr)
