# SPDX-License-Identifier: MIT
"""Vivado IP backend: the IP folder ip/ (emit()): component.xml,
xgui/<name>_v1_0.tcl, package_ip.tcl, the constraints (xdc.py), the example
block design (example_bd.py), the IP's top (wrapper.py: hdl/<name>_wrapper.vhd,
plain VHDL-93) and the copies in ip/hdl/.

component.xml is IP-XACT IEEE 1685-2009 (the SPIRIT namespace Vivado's IP
packager writes), with the elements in the schema's order and Vivado's
conventions: views xilinx_anylanguagesynthesis / ..behavioralsimulation /
xilinx_softwaredriver (the Vitis driver, ip/drivers/) / xilinx_xpgui with
their file sets, VHDL-2008 files as
<spirit:userFileType>vhdlSource-2008</spirit:userFileType> in library
`jointer`, then the top: the VHDL-93 wrapper as
<spirit:fileType>vhdlSource</spirit:fileType> (model name <name>_wrapper),
xilinx.com bus definitions, bus parameters ASSOCIATED_BUSIF /
ASSOCIATED_RESET / POLARITY / SENSITIVITY, the Component_Name parameter and
xilinx:coreExtensions. It carries no checksums and no creation date (the
output is deterministic; `ipx::update_checksums` adds them if wanted).

The IP folder is self-contained (a Vivado IP repository entry must be: the
user points ip_repo_paths at it or copies it): ip/hdl/ holds the library
files the monitor needs and the generated files, in compile order. The bus
interfaces come from the elaborated design (Design.bus_interfaces); this
module adds the bus definitions (VLNVs) and the port types.
"""

from __future__ import annotations

import re

from ...model import vhdl_library
from ...model.views import Design
from ...model.vhdl_library import LIBRARY
from .. import OutFile, vhdl
from ..templates import render_file
from . import example_bd, vitis, wrapper, xdc
from .ipxact_regs import registers
from .vlnv import IP_LIBRARY, IP_VENDOR, IP_VERSION, vlnv
TAXONOMY = "/UserIP"
DEFAULT_PART = "xc7z020clg484-1"    # package_ip.tcl's scratch project (a Zynq-7020)
XILINX_VERSION = "2020.2"          # packagingInfo: the Vivado release this format follows
FAMILIES = ["zynq", "zynquplus", "artix7", "kintex7", "virtex7", "spartan7",
            "kintexu", "kintexuplus", "virtexu", "virtexuplus"]

# kind -> (bus type VLNV, abstraction type VLNV)
BUS_DEFS = {
    "aximm": (("xilinx.com", "interface", "aximm", "1.0"), ("xilinx.com", "interface", "aximm_rtl", "1.0")),
    "axis": (("xilinx.com", "interface", "axis", "1.0"), ("xilinx.com", "interface", "axis_rtl", "1.0")),
    "clock": (("xilinx.com", "signal", "clock", "1.0"), ("xilinx.com", "signal", "clock_rtl", "1.0")),
    "reset": (("xilinx.com", "signal", "reset", "1.0"), ("xilinx.com", "signal", "reset_rtl", "1.0")),
    "interrupt": (("xilinx.com", "signal", "interrupt", "1.0"),
                  ("xilinx.com", "signal", "interrupt_rtl", "1.0")),
}

VIEWS = [  # (name, display name, environment, file set or "" )
    ("xilinx_anylanguagesynthesis", "Synthesis", ":vivado.xilinx.com:synthesis",
     "xilinx_anylanguagesynthesis_view_fileset"),
    ("xilinx_anylanguagebehavioralsimulation", "Simulation", ":vivado.xilinx.com:simulation",
     "xilinx_anylanguagebehavioralsimulation_view_fileset"),
    ("xilinx_softwaredriver", "Software Driver", ":vivado.xilinx.com:sw.driver",
     "xilinx_softwaredriver_view_fileset"),
    ("xilinx_xpgui", "UI Layout", ":vivado.xilinx.com:xgui.ui", "xilinx_xpgui_view_fileset"),
]
HDL_VIEWS = [v[0] for v in VIEWS[:2]]

_VECTOR = re.compile(r"std_logic_vector\((\d+) downto (\d+)\)")


def xgui_file(d: Design) -> str:
    return f"xgui/{d.name}_v{IP_VERSION.replace('.', '_')}.tcl"


def hdl_files(library_sources: list[str], compile_order: list[str]) -> list[tuple[str, str]]:
    """(path inside ip/, source) of every VHDL file, in compile order: the
    library files (source: their path in the repository), then the generated
    ones (source: their path in the output folder). One flat folder: library
    units start with jointer_, generated ones with the monitor name, which
    may not (gen/README.md "Names")."""
    out = [(f"hdl/{p.rsplit('/', 1)[-1]}", p) for p in library_sources]
    out += [(f"hdl/{p.rsplit('/', 1)[-1]}", p) for p in compile_order]
    return out


def driver_files(d: Design) -> list[dict]:
    """The Vitis driver's files (ip/drivers/, vitis.py) as Vivado's packager
    lists them: path inside ip/, fileType, userFileType."""
    return vitis.component_files(d)


def _vlnv(v: tuple) -> dict:
    return dict(zip(("vendor", "library", "name", "version"), v))


def _ports(d: Design) -> list[dict]:
    clock_reset = set()
    for b in d.bus_interfaces:
        if b.kind in ("clock", "reset"):
            clock_reset |= {phys for _, phys in b.port_maps}
    out = []
    for p in d.top["ports"]:
        m = _VECTOR.fullmatch(p.vtype)
        if m is None and p.vtype != "std_logic":
            raise ValueError(f"top port {p.name}: unexpected type {p.vtype}")
        out.append({"name": p.name, "direction": p.direction,
                    "left": int(m.group(1)) if m else None, "right": int(m.group(2)) if m else None,
                    "type": "std_logic_vector" if m else "std_logic",
                    # Vivado ties an unconnected input to its default (not clocks and resets)
                    "default": 0 if p.direction == "in" and p.name not in clock_reset else None})
    return out


def context(d: Design, library_sources: list[str], compile_order: list[str]) -> dict:
    buses = []
    for b in d.bus_interfaces:
        bus_type, abstraction = BUS_DEFS[b.kind]
        buses.append({"name": b.name, "kind": b.kind, "description": b.description, "mode": b.mode,
                      "monitored": b.monitored, "memory_map": b.memory_map,
                      "address_space": b.address_space,
                      "bus_type": _vlnv(bus_type), "abstraction": _vlnv(abstraction),
                      "bus_type_vlnv": ":".join(bus_type), "abstraction_vlnv": ":".join(abstraction),
                      "port_maps": b.port_maps,
                      "params": [{"name": n, "value": v, "id": f"BUSIFPARAM_VALUE.{b.name.upper()}.{n}"}
                                 for n, v in b.params]})
    clocks = []
    for b in d.bus_interfaces:
        if b.kind == "clock":
            params = dict(b.params)
            clocks.append({"clock": b.name, "busifs": params.get("ASSOCIATED_BUSIF", "").split(":")
                           if params.get("ASSOCIATED_BUSIF") else [],
                           "reset": params["ASSOCIATED_RESET"]})
    files = hdl_files(library_sources, compile_order)
    return {
        "vendor": IP_VENDOR, "library": IP_LIBRARY, "name": d.name, "version": IP_VERSION,
        "vlnv": vlnv(d),
        "component_name": f"{d.name}_v{IP_VERSION.replace('.', '_')}",
        "display_name": f"jointer monitor {d.name}",
        "description": d.monitor.description or f"jointer hardware monitor {d.name}",
        "top": wrapper.entity(d), "core": d.top["entity"], "taxonomy": TAXONOMY, "families": FAMILIES,
        "xilinx_version": XILINX_VERSION, "vhdl_library": LIBRARY,
        "buses": buses, "clocks": clocks, "ports": _ports(d), "hdl_views": HDL_VIEWS,
        "views": [{"name": n, "display": dn, "env": e, "fileset": fs} for n, dn, e, fs in VIEWS],
        # the space s_axi decodes (2^addr_width bytes, base_address aligned to it): a power of
        # two as Vivado's address segments; the registers (d.layout.span bytes) start at 0
        "memory_map": {"name": "s_axi", "block": "reg0", "base": 0, "range": 1 << d.addr_width,
                       "span": d.layout.span, "width": 32, "registers": registers(d)},
        "hdl_files": [f for f, _ in files], "wrapper_file": wrapper.file(d),
        "xgui": xgui_file(d), "driver_files": driver_files(d),
        # the fixed, non-editable user parameter that carries the configuration's hash into the
        # hardware handoff: CONFIG.CONFIG_HASH (classic Vitis), xlnx,config-hash (system device tree)
        "config_hash": {"name": vitis.HASH_PARAM, "value": f"0x{d.config_hash:08X}"},
    }


def emit(d: Design) -> list[OutFile]:
    """The IP's generated files, then its copies of every VHDL file it compiles."""
    lib = vhdl_library.design_sources(d)
    compile_order = vhdl.compile_order(d)
    v, x = context(d, lib, compile_order), xdc.context(d)
    out = [render_file(d, "vivado/component.xml.j2", "ip/component.xml", "ip-component", v=v, x=x),
           render_file(d, "vivado/wrapper.vhd.j2", f"ip/{wrapper.file(d)}", "ip-wrapper",
                       w=wrapper.context(d, v["vlnv"])),
           render_file(d, "vivado/xgui.tcl.j2", f"ip/{xgui_file(d)}", "ip-xgui", v=v),
           render_file(d, "vivado/monitor.xdc.j2", x["file"], "ip-xdc", x=x),
           render_file(d, "vivado/package_ip.tcl.j2", "ip/package_ip.tcl", "ip-package-script",
                       v=v, x=x, default_part=DEFAULT_PART),
           render_file(d, "vivado/example_bd.tcl.j2", "ip/example_bd.tcl", "ip-example-bd",
                       e=example_bd.context(d))]
    for ip_path, src in hdl_files(lib, compile_order):
        if src in lib:
            out.append(OutFile(f"ip/{ip_path}", vhdl_library.read(src), "ip-hdl-library"))
        else:
            out.append(OutFile(f"ip/{ip_path}", None, "ip-hdl", copy_of=src))
    return out
