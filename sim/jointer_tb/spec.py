# SPDX-License-Identifier: MIT
"""The testbench's view of a monitor: tb/<name>_tb.json, written by the
generator's tb backend (gen/jointer_gen/backends/tb.py), read into
attribute objects. `params` (the interfacer's parameters) stays a dict."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

KEEP_DICT = {"params", "sources"}       # kept as dicts (sources: by key, "" the kind's own)


def _ns(value, key: str = ""):
    if isinstance(value, dict):
        if key in KEEP_DICT:
            return dict(value)
        return SimpleNamespace(**{k: _ns(v, k) for k, v in value.items()})
    if isinstance(value, list):
        return [_ns(v) for v in value]
    return value


def load(path: Path) -> SimpleNamespace:
    """The spec of a monitor; paths in it (jdesc, manifest) made absolute."""
    path = Path(path).resolve()
    spec = _ns(json.loads(path.read_text()))
    spec.dir = path.parent
    spec.jdesc = str((path.parent / spec.jdesc).resolve())
    spec.manifest = str((path.parent / spec.manifest).resolve())
    spec.clock = {c.name: c for c in spec.clocks}
    return spec
