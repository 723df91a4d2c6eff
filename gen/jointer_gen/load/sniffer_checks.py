# SPDX-License-Identifier: MIT
"""Checks of a sniffer as a whole, once it is built (b: validate.Builder, which
reports each at its YAML item): values that must fit the data they compare
(an address as wide as its tap), and conditions only on lanes that carry the
tap's data (one tap per bus)."""

from __future__ import annotations

from ..model.monitor import Interfacer, Sniffer


def hex_(value: int) -> str:
    """A bound in hex, in groups of 4 digits: 0x8_1000_0000."""
    return f"0x{value:_X}"


def lanes_take_conditions(b, sn: Sniffer) -> None:
    """Conditions compare the tap's data: a DCAPF on a lane whose events carry other
    data (a latency, a stall bit) cannot be conditioned."""
    if not sn.conditions:
        return
    kind, params = sn.interfacer.kind, sn.interfacer.params
    for dc in sn.dcapfs:
        if not 0 <= dc.event < sn.interfacer.lanes:
            continue
        key = kind.lane_source(params, dc.event).source
        if key and not kind.extra_sources[key].carries_data:
            lane = kind.lane_label(params, dc.event)
            b.err(dc.path + ("event",), f"lane '{lane}' of {b.where(dc.path)} carries no "
                     f"{kind.emit_data[0] if sn.data == '' else sn.data}: the conditions of sniffer "
                     f"'{sn.name}' cannot apply to it (expected no conditions, or this DCAPF in a "
                     "sniffer of its own on the same bus)")

def value_bits(itf: Interfacer | None, increment: str, data: str | None) -> int:
    """Bits a filter bound or a condition value of the sniffer may have: the event
    data's width (an address: addr_width, up to 64), and at least 32, as always."""
    if itf is None:
        return 32
    probe = Sniffer(name="", interfacer=itf, dcapfs=(), increment=increment, data=data or "")
    return max(32, itf.kind.data_width(probe))

def values_fit(b, sn: Sniffer, bits: int) -> None:
    """A condition or filter value wider than the sniffer's event data would be cut
    by the hardware: an error, never a silent truncation; a trace records 32 data bits."""
    top = (1 << bits) - 1
    what = f"the {bits}-bit event data of sniffer '{sn.name}'"
    for c in sn.conditions:
        for label, v in (("range low" if c.kind == "range" else "mask", c.a),
                         ("range high" if c.kind == "range" else "value", c.b)):
            if v > top:
                b.err(c.path, f"condition {label} {hex_(v)} in {b.where(c.path)} does not fit "
                         f"{what} (expected at most {hex_(top)}"
                         f"{sn.interfacer.kind.wider_hint(sn.interfacer.params, v)})")
    for dc in sn.dcapfs:
        for label, v in (("low", dc.low), ("high", dc.high)):
            if dc.has_filter and v > top:
                b.err(dc.path + ("filter", label), f"filter {label} {hex_(v)} of "
                         f"{b.where(dc.path)} does not fit {what} (expected at most {hex_(top)}"
                         f"{sn.interfacer.kind.wider_hint(sn.interfacer.params, v)})")
        if dc.is_trace and bits > 32:
            b.err(dc.path + ("extractor",), f"trace {b.where(dc.path)}: a trace record holds "
                     f"32 data bits, the event data of sniffer '{sn.name}' has {bits} (expected a trace "
                     "on a sniffer whose data fits 32 bits, e.g. a tap with addr_width 32, or an event "
                     "or time DCAPF here)")
