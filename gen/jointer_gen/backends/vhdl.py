# SPDX-License-Identifier: MIT
"""VHDL backend: the configuration package, one composition per sniffer and
per LMIC, the top (templates/vhdl/). The netlist is the elaborate stage's
(netlist/); the templates lay it out as it is.
"""

from __future__ import annotations

from ..model.views import Design
from . import OutFile
from .templates import render_file


def _files(d: Design) -> list[tuple[str, str, str, dict]]:
    """(template, path, role, context) of the generated VHDL, in compile order."""
    out = [("vhdl/config.vhd.j2", f"hdl/{d.name}_config.vhd", "vhdl-config", {})]
    for lv in d.lmics:
        for sv in lv.sniffers:
            out.append(("vhdl/sniffer.vhd.j2", sv.file, "vhdl-sniffer", {"s": sv, "lmic": lv}))
    for lv in d.lmics:
        out.append(("vhdl/lmic.vhd.j2", lv.file, "vhdl-lmic", {"lv": lv}))
    out.append(("vhdl/monitor.vhd.j2", d.top["file"], "vhdl-top", {"top": d.top}))
    return out


def compile_order(d: Design) -> list[str]:
    """The generated VHDL files, in compile order (after the library's)."""
    return [path for _, path, _, _ in _files(d)]


def emit(d: Design) -> list[OutFile]:
    return [render_file(d, t, path, role, **extra) for t, path, role, extra in _files(d)]
