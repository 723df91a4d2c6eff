# SPDX-License-Identifier: MIT
"""The bus interfaces of the top as Vivado sees them (IP-XACT busInterface of
component.xml, package_ip.tcl): s_axi, every bus tap (its interfacer kind's
`bus_tap`) as a monitor interface, irq, a clock and a reset per clock.
"""

from __future__ import annotations

from ..model.monitor import Monitor
from ..model.identifiers import GENERATED
from .sink import lmic_sinks, master_signals
from .top import S_AXI
from ..model.views import BusInterface, LmicView


def bus_interfaces(mon: Monitor, lviews: list[LmicView]) -> list[BusInterface]:
    """s_axi (AXI4-Lite slave, memory map s_axi), every AXI4 / AXI4-Lite /
    AXI4-Stream tap as a monitor interface (it attaches to an existing net,
    as System ILA does), irq, and a clock and a reset interface per clock
    with the interfaces and the reset of its domain. Start/done and event
    strobes stay plain ports. Logical port names are the AXI names of
    xilinx.com:interface:aximm / axis (the port suffix in upper case)."""
    gen = GENERATED
    bus = mon.bus_clock.name
    out = [BusInterface("s_axi", "aximm", "slave",
                        [(sig.upper(), f"s_axi_{sig}") for sig, _, _ in S_AXI], [],
                        "AXI4-Lite slave: the host's port to the monitor registers", gen, mon.path,
                        memory_map="s_axi")]
    taps: dict[str, list[str]] = {c.name: [] for c in mon.clocks}
    taps[bus].append("s_axi")
    for lv in lviews:
        for sv in lv.sniffers:
            tap = sv.model.interfacer.kind.bus_tap
            if tap is None:
                continue
            n = sv.model.name
            out.append(BusInterface(n, tap, "monitor",
                                    [(o.sig.upper(), f"{n}_{o.sig}") for o in sv.observed], [],
                                    f"sniffer {n} (LMIC {lv.model.name}, clock {lv.clock}): {sv.summary}",
                                    f"sniffer '{n}'", sv.model.path + ("name",), monitored="slave"))
            taps[lv.clock].append(n)
        for dc in lmic_sinks(lv.model):     # a sink's AXI4 master (write channels)
            n = f"m_axi_{dc.name}"
            out.append(BusInterface(n, "aximm", "master",
                                    [(sig.upper(), f"{n}_{sig}") for sig, _, _ in master_signals(dc)],
                                    [("PROTOCOL", "AXI4"), ("READ_WRITE_MODE", "WRITE_ONLY"),
                                     ("DATA_WIDTH", str(dc.sink.data_width)), ("ADDR_WIDTH", "32"),
                                     ("ID_WIDTH", "1")],
                                    f"trace sink {dc.name} (LMIC {lv.model.name}, clock {lv.clock}): "
                                    "AXI4 master writing the trace records into a ring in memory",
                                    f"DCAPF '{dc.name}'", dc.path + ("name",), address_space=n))
            taps[lv.clock].append(n)
    out.append(BusInterface("irq", "interrupt", "master", [("INTERRUPT", "irq")],
                            [("SENSITIVITY", "LEVEL_HIGH")],
                            "level interrupt: an enabled source is pending (bus clock)", gen, mon.path))
    for i, c in enumerate(mon.clocks):
        clk, rst = ("s_axi_aclk", "s_axi_aresetn") if i == 0 else (f"{c.name}_clk", f"{c.name}_resetn")
        owner, path = (gen, mon.path) if i == 0 else (f"clock '{c.name}'", c.path)
        out.append(BusInterface(rst, "reset", "slave", [("RST", rst)], [("POLARITY", "ACTIVE_LOW")],
                                f"reset of clock {c.name}, active low, synchronous to {clk}", owner, path))
        params = [("ASSOCIATED_BUSIF", ":".join(taps[c.name]))] if taps[c.name] else []
        out.append(BusInterface(clk, "clock", "slave", [("CLK", clk)], params + [("ASSOCIATED_RESET", rst)],
                                f"clock {c.name}" + (" (bus clock: DCI, global block)" if i == 0 else ""),
                                owner, path))
    return out
