# SPDX-License-Identifier: MIT
"""The interfacer kinds: one module per kind, registered in KINDS (the only
table of kinds; its order is the order of the schema's `type` enum).

To add a kind (gen/README.md "How to add an interfacer kind"): write
`<kind>.py` (a `Kind` subclass and `KIND = ...`), its schema fragment
`<kind>.schema.json` (the `if_<kind>` branch: parameters, defaults), add its
module's name to MODULES below (one line), and its tests in gen/tests/.
"""

from __future__ import annotations

from importlib import import_module

from .base import InterfacerNet, Kind, Observed

# one line per kind, in the order of the schema's `type` enum
MODULES = (
    "axi4",
    "axi4lite",
    "axis",
    "start_done",
    "events",
    "mark",
    "axi_util",
    "contention",
    "pc",
    "axi4_latency",
    "axis_util",
)

KINDS: dict[str, Kind] = {k.name: k for k in (import_module(f"{__name__}.{m}").KIND for m in MODULES)}

__all__ = ["KINDS", "Kind", "InterfacerNet", "Observed", "kind", "schema_defs", "emit_data_choices"]


def kind(name: str) -> Kind:
    """The kind of an interfacer type (KeyError for an unknown one: the schema reported it)."""
    return KINDS[name]


def schema_defs() -> dict:
    """$defs/interfacer (the type enum, one if/then branch per kind) and
    $defs/if_<kind> of every kind, for the monitor schema."""
    defs = {"interfacer": {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": list(KINDS)}},
        "allOf": [{"if": {"required": ["type"], "properties": {"type": {"const": name}}},
                   "then": {"$ref": f"#/$defs/if_{name}"}} for name in KINDS]}}
    for name, k in KINDS.items():
        defs[f"if_{name}"] = k.schema
    return defs


def emit_data_choices() -> list[str]:
    """Every emit.data choice of every kind, once, in KINDS order."""
    out: list[str] = []
    for k in KINDS.values():
        out += [d for d in k.emit_data if d not in out]
    return out
