# SPDX-License-Identifier: MIT
"""Checks of a sniffer as a whole, once it is built (b: validate.Builder, which
reports each at its YAML item): values that must fit the data they compare
(an address as wide as its tap; a trace's lanes above its tag bits), conditions
only on lanes that carry the tap's data and a trace's lanes from the tap's own
events (one tap per bus)."""

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


def trace_lanes_own_tap(b, sn: Sniffer) -> None:
    """A trace's `lanes` are recorded from one set of events: the lanes of the kind's
    own interfacer (the lanes of another tap on the same bus carry other data)."""
    kind, params = sn.interfacer.kind, sn.interfacer.params
    for dc in sn.dcapfs:
        if not dc.is_trace or len(dc.lanes) < 2:
            continue
        for ln in dc.lanes:
            if 0 <= ln < sn.interfacer.lanes and tuple(kind.lane_source(params, ln)) != ("", ln, False):
                b.err(dc.path + ("lanes",), f"lane '{kind.lane_label(params, ln)}' of trace "
                      f"{b.where(dc.path)} is not a lane of the {kind.name} tap's own events "
                      "(expected several lanes of one interfacer, e.g. an events sniffer's, or a "
                      "trace of that lane alone)")
                return


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
        if dc.is_trace and dc.tag_bits and bits <= 32:
            tag_fits(b, sn, dc)
        if dc.is_trace and bits > 32:
            b.err(dc.path + ("extractor",), f"trace {b.where(dc.path)}: a trace record holds "
                     f"32 data bits, the event data of sniffer '{sn.name}' has {bits} (expected a trace "
                     "on a sniffer whose data fits 32 bits, e.g. a tap with addr_width 32, or an event "
                     "or time DCAPF here)")


def tag_fits(b, sn: Sniffer, dc) -> None:
    """The event data of a trace with lanes must fit above its tag bits."""
    width = sn.interfacer.kind.data_width(sn)
    room = 32 - dc.tag_bits
    if width > room:
        what = f"{len(dc.lanes)} lane{'s' if len(dc.lanes) != 1 else ''}" + (" and sync" if dc.sync else "")
        b.err(dc.path + ("lanes",), f"trace {b.where(dc.path)}: {what} take {dc.tag_bits} tag "
              f"bits of the record's 32 data bits, and the event data of sniffer '{sn.name}' has "
              f"{width} bits (expected event data of at most {room} bits: fewer lanes, or a "
              "narrower value)")
