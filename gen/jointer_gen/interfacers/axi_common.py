# SPDX-License-Identifier: MIT
"""What the AXI4 and AXI4-Lite interfacer kinds share (axi4, axi4lite,
axi4_latency): the observed signal lists, the direction constant and the
port map of the observed bus."""

from __future__ import annotations

from .base import InterfacerNet

# (signal, width): an int, None (std_logic), or the parameter it follows
AXI4_SIGNALS = [
    ("awid", "id"), ("awaddr", "addr"), ("awlen", 8), ("awsize", 3), ("awburst", 2),
    ("awlock", None), ("awcache", 4), ("awprot", 3), ("awqos", 4), ("awvalid", None),
    ("awready", None), ("wdata", "data"), ("wstrb", "strb"), ("wlast", None),
    ("wvalid", None), ("wready", None), ("bid", "id"), ("bresp", 2), ("bvalid", None),
    ("bready", None), ("arid", "id"), ("araddr", "addr"), ("arlen", 8), ("arsize", 3),
    ("arburst", 2), ("arlock", None), ("arcache", 4), ("arprot", 3), ("arqos", 4),
    ("arvalid", None), ("arready", None), ("rid", "id"), ("rdata", "data"), ("rresp", 2),
    ("rlast", None), ("rvalid", None), ("rready", None),
]
AXI4LITE_SIGNALS = [
    ("awaddr", "addr"), ("awprot", 3), ("awvalid", None), ("awready", None),
    ("wdata", "data"), ("wstrb", "strb"), ("wvalid", None), ("wready", None),
    ("bresp", 2), ("bvalid", None), ("bready", None), ("araddr", "addr"), ("arprot", 3),
    ("arvalid", None), ("arready", None), ("rdata", "data"), ("rresp", 2), ("rvalid", None),
    ("rready", None),
]
DIR_CONST = {"write": "dir_write_c", "read": "dir_read_c"}


def wider_hint(params: dict, value: int) -> str:
    """The addr_width a value needs, when the tap's is too small."""
    need = value.bit_length()
    if need <= params["addr_width"] or need > 64:
        return ""
    return f"; the tap's addr_width is {params['addr_width']}: an address up to 0x{value:_X} needs addr_width >= {need}"


def direction_generic(net: InterfacerNet, p: dict) -> None:
    net.generic("dir_g", "natural", DIR_CONST[p["direction"]], f"{p['direction']} direction")


def width_generics(net: InterfacerNet, p: dict) -> None:
    net.generic("addr_w_g", "positive", str(p["addr_width"]))
    net.generic("data_w_g", "positive", str(p["data_width"]))


def id_generic(net: InterfacerNet, p: dict) -> None:
    net.generic("id_w_g", "positive", str(max(1, p["id_width"])),
                "ID bits" + (" (no ID: tied to 0)" if p["id_width"] == 0 else ""))


def observe(net: InterfacerNet, p: dict, signals: list) -> None:
    """The observed signals, one plain port each (mon_awaddr => mon_awaddr);
    ID signals tied to 0 without an ID."""
    widths = {"addr": p["addr_width"], "data": p["data_width"], "strb": p["data_width"] // 8,
              "id": p.get("id_width", 0)}
    for sig, w in signals:
        width = widths[w] if isinstance(w, str) else w
        if w == "id" and width == 0:
            net.tie(f"mon_{sig}", "(others => '0')")
            continue
        net.observe(sig, width, formal=f"mon_{sig}")
