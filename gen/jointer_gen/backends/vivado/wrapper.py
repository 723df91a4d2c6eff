# SPDX-License-Identifier: MIT
"""The top of the Vivado IP: ip/hdl/<name>_wrapper.vhd, a plain VHDL-93
entity around the generated VHDL-2008 top <name>_monitor.

AMD's IP packaging guide (UG1118, "Top-Level HDL Requirements") asks for a
Verilog or VHDL wrapper around a SystemVerilog or VHDL-2008 top before
packaging, and a block design's module reference refuses a VHDL-2008 top
(UG994). The wrapper has the ports of the generated top (the elaborated
Design's top-level ports, one for one: same names, directions, widths), only
std_logic and std_logic_vector(N downto M), no generics, and instantiates
the top through a component declaration, so it analyses alone
(`ghdl -a --std=93c`) and Vivado binds the component to the VHDL-2008 entity
of library jointer. component.xml and package_ip.tcl name it the top with
the file type VHDL (vhdlSource); the co-simulation, the formal and the
implementation flows keep the VHDL-2008 top. The instance is INSTANCE
(`u_core`): the IP's constraints (xdc.py) name cells under it.
"""

from __future__ import annotations

import re

from ...model.views import Design

INSTANCE = "u_core"
_PLAIN = re.compile(r"std_logic|std_logic_vector\((\d+) downto (\d+)\)")


def entity(d: Design) -> str:
    return f"{d.name}_wrapper"


def file(d: Design) -> str:
    """Path inside ip/."""
    return f"hdl/{entity(d)}.vhd"


def ports(d: Design) -> list[dict]:
    """The top's ports, each a plain std_logic or std_logic_vector(N downto M)
    (ValueError on anything else: the wrapper would not be a plain top)."""
    out = []
    for p in d.top["ports"]:
        m = _PLAIN.fullmatch(p.vtype)
        if m is None or p.direction not in ("in", "out"):
            raise ValueError(f"top port {p.name}: {p.direction} {p.vtype} is not a plain "
                             "std_logic / std_logic_vector(N downto M) port")
        out.append({"name": p.name, "dir": p.direction, "type": p.vtype})
    return out


def context(d: Design, vlnv: str) -> dict:
    ps = ports(d)
    return {"entity": entity(d), "core": d.top["entity"], "instance": INSTANCE, "vlnv": vlnv,
            "ports": ps, "width": max(len(p["name"]) for p in ps)}
