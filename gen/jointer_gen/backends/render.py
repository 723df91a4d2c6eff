# SPDX-License-Identifier: MIT
"""Stage 4, run: every backend once over the finished Design, then
manifest.json.

`emit_all(design)` returns the OutFiles in manifest order: the generated
files in BACKENDS order, then the copies (ip/hdl/, c/jointer/, the Vitis
driver's src/) in the same order, each copy of a generated file filled from
its original, then manifest.json. `render(design)` is the same as
{path: content}.
"""

from __future__ import annotations

import json
from importlib import import_module

from ..model import vhdl_library
from ..model.views import Design
from . import OutFile, fusesoc, linux
from .vivado import ip as vivado_ip
from .vivado import vitis

# The backends, one line each (a new backend is a module with emit() and its
# line here), in the order of their files in the manifest (and of the copies
# after them).
BACKEND_MODULES = (
    "vhdl",
    "c_files",
    "doc",
    "vivado.ip",
    "fusesoc",
    "linux",
    "cbundle",
    "vivado.vitis",
    "descfile",
    "tb",
)
BACKENDS = tuple(import_module(f"{__package__}.{m}") for m in BACKEND_MODULES)


def emit_all(d: Design) -> list[OutFile]:
    lib = vhdl_library.design_sources(d)
    if not lib:
        raise vhdl_library.LibraryMissing(f"the jointer VHDL library is not at {vhdl_library.HDL}; "
                                          "run jointer-gen from a checkout (pip install -e gen)")
    emitted = [f for backend in BACKENDS for f in backend.emit(d)]
    files = [f for f in emitted if not f.is_copy]
    made = {f.path: f.content for f in files}
    files += [OutFile(f.path, made[f.copy_of], f.role) if f.copy_of else f for f in emitted if f.is_copy]
    files.append(OutFile("manifest.json", manifest(d, [(f.path, f.role) for f in files], lib), "manifest"))
    return files


def render(d: Design) -> dict[str, str | bytes]:
    """{relative path: text, or bytes for the binary descriptor file} of every output."""
    return {f.path: f.content for f in emit_all(d)}


def manifest(d: Design, entries: list[tuple[str, str]], library_sources: list[str]) -> str:
    vhdl_files = [p for p, r in entries if r.startswith("vhdl-")]
    m = {
        "generator": f"jointer {d.version}",
        "license": "MIT",               # SPDX: every generated text file carries the tag itself
        "source": d.source_name,
        "name": d.name,
        "config_hash": d.hash_hex,
        "top": d.top["entity"],
        "vhdl_library": "jointer",
        "vhdl_standard": "2008",
        "library_entities": sorted(vhdl_library.design_entities(d)),
        "library_sources": library_sources,
        "compile_order": vhdl_files,
        "clocks": [{"name": c.name, "port": "s_axi_aclk" if i == 0 else f"{c.name}_clk",
                    "reset": "s_axi_aresetn" if i == 0 else f"{c.name}_resetn",
                    "period_ns": c.sim_period_ns, "period_given": c.period_ns is not None}
                   for i, c in enumerate(d.monitor.clocks)],
        "bus": {"addr_width": d.addr_width, "base_address": f"0x{d.monitor.bus.base_address:X}",
                "span": d.layout.span, "window": d.layout.window, "strict": d.monitor.bus.strict},
        "integration": {
            "vivado_ip": {"vlnv": vivado_ip.vlnv(d), "component": "ip/component.xml",
                          "top": vivado_ip.wrapper.entity(d)},
            "fusesoc": {"core": fusesoc.core_file(d), "vlnv": fusesoc.vlnv(d),
                        "library_vlnv": fusesoc.LIBRARY_VLNV},
            "linux": {"dtsi": linux.dtsi_file(d), "overlay": linux.dtso_file(d), "uio_name": d.name},
            "c_bundle": {"makefile": "c/Makefile", "pkg_config": d.name},
            "vitis_driver": {"folder": vitis.driver_dir(d), "name": d.name,
                             "version": vitis.IP_DRIVER_VERSION, "compatible": vitis.compatible(d)},
        },
        "files": [{"path": p, "role": r, **({"order": vhdl_files.index(p)} if p in vhdl_files else {})}
                  for p, r in entries],
    }
    return json.dumps(m, indent=2) + "\n"
