"""The interfacer kinds: one module per kind, registered in KINDS (the only
table of kinds; its order is the order of the schema's `type` enum).

To add a kind (gen/README.md "How to add an interfacer kind"): write
`<kind>.py` (a `Kind` subclass and `KIND = ...`), its schema fragment
`<kind>.schema.json` (the `if_<kind>` branch: parameters, defaults), add it
to KINDS below, and its tests in gen/tests/.
"""

from __future__ import annotations

from . import (axi4, axi4_latency, axi4lite, axi_util, axis, axis_util, contention, events, mark,
               pc, start_done)
from .base import InterfacerNet, Kind, Observed

KINDS: dict[str, Kind] = {m.KIND.name: m.KIND for m in (
    axi4, axi4lite, axis, start_done, events, mark, axi_util, contention, pc, axi4_latency,
    axis_util)}

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
