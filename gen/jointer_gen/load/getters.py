# SPDX-License-Identifier: MIT
"""Defensive reads of the loaded YAML for the model builder: a value of the
wrong type reads as the default (the schema has already reported it)."""

from __future__ import annotations


def _get(d, key, kind, default=None):
    """d[key] if d is a mapping and the value has the right type, else default."""
    if not isinstance(d, dict) or key not in d:
        return default
    v = d[key]
    if kind is int:
        return v if isinstance(v, int) and not isinstance(v, bool) else default
    if kind is float:
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default
    return v if isinstance(v, kind) else default


def _list(d, key) -> list:
    v = _get(d, key, list, [])
    return v
