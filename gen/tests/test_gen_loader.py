# SPDX-License-Identifier: MIT
"""Unit tests of the loader: values with their line/column, key locations,
YAML-level errors as diagnostics (never exceptions)."""
import pytest

from jointer_gen.load.diag import InputError, Loc
from jointer_gen.load.loader import loads


def test_values_and_locations():
    src = loads(b"jointer: 1\nmonitor:\n  name: m\n  clocks:\n    - axi\n    - {name: f, period_ns: 2.5}\n")
    assert src.data == {"jointer": 1, "monitor": {"name": "m", "clocks": ["axi", {"name": "f", "period_ns": 2.5}]}}
    assert src.values[("jointer",)] == Loc(1, 10)
    assert src.keys[("monitor", "name")] == Loc(3, 3)
    assert src.values[("monitor", "name")] == Loc(3, 9)
    assert src.values[("monitor", "clocks", 0)] == Loc(5, 7)
    assert src.values[("monitor", "clocks", 1, "period_ns")] == Loc(6, 28)
    # the closest existing parent for a path that is not in the document
    assert src.loc(("monitor", "clocks", 1, "nope", 3)) == Loc(6, 7)
    assert src.key_loc(("monitor", "bus")) == Loc(3, 3)


def test_yaml_11_scalars():
    src = loads("a: 0x43C00000\nb: 1_000\nc: true\nd: ~\ne: '0x10'\nf: 017\n")
    assert src.data == {"a": 0x43C00000, "b": 1000, "c": True, "d": None, "e": "0x10", "f": 15}


def test_crlf_and_bom_keep_line_numbers():
    src = loads("\ufeffa: 1\r\nb:\r\n  c: 2\r\n".encode("utf-8"))
    assert src.data == {"a": 1, "b": {"c": 2}}
    assert src.values[("b", "c")] == Loc(3, 6)


def test_aliases_expand():
    src = loads("x: &v {w: 3}\ny: *v\n")
    assert src.data == {"x": {"w": 3}, "y": {"w": 3}}


def _errors(text):
    with pytest.raises(InputError) as e:
        loads(text, "f.yaml")
    return e.value.diags.format("f.yaml")


def test_every_duplicate_key_reported():
    assert _errors("a: 1\nb: {c: 1, c: 2}\na: 3\n") == [
        "f.yaml:2:11: error: duplicate key 'c' (first defined at line 2, column 5)",
        "f.yaml:3:1: error: duplicate key 'a' (first defined at line 1, column 1)"]


def test_key_types():
    assert _errors("yes: 1\n[a]: 2\n") == [
        "f.yaml:1:1: error: key True is a boolean (expected a string key)",
        "f.yaml:2:1: error: key is a list (expected a string key)"]


def test_recursive_alias_stops():
    errs = _errors("a: &x [*x]\n")
    assert len(errs) == 1 and "document too large: nested deeper than 64 levels" in errs[0]


def test_deep_nesting_stops():
    errs = _errors("a: " + "[" * 70 + "]" * 70 + "\n")
    assert errs == ["f.yaml:1:68: error: document too large: nested deeper than 64 levels "
                    "(expected a monitor description of a few kB)"]
