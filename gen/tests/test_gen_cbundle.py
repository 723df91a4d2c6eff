# SPDX-License-Identifier: MIT
"""The software shapes of a generated monitor, built where users build them.

The C bundle (<OUT>/<name>/c/) holds the monitor's own files only; its build,
install and Yocto recipe beside libjointer's bundle: test_gen_libjointer.py.

The Vitis driver (<OUT>/<name>/ip/drivers/<name>_v1_0/): its Tcl hook under
tclsh with stand-ins of the HSI procedures (the exact xparameters.h lines),
its BSP Makefile in a BSP's folder structure (libsrc/<driver>/src,
../../../include, ../../../lib/libxil.a) for Zynq-7000 (arm-none-eabi,
Cortex-A9, hard float) and Zynq UltraScale+ (aarch64, freestanding), the
example application linked against libxil.a with no OS; component.xml lists
the driver. Every copy equals its source.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gentest_util import REPO, generated, readme_section
from jointer_gen.backends import cbundle
from jointer_gen.output import write_tree

NAMES = ["selective_accumulations", "trace_sink"]
ARCH = {"armhf": ("arm-linux-gnueabihf-gcc", ["qemu-arm", "-L", "/usr/arm-linux-gnueabihf"]),
        "aarch64": ("aarch64-linux-gnu-gcc", ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"])}
S = "{http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009}"
DRV = REPO / "drivers"


def sh(cmd, cwd, env=None, **kw):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, **kw)
    assert p.returncode == 0, f"{cmd} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


def out_dir(tmp_path: Path, name: str) -> Path:
    design, files = generated(name)
    write_tree(files, tmp_path / "out" / name)
    return tmp_path / "out" / name


def sources_mk() -> dict[str, list[str]]:
    text = re.sub(r"\\\n", " ", (DRV / "sources.mk").read_text())
    groups: dict[str, list[str]] = {}
    for m in re.finditer(r"^([A-Z_]+)\s*:=\s*(.*)$", text, re.M):
        words = []
        for w in m.group(2).split():
            ref = re.fullmatch(r"\$\((\w+)\)", w)
            words += groups[ref.group(1)] if ref else [w]
        groups[m.group(1)] = words
    return groups


# ---------------------------------------------------------------------------
# the copies
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_copies(name):
    """c/ = the monitor's own files (no copy of libjointer: test_gen_libjointer.py);
    the driver's src/ = the portable sources (no hosted one), the headers, the
    generated C; byte for byte."""
    design, files = generated(name)
    roles = {f["path"]: f["role"] for f in json.loads(files["manifest.json"])["files"]}
    g = sources_mk()
    assert sorted(p for p in files if p.startswith("c/")) == sorted(
        f"c/{n}" for n in ("Makefile", "LICENSE", f"{name}.c", f"{name}.h", f"{name}_regs.h",
                           f"{name}_selfcheck.c", f"{name}.jdesc"))     # libjointer is <OUT>/libjointer/
    assert files["c/LICENSE"] == (REPO / "LICENSE").read_text()
    src = f"ip/drivers/{name}_v1_0/src/"
    drv = {p[len(src):]: r for p, r in roles.items() if p.startswith(src)}
    assert sorted(n for n in drv if n.endswith(".c")) == sorted(g["DRV_PORTABLE_SRCS"] + [f"{name}.c"])
    assert not set(drv) & set(g["DRV_HOSTED_SRCS"]) and "jointer_hosted.h" not in drv
    for n, r in drv.items():
        if r == "ip-driver-library":
            assert files[src + n].encode() == ((DRV / "include" / n) if (DRV / "include" / n).is_file()
                                               else DRV / "src" / n).read_bytes(), n
        elif r == "ip-driver-copy":
            assert files[src + n] == files[f"c/{n}"], n
        else:
            assert (n, r) == ("Makefile", "ip-driver-makefile")
    assert {r for r in roles.values() if r in cbundle.COPY_ROLES} == set(cbundle.COPY_ROLES)
    m = json.loads(files["manifest.json"])["integration"]
    assert m["c_bundle"] == {"makefile": "c/Makefile", "pkg_config": name}
    assert m["vitis_driver"] == {"folder": f"ip/drivers/{name}_v1_0", "name": name, "version": "1.0"}


@pytest.mark.parametrize("name", NAMES)
def test_component_lists_the_driver(name, tmp_path):
    """ip/component.xml: view xilinx_softwaredriver (:vivado.xilinx.com:sw.driver) with a file
    set of the mdd (mdd, driver_mdd), the tcl (tclSource, driver_tcl) and every file of src/."""
    ip = out_dir(tmp_path, name) / "ip"
    root = ET.parse(ip / "component.xml").getroot()
    views = {v.findtext(f"{S}name"): v for v in root.iter(f"{S}view")}
    sw = views["xilinx_softwaredriver"]
    assert sw.findtext(f"{S}envIdentifier") == ":vivado.xilinx.com:sw.driver"
    assert sw.findtext(f"{S}fileSetRef/{S}localName") == "xilinx_softwaredriver_view_fileset"
    [fs] = [f for f in root.iter(f"{S}fileSet") if f.findtext(f"{S}name") == "xilinx_softwaredriver_view_fileset"]
    got = [(f.findtext(f"{S}name"), f.findtext(f"{S}fileType"), [t.text for t in f.findall(f"{S}userFileType")])
           for f in fs.findall(f"{S}file")]
    base = f"drivers/{name}_v1_0"
    src = sorted(p.name for p in (ip / base / "src").iterdir())
    assert got == [(f"{base}/data/{name}.mdd", None, ["mdd", "driver_mdd"]),
                   (f"{base}/data/{name}.tcl", "tclSource", ["driver_tcl"])] + \
        [(f"{base}/src/{n}", None if n == "Makefile" else "cSource", ["driver_src"]) for n in src]
    mdd = (ip / base / "data" / f"{name}.mdd").read_text()
    assert re.sub(r"#[^\n]*\n", "", mdd).split() == (
        f"OPTION psf_version = 2.1; BEGIN driver {name} OPTION supported_peripherals = ({name}); "
        f"OPTION driver_state = ACTIVE; OPTION copyfiles = all; OPTION VERSION = 1.0; "
        f"OPTION NAME = {name}; END driver").split()


# ---------------------------------------------------------------------------
# the Vitis driver
# ---------------------------------------------------------------------------

HSI_STUB = r"""
# stand-ins of the HSI procedures a driver's Tcl hook calls (Vitis / SDK), with
# the classic xillib behaviour: XPAR_<INSTANCE>_<param without C_>, canonical
# XPAR_<DRIVER>_<i>_..., addresses as 0x%08X, a U suffix
namespace eval ::hsi::utils {}
namespace eval ::common {}
array set ::prop {
    monitor,NAME monitor  monitor,CONFIG.C_S_AXI_BASEADDR 0x43c00000  monitor,CONFIG.C_S_AXI_HIGHADDR 0x43c0ffff
    mon_b,NAME mon_b      mon_b,CONFIG.C_S_AXI_BASEADDR 0x80010000    mon_b,CONFIG.C_S_AXI_HIGHADDR 0x8001ffff
    drv,NAME DRV
}
proc ::common::get_property {p obj} { if {[info exists ::prop($obj,$p)]} { return $::prop($obj,$p) }; return "" }
if {![info exists ::ips]} { set ::ips {monitor mon_b} }
proc ::hsi::utils::get_common_driver_ips {drv} { return $::ips }
proc ::hsi::utils::open_include_file {name} { return [open $name a] }
proc ::hsi::utils::format_addr_string {v p} {
    if {[string match -nocase *ADDR $p]} { return [format 0x%08X $v] }; return $v }
proc ::hsi::utils::param {p} { if {[string match C_* $p]} { return [string range $p 2 end] }; return $p }
proc ::hsi::utils::value {ip a id} {
    if {$a eq "DEVICE_ID"} { return $id }
    return [format_addr_string [::common::get_property CONFIG.$a $ip] $a]
}
proc ::hsi::utils::define_include_file {drv file drv_string args} {
    set f [open_include_file $file]
    set ips [get_common_driver_ips $drv]
    puts $f "#define XPAR_[string toupper $drv_string]_NUM_INSTANCES [llength $ips]U"
    set id 0
    foreach ip $ips {
        foreach a [lrange $args 1 end] {
            set v [value $ip $a $id]
            puts $f "#define XPAR_[string toupper [::common::get_property NAME $ip]]_[param $a] ${v}U"
        }
        incr id
    }
    close $f
}
proc ::hsi::utils::define_canonical_xpars {drv file drv_string args} {
    set f [open_include_file $file]
    set id 0
    foreach ip [get_common_driver_ips $drv] {
        foreach a $args {
            set v [value $ip $a $id]
            puts $f "#define XPAR_[string toupper $drv_string]_${id}_[param $a] ${v}U"
        }
        incr id
    }
    close $f
}
"""


def xparameters(tmp_path: Path, ip: Path, name: str, instances: str = "monitor mon_b") -> str:
    """xparameters.h as the driver's Tcl hook writes it under the stand-ins."""
    tcl = ip / "drivers" / f"{name}_v1_0" / "data" / f"{name}.tcl"
    (tmp_path / "run.tcl").write_text(f"set ::ips {{{instances}}}\n" + HSI_STUB + f"source {{{tcl}}}\ngenerate drv\n")
    sh(["tclsh", str(tmp_path / "run.tcl")], tmp_path)
    return (tmp_path / "xparameters.h").read_text()


@pytest.mark.parametrize("name", NAMES)
def test_tcl_xparameters(name, tmp_path):
    design, _ = generated(name)
    N = design.NAME
    got = xparameters(tmp_path, out_dir(tmp_path, name) / "ip", name)
    assert got == (
        f"#define XPAR_{N}_NUM_INSTANCES 2U\n"
        "#define XPAR_MONITOR_DEVICE_ID 0U\n#define XPAR_MONITOR_S_AXI_BASEADDR 0x43C00000U\n"
        "#define XPAR_MONITOR_S_AXI_HIGHADDR 0x43C0FFFFU\n"
        "#define XPAR_MON_B_DEVICE_ID 1U\n#define XPAR_MON_B_S_AXI_BASEADDR 0x80010000U\n"
        "#define XPAR_MON_B_S_AXI_HIGHADDR 0x8001FFFFU\n"
        f"#define XPAR_{N}_0_DEVICE_ID 0U\n#define XPAR_{N}_0_S_AXI_BASEADDR 0x43C00000U\n"
        f"#define XPAR_{N}_0_S_AXI_HIGHADDR 0x43C0FFFFU\n"
        f"#define XPAR_{N}_1_DEVICE_ID 1U\n#define XPAR_{N}_1_S_AXI_BASEADDR 0x80010000U\n"
        f"#define XPAR_{N}_1_S_AXI_HIGHADDR 0x8001FFFFU\n"
        f"/* {name}: the configuration and the address range of every instance */\n"
        f"#define XPAR_{N}_CONFIG_HASH 0x{design.config_hash:08X}U\n"
        f"#define XPAR_{N}_0_BASEADDR 0x43C00000U\n#define XPAR_{N}_0_HIGHADDR 0x43C0FFFFU\n"
        f"#define XPAR_{N}_1_BASEADDR 0x80010000U\n#define XPAR_{N}_1_HIGHADDR 0x8001FFFFU\n\n")


def test_doc_vitis_xparameters(tmp_path):
    """The xparameters.h lines doc/integration.md "Bare metal with Vitis" shows
    (Y9, one instance named monitor) are what the Tcl hook writes."""
    doc = [line.strip() for line in readme_section("Bare metal with Vitis").splitlines()
           if line.strip().startswith("#define")]
    got = xparameters(tmp_path, out_dir(tmp_path, "selective_accumulations") / "ip", "selective_accumulations",
                      "monitor")
    assert doc and doc == [line for line in got.splitlines() if line.startswith("#define")]


BSP = {  # target: (compiler, archiver, COMPILER_FLAGS)
    "zynq": ("arm-none-eabi-gcc", "arm-none-eabi-ar", "-O2 -c -mcpu=cortex-a9 -mfpu=vfpv3 -mfloat-abi=hard"),
    "zynqmp": ("aarch64-linux-gnu-gcc", "aarch64-linux-gnu-ar", "-O2 -c -ffreestanding"),
}


@pytest.mark.parametrize("target", sorted(BSP))
@pytest.mark.parametrize("name", NAMES)
def test_bsp_build(name, target, tmp_path):
    """The driver in a BSP's folders: `make include` then `make libs` as the BSP
    runs them; libxil.a holds one object per source; Zynq-7000: the example links
    with no OS against libxil.a and the xparameters.h of the Tcl hook."""
    compiler, archiver, flags = BSP[target]
    ip = out_dir(tmp_path, name) / "ip"
    drv = ip / "drivers" / f"{name}_v1_0"
    bsp = tmp_path / "bsp" / "ps7_cortexa9_0"
    src = bsp / "libsrc" / f"{name}_v1_0" / "src"
    shutil.copytree(drv / "src", src)
    (bsp / "include").mkdir()
    (bsp / "lib").mkdir()
    (bsp / "include" / "xparameters.h").write_text(xparameters(tmp_path, ip, name))
    args = [f"COMPILER={compiler}", f"ARCHIVER={archiver}", f"COMPILER_FLAGS={flags}",
            "EXTRA_COMPILER_FLAGS=-g -std=c99 -pedantic -Wall -Wextra -Werror"]
    sh(["make", "-C", str(src), "include", *args], tmp_path)
    sh(["make", "-C", str(src), "libs", *args], tmp_path)
    sources = sorted(p.name for p in src.glob("*.c"))
    assert sorted(sh([archiver, "t", str(bsp / "lib" / "libxil.a")], tmp_path).split()) == \
        sorted(s[:-2] + ".o" for s in sources)
    assert not list(src.glob("*.o"))                         # `make libs` cleans up
    assert sorted(p.name for p in (bsp / "include").iterdir()) == \
        sorted(["xparameters.h"] + [p.name for p in src.glob("*.h")])
    if target != "zynq":
        return
    elf = tmp_path / "example.elf"
    sh([compiler, *flags.replace("-c", "").split(), "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror",
        "--specs=nosys.specs", f"-I{bsp / 'include'}", str(drv / "examples" / f"{name}_example.c"),
        f"-L{bsp / 'lib'}", "-lxil", "-o", str(elf)], tmp_path)
    syms = sh(["arm-none-eabi-nm", str(elf)], tmp_path)
    for sym in ("main", "jointer_selftest", "jointer_init_baremetal", f"{name}_cfg"):
        assert re.search(rf" [TtRrDd] {sym}$", syms, re.M), sym
    assert "jointer_open" not in syms                         # no hosted code
