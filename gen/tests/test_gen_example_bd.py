# SPDX-License-Identifier: MIT
"""ip/example_bd.tcl, run in a Tcl interpreter with
stand-ins for Vivado's block-design commands (as package_ip.tcl is in
test_gen_integration.py): for every configs/ monitor, as written (Zynq-7000)
and moved to a Zynq UltraScale+ (monitor.platform: zynqmp, its base address
in an HPM0_FPD aperture), the design it builds has the PS of the platform,
the monitor IP of component.xml (cell <name>_0), every monitor interface
joined to the DMA net of its kind and clock (or made external), every clock
on a PS PL clock at the YAML's frequency with its reset, the interrupt on the
PS's fabric interrupt, s_axi on the master port of the base address's
aperture (that port alone enabled, its clock on the bus clock), the DMA's
masters on the HP port, every plain input external, the monitor at its YAML
base address in the PS's address space with a range of at least 4K, the DDR
segments assigned (above 4 GB too for a DMA wider than 32 bits), and it is
validated and saved. The PS pins expected are written out below from
AMD's IP (processing_system7, zynq_ultra_ps_e), not taken from the
generator's platform modules."""

import xml.etree.ElementTree as ET

import pytest
import yaml

from gentest_util import CONFIGS

S = "{http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009}"

# what each platform's PS offers the design (AMD's pin and property names)
PS = {
    "zynq7000": {"vlnv": "xilinx.com:ip:processing_system7:", "cell": "ps7", "clk": "FCLK_CLK{i}",
                 "reset": "FCLK_RESET0_N", "irq": "IRQ_F2P", "freq": "CONFIG.PCW_FPGA{i}_PERIPHERAL_FREQMHZ",
                 "hp": "S_AXI_HP0", "hp_clk": "S_AXI_HP0_ACLK", "ddr": ["S_AXI_HP0/HP0_DDR_LOWOCM"], "ddr_high": [],
                 # master port: (enable property, clock pin, apertures (UG585, UG1085 "System Addresses"))
                 "masters": {"M_AXI_GP0": ("CONFIG.PCW_USE_M_AXI_GP0", "M_AXI_GP0_ACLK", [(0x40000000, 0x7FFFFFFF)]),
                             "M_AXI_GP1": ("CONFIG.PCW_USE_M_AXI_GP1", "M_AXI_GP1_ACLK", [(0x80000000, 0xBFFFFFFF)])}},
    "zynqmp": {"vlnv": "xilinx.com:ip:zynq_ultra_ps_e", "cell": "zynq_ps", "clk": "pl_clk{i}",
               "reset": "pl_resetn0", "irq": "pl_ps_irq0", "freq": "CONFIG.PSU__CRL_APB__PL{i}_REF_CTRL__FREQMHZ",
               "hp": "S_AXI_HP0_FPD", "hp_clk": "saxihp0_fpd_aclk", "ddr": ["SAXIGP2/HP0_DDR_LOW"],
               "ddr_high": ["SAXIGP2/HP0_DDR_HIGH"],
               "masters": {"M_AXI_HPM0_FPD": ("CONFIG.PSU__USE__M_AXI_GP0", "maxihpm0_fpd_aclk",
                                              [(0xA0000000, 0xAFFFFFFF), (0x400000000, 0x4FFFFFFFF),
                                               (0x1000000000, 0x47FFFFFFFF)]),
                           "M_AXI_HPM1_FPD": ("CONFIG.PSU__USE__M_AXI_GP1", "maxihpm1_fpd_aclk",
                                              [(0xB0000000, 0xBFFFFFFF), (0x500000000, 0x5FFFFFFFF),
                                               (0x4800000000, 0x7FFFFFFFFF)]),
                           "M_AXI_HPM0_LPD": ("CONFIG.PSU__USE__M_AXI_GP2", "maxihpm0_lpd_aclk", [(0x80000000, 0x9FFFFFFF)])}},
}


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
            "get_bd_addr_spaces": lambda *a: " ".join(a),
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


def config(tmp_path, name: str, platform: str, base: int | None = None, src=CONFIGS) -> tuple[dict, object]:
    """configs/<name>.yaml as written (zynq7000), or moved to another
    platform: its base address into the first master port's aperture (or `base`)."""
    cfg = yaml.safe_load((src / f"{name}.yaml").read_text())
    if platform == "zynq7000" and base is None:
        return cfg, src / f"{name}.yaml"
    cfg["monitor"]["platform"] = platform
    low = next(iter(PS[platform]["masters"].values()))[2][0][0]
    old = cfg["monitor"].get("bus", {}).get("base_address", 0x40000000)
    cfg["monitor"].setdefault("bus", {})["base_address"] = base if base is not None else low + (old & 0x0FFFFFFF)
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return cfg, path


def run(tmp_path, name, platform="zynq7000", base=None, src=CONFIGS):
    import tkinter
    from jointer_gen.cli import generate
    from jointer_gen.output import write_tree
    cfg, path = config(tmp_path, name, platform, base, src)
    design, rendered = generate(str(path))
    write_tree(rendered, tmp_path / name)
    tcl = tkinter.Tcl()
    stub = BdStub(tcl)
    tcl.eval(f"set argc 1; set argv [list {{{tmp_path / 'proj'}}}]")
    tcl.eval(f"info script {{{tmp_path / name / 'ip' / 'example_bd.tcl'}}}")
    tcl.evalfile(str(tmp_path / name / "ip" / "example_bd.tcl"))
    return cfg, design, stub, ET.parse(tmp_path / name / "ip" / "component.xml").getroot()


NAMES = sorted(p.stem for p in CONFIGS.glob("*.yaml"))
RANGE = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def _joined(stub, comp, mon: str) -> tuple[dict, dict, list]:
    """(the bus interfaces of component.xml, {monitor interface: the DMA pin it joins}, monitor interfaces)."""
    buses = {b.findtext(f"{S}name"): b for b in comp.findall(f"{S}busInterfaces/{S}busInterface")}
    monitors = [n for n, b in buses.items() if b.find(f"{S}monitor") is not None]
    joined = {m: pin for pin, m in ((a, b.split("/")[1]) for a, b in stub.intf if b.startswith(f"{mon}/"))
              if m in monitors}
    return buses, joined, monitors


def _clock_of(buses) -> dict:
    out = {}
    for b in buses.values():
        for p in b.findall(f"{S}parameters/{S}parameter"):
            if p.findtext(f"{S}name") == "ASSOCIATED_BUSIF":
                for n in p.findtext(f"{S}value").split(":"):
                    out[n] = b.findtext(f"{S}name")
    return out


def check_taps(stub, comp, mon):
    """Every monitor interface joined to the DMA net of its kind, or external."""
    buses, joined, monitors = _joined(stub, comp, mon)
    for m in monitors:
        logical = {p.findtext(f"{S}logicalPort/{S}name") for p in buses[m].findall(f"{S}portMaps/{S}portMap")}
        external = f"{mon}/{m}" in stub.external
        assert (m in joined) != external, m
        if m in joined:
            kind = buses[m].find(f"{S}busType").get(f"{S}name")
            want = ("axi_dma_0/M_AXIS_MM2S" if kind == "axis" else
                    "axi_dma_0/S_AXI_LITE" if not logical & {"AWLEN", "ARLEN"} else
                    "axi_dma_0/M_AXI_S2MM" if "AWADDR" in logical else "axi_dma_0/M_AXI_MM2S")
            assert joined[m] == want, (m, joined[m])
            # the net exists beyond the monitor (the DMA's own connection)
            assert sum(joined[m] in pair for pair in stub.intf) >= 2, m


def check_clocks(cfg, stub, ps, mon):
    """Each clock on a PS PL clock at the YAML's frequency (or external), its reset from that clock."""
    cell, props = ps["cell"], stub.props[ps["cell"]]
    for i, c in enumerate(cfg["monitor"]["clocks"]):
        c = c if isinstance(c, dict) else {"name": c}
        port = "s_axi_aclk" if i == 0 else f"{c['name']}_clk"
        if i >= 4:
            assert f"{mon}/{port}" in stub.external
            continue
        pin = f"{cell}/{ps['clk'].format(i=i)}"
        assert pin in stub.net_of(f"{mon}/{port}")
        mhz = 1000.0 / c["period_ns"] if c.get("period_ns") else 100.0
        assert float(props[ps["freq"].format(i=i)]) == pytest.approx(mhz, rel=1e-3)
        rst = "s_axi_aresetn" if i == 0 else f"{c['name']}_resetn"
        assert stub.net_of(f"{mon}/{rst}") == {f"rst_{c['name']}/peripheral_aresetn"}
        assert pin in stub.net_of(f"rst_{c['name']}/slowest_sync_clk")
        assert f"{cell}/{ps['reset']}" in stub.net_of(f"rst_{c['name']}/ext_reset_in")


def check_dma_and_sinks(stub, comp, ps, mon):
    """A joined tap runs on the clock of the DMA side it watches; the DMA's masters and
    each trace sink's master reach the HP port (DDR), each on its own clock domain."""
    cell = ps["cell"]
    pl_clocks = {f"{cell}/{ps['clk'].format(i=i)}" for i in range(4)}
    buses, joined, _ = _joined(stub, comp, mon)
    clock_of = _clock_of(buses)
    dma_clock = {"axi_dma_0/M_AXI_S2MM": "axi_dma_0/m_axi_s2mm_aclk", "axi_dma_0/M_AXI_MM2S": "axi_dma_0/m_axi_mm2s_aclk",
                 "axi_dma_0/M_AXIS_MM2S": "axi_dma_0/m_axi_mm2s_aclk", "axi_dma_0/S_AXI_LITE": "axi_dma_0/s_axi_lite_aclk"}
    for m, pin in joined.items():
        fclk = stub.net_of(f"{mon}/{clock_of[m]}") & pl_clocks
        assert fclk and fclk <= stub.net_of(dma_clock[pin]), (m, fclk)
    assert ("hp0_ic/M00_AXI", f"{cell}/{ps['hp']}") in stub.intf
    hp_clock = stub.net_of(f"{cell}/{ps['hp_clk']}") & pl_clocks
    assert hp_clock and hp_clock <= stub.net_of("axi_dma_0/m_axi_s2mm_aclk")
    masters = [n for n, b in buses.items() if b.find(f"{S}master/{S}addressSpaceRef") is not None]
    assert stub.props["hp0_ic"]["CONFIG.NUM_SI"] == str(2 + len(masters))
    for k, m in enumerate(masters):
        si = f"hp0_ic/S{2 + k:02d}"
        assert (f"{mon}/{m}", f"{si}_AXI") in stub.intf, m
        fclk = stub.net_of(f"{mon}/{clock_of[m]}") & pl_clocks
        assert fclk and fclk <= stub.net_of(f"{si}_ACLK"), m
        assert stub.net_of(f"{si}_ARESETN") == stub.net_of(f"{mon}/{clock_of[m].replace('aclk', 'aresetn').replace('_clk', '_resetn')}"), m


def check_control(stub, design, ps, mon):
    """The interrupt; s_axi on the interconnect of the master port whose
    aperture holds the base address, that port alone enabled, its clock the bus clock."""
    cell, props = ps["cell"], stub.props[ps["cell"]]
    assert stub.net_of(f"{mon}/irq") == {f"{cell}/{ps['irq']}"}
    assert ("gp0_ic/M00_AXI", f"{mon}/s_axi") in stub.intf
    base = design.monitor.bus.base_address
    port = next(n for n, (_, _, apertures) in ps["masters"].items() if any(lo <= base <= hi for lo, hi in apertures))
    assert (f"{cell}/{port}", "gp0_ic/S00_AXI") in stub.intf
    for n, (enable, clk, _) in ps["masters"].items():
        assert props[enable] == ("1" if n == port else "0"), n
        assert bool(stub.net_of(f"{cell}/{clk}")) == (n == port), n
    assert f"{cell}/{ps['clk'].format(i=0)}" in stub.net_of(f"{cell}/{ps['masters'][port][1]}")


def check_addresses(stub, design, ps, mon, dma_wide: bool):
    """The monitor at its YAML base address in the PS's address space, its whole window
    (at least 4K); the DDR segments of the HP port (above 4 GB for a wide DMA)."""
    seg = [a for a in stub.addresses if f"{mon}/s_axi/reg0" in a[-1]]
    assert len(seg) == 1
    opts = dict(zip(seg[0][0:-1:2], seg[0][1:-1:2]))
    assert int(opts["-offset"], 16) == design.monitor.bus.base_address
    size = int(opts["-range"][:-1]) * RANGE[opts["-range"][-1]]
    assert size == max(1 << design.addr_width, 4096)
    assert opts["-target_address_space"] == f"{ps['cell']}/Data"
    ddr = [a[-1] for a in stub.addresses if ps["cell"] in a[-1]]
    assert ddr == [f"{ps['cell']}/{x}" for x in ps["ddr"] + (ps["ddr_high"] if dma_wide else [])]


def check_bd(tmp_path, name, platform, base=None, src=CONFIGS):
    cfg, design, stub, comp = run(tmp_path, name, platform, base, src)
    ps, mon = PS[platform], f"{design.name}_0"
    vlnv = ":".join(comp.findtext(f"{S}{k}") for k in ("vendor", "library", "name", "version"))
    assert stub.cells[mon] == vlnv
    assert stub.cells[ps["cell"]].startswith(ps["vlnv"])
    assert stub.calls == ["validate", "save"]
    check_taps(stub, comp, mon)
    check_clocks(cfg, stub, ps, mon)
    check_dma_and_sinks(stub, comp, ps, mon)
    check_control(stub, design, ps, mon)
    # every plain input (not in a bus interface) is an external port
    buses, _, _ = _joined(stub, comp, mon)
    in_bus = {p.findtext(f"{S}physicalPort/{S}name") for b in buses.values()
              for p in b.findall(f"{S}portMaps/{S}portMap")}
    for p in comp.findall(f"{S}model/{S}ports/{S}port"):
        n = p.findtext(f"{S}name")
        if p.findtext(f"{S}wire/{S}direction") == "in" and n not in in_bus:
            assert f"{mon}/{n}" in stub.external, n
    dma = stub.props["axi_dma_0"].get("CONFIG.c_addr_width")
    check_addresses(stub, design, ps, mon, dma is not None and int(dma) > 32)
    return design, stub


@pytest.mark.parametrize("name", NAMES)
def test_example_bd(tmp_path, name):
    check_bd(tmp_path, name, "zynq7000")


@pytest.mark.parametrize("name", NAMES)
def test_example_bd_zynqmp(tmp_path, name):
    check_bd(tmp_path, name, "zynqmp")


@pytest.mark.parametrize("platform,base,port", [
    ("zynq7000", 0x80000000, "M_AXI_GP1"), ("zynqmp", 0x80000000, "M_AXI_HPM0_LPD"),
    ("zynqmp", 0xB0000000, "M_AXI_HPM1_FPD"), ("zynqmp", 0x400000000, "M_AXI_HPM0_FPD")])
def test_master_port_of_the_aperture(tmp_path, platform, base, port):
    """Each aperture's base address connects the monitor to that aperture's master port."""
    design, stub = check_bd(tmp_path, "selective_accumulations", platform, base)
    assert (f"{PS[platform]['cell']}/{port}", "gp0_ic/S00_AXI") in stub.intf


def test_wide_dma_reaches_ddr_above_4gb(tmp_path):
    """A 40-bit AXI4 tap on the DMA: the DMA is 40 bits wide and HP0_DDR_HIGH is assigned."""
    cfg = yaml.safe_load((CONFIGS / "selective_accumulations.yaml").read_text())
    tap = next(s for lm in cfg["lmics"] for s in lm["sniffers"] if s["interfacer"]["type"] == "axi4")
    tap["interfacer"]["addr_width"] = 40
    (tmp_path / "src").mkdir()
    path = tmp_path / "src" / "selective_accumulations.yaml"
    path.write_text(yaml.safe_dump(cfg))
    design, stub = check_bd(tmp_path, "selective_accumulations", "zynqmp", src=tmp_path / "src")
    assert stub.props["axi_dma_0"]["CONFIG.c_addr_width"] == "40"
    assert "zynq_ps/SAXIGP2/HP0_DDR_HIGH" in [a[-1] for a in stub.addresses]


def test_zynqmp_dma_monitor(tmp_path):
    """gen/tests/configs/zu_dma.yaml (written for zynqmp): the 40-bit AXI4 taps join the DMA's
    write net on its clock (pl_clk2, 250 MHz: the DMA runs on its AXI4 taps' clock), the DMA is
    40 bits wide and reaches the DDR above 4 GB; the stream taps, on another clock, are external;
    the monitor on M_AXI_HPM0_FPD."""
    design, stub = check_bd(tmp_path, "zu_dma", "zynqmp", src=CONFIGS.parent / "gen" / "tests" / "configs")
    assert ("axi_dma_0/M_AXI_S2MM", "zu_dma_0/dma_wr") in stub.intf
    assert ("axi_dma_0/M_AXI_S2MM", "zu_dma_0/dma_lat") in stub.intf
    assert {"zu_dma_0/frames", "zu_dma_0/stalls"} <= set(stub.external)
    assert "zynq_ps/pl_clk2" in stub.net_of("axi_dma_0/m_axi_s2mm_aclk")
    assert float(stub.props["zynq_ps"]["CONFIG.PSU__CRL_APB__PL2_REF_CTRL__FREQMHZ"]) == 250
    assert stub.props["axi_dma_0"]["CONFIG.c_addr_width"] == "40"
    # as wide as the taps on its nets: 128-bit data (the monitor interface and the net agree)
    assert stub.props["axi_dma_0"]["CONFIG.c_m_axi_s2mm_data_width"] == "128"
    assert [a[-1] for a in stub.addresses][-2:] == ["zynq_ps/SAXIGP2/HP0_DDR_LOW", "zynq_ps/SAXIGP2/HP0_DDR_HIGH"]
    assert ("zynq_ps/M_AXI_HPM0_FPD", "gp0_ic/S00_AXI") in stub.intf


def test_zynqmp_one_tap_per_bus(tmp_path):
    """sim/cosim/scenarios/configs/stream_dma.yaml (zynqmp, co-simulated above and below 4 GB):
    its one 40-bit AXI4 tap joins the DMA's write net and its one stream tap the DMA's stream
    (both on the DMA's clock), the DMA is 40 bits wide; the monitor on M_AXI_HPM0_FPD."""
    design, stub = check_bd(tmp_path, "stream_dma", "zynqmp",
                            src=CONFIGS.parent / "sim" / "cosim" / "scenarios" / "configs")
    assert ("axi_dma_0/M_AXI_S2MM", "stream_dma_0/dma") in stub.intf
    assert ("axi_dma_0/M_AXIS_MM2S", "stream_dma_0/stream") in stub.intf
    assert stub.props["axi_dma_0"]["CONFIG.c_addr_width"] == "40"
    assert ("zynq_ps/M_AXI_HPM0_FPD", "gp0_ic/S00_AXI") in stub.intf
