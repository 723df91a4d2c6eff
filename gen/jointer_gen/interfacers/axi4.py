# SPDX-License-Identifier: MIT
"""`interfacer: {type: axi4}`: an AXI4 read or write tap (jointer_eig_axi4),
one event per burst or per beat, the address as event data, bytes as the
increment. A write tap counting per burst evaluates its event DCAPFs'
filters where it captures AWADDR (datapath.py).

One tap per bus direction: besides its own events (lane `bytes`, lane 0),
the sniffer gives `beats` and `bursts` (one event each, weight one),
`latency` (one event per transaction, data = its latency in cycles from the
address handshake to RLAST / WLAST or, `latency_end: response`, to B: for
`sample: data` DCAPFs, max, min, mean, histogram), and `stall`, `idle` (the
data channel's VALID/READY activity). A lane the tap itself does not give
comes from another interfacer on the same ports (`extra_sources`: a
second tap per burst, jointer_eig_axi4_latency, jointer_eig_activity on W
or R), instantiated only when a DCAPF reads it."""

from __future__ import annotations

import dataclasses

from . import axi4_latency, axi_common
from .base import InterfacerNet, Kind, LaneSource, Source, clog2

LANES = ("bytes", "beats", "bursts", "latency", "stall", "idle")
ACTIVITY = {"transfer": 1, "stall": 2, "idle": 3}     # jointer_eig_activity, one channel


def _elaborate_tap(sn, net: InterfacerNet, per_beat: bool) -> None:
    from ..model import datapath
    p = sn.interfacer.params
    axi_common.direction_generic(net, p)
    axi_common.width_generics(net, p)
    axi_common.id_generic(net, p)
    net.generic("per_beat_g", "boolean", "true" if per_beat else "false",
                "one event per beat" if per_beat else "one event per burst")
    net.generic("max_outstanding_g", "positive", str(p["max_outstanding"]))
    nr = len(datapath.capture_ranges(sn)) if per_beat == p["per_beat"] else 0
    if nr:                          # DCAPF filters evaluated at the AW capture
        keep = datapath.keep_data(sn)
        net.generic("ranges_g", "natural", str(nr), "DCAPF filters evaluated where AWADDR is captured")
        net.generic("keep_data_g", "boolean", "true" if keep else "false",
                    "the address reaches the DCAPFs" if keep
                    else "only the in-range bits travel, not the address")
    axi_common.observe(net, p, axi_common.AXI4_SIGNALS)


class Bursts(Source):
    """A second tap counting bursts, when the sniffer's own counts beats."""
    key = "bst"
    entity = "jointer_eig_axi4"
    carries_data = True

    def summary(self, params: dict) -> str:
        return f"AXI4 {params['direction']} tap, one event per burst"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        _elaborate_tap(sn, net, per_beat=False)

    def data_width(self, sn) -> int:
        return sn.interfacer.params["addr_width"]


class Latency(Source):
    """jointer_eig_axi4_latency on the same ports: data = each transaction's latency."""
    key = "lat"
    entity = "jointer_eig_axi4_latency"

    def summary(self, params: dict) -> str:
        return axi4_latency.KIND.summary({**params, "end": params["latency_end"]})

    def elaborate(self, sn, net: InterfacerNet) -> None:
        p = {**sn.interfacer.params, "end": sn.interfacer.params["latency_end"]}
        axi4_latency.KIND.elaborate(dataclasses.replace(
            sn, interfacer=dataclasses.replace(sn.interfacer, params=p)), net)


class DataActivity(Source):
    """The data channel's VALID/READY (W or R) into jointer_eig_activity."""
    key = "act"
    entity = "jointer_eig_activity"

    def summary(self, params: dict) -> str:
        return f"{'W' if params['direction'] == 'write' else 'R'} channel activity: transfer/stall/idle cycles"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        ch = "w" if sn.interfacer.params["direction"] == "write" else "r"
        net.generic("channels_g", "positive", "1", f"one channel: {ch.upper()}VALID/{ch.upper()}READY")
        net.observe(f"{ch}valid", None, formal="mon_valid(0)")
        net.observe(f"{ch}ready", None, formal="mon_ready(0)")

    def lanes(self, params: dict) -> int:
        return 4

    def data_width(self, sn) -> int:
        return 1                                            # the stall bit


class Axi4(Kind):
    name = "axi4"
    entity = "jointer_eig_axi4"
    emit_data = ("address",)
    counts_bytes = True
    bus_tap = "aximm"
    extra_sources = {s.key: s for s in (Bursts(), Latency(), DataActivity())}
    late_params = ("latency_end",)

    def check_sniffer(self, b, path: tuple, params: dict) -> None:
        if params.get("direction") == "read" and params.get("latency_end") == "response":
            b.err(path + ("interfacer", "latency_end"), f"latency_end 'response' in {b.where(path)} is "
                  "for writes (a read ends with its RLAST beat; expected latency_end: last)")

    def lane_names(self, params: dict) -> list[str]:
        return list(LANES)

    def lanes(self, params: dict) -> int:
        return len(LANES)

    def main_lanes(self, params: dict) -> int:
        return 1

    def main_lane_label(self, params: dict, lane: int) -> str | None:
        return None                                         # lane 0 of the tap: numbered, as always

    def lane_source(self, params: dict, lane: int) -> LaneSource:
        name = LANES[lane]
        unit = "beats" if params["per_beat"] else "bursts"
        if name == "bytes":
            return LaneSource("", 0)
        if name == unit:
            return LaneSource("", 0, weight_one=True)       # the tap's own events, weighing one
        if name == "bursts":
            return LaneSource("bst", 0, weight_one=True)
        if name == "latency":
            return LaneSource("lat", 0, weight_one=True)
        return LaneSource("act", ACTIVITY["transfer" if name == "beats" else name], weight_one=True)

    def summary(self, p: dict) -> str:
        return (f"AXI4 {p['direction']} tap, {p['addr_width']}-bit address, {p['data_width']}-bit "
                f"data, {'per beat' if p['per_beat'] else 'per burst'}")

    def elaborate(self, sn, net: InterfacerNet) -> None:
        _elaborate_tap(sn, net, sn.interfacer.params["per_beat"])

    def data_width(self, sn) -> int:
        return sn.interfacer.params["addr_width"]                   # the address, every bit

    def wider_hint(self, params: dict, value: int) -> str:
        return axi_common.wider_hint(params, value)

    def inc_width(self, sn) -> int:
        p = sn.interfacer.params
        strb = max(p["data_width"] // 8, 1)
        return clog2(strb + 1) if p["per_beat"] else clog2(256 * strb + 1)

    def captures(self, sn) -> bool:
        p = sn.interfacer.params
        return p["direction"] == "write" and not p["per_beat"]


KIND = Axi4()
