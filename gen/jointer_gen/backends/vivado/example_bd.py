# SPDX-License-Identifier: MIT
"""ip/example_bd.tcl: a block design around the monitor on the PS of its
platform (monitor.platform: Zynq-7000's processing_system7, Zynq
UltraScale+'s zynq_ultra_ps_e), for users who have Vivado:

    vivado -mode batch -source ip/example_bd.tcl -tclargs [PROJECT_DIR [PART]]

The PS drives the monitor's AXI4-Lite port through an interconnect on the
master port whose aperture holds the YAML's base address (Zynq-7000
M_AXI_GP0/GP1; Zynq UltraScale+ M_AXI_HPM0_FPD/HPM1_FPD/HPM0_LPD) and takes
its interrupt on its fabric interrupt input (IRQ_F2P, pl_ps_irq0). An AXI DMA
(scatter-gather off, MM2S stream looped back into S2MM) is the traffic the
monitor watches: its masters reach DDR through the PS's HP port (S_AXI_HP0,
S_AXI_HP0_FPD; a DMA as wide as the taps that join it, addresses, data and
stream, the DDR above 4 GB too when its addresses are wider than 32 bits). Each monitor interface joins the net it
watches (as a System ILA does):

- an AXI4 tap of writes (AW/W/B channels) the DMA's M_AXI_S2MM, of reads
  M_AXI_MM2S; an AXI4-Lite tap the DMA's S_AXI_LITE; an AXI4-Stream tap
  the MM2S -> S2MM loop;
- a tap whose clock is not the clock of that net, and every plain input of
  the monitor (start/done, event strobes, program counters), becomes an
  external port of the block design, for the user's own logic.

Clock i of the YAML is the PS's PL clock i (FCLK_CLK<i>, pl_clk<i>) at its
period_ns (bus clock 100 MHz when not given), each with a proc_sys_reset
(clocks beyond the PS's four become external clock and reset ports); the
DMA's AXI4 side runs on the clock of its first AXI4 tap (else of its first
AXI4-Stream tap), its AXI4-Lite side on the clock of its AXI4-Lite taps (else
the bus clock). The monitor,
cell <name>_0 (Vivado's name for the first instance: the device tree's
`&<name>_0`), is assigned its YAML base address, with a range of at least
4K (Vivado's smallest segment). A trace sink's AXI4 master (mode: sink) is
one more slave port of the HP interconnect, on its LMIC's clock (the
interconnect converts clocks), so its ring can be anywhere in DDR below 4 GB.
The PS's own creation and settings are the platform's template
(templates/vivado/ps/<platform>.tcl.j2).
"""

from __future__ import annotations

import re

from ... import platforms
from ...model.views import Design
from .vlnv import instance, vlnv

_VECTOR = re.compile(r"std_logic_vector\((\d+) downto (\d+)\)")
WRITE_SIGNALS = {"AWADDR", "WDATA", "WVALID", "BVALID"}
AXI4_ONLY = {"AWLEN", "ARLEN", "WLAST", "RLAST"}


def _clock_of(d: Design) -> dict[str, str]:
    """{bus interface name: clock port} from the clocks' ASSOCIATED_BUSIF."""
    out = {}
    for b in d.bus_interfaces:
        if b.kind == "clock":
            for n in dict(b.params).get("ASSOCIATED_BUSIF", "").split(":"):
                if n:
                    out[n] = b.name
    return out


def _target(b) -> tuple[str, str]:
    """(net kind, the DMA pin whose net a monitor interface joins)."""
    logical = {lg for lg, _ in b.port_maps}
    if b.kind == "axis":
        return "stream", "axi_dma_0/M_AXIS_MM2S"
    if not logical & AXI4_ONLY:
        return "lite", "axi_dma_0/S_AXI_LITE"
    if logical & WRITE_SIGNALS:
        return "full", "axi_dma_0/M_AXI_S2MM"
    return "full", "axi_dma_0/M_AXI_MM2S"


def segment_range(d: Design) -> str:
    """The address segment: what s_axi decodes, at least 4K, in Vivado's notation."""
    size = max(1 << d.addr_width, platforms.PAGE)
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if size >> shift:
            return f"{size >> shift}{unit}"
    raise ValueError(size)


def _clocks(d: Design, p: platforms.Platform) -> list[dict]:
    out = []
    for i, c in enumerate(d.monitor.clocks):
        clk, rst = ("s_axi_aclk", "s_axi_aresetn") if i == 0 else (f"{c.name}_clk", f"{c.name}_resetn")
        mhz = round(1000.0 / c.period_ns, 3) if c.period_ns else 100.0
        out.append({"index": i, "name": c.name, "port": clk, "reset": rst, "mhz": f"{mhz:g}",
                    "fclk": i < p.pl_clocks,     # beyond the PS's PL clocks: external clock and reset ports
                    "pin": f"{p.ps_cell}/{p.clock_pin.format(i=i)}"})
    return out


def _ps(d: Design, p: platforms.Platform, dma_addr_width: int) -> dict:
    """The PS's cell and pins the design connects."""
    size = max(1 << d.addr_width, platforms.PAGE)
    master = p.master(d.monitor.bus.base_address, size)
    cell = p.ps_cell
    segs = p.ddr_segments + (p.ddr_segments_high if dma_addr_width > 32 else ())
    return {"platform": p.name, "title": p.title, "template": p.template, "vlnv": p.ps_vlnv, "cell": cell,
            "reset": f"{cell}/{p.reset_pin}", "irq": f"{cell}/{p.irq_pin}",
            "master_port": master, "master": f"{cell}/{master}",
            "master_clock": f"{cell}/{p.master_clock(master)}",
            "hp_port": p.hp_port, "hp": f"{cell}/{p.hp_port}", "hp_clock": f"{cell}/{p.hp_clock}",
            "data": f"{cell}/Data", "ddr_segments": [f"{cell}/{s}" for s in segs]}


def _taps(d: Design, by_port: dict, clock_of: dict) -> tuple[list[dict], dict, dict, list]:
    """(a row per monitor interface: the DMA pin it joins or None (external),
    the DMA's AXI4 clock, its AXI4-Lite clock, the AXI4 interfaces joined)."""
    taps = [(b, *_target(b)) for b in d.bus_interfaces if b.mode == "monitor"]
    # the DMA's AXI4 side runs on the clock of its first AXI4 tap (else of its first stream tap)
    full = [clock_of[b.name] for kinds in (("full",), ("stream",)) for b, kind, _ in taps
            if kind in kinds and by_port[clock_of[b.name]]["fclk"]]
    lite = [clock_of[b.name] for b, kind, _ in taps if kind == "lite" and by_port[clock_of[b.name]]["fclk"]]
    dma_full = by_port[full[0] if full else "s_axi_aclk"]
    dma_lite = by_port[lite[0] if lite else "s_axi_aclk"]
    rows, joined = [], []
    for b, kind, pin in taps:
        domain = dma_lite if kind == "lite" else dma_full
        on_dma = clock_of[b.name] == domain["port"]
        rows.append({"name": b.name, "pin": pin if on_dma else None, "clock": clock_of[b.name]})
        if on_dma and kind in ("full", "stream"):
            joined.append(b)
    return rows, dma_full, dma_lite, joined


def context(d: Design) -> dict:
    p = platforms.platform(d.monitor.platform)
    clocks = _clocks(d, p)
    by_port = {c["port"]: c for c in clocks}
    clock_of = _clock_of(d)
    tap_rows, dma_full, dma_lite, joined = _taps(d, by_port, clock_of)
    in_bus = {phys for b in d.bus_interfaces for _, phys in b.port_maps}
    plain = [p.name for p in d.top["ports"] if p.direction == "in" and p.name not in in_bus]
    sinks = []
    for b in d.bus_interfaces:
        if b.mode == "master" and b.kind == "aximm":      # a trace sink's master
            c = by_port[clock_of[b.name]]
            sinks.append({"name": b.name, "si": f"S{2 + len(sinks):02d}", "clock": c})
    dma = _dma_widths(d, joined)
    return {"vlnv": vlnv(d), "name": d.name, "instance": instance(d), "part": p.part, "clocks": clocks,
            "taps": tap_rows, "ps": _ps(d, p, dma["addr"]), "dma": dma,
            "sinks": [s for s in sinks if s["clock"]["fclk"]],
            "external_sinks": [s for s in sinks if not s["clock"]["fclk"]],
            "plain_inputs": plain, "dma_full": dma_full, "dma_lite": dma_lite,
            "base": f"0x{d.monitor.bus.base_address:08X}", "range": segment_range(d)}


def _dma_widths(d: Design, joined) -> dict:
    """The DMA's widths, as wide as the taps that join its nets (AXI DMA defaults: 32 bits)
    so that each monitor interface and its net agree: {addr, data, stream, props} where props
    are the DMA's CONFIG settings that differ from the defaults."""
    ports = {p.name: p for p in d.top["ports"]}
    w = {"addr": [32], "data": [32], "stream": [32]}
    for b in joined:
        for logical, phys in b.port_maps:
            key = {"AWADDR": "addr", "ARADDR": "addr", "WDATA": "data", "RDATA": "data", "TDATA": "stream"}.get(logical)
            if key:
                w[key].append(port_width(ports[phys].vtype))
    out = {k: max(v) for k, v in w.items()}
    out["data"] = max(out["data"], out["stream"])      # the DMA's memory side is at least as wide as its stream
    props = [("c_addr_width", out["addr"]), ("c_m_axi_mm2s_data_width", out["data"]),
             ("c_m_axi_s2mm_data_width", out["data"]), ("c_m_axis_mm2s_tdata_width", out["stream"]),
             ("c_s_axis_s2mm_tdata_width", out["stream"])]
    out["props"] = [(k, v) for k, v in props if v != 32]
    return out


def port_width(vtype: str) -> int:
    m = _VECTOR.fullmatch(vtype)
    return int(m.group(1)) - int(m.group(2)) + 1 if m else 1
