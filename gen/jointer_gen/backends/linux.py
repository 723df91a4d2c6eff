# SPDX-License-Identifier: MIT
"""Linux backend: linux/<name>.dtsi, the device-tree node of the monitor for UIO.

Node <name>@<base> (its name is the UIO device name, /sys/class/uio/uioN/name,
which the udev rule of the README, "Use it on Linux", matches) with compatible
"jointer,<name>-1.0", "jointer,monitor-1.0", "generic-uio"; reg = the base
address and the space s_axi decodes, at least a page (UIO maps whole pages);
interrupt and clock placeholders for Zynq-7000 (IRQ_F2P[0], FCLK0), explained
in the file. The node sits in a simple-bus of its own with one address and
one size cell and an identity `ranges`, so the fragment fits Zynq-7000
(1 cell) and Zynq UltraScale+ (2 cells) trees alike.
Sink traces (mode: sink): one `reserved-memory` child per sink
(no-map, `sink: {ring_bytes}` bytes, placed from RING_TOP down: a placeholder
for the top of a 1 GB DDR, explained in the file), and the region as the next
`reg` entry of the UIO node, so uio_pdrv_genirq exposes it as map1, map2...
(reg-names names the maps: /sys/class/uio/uioN/maps/mapK/name).
"""

from __future__ import annotations

from ..model.views import Design
from . import OutFile
from .templates import render_file
from .vivado.vlnv import IP_VERSION, vlnv

PAGE = 4096
RING_TOP = 0x40000000   # placeholder: the rings sit below the end of a 1 GB DDR (Zynq-7000 boards)


def dtsi_file(d: Design) -> str:
    return f"linux/{d.name}.dtsi"


def reg_size(d: Design) -> int:
    """The space s_axi decodes (2^addr_width bytes, as component.xml's address
    block and so the Vivado address segment), at least a page: UIO maps pages."""
    return max(1 << d.addr_width, PAGE)


def rings(d: Design) -> list[dict]:
    """The reserved-memory region of each sink trace, in trace order (UIO map1, map2, ...)."""
    out, top = [], RING_TOP
    for t in d.traces:
        if not t["sink_bytes"]:
            continue
        size = next(x for x in d.monitor.dcapfs() if x.name == t["name"]).sink.ring_bytes
        top -= size
        out.append({"name": t["name"], "label": f"jointer_{d.name}_{t['name']}_ring",
                    "addr": f"0x{top:08x}", "unit": f"{top:x}", "size": f"0x{size:x}", "map": len(out) + 1})
    return out


def context(d: Design) -> dict:
    base = d.monitor.bus.base_address
    return {"vlnv": vlnv(d),
            "node": d.name, "label": f"jointer_{d.name}", "bus": f"jointer_{d.name}_bus",
            "unit": f"{base:x}", "base": f"0x{base:08x}", "size": f"0x{reg_size(d):x}",
            "span": d.layout.span, "page": PAGE, "addr_width": d.addr_width, "config_hash": f"0x{d.config_hash:08x}",
            "compatible": [f"jointer,{d.name}-{IP_VERSION}", f"jointer,monitor-{IP_VERSION}", "generic-uio"],
            "other_clocks": [f"{c.name}_clk" for c in d.monitor.clocks[1:]], "rings": rings(d),
            "ring_top": f"0x{RING_TOP:08x}"}


def emit(d: Design) -> list[OutFile]:
    return [render_file(d, "linux/monitor.dtsi.j2", dtsi_file(d), "linux-dtsi", l=context(d))]
