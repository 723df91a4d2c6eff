# SPDX-License-Identifier: MIT
"""`interfacer: {type: axi4lite}`: an AXI4-Lite read or write tap
(jointer_eig_axi4lite): one event per transfer, the address as event data."""

from __future__ import annotations

from ..model import datapath
from . import axi_common
from .base import InterfacerNet, Kind, clog2


class Axi4Lite(Kind):
    name = "axi4lite"
    entity = "jointer_eig_axi4lite"
    emit_data = ("address",)
    counts_bytes = True
    bus_tap = "aximm"

    def summary(self, p: dict) -> str:
        return f"AXI4-Lite {p['direction']} tap, {p['addr_width']}-bit address, {p['data_width']}-bit data"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        p = sn.interfacer.params
        axi_common.direction_generic(net, p)
        axi_common.width_generics(net, p)
        nr = len(datapath.capture_ranges(sn))
        if nr:                          # DCAPF filters evaluated where AWADDR is queued
            net.generic("ranges_g", "natural", str(nr), "DCAPF filters evaluated where AWADDR is captured")
        axi_common.observe(net, p, axi_common.AXI4LITE_SIGNALS)

    def captures(self, sn) -> bool:
        return sn.interfacer.params["direction"] == "write"

    def data_width(self, sn) -> int:
        return sn.interfacer.params["addr_width"]                   # the address, every bit

    def wider_hint(self, params: dict, value: int) -> str:
        return axi_common.wider_hint(params, value)

    def inc_width(self, sn) -> int:
        return clog2(max(sn.interfacer.params["data_width"] // 8, 1) + 1)


KIND = Axi4Lite()
