# SPDX-License-Identifier: MIT
"""`interfacer: {type: axis}`: an AXI4-Stream tap (jointer_eig_axis), one
event per beat or per packet; the event data is TDATA (low 32 bits) or TDEST.

One tap per stream: besides its own events (lane `bytes`, lane 0: one per
beat or per packet, weighing their bytes), the sniffer gives the lanes
`beats` and `packets` (one event each, weight one), and `stall`, `idle`,
`cycles` (the TVALID/TREADY activity of jointer_eig_activity, as
`axis_util` has them: weight one, data = the stall bit). A lane that its own
tap does not give comes from another interfacer on the same ports
(`extra_sources`), which the sniffer instantiates only when a DCAPF reads
it: a monitor pays only for the lanes it uses.
"""

from __future__ import annotations

from .base import InterfacerNet, Kind, LaneSource, Source, clog2

LANES = ("bytes", "beats", "packets", "stall", "idle", "cycles")
ACTIVITY = {"cycles": 0, "transfer": 1, "stall": 2, "idle": 3}   # jointer_eig_activity, one channel


def _elaborate_tap(sn, net: InterfacerNet, count: str) -> None:
    """jointer_eig_axis on the stream, counting `count` (beats | packets)."""
    p = sn.interfacer.params
    dw = p["data_width"]
    net.generic("data_w_g", "positive", str(dw))
    net.generic("count_g", "natural", "axis_beats_c" if count == "beats" else "axis_packets_c",
                f"one event per {count[:-1]}")
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


def _data_width(sn) -> int:
    p = sn.interfacer.params
    return p["dest_width"] if sn.data == "tdest" else min(p["data_width"], 32)


class StreamActivity(Source):
    """TVALID/TREADY into jointer_eig_activity (one channel): cycles, transfer, stall, idle."""
    key = "act"
    entity = "jointer_eig_activity"

    def summary(self, params: dict) -> str:
        return "TVALID/TREADY activity: transfer/stall/idle cycles"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        net.generic("channels_g", "positive", "1", "one channel: the stream's TVALID/TREADY")
        net.observe("tvalid", None, "TVALID", formal="mon_valid(0)")
        net.observe("tready", None, "TREADY", formal="mon_ready(0)")

    def lanes(self, params: dict) -> int:
        return len(ACTIVITY)

    def data_width(self, sn) -> int:
        return 1                                            # the stall bit


class StreamPackets(Source):
    """A second stream tap counting packets, when the sniffer's own counts beats."""
    key = "pkt"
    entity = "jointer_eig_axis"
    carries_data = True

    def summary(self, params: dict) -> str:
        return "AXI4-Stream tap, one event per packet"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        _elaborate_tap(sn, net, "packets")

    def data_width(self, sn) -> int:
        return _data_width(sn)


class Axis(Kind):
    name = "axis"
    entity = "jointer_eig_axis"
    emit_data = ("tdata", "tdest")
    counts_bytes = True
    bus_tap = "axis"
    extra_sources = {s.key: s for s in (StreamActivity(), StreamPackets())}

    def check_emit(self, b, path: tuple, data: str, params: dict) -> None:
        if data == "tdest" and params.get("dest_width") == 0:
            b.err(path + ("emit", "data"), f"emit data 'tdest' needs a TDEST in "
                  f"{b.where(path)} (expected interfacer dest_width >= 1)")

    def lane_names(self, params: dict) -> list[str]:
        return list(LANES)

    def lanes(self, params: dict) -> int:
        return len(LANES)

    def main_lanes(self, params: dict) -> int:
        return 1

    def main_lane_label(self, params: dict, lane: int) -> str | None:
        return None                                         # lane 0 of the tap: numbered, as always

    def lane_source(self, params: dict, lane: int) -> LaneSource:
        name, count = LANES[lane], params["count"]
        if name == "bytes":
            return LaneSource("", 0)
        if name in ("beats", "packets") and count == name:
            return LaneSource("", 0, weight_one=True)       # the tap's own events, weighing one
        if name == "packets":
            return LaneSource("pkt", 0, weight_one=True)
        return LaneSource("act", ACTIVITY["transfer" if name == "beats" else name], weight_one=True)

    def summary(self, p: dict) -> str:
        return f"AXI4-Stream tap, {p['data_width']}-bit data, one event per {p['count'][:-1]}"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        _elaborate_tap(sn, net, sn.interfacer.params["count"])

    def data_width(self, sn) -> int:
        return _data_width(sn)

    def inc_width(self, sn) -> int:
        p = sn.interfacer.params
        return 16 if p["count"] == "packets" else clog2(max(p["data_width"] // 8, 1) + 1)


KIND = Axis()
