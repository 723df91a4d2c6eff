# SPDX-License-Identifier: MIT
"""`interfacer: {type: axis}`: an AXI4-Stream tap (jointer_eig_axis), one
event per beat or per packet; the event data is TDATA (low 32 bits) or TDEST."""

from __future__ import annotations

from .base import InterfacerNet, Kind, clog2


class Axis(Kind):
    name = "axis"
    entity = "jointer_eig_axis"
    emit_data = ("tdata", "tdest")
    counts_bytes = True
    bus_tap = "axis"

    def check_emit(self, b, path: tuple, data: str, params: dict) -> None:
        if data == "tdest" and params.get("dest_width") == 0:
            b.err(path + ("emit", "data"), f"emit data 'tdest' needs a TDEST in "
                  f"{b.where(path)} (expected interfacer dest_width >= 1)")

    def summary(self, p: dict) -> str:
        return f"AXI4-Stream tap, {p['data_width']}-bit data, one event per {p['count'][:-1]}"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        p = sn.interfacer.params
        dw = p["data_width"]
        net.generic("data_w_g", "positive", str(dw))
        net.generic("count_g", "natural", "axis_beats_c" if p["count"] == "beats" else "axis_packets_c",
                    f"one event per {p['count'][:-1]}")
        net.generic("has_keep_g", "boolean", "true" if p["keep"] else "false")
        net.generic("dest_w_g", "positive", str(max(1, p["dest_width"])),
                    "TDEST bits" + (" (no TDEST: tied to 0)" if p["dest_width"] == 0 else ""))
        net.generic("data_sel_g", "natural", "1" if sn.data == "tdest" else "0",
                    "event data = " + ("TDEST" if sn.data == "tdest" else "TDATA (low 32 bits)"))
        net.observe("tdata", dw)
        if p["keep"]:
            net.observe("tkeep", dw // 8)
        else:
            net.tie("mon_tkeep", "(others => '1')")
        for sig in ("tlast", "tvalid", "tready"):
            net.observe(sig, None)
        if p["dest_width"]:
            net.observe("tdest", p["dest_width"])
        else:
            net.tie("mon_tdest", "(others => '0')")

    def data_width(self, sn) -> int:
        p = sn.interfacer.params
        return p["dest_width"] if sn.data == "tdest" else min(p["data_width"], 32)

    def inc_width(self, sn) -> int:
        p = sn.interfacer.params
        return 16 if p["count"] == "packets" else clog2(max(p["data_width"] // 8, 1) + 1)


KIND = Axis()
