# SPDX-License-Identifier: MIT
"""The Vitis driver of a monitor's IP, ip/drivers/<name>_v1_0/ (listed in
component.xml, view xilinx_softwaredriver): one driver for both Vitis flows.

- Vitis Unified (system device tree, Lopper, CMake): data/<name>.yaml, the
  driver's binding (type driver; the compatible AMD's sdtgen writes for the
  IP, vlnv.compatible; `required`, the node properties lopper's
  baremetalconfig_xlnx writes into the config table, in the order of the
  fields of X<Name>_Config; the config struct; the example and what it needs)
  and src/CMakeLists.txt (static library target <name>: the BSP's libxil CMake
  adds libsrc/<name>/src and archives lib<name>.a);
- classic Vitis / SDK (HSI): data/<name>.mdd and data/<name>.tcl, which writes
  the same table, by device id, and the same xparameters.h names.

Names follow the drivers Vitis HLS writes for user IPs: files x<name>.h,
x<name>_sinit.c, x<name>_g.c; types and functions X<Name>_...; instances in
xparameters.h as XPAR_X<NAME>_<i>_... (lopper's canonical names for driver
<name>). src/ holds libjointer's portable core and the monitor's C (copies),
x<name>.h, x<name>_sinit.c (_LookupConfig, _CfgInitialize, _Initialize) and
a placeholder x<name>_g.c that every BSP rewrites: its name tells lopper the
file to write and the header it includes.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ...model.views import Design
from .. import OutFile, cbundle
from ..templates import render_file
from .vlnv import IP_VERSION, compatible, vlnv

DRIVERS = cbundle.DRIVERS
IP_DRIVER_VERSION = IP_VERSION    # the driver's version is the IP's (jointer's release)

# data/<name>.yaml `required`: the device-tree properties of an instance, one
# field of X<Name>_Config each in this order (system device tree flow)
REQUIRED = ("compatible", "reg", "xlnx,config-hash", "interrupts", "interrupt-parent")
HASH_PARAM = "CONFIG_HASH"        # the IP's fixed parameter (component.xml): xlnx,config-hash


def driver_dir(d: Design) -> str:
    return f"ip/drivers/{d.name}_v{IP_DRIVER_VERSION.replace('.', '_')}"


def names(d: Design) -> dict:
    """The driver's C names: file stem x<name>, prefix X<Name>, xparameters
    prefix X<NAME> (what lopper's baremetal_xparameters_xlnx makes of driver <name>)."""
    return {"stem": f"x{d.name}", "prefix": "X" + d.name[:1].upper() + d.name[1:],
            "xpar": "X" + d.name.upper(), "guard": f"X{d.name.upper()}_H"}


@lru_cache(maxsize=1)
def baremetal_library() -> tuple[tuple[str, Path], ...]:
    """(file name, source) of libjointer's copies in src/: the portable sources
    (no hosted file) and the headers they and the generated files include."""
    g = cbundle.source_groups()
    srcs = []
    for f in g["DRV_PORTABLE_SRCS"]:
        if DRIVERS / "src" / f not in srcs:
            srcs.append(DRIVERS / "src" / f)
    heads = cbundle.included(srcs + [DRIVERS / "include" / "jointer.h"])
    return tuple((p.name, p) for p in sorted(srcs + heads, key=lambda p: p.name))


def own_sources(d: Design) -> list[str]:
    """The driver's own files in src/ besides libjointer: the monitor's generated
    C (copies of c/) and the Vitis files."""
    x = names(d)["stem"]
    return [f"{d.name}.c", f"{d.name}.h", f"{d.name}_regs.h", f"{x}.h", f"{x}_g.c", f"{x}_sinit.c"]


def driver_src_files(d: Design) -> list[str]:
    """File names in src/: the two build files, libjointer, the driver's own."""
    return sorted(["CMakeLists.txt", "Makefile"] + [n for n, _ in baremetal_library()] + own_sources(d))


def component_files(d: Design) -> list[dict]:
    """The driver's files as component.xml lists them (view xilinx_softwaredriver):
    path inside ip/, fileType, userFileType."""
    base = driver_dir(d)[len("ip/"):]
    out = [{"name": f"{base}/data/{d.name}.mdd", "type": None, "user": ["mdd", "driver_mdd"]},
           {"name": f"{base}/data/{d.name}.tcl", "type": "tclSource", "user": ["driver_tcl"]},
           {"name": f"{base}/data/{d.name}.yaml", "type": None, "user": ["driver_yaml"]}]
    for f in driver_src_files(d):
        kind = "cSource" if f.endswith((".c", ".h")) else None
        out.append({"name": f"{base}/src/{f}", "type": kind, "user": ["driver_src"]})
    out.append({"name": f"{base}/examples/{d.name}_example.c", "type": "cSource", "user": ["driver_example"]})
    return out


def context(d: Design) -> dict:
    srcs = driver_src_files(d)
    return {"driver_dir": driver_dir(d)[len("ip/"):], "driver_name": d.name,
            "driver_version": IP_DRIVER_VERSION, "example": f"{d.name}_example.c",
            "hash_c": f"0x{d.config_hash:08X}", "hash_param": HASH_PARAM, "ip_vlnv": vlnv(d),
            "compatible": compatible(d), "required": REQUIRED, **names(d),
            "headers": [f for f in srcs if f.endswith(".h")], "sources": [f for f in srcs if f.endswith(".c")]}


def emit(d: Design) -> list[OutFile]:
    """The driver's generated files, then its copies: libjointer and the monitor's C."""
    ddir, b = driver_dir(d), context(d)
    x = b["stem"]
    out = [render_file(d, "vitis/driver.mdd.j2", f"{ddir}/data/{d.name}.mdd", "ip-driver-mdd", b=b),
           render_file(d, "vitis/driver.tcl.j2", f"{ddir}/data/{d.name}.tcl", "ip-driver-tcl", b=b),
           render_file(d, "vitis/driver.yaml.j2", f"{ddir}/data/{d.name}.yaml", "ip-driver-yaml", b=b),
           render_file(d, "vitis/Makefile.j2", f"{ddir}/src/Makefile", "ip-driver-makefile", b=b),
           render_file(d, "vitis/CMakeLists.txt.j2", f"{ddir}/src/CMakeLists.txt", "ip-driver-cmake", b=b),
           render_file(d, "vitis/xdriver.h.j2", f"{ddir}/src/{x}.h", "ip-driver-header", b=b),
           render_file(d, "vitis/xdriver_sinit.c.j2", f"{ddir}/src/{x}_sinit.c", "ip-driver-sinit", b=b),
           render_file(d, "vitis/xdriver_g.c.j2", f"{ddir}/src/{x}_g.c", "ip-driver-table", b=b),
           render_file(d, "vitis/example.c.j2", f"{ddir}/examples/{d.name}_example.c", "ip-driver-example",
                       b=b)]
    out += [OutFile(f"{ddir}/src/{n}", cbundle.read_text(p), "ip-driver-library") for n, p in baremetal_library()]
    out += [OutFile(f"{ddir}/src/{own}", None, "ip-driver-copy", copy_of=f"c/{own}")
            for own in (f"{d.name}.c", f"{d.name}.h", f"{d.name}_regs.h")]
    return out
