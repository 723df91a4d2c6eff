# SPDX-License-Identifier: MIT
"""The schema-pass cache (load/schema_check.py, cache.py): a description that
passed the JSON Schema is not checked again while the data, the schema, the
checker and jsonschema are the same; a description with an error is checked
and reported every time; JOINTER_GEN_NO_CACHE=1 turns the cache off."""
from __future__ import annotations

import os

import pytest
from gentest_util import CONFIGS

from jointer_gen.load import schema_check
from jointer_gen.load.diag import Diagnostics
from jointer_gen.load.loader import load


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("JOINTER_GEN_NO_CACHE", raising=False)
    return tmp_path


def _check(src) -> Diagnostics:
    diags = Diagnostics()
    schema_check.check_schema(src, diags)
    return diags


def _entries(home) -> list[str]:
    return [p.name for p in home.rglob("schema-ok/*")]


def test_pass_is_remembered(cache_home, monkeypatch):
    src = load(str(CONFIGS / "two_clock_bus.yaml"))
    assert not _check(src) and len(_entries(cache_home)) == 1

    def no_validator():
        raise AssertionError("checked again")
    monkeypatch.setattr(schema_check, "_validator", no_validator)
    assert not _check(src)
    src.data["monitor"]["name"] = "other_name"        # other data: checked
    with pytest.raises(AssertionError, match="checked again"):
        _check(src)


def test_error_is_never_remembered(cache_home):
    src = load(str(CONFIGS / "two_clock_bus.yaml"))
    src.data["monitor"]["widht"] = 3
    first, second = _check(src), _check(src)
    assert len(first) == len(second) >= 1 and _entries(cache_home) == []
    assert first.format("m.yaml") == second.format("m.yaml")


def test_key_tells_types_apart(cache_home):
    keys = {schema_check._valid_key({"a": v}) for v in (1, 1.0, True, "1")}
    assert len(keys) == 4 and None not in keys


def test_no_cache(cache_home, monkeypatch):
    monkeypatch.setenv("JOINTER_GEN_NO_CACHE", "1")
    src = load(str(CONFIGS / "two_clock_bus.yaml"))
    assert schema_check._valid_key(src.data) is None
    assert not _check(src) and not os.path.exists(cache_home / "jointer-gen")
