# SPDX-License-Identifier: MIT
"""Every interfacer kind (gen/jointer_gen/interfacers/) keeps the contract of
gen/README.md "Interfacer kinds and how to add one", checked for all kinds
registered in KINDS, so a new kind is covered without editing this file:
one module and one schema fragment per kind, defaults typed as the schema
says, its VHDL entity in the library, and no other module of the generator
branching on an interfacer type.
"""
import json
import re

import pytest

from gentest_util import REPO
from jointer_gen.interfacers import KINDS, Kind

PKG = REPO / "gen" / "jointer_gen"
HELPERS = {"__init__", "base", "axi_common"}      # interfacers/ modules that are not kinds


def test_one_module_and_one_fragment_per_kind():
    modules = {p.stem for p in (PKG / "interfacers").glob("*.py")} - HELPERS
    fragments = {p.name[:-len(".schema.json")] for p in (PKG / "interfacers").glob("*.schema.json")}
    assert modules == set(KINDS) == fragments


@pytest.mark.parametrize("name", list(KINDS))
def test_kind_module(name):
    import importlib
    k = KINDS[name]
    assert isinstance(k, Kind) and k.name == name
    assert importlib.import_module(f"jointer_gen.interfacers.{name}").KIND is k
    assert (REPO / "hdl" / "eig" / f"{k.entity}.vhd").is_file()
    assert k.emit_data and len(set(k.emit_data)) == len(k.emit_data)
    assert k.bus_tap in (None, "aximm", "axis")


@pytest.mark.parametrize("name", list(KINDS))
def test_schema_fragment(name):
    frag = json.loads((PKG / "interfacers" / f"{name}.schema.json").read_text())
    assert frag["type"] == "object" and frag["additionalProperties"] is False
    assert frag["properties"]["type"] is True
    k = KINDS[name]
    required = set(frag.get("required", []))
    for key, default in k.defaults.items():
        assert (default is None) == (key in required), key
        if default is not None:
            assert isinstance(default, k.param_type(key)), key


@pytest.mark.parametrize("name", list(KINDS))
def test_params_defaults_come_from_the_schema(name):
    from jointer_gen.load.validate import _get
    k = KINDS[name]
    frag = json.loads((PKG / "interfacers" / f"{name}.schema.json").read_text())
    expected = {key: p.get("default") for key, p in frag["properties"].items() if key != "type"}
    got = k.params({"type": name}, _get)
    assert got == expected
    if got.get("channels") is not None:           # a copy: models never share a default list
        assert got["channels"] is not k.defaults["channels"]


def test_schema_assembled_from_the_kinds():
    from jointer_gen.load.schema_check import schema
    s = schema()
    assert s["$defs"]["interfacer"]["properties"]["type"]["enum"] == list(KINDS)
    branches = [b["if"]["properties"]["type"]["const"] for b in s["$defs"]["interfacer"]["allOf"]]
    assert branches == list(KINDS)
    choices = s["$defs"]["emit"]["properties"]["data"]["enum"]
    assert set(choices) == {d for k in KINDS.values() for d in k.emit_data}
    # the file itself names no kind: the fragments are the one source
    text = (PKG / "schema" / "jointer-1.schema.json").read_text()
    assert not any(f'"if_{name}"' in text for name in KINDS)


def test_no_branching_on_interfacer_types_outside_interfacers():
    """`if t == "axi4"`, `type in (...)`, `is_pc(...)`: nowhere but interfacers/
    (tools/ holds no generator code: its `t` are yosys cell types)."""
    pattern = re.compile(r"""(\.type|\bt|\bitype)\s*(==|!=|\bin\b|\bnot in\b)\s*[("'A-Z]""")
    offenders = []
    for p in PKG.rglob("*.py"):
        if "interfacers" in p.parts or "tools" in p.parts:
            continue
        for i, line in enumerate(p.read_text().splitlines(), 1):
            if pattern.search(line) or re.search(r"\bis_pc\b|utilization\.", line):
                offenders.append(f"{p.relative_to(PKG)}:{i}: {line.strip()}")
    assert offenders == []


def test_no_generator_file_above_500_lines():
    sizes = {str(p.relative_to(PKG)): len(p.read_text().splitlines()) for p in PKG.rglob("*.py")}
    assert {k: v for k, v in sizes.items() if v > 500} == {}
