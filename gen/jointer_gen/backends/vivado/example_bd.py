# SPDX-License-Identifier: MIT
"""ip/example_bd.tcl: a Zynq-7000 block design around the
monitor, for users who have Vivado:

    vivado -mode batch -source ip/example_bd.tcl -tclargs [PROJECT_DIR [PART]]

The PS (processing_system7) drives the monitor's AXI4-Lite port through an
interconnect on M_AXI_GP0 and takes its interrupt on IRQ_F2P. An AXI DMA
(scatter-gather off, MM2S stream looped back into S2MM) is the traffic the
monitor watches: its masters reach DDR through S_AXI_HP0. Each monitor
interface joins the net it watches (as a System ILA does):

- an AXI4 tap of writes (AW/W/B channels) the DMA's M_AXI_S2MM, of reads
  M_AXI_MM2S; an AXI4-Lite tap the DMA's S_AXI_LITE; an AXI4-Stream tap
  the MM2S -> S2MM loop;
- a tap whose clock is not the clock of that net, and every plain input of
  the monitor (start/done, event strobes, program counters), becomes an
  external port of the block design, for the user's own logic.

Clock i of the YAML is the PS's FCLK_CLK<i> at its period_ns (bus clock
FCLK_CLK0, 100 MHz when not given), each with a proc_sys_reset (clocks
beyond the PS's four FCLKs become external clock and reset ports); the DMA's
AXI4 side runs on the clock of its AXI4/AXI4-Stream taps, its AXI4-Lite
side on the clock of its AXI4-Lite taps (else the bus clock). The monitor
is assigned its YAML base address. A trace sink's AXI4 master (mode: sink)
is one more slave port of the HP0 interconnect, on its LMIC's
clock (the interconnect converts clocks), so its ring can be anywhere in DDR.
"""

from __future__ import annotations

from ...model.views import Design
from .vlnv import vlnv

PART = "xc7z020clg484-1"
MAX_FCLKS = 4                       # processing_system7 has FCLK_CLK0..3
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


def context(d: Design) -> dict:
    clocks = []
    for i, c in enumerate(d.monitor.clocks):
        clk, rst = ("s_axi_aclk", "s_axi_aresetn") if i == 0 else (f"{c.name}_clk", f"{c.name}_resetn")
        mhz = round(1000.0 / c.period_ns, 3) if c.period_ns else 100.0
        clocks.append({"index": i, "name": c.name, "port": clk, "reset": rst, "mhz": f"{mhz:g}",
                       "fclk": i < MAX_FCLKS})       # beyond FCLK_CLK3: external clock and reset ports
    by_port = {c["port"]: c for c in clocks}
    clock_of = _clock_of(d)
    taps = [(b, *_target(b)) for b in d.bus_interfaces if b.mode == "monitor"]
    full = [clock_of[b.name] for b, kind, _ in taps if kind in ("full", "stream") and by_port[clock_of[b.name]]["fclk"]]
    lite = [clock_of[b.name] for b, kind, _ in taps if kind == "lite" and by_port[clock_of[b.name]]["fclk"]]
    dma_full = by_port[full[0] if full else "s_axi_aclk"]
    dma_lite = by_port[lite[0] if lite else "s_axi_aclk"]
    tap_rows = []
    for b, kind, pin in taps:
        domain = dma_lite if kind == "lite" else dma_full
        tap_rows.append({"name": b.name, "pin": pin if clock_of[b.name] == domain["port"] else None,
                         "clock": clock_of[b.name]})
    in_bus = {phys for b in d.bus_interfaces for _, phys in b.port_maps}
    plain = [p.name for p in d.top["ports"] if p.direction == "in" and p.name not in in_bus]
    sinks = []
    for b in d.bus_interfaces:
        if b.mode == "master" and b.kind == "aximm":      # a trace sink's master
            c = by_port[clock_of[b.name]]
            sinks.append({"name": b.name, "si": f"S{2 + len(sinks):02d}", "clock": c})
    return {"vlnv": vlnv(d), "name": d.name, "part": PART, "clocks": clocks, "taps": tap_rows,
            "sinks": [s for s in sinks if s["clock"]["fclk"]],
            "external_sinks": [s for s in sinks if not s["clock"]["fclk"]],
            "plain_inputs": plain, "dma_full": dma_full, "dma_lite": dma_lite,
            "base": f"0x{d.monitor.bus.base_address:08X}", "range": 1 << d.addr_width}
