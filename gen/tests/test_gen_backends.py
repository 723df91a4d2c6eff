# SPDX-License-Identifier: MIT
"""The backend interface (backends/__init__.py, backends/render.py): each
backend's emit() runs once per design and returns frozen OutFiles; the files
come in manifest order (generated files in BACKENDS order, then the copies),
each copy of a generated file equal to its original, manifest.json last and
listing every other file with its role."""
from __future__ import annotations

import dataclasses
import json

import pytest
from gentest_util import CONFIGS

from jointer_gen.backends import COPY_ROLES, OutFile, render
from jointer_gen.load.loader import load
from jointer_gen.load.validate import validate
from jointer_gen.netlist.elaborate import elaborate


def _design(name: str):
    src = load(str(CONFIGS / f"{name}.yaml"))
    return elaborate(validate(src), src, f"{name}.yaml")


@pytest.fixture(scope="module")
def two_clock():
    return _design("two_clock_bus")


def test_each_backend_emits_once(two_clock, monkeypatch):
    calls = []
    for b in render.BACKENDS:
        monkeypatch.setattr(b, "emit", lambda d, _f=b.emit, _n=b.__name__: calls.append(_n) or _f(d))
    render.emit_all(two_clock)
    assert calls == [b.__name__ for b in render.BACKENDS]
    assert len(set(calls)) == 10


def test_outfile_is_frozen():
    f = OutFile("a", "x", "r")
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.path = "b"
    assert OutFile("ip/hdl/x.vhd", None, "ip-hdl", copy_of="hdl/x.vhd").is_copy and not f.is_copy


def test_manifest_order_and_copies(two_clock):
    files = render.emit_all(two_clock)
    assert files[-1].path == "manifest.json"
    m = json.loads(files[-1].content)
    assert [(e["path"], e["role"]) for e in m["files"]] == [(f.path, f.role) for f in files[:-1]]
    kinds = [f.role in COPY_ROLES for f in files[:-1]]
    first_copy = kinds.index(True)
    assert not any(kinds[:first_copy]) and all(kinds[first_copy:])
    assert len({f.path for f in files}) == len(files)
    assert all(f.content is not None and f.copy_of is None for f in files)
    by_path = {f.path: f.content for f in files}
    name = two_clock.name
    assert by_path[f"ip/hdl/{name}_monitor.vhd"] == by_path[f"hdl/{name}_monitor.vhd"]
    assert by_path[f"ip/drivers/{name}_v1_0/src/{name}.c"] == by_path[f"c/{name}.c"]
    assert m["compile_order"][0] == f"hdl/{name}_config.vhd"
    assert render.render(two_clock) == by_path


def test_copy_of_a_missing_output_fails(two_clock, monkeypatch):
    """A copy must name a generated file: a wrong name is a bug, not an empty file."""
    from jointer_gen.backends import linux
    orig = linux.emit
    monkeypatch.setattr(linux, "emit", lambda d: orig(d) + [OutFile("ip/hdl/x.vhd", None, "ip-hdl",
                                                                      copy_of="hdl/nope.vhd")])
    with pytest.raises(KeyError):
        render.emit_all(two_clock)
