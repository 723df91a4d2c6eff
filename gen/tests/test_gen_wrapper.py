# SPDX-License-Identifier: MIT
"""The IP's top, ip/hdl/<name>_wrapper.vhd (gen/jointer_gen/backends/vivado/wrapper.py):
for every example and edge design, its ports are the generated VHDL-2008
top's, one for one (names, directions, widths, read from both files), it has
no generics and only std_logic / std_logic_vector(N downto M) ports, and
`ghdl -a --std=93c` analyses it alone; with the library and the generated
files, GHDL elaborates it (the component binds to the VHDL-2008 top: names,
directions and widths agree), on a one-clock and a multi-clock monitor with
a 40-bit tap. A top port of another type is refused by the generator."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from gentest_util import CONFIGS, EXAMPLES, REPO, edge_configs
from jointer_gen.cli import generate
from jointer_gen.output import write_tree

PORT = re.compile(r"^\s*(\w+)\s*:\s*(in|out)\s+(std_logic|std_logic_vector\((\d+) downto (\d+)\))\s*(?:\)\s*)?;?\s*$",
                  re.M)


def entity_ports(text: str, entity: str) -> list[tuple]:
    text = re.sub(r"--[^\n]*", "", text)
    head = re.search(rf"\bentity\s+{entity}\s+is\b(.*?)\bend\s+entity", text, re.S | re.I).group(1)
    assert "generic" not in head.lower() or entity.endswith("_monitor"), f"{entity} has generics"
    return [(m.group(1), m.group(2), m.group(3)) for m in PORT.finditer(head)]


def configs(tmp_path) -> list[Path]:
    return [CONFIGS / f"{n}.yaml" for n in EXAMPLES] + edge_configs(tmp_path)


def test_wrapper_ports_are_the_tops(tmp_path):
    for cfg in configs(tmp_path):
        design, files = generate(str(cfg))
        name = design.name
        wrapper = files[f"ip/hdl/{name}_wrapper.vhd"]
        top = entity_ports(files[f"hdl/{name}_monitor.vhd"], f"{name}_monitor")
        assert entity_ports(wrapper, f"{name}_wrapper") == top, cfg.name
        # the component declaration and the port map name every port once
        comp = re.search(rf"component {name}_monitor is(.*?)end component;", wrapper, re.S).group(1)
        assert [p for p, _, _ in (m.groups()[:3] for m in PORT.finditer(comp))] == [p for p, _, _ in top]
        assert re.findall(r"^\s+(\w+)\s+=> (\w+),?$", wrapper, re.M) == [(p, p) for p, _, _ in top]
        path = tmp_path / f"{name}_wrapper.vhd"
        path.write_text(wrapper)
        r = subprocess.run(["ghdl", "-a", "--std=93c", f"--workdir={tmp_path}", "--work=jointer", str(path)],
                           capture_output=True, text=True)
        assert r.returncode == 0, f"{cfg.name}: {r.stderr}"


@pytest.mark.parametrize("config", [CONFIGS / "arm_timestamps.yaml",
                                    REPO / "gen" / "tests" / "configs" / "zu_dma.yaml"], ids=lambda p: p.stem)
def test_wrapper_elaborates_with_the_core(tmp_path, config):
    design, files = generate(str(config))
    out = tmp_path / design.name
    write_tree(files, out)
    m = json.loads(files["manifest.json"])
    work = tmp_path / "work"
    work.mkdir()
    ghdl = ["ghdl", "-a", "--std=08", f"--workdir={work}", "--work=jointer"]
    sources = [REPO / p for p in m["library_sources"]] + [out / p for p in m["compile_order"]]
    r = subprocess.run(ghdl + [str(p) for p in sources] + [str(out / "ip" / "hdl" / f"{design.name}_wrapper.vhd")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(["ghdl", "-e", "--std=08", f"--workdir={work}", "--work=jointer", f"{design.name}_wrapper"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_a_port_that_is_not_plain_is_refused():
    from jointer_gen.backends.vivado import wrapper
    design, _ = generate(str(CONFIGS / "arm_timestamps.yaml"))
    ports = list(design.top["ports"])
    ports[0] = ports[0]._replace(vtype="jointer_pkg.axi4_mon_t")
    bad = design._replace(top=design.top._replace(ports=tuple(ports)))
    with pytest.raises(ValueError, match="is not a plain std_logic"):
        wrapper.ports(bad)
