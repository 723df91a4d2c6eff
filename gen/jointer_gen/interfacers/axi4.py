# SPDX-License-Identifier: MIT
"""`interfacer: {type: axi4}`: an AXI4 read or write tap (jointer_eig_axi4),
one event per burst or per beat, the address as event data, bytes as the
increment. A write tap counting per burst evaluates its event DCAPFs'
filters where it captures AWADDR (datapath.py)."""

from __future__ import annotations

from . import axi_common
from .base import InterfacerNet, Kind, clog2


class Axi4(Kind):
    name = "axi4"
    entity = "jointer_eig_axi4"
    emit_data = ("address",)
    counts_bytes = True
    bus_tap = "aximm"

    def summary(self, p: dict) -> str:
        return (f"AXI4 {p['direction']} tap, {p['addr_width']}-bit address, {p['data_width']}-bit "
                f"data, {'per beat' if p['per_beat'] else 'per burst'}")

    def elaborate(self, sn, net: InterfacerNet) -> None:
        from ..model import datapath
        p = sn.interfacer.params
        axi_common.direction_generic(net, p)
        axi_common.width_generics(net, p)
        axi_common.id_generic(net, p)
        net.generic("per_beat_g", "boolean", "true" if p["per_beat"] else "false",
                    "one event per beat" if p["per_beat"] else "one event per burst")
        net.generic("max_outstanding_g", "positive", str(p["max_outstanding"]))
        nr = len(datapath.capture_ranges(sn))
        if nr:                          # DCAPF filters evaluated at the AW capture
            keep = datapath.keep_data(sn)
            net.generic("ranges_g", "natural", str(nr), "DCAPF filters evaluated where AWADDR is captured")
            net.generic("keep_data_g", "boolean", "true" if keep else "false",
                        "the address reaches the DCAPFs" if keep
                        else "only the in-range bits travel, not the address")
        axi_common.observe(net, p, axi_common.AXI4_SIGNALS)

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
