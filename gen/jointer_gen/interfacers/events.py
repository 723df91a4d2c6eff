# SPDX-License-Identifier: MIT
"""`interfacer: {type: events}`: `width` event strobes (numbered lanes) and an
optional value (jointer_eig_events)."""

from __future__ import annotations

from .base import InterfacerNet, Kind


class Events(Kind):
    name = "events"
    entity = "jointer_eig_events"
    emit_data = ("value",)

    def lanes(self, params: dict) -> int:
        return params["width"]

    def lane_out_of_range(self, where: str, event: int, params: dict) -> str:
        n = params["width"]
        lanes = "0" if n == 1 else f"0..{n - 1}"
        return (f"event {event} out of range in {where}: the events interfacer has {n} lane"
                f"{'s' if n != 1 else ''} (expected {lanes})")

    def summary(self, p: dict) -> str:
        lanes = f"{p['width']} event strobe{'s' if p['width'] != 1 else ''}"
        data = f", {p['data_width']}-bit value" if p["data_width"] else ""
        return lanes + data + (", rising edges" if p["edge"] else "")

    def elaborate(self, sn, net: InterfacerNet) -> None:
        p = sn.interfacer.params
        net.generic("width_g", "positive", str(p["width"]), "event lanes")
        net.generic("data_w_g", "natural", str(p["data_width"]),
                    "event value bits" if p["data_width"] else "no value: event data 0")
        net.generic("edge_g", "boolean", "true" if p["edge"] else "false",
                    "an event per rising edge" if p["edge"] else "an event per cycle the strobe is high")
        net.observe("events", p["width"], "event strobes, one per lane", formal="ev_strobe")
        if p["data_width"]:
            net.observe("value", p["data_width"], "event value", formal="ev_value")
        else:
            net.tie("ev_value", "(others => '0')")

    def data_width(self, sn) -> int:
        return max(sn.interfacer.params["data_width"], 1)   # the value port (none: 0)


KIND = Events()
