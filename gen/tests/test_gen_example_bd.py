# SPDX-License-Identifier: MIT
"""ip/example_bd.tcl, run in a Tcl interpreter with
stand-ins for Vivado's block-design commands (as package_ip.tcl is in
test_gen_integration.py): for every configs/ monitor, the design it builds
has the monitor IP of component.xml, every monitor interface joined to the
DMA net of its kind and clock (or made external), every clock on a PS FCLK
at the YAML's frequency with its reset, the interrupt on IRQ_F2P, every
plain input external, the monitor at its YAML base address, and it is
validated and saved."""

import xml.etree.ElementTree as ET

import pytest
import yaml

from gentest_util import CONFIGS

S = "{http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009}"


class BdStub:
    def __init__(self, tcl):
        self.tcl, self.cells, self.nets, self.intf, self.external, self.props = tcl, {}, [], [], [], {}
        self.addresses, self.calls = [], []
        for name, fn in {
            "create_project": self.nop, "set_property": self.set_property, "current_project": lambda *a: "proj",
            "update_ip_catalog": self.nop, "create_bd_design": self.nop, "create_bd_cell": self.create_cell,
            "apply_bd_automation": self.nop, "get_bd_pins": lambda *a: " ".join(a),
            "get_bd_intf_pins": lambda *a: " ".join(a), "get_bd_cells": lambda *a: " ".join(a),
            "get_bd_addr_segs": lambda *a: " ".join(a), "get_files": lambda *a: " ".join(a),
            "connect_bd_net": lambda *a: self.nets.append(list(a)) or "",
            "connect_bd_intf_net": lambda *a: self.intf.append(tuple(a)) or "",
            "make_bd_pins_external": lambda *a: self.external.extend(a) or "",
            "make_bd_intf_pins_external": lambda *a: self.external.extend(a) or "",
            "assign_bd_address": lambda *a: self.addresses.append(a) or "",
            "validate_bd_design": lambda *a: self.calls.append("validate") or "",
            "save_bd_design": lambda *a: self.calls.append("save") or "",
            "make_wrapper": self.nop, "add_files": self.nop, "current_fileset": lambda *a: "sources_1",
        }.items():
            tcl.createcommand(name, fn)

    def nop(self, *a):
        return ""

    def create_cell(self, *a):
        opts = dict(zip(a[0:-1:2], a[1:-1:2]))
        self.cells[a[-1]] = opts["-vlnv"]
        return a[-1]

    def set_property(self, *a):
        if a[0] == "-dict":
            items = self.tcl.splitlist(a[1])
            self.props.setdefault(a[2], {}).update(zip(items[0::2], items[1::2]))
        else:
            self.props.setdefault(a[2], {})[a[0]] = a[1]
        return ""

    def net_of(self, pin):
        """The other pins on pin's net (nets given pin by pin in connect_bd_net)."""
        return {p for n in self.nets if pin in n for p in n if p != pin}


def run(tmp_path, name):
    import tkinter
    from jointer_gen.cli import generate
    from jointer_gen.output import write_tree
    design, rendered = generate(str(CONFIGS / f"{name}.yaml"))
    write_tree(rendered, tmp_path / name)
    tcl = tkinter.Tcl()
    stub = BdStub(tcl)
    tcl.eval(f"set argc 1; set argv [list {{{tmp_path / 'proj'}}}]")
    tcl.eval(f"info script {{{tmp_path / name / 'ip' / 'example_bd.tcl'}}}")
    tcl.evalfile(str(tmp_path / name / "ip" / "example_bd.tcl"))
    return design, stub, ET.parse(tmp_path / name / "ip" / "component.xml").getroot()


@pytest.mark.parametrize("name", sorted(p.stem for p in CONFIGS.glob("*.yaml")))
def test_example_bd(tmp_path, name):
    design, stub, comp = run(tmp_path, name)
    cfg = yaml.safe_load((CONFIGS / f"{name}.yaml").read_text())
    vlnv = ":".join(comp.findtext(f"{S}{k}") for k in ("vendor", "library", "name", "version"))
    assert stub.cells["monitor"] == vlnv
    assert stub.cells["ps7"].startswith("xilinx.com:ip:processing_system7:")
    assert stub.calls == ["validate", "save"]
    buses = {b.findtext(f"{S}name"): b for b in comp.findall(f"{S}busInterfaces/{S}busInterface")}
    monitors = [n for n, b in buses.items() if b.find(f"{S}monitor") is not None]
    joined = {m: pin for pin, m in ((a, b.split("/")[1]) for a, b in stub.intf if b.startswith("monitor/"))
              if m in monitors}
    # every monitor interface: joined to the DMA net of its kind, or external
    for m in monitors:
        logical = {p.findtext(f"{S}logicalPort/{S}name") for p in buses[m].findall(f"{S}portMaps/{S}portMap")}
        external = f"monitor/{m}" in stub.external
        assert (m in joined) != external, m
        if m in joined:
            kind = buses[m].find(f"{S}busType").get(f"{S}name")
            want = ("axi_dma_0/M_AXIS_MM2S" if kind == "axis" else
                    "axi_dma_0/S_AXI_LITE" if not logical & {"AWLEN", "ARLEN"} else
                    "axi_dma_0/M_AXI_S2MM" if "AWADDR" in logical else "axi_dma_0/M_AXI_MM2S")
            assert joined[m] == want, (m, joined[m])
            # the net exists beyond the monitor (the DMA's own connection)
            assert sum(joined[m] in pair for pair in stub.intf) >= 2, m
    # clocks: each on a PS FCLK at the YAML's frequency (or external), its reset from that clock
    ps = stub.props["ps7"]
    for i, c in enumerate(cfg["monitor"]["clocks"]):
        c = c if isinstance(c, dict) else {"name": c}
        port = "s_axi_aclk" if i == 0 else f"{c['name']}_clk"
        if i >= 4:
            assert f"monitor/{port}" in stub.external
            continue
        assert f"ps7/FCLK_CLK{i}" in stub.net_of(f"monitor/{port}")
        mhz = 1000.0 / c["period_ns"] if c.get("period_ns") else 100.0
        assert float(ps[f"CONFIG.PCW_FPGA{i}_PERIPHERAL_FREQMHZ"]) == pytest.approx(mhz, rel=1e-3)
        rst = "s_axi_aresetn" if i == 0 else f"{c['name']}_resetn"
        assert stub.net_of(f"monitor/{rst}") == {f"rst_{c['name']}/peripheral_aresetn"}
        assert f"ps7/FCLK_CLK{i}" in stub.net_of(f"rst_{c['name']}/slowest_sync_clk")
    # a joined tap runs on the clock of the DMA side it watches
    dma_clock = {"axi_dma_0/M_AXI_S2MM": "axi_dma_0/m_axi_s2mm_aclk", "axi_dma_0/M_AXI_MM2S": "axi_dma_0/m_axi_mm2s_aclk",
                 "axi_dma_0/M_AXIS_MM2S": "axi_dma_0/m_axi_mm2s_aclk", "axi_dma_0/S_AXI_LITE": "axi_dma_0/s_axi_lite_aclk"}
    clock_of = {}
    for b in buses.values():
        for p in b.findall(f"{S}parameters/{S}parameter"):
            if p.findtext(f"{S}name") == "ASSOCIATED_BUSIF":
                for n in p.findtext(f"{S}value").split(":"):
                    clock_of[n] = b.findtext(f"{S}name")
    for m, pin in joined.items():
        fclk = stub.net_of(f"monitor/{clock_of[m]}") & {f"ps7/FCLK_CLK{i}" for i in range(4)}
        assert fclk and fclk <= stub.net_of(dma_clock[pin]), (m, fclk)
    # each trace sink's master is a slave port of the HP0 interconnect (DDR),
    # clocked and reset by its own clock domain
    masters = [n for n, b in buses.items() if b.find(f"{S}master/{S}addressSpaceRef") is not None]
    assert stub.props["hp0_ic"]["CONFIG.NUM_SI"] == str(2 + len(masters))
    for k, m in enumerate(masters):
        si = f"hp0_ic/S{2 + k:02d}"
        assert (f"monitor/{m}", f"{si}_AXI") in stub.intf, m
        fclk = stub.net_of(f"monitor/{clock_of[m]}") & {f"ps7/FCLK_CLK{i}" for i in range(4)}
        assert fclk and fclk <= stub.net_of(f"{si}_ACLK"), m
        assert stub.net_of(f"{si}_ARESETN") == stub.net_of(f"monitor/{clock_of[m].replace('aclk', 'aresetn').replace('_clk', '_resetn')}"), m
    # interrupt; s_axi on the GP0 interconnect
    assert stub.net_of("monitor/irq") == {"ps7/IRQ_F2P"}
    assert ("gp0_ic/M00_AXI", "monitor/s_axi") in stub.intf
    # every plain input (not in a bus interface) is an external port
    in_bus = {p.findtext(f"{S}physicalPort/{S}name") for b in buses.values()
              for p in b.findall(f"{S}portMaps/{S}portMap")}
    for p in comp.findall(f"{S}model/{S}ports/{S}port"):
        n = p.findtext(f"{S}name")
        if p.findtext(f"{S}wire/{S}direction") == "in" and n not in in_bus:
            assert f"monitor/{n}" in stub.external, n
    # the monitor at its YAML base address, its whole window
    mon = [a for a in stub.addresses if "monitor/s_axi/reg0" in a[-1]]
    assert len(mon) == 1
    opts = dict(zip(mon[0][0:-1:2], mon[0][1:-1:2]))
    assert int(opts["-offset"], 16) == design.monitor.bus.base_address
    assert int(opts["-range"]) == 1 << design.addr_width
