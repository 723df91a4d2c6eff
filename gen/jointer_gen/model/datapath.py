# SPDX-License-Identifier: MIT
"""Datapath widths of a sniffer (as wide as their source).

What the generator tells the DCAPFs and the emitter about the event instances
of a sniffer, so that no register is wider than what can reach it:
- data_width: bits of the event data that can be non-zero (the bounds of a
  filter and the time extractor's data in effect are that wide);
- event_width: the width of the event data ports and signals: 32, or 64 for
  data of 33..64 bits (an address above 4 GB), whose filter bounds then take
  two INIT words each (init_words): a 32-bit tap is built exactly as before;
- inc_width: bits of the increment (1 for events weighing one: the counter
  saturates by gating its enable with the carry-out);
- capture ranges: an AXI4 write tap counting per burst evaluates the filters
  of its event DCAPFs where it captures AWADDR, and carries one in-range bit
  per filter instead of the address (`keep_data`: the address is still needed);
- emitter ranges: another sniffer whose emitter is registered (it has
  condition checkers) has the emitter compare its event DCAPFs' filters, in
  parallel with the checkers, one register stage before the DCAPFs: the
  DCAPFs count the same events in the same cycle, and their filter leaves
  the path into their counters' enable.
- sources: a kind's lane may come from another interfacer on the same
  observed signals (interfacers/base.py LaneSource, Kind.extra_sources: one
  tap per bus); the sniffer instantiates its own interfacer and each extra
  source only when a DCAPF reads one of their lanes, each with its emitter.
Widths too small would lose information: every value here is an upper bound
of what the interfacer's RTL can emit (doc/internals/eig.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:   # the kinds (interfacers/) call this module and the model calls the kinds
    from .monitor import Dcapf, Sniffer

MAX_RANGES = 8          # jointer_eig_axi4 / jointer_eig_emitter ranges_g


def lane_of(sn: Sniffer, dc: Dcapf):
    """(source key, lane of that source, weight one) of a DCAPF (interfacers LaneSource)."""
    itf = sn.interfacer
    return itf.kind.lane_source(itf.params, dc.event)


def lane_label(sn: Sniffer, dc: Dcapf) -> str | None:
    """The name of a DCAPF's lane in comments and docs (None: numbered); a lane of the
    kind's own interfacer as that interfacer numbers it."""
    kind, params = sn.interfacer.kind, sn.interfacer.params
    own = tuple(lane_of(sn, dc)) == ("", dc.event, False)
    return kind.main_lane_label(params, dc.event) if own else kind.lane_label(params, dc.event)


def sources(sn: Sniffer) -> list[str]:
    """The event sources the sniffer instantiates: "" (its kind's own interfacer) and
    the extra ones, in the kind's order, each when a DCAPF reads one of its lanes."""
    used = {lane_of(sn, dc).source for dc in sn.dcapfs}
    return [k for k in ["", *sn.interfacer.kind.extra_sources] if k in used]


def source(sn: Sniffer, key: str):
    """The Source of an extra key (None for the kind's own interfacer)."""
    return sn.interfacer.kind.extra_sources[key] if key else None


def source_data_width(sn: Sniffer, key: str) -> int:
    """Bits of a source's event data that can be non-zero."""
    return source(sn, key).data_width(sn) if key else sn.interfacer.kind.data_width(sn)


def data_width(sn: Sniffer) -> int:
    """Bits of the event data that can be non-zero, over the sniffer's sources (the
    kind's upper bound: an address, a TDATA word, a value port...)."""
    keys = sources(sn) or [""]
    return max(source_data_width(sn, k) for k in keys)


def event_width(sn: Sniffer) -> int:
    """Width of the event data ports (ev_w_g): 32, or 64 for data wider than 32 bits."""
    return 32 if data_width(sn) <= 32 else 64


def wide(sn: Sniffer) -> bool:
    """The sniffer's event data is wider than 32 bits (ev_w_g 64, two INIT words per bound)."""
    return event_width(sn) > 32


def init_words(sn: Sniffer) -> int:
    """INIT words per filter bound: 1, or 2 for event data wider than 32 bits."""
    return event_width(sn) // 32


def inc_width(sn: Sniffer) -> int:
    if sn.increment != "bytes":
        return 1
    return sn.interfacer.kind.inc_width(sn)


def captures(sn: Sniffer) -> bool:
    """An interfacer that evaluates its DCAPFs' filters where it captures the data."""
    return sn.interfacer.kind.captures(sn)


def _main_filtered(sn: Sniffer) -> list[Dcapf]:
    """The event DCAPFs with a filter on the kind's own interfacer's lanes."""
    return [d for d in sn.dcapfs if not d.is_trace and d.extractor == "event" and d.has_filter
            and lane_of(sn, d).source == ""]


def capture_ranges(sn: Sniffer) -> list[Dcapf]:
    """The DCAPFs whose filter the interfacer evaluates (in range-bit order)."""
    if not captures(sn):
        return []
    dcs = _main_filtered(sn)
    return dcs if len(dcs) <= MAX_RANGES else []


def emitter_ranges(sn: Sniffer) -> list[Dcapf]:
    """The DCAPFs whose filter the (registered) emitter evaluates (in range-bit order)."""
    if captures(sn) or not emitter_registered(sn):
        return []
    dcs = _main_filtered(sn)
    return dcs if len(dcs) <= MAX_RANGES else []


def range_dcapfs(sn: Sniffer) -> list[Dcapf]:
    """The DCAPFs whose filter is evaluated before them (interfacer or emitter), range bit k."""
    return capture_ranges(sn) or emitter_ranges(sn)


def keep_data(sn: Sniffer) -> bool:
    """Whether the event data (the address) must still reach the DCAPFs."""
    if not captures(sn):
        return True
    ranges = capture_ranges(sn)
    main = [d for d in sn.dcapfs if lane_of(sn, d).source == ""]
    return bool(sn.conditions) or any(d not in ranges for d in main if d.is_trace or d.has_filter) \
        or any(d.extractor == "time" or d.sample == "data" for d in main)


def emitter_registered(sn: Sniffer, key: str = "") -> bool:
    """The emitter adds a register stage only behind condition checkers (their
    comparisons follow the interfacer's registers); else the candidates, which
    come from registers, are the event instances. Conditions apply to the
    sources that carry the kind's data (its own interfacer, and extra ones
    marked carries_data), never to the others (validate refuses the mix)."""
    return bool(sn.conditions) and (key == "" or source(sn, key).carries_data)


def filter_mode(sn: Sniffer, dc: Dcapf) -> str:
    """jointer_pkg filter constant of a (non-trace) DCAPF."""
    if not dc.has_filter:
        return "filter_none_c"
    capture = dc in range_dcapfs(sn)
    if dc.filter_runtime:
        return "filter_capture_c" if capture else "filter_runtime_c"
    return "filter_capture_const_c" if capture else "filter_const_c"


def takes_init(sn: Sniffer) -> bool:
    """Some DCAPF (or the program monitor's table) of the sniffer loads INIT data."""
    return sn.interfacer.kind.init_slots(sn) > 0 or any(d.has_filter and d.filter_runtime for d in sn.dcapfs)
