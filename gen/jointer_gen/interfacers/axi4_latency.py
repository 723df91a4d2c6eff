# SPDX-License-Identifier: MIT
"""`interfacer: {type: axi4_latency}`: the latency of each
AXI4 transaction, from its address handshake to its last data beat or its
write response (jointer_eig_axi4_latency); the latency is the event data."""

from __future__ import annotations

from . import axi_common
from .base import InterfacerNet, Kind

LATENCY_END = {"last": "latency_end_last_c", "response": "latency_end_resp_c"}


class Axi4Latency(Kind):
    name = "axi4_latency"
    entity = "jointer_eig_axi4_latency"
    emit_data = ("latency",)
    bus_tap = "aximm"               # a monitor interface like axi4

    def check_sniffer(self, b, path: tuple, params: dict) -> None:
        if params["direction"] == "read" and params["end"] == "response":
            b.err(path + ("interfacer", "end"), f"end 'response' in {b.where(path)} is for "
                  "writes (a read ends with its RLAST beat; expected end: last)")

    def summary(self, p: dict) -> str:
        end = {"read": "RLAST", "write": "WLAST"}[p["direction"]] if p["end"] == "last" else "B"
        return (f"AXI4 {p['direction']} latency (address handshake to {end}), "
                f"{p['addr_width']}-bit address, {p['data_width']}-bit data")

    def elaborate(self, sn, net: InterfacerNet) -> None:
        p = sn.interfacer.params
        axi_common.direction_generic(net, p)
        net.generic("end_g", "natural", LATENCY_END[p["end"]],
                    "ends at the B handshake" if p["end"] == "response" else "ends at the last data beat")
        axi_common.width_generics(net, p)
        axi_common.id_generic(net, p)
        net.generic("max_outstanding_g", "positive", str(p["max_outstanding"]))
        axi_common.observe(net, p, axi_common.AXI4_SIGNALS)


KIND = Axi4Latency()
