# SPDX-License-Identifier: MIT
"""A DCAPF's lane in the sniffer's comments, and a trace's lanes in the netlist:
the signal that gathers the lanes it records (tag bit i = lane i), its
lanes_g/sync_g generics and its ev_good/ev_lanes/sync port map."""

from __future__ import annotations

from ..model import datapath
from ..model.monitor import Dcapf, Sniffer
from ..model.views import Assign, Const, Signal, slv_type, vhdl_bool
from .part import NetPart
from .vhdl_syntax import element


def lane_comment(sn: Sniffer, dc: Dcapf) -> str:
    """The DCAPF's lane: its number, and its name where lanes have names (a trace
    with lanes: every lane, with the name the trace gives it)."""
    if dc.lanes:
        return "lanes " + ", ".join(f"{ln} ({n})" for ln, n in zip(dc.lanes, dc.lane_names)) \
            + (" and the host's sync" if dc.sync else "")
    label = datapath.lane_label(sn, dc)
    return "lane " + (f"{dc.event} ({label})" if label is not None else str(dc.event))


def lanes_part(dp: str, dc: Dcapf, ev_good: str) -> tuple[tuple, tuple, tuple, NetPart]:
    """A trace's lanes: (constants, generics, its ev_good/ev_lanes/sync port map, the
    signal gathering its lanes). One lane (no `lanes:`): ev_good, the lane's event
    (several lanes are the kind's own interfacer's, by number: validate)."""
    if not dc.lanes:
        return (), (), (("ev_good", ev_good),), NetPart()
    n, sig = len(dc.lanes), f"tl_{dc.name}"
    lanes = Const(f"{dp}_lanes_c", "natural", str(n), "lanes recorded, tagged in the data's low bits")
    sync = Const(f"{dp}_sync_c", "boolean", vhdl_bool(dc.sync),
                 "host sync records (tag bit " + str(n) + ")" if dc.sync else "no host sync records")
    expr = " & ".join(element("ev_good", ln) for ln in reversed(dc.lanes)) if n > 1 \
        else f"(0 => {ev_good})"
    part = NetPart(signals=(Signal(sig, slv_type(n), f"trace {dc.name}: its lanes, tag bit i = lane i"),),
                   assigns=(Assign(sig, expr, f"trace {dc.name}: lanes " + ", ".join(map(str, dc.lanes))),))
    ports = (("ev_lanes", sig),) + ((("sync", f"sk_{dc.name}_sync"),) if dc.sync else ())
    return (lanes, sync), (("lanes_g", lanes.name), ("sync_g", sync.name)), ports, part
