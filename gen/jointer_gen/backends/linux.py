# SPDX-License-Identifier: MIT
"""Linux backend: the monitor as a UIO device, on the PS of its platform
(monitor.platform: cells, interrupt controller, PL clocks; platforms/).

- linux/<name>.dtsi, a fragment for a boot-time device tree: it extends
  (`&<instance> { ... }`) the node Vivado's device-tree generators write for
  the IP instance (PetaLinux's and Yocto's device-tree generator, the system
  device tree of Vitis Unified: `<instance>: <IP name>@<unit>` in amba_pl,
  with the interrupts and clocks of the block design), where <instance> is
  the block design's cell (ip/example_bd.tcl's `<name>_0`, Vivado's name for
  a first instance). It sets the compatible strings ("xlnx,<IP name>-<version>"
  as the generators write it, then the family "jointer,monitor-1.0" that
  `uio_pdrv_genirq.of_id=` names), `reg` (the base address and the space
  s_axi decodes, at least a page; each sink trace's ring after it, so
  uio_pdrv_genirq exposes it as map1, map2..., reg-names naming the maps) and
  `jointer,config-hash`; at the root, one `xlnx,fclk` node per PL clock the
  monitor runs on (uio_pdrv_genirq enables no clock: this consumer keeps it
  on), and a no-map `reserved-memory` region per sink trace (`sink:
  {ring_bytes}` bytes, placed from RING_TOP down: a placeholder for the top
  of a 1 GB DDR, explained in the file).
- linux/<name>.dtso, a runtime overlay (`dtc -@`; fpga-manager, Kria's
  dfx-mgr, PYNQ) for a PL loaded after boot, when no generator wrote the
  node: the complete node in the PS bus (`&amba`), with the interrupt of
  the PS's first PL interrupt line and the PL clocks as ip/example_bd.tcl
  wires them, and the same fclk consumers. A ring must be reserved at boot
  (the fragment's reserved-memory in the base tree): the overlay says so.

Both are checked against the binding doc/bindings/perf/ (jointer,monitor.yaml)
by dt-validate (gen/tests/test_gen_devicetree.py).
"""

from __future__ import annotations

from .. import platforms
from ..model.views import Design
from . import OutFile
from .templates import render_file
from .vivado.vlnv import IP_VERSION, compatible, instance, vlnv

PAGE = platforms.PAGE
RING_TOP = 0x40000000   # placeholder: the rings sit below the end of a 1 GB DDR
FAMILY = f"jointer,monitor-{IP_VERSION}"


def dtsi_file(d: Design) -> str:
    return f"linux/{d.name}.dtsi"


def dtso_file(d: Design) -> str:
    return f"linux/{d.name}.dtso"


def reg_size(d: Design) -> int:
    """The space s_axi decodes (2^addr_width bytes, as component.xml's address
    block and so the Vivado address segment), at least a page: UIO maps pages."""
    return max(1 << d.addr_width, PAGE)


def rings(d: Design, p: platforms.Platform) -> list[dict]:
    """The reserved-memory region of each sink trace, in trace order (UIO map1, map2, ...)."""
    out, top = [], RING_TOP
    for t in d.traces:
        if not t["sink_bytes"]:
            continue
        size = next(x for x in d.monitor.dcapfs() if x.name == t["name"]).sink.ring_bytes
        top -= size
        out.append({"name": t["name"], "label": f"jointer_{d.name}_{t['name']}_ring",
                    "node": f"{t['name'].replace('_', '-')}-ring", "addr": p.cells(top), "unit": f"{top:x}",
                    "size": p.cells(size), "bytes": f"0x{size:x}", "map": len(out) + 1})
    return out


def clocks(d: Design, p: platforms.Platform) -> list[dict]:
    """The monitor's clocks on PS PL clocks (clock i: PL clock i, as ip/example_bd.tcl wires them)."""
    out = []
    for i, c in enumerate(d.monitor.clocks[:p.pl_clocks]):
        out.append({"name": "s_axi_aclk" if i == 0 else f"{c.name}_clk", "yaml": c.name,
                    "ref": f"<&{p.clock_provider} {p.pl_clock + i}>", "node": f"fclk{i}",
                    "pin": p.clock_pin.format(i=i)})
    return out


def context(d: Design) -> dict:
    p = platforms.platform(d.monitor.platform)
    base = d.monitor.bus.base_address
    rs = rings(d, p)
    return {"vlnv": vlnv(d), "platform": p, "instance": instance(d),
            "node": d.name, "unit": f"{base:x}", "base": f"0x{base:x}", "size": f"0x{reg_size(d):x}",
            "reg": [f"<{p.cells(base)} {p.cells(reg_size(d))}>"] + [f"<{r['addr']} {r['size']}>" for r in rs],
            "reg_names": ["registers"] + [r["name"] for r in rs] if rs else [],
            "span": d.layout.span, "page": PAGE, "addr_width": d.addr_width, "config_hash": f"0x{d.config_hash:08x}",
            "compatible": [compatible(d), FAMILY], "family": FAMILY,
            "clocks": clocks(d, p), "other_clocks": [f"{c.name}_clk" for c in d.monitor.clocks[p.pl_clocks:]],
            "irq": f"<0 {p.pl_irq} 4>", "rings": rs, "ring_top": f"0x{RING_TOP:08x}",
            "binding": "doc/bindings/perf/ (jointer,monitor.yaml)"}


def emit(d: Design) -> list[OutFile]:
    ctx = context(d)
    return [render_file(d, "linux/monitor.dtsi.j2", dtsi_file(d), "linux-dtsi", l=ctx),
            render_file(d, "linux/monitor.dtso.j2", dtso_file(d), "linux-dtso", l=ctx)]
