# SPDX-License-Identifier: MIT
"""`interfacer: {type: axis_util}`: the utilization of an AXI4-Stream link.
Its TVALID/TREADY pair goes into jointer_eig_activity (one channel): every
observed cycle is a transfer (TVALID and TREADY), a stall (TVALID without
TREADY: the sink holds the source back) or idle (no TVALID).

Lanes, by name or number: `cycles`, `transfer`, `stall`, `idle` (the entity's
order for one channel, doc/internals/eig.md; sim/jointer_sim/activity_model.py
with one channel). Top-level ports `<sniffer>_tvalid`, `<sniffer>_tready` (a
Vivado axis monitor interface). The event data is the stall bit; an event
DCAPF's sum is a number of cycles.
"""

from __future__ import annotations

from .base import InterfacerNet, Kind

LANES = ("cycles", "transfer", "stall", "idle")


class AxisUtil(Kind):
    name = "axis_util"
    entity = "jointer_eig_activity"
    emit_data = ("stalls",)
    bus_tap = "axis"

    def lane_names(self, params: dict) -> list[str]:
        return list(LANES)

    def lanes(self, params: dict) -> int:
        return len(LANES)

    def data_width(self, sn) -> int:
        return 1                                            # the stall bit of the stream

    def summary(self, p: dict) -> str:
        return "AXI4-Stream utilization: transfer/stall/idle cycles"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        net.generic("channels_g", "positive", "1", "one channel: the stream's TVALID/TREADY")
        net.observe("tvalid", None, "TVALID", formal="mon_valid(0)")
        net.observe("tready", None, "TREADY", formal="mon_ready(0)")


KIND = AxisUtil()
