# SPDX-License-Identifier: MIT
"""The software shapes of a generated monitor, built where users build them.

The C bundle (<OUT>/<name>/c/): copied alone to an empty folder, built for
armhf and aarch64 with -Werror, its self-check run under qemu, installed with DESTDIR/PREFIX (the exact
tree), found by pkg-config in a sysroot, linked into a small program, its
CLI run under qemu against a fake UIO device. The commands of doc/integration.md
"Linux: the C bundle" run as written.

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
import os
import re
import shutil
import struct
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
    """c/jointer/ = drivers/include/*.h, the portable + hosted sources of
    sources.mk with drivers/src/*.h, drivers/cli/*; the driver's src/ = the
    portable sources (no hosted one), the headers, the generated C; byte for byte."""
    design, files = generated(name)
    roles = {f["path"]: f["role"] for f in json.loads(files["manifest.json"])["files"]}
    g = sources_mk()
    lib = {p[len("c/"):]: files[p] for p, r in roles.items() if r == "c-library"}
    want = ([f"jointer/include/{p.name}" for p in (DRV / "include").glob("*.h")]
            + [f"jointer/src/{f}" for f in g["DRV_PORTABLE_SRCS"] + g["DRV_HOSTED_SRCS"]]
            + [f"jointer/src/{p.name}" for p in (DRV / "src").glob("*.h")]
            + [f"jointer/cli/{p.name}" for p in DRV.joinpath("cli").iterdir() if p.suffix in (".c", ".h")])
    assert sorted(lib) == sorted(set(want))
    for rel, text in lib.items():
        folder, fname = rel.split("/")[1:]
        assert text.encode() == (DRV / folder / fname).read_bytes(), rel
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
# the C bundle
# ---------------------------------------------------------------------------


def fake_uio(tmp: Path, regs: dict, prefix: str) -> bytearray:
    """A fake UIO device (JOINTER_UIO_SYSFS layout, as drivers/tests/test_cli.py): the
    identity of the generated monitor and metric i's RESULT = 1000 * (i + 1) + 7."""
    mp = tmp / "sys" / "uio5" / "maps" / "map0"
    mp.mkdir(parents=True)
    for k, v in (("size", "0x4000\n"), ("addr", "0x43c00000\n"), ("offset", "0x0\n")):
        (mp / k).write_text(v)
    img = bytearray(0x4000)
    for off, v in ((0x0, 0x4A4E5452), (0x4, 0x00020000), (0x8, regs[f"{prefix}_CONFIG_HASH"]),
                   (0xC, regs[f"{prefix}_INFO"])):
        img[off:off + 4] = struct.pack("<I", v)
    return img


def regs_of(text: str) -> dict:
    return {m.group(1): int(m.group(2), 0)
            for m in re.finditer(r"#define (\w+)\s+(0x[0-9A-Fa-f]+|\d+)u", text)}


def installed(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("arch", sorted(ARCH))
@pytest.mark.parametrize("name", NAMES)
def test_bundle_cross_build_install(name, arch, tmp_path):
    design, files = generated(name)
    cc, qemu = ARCH[arch]
    bundle = tmp_path / "anywhere" / "bundle"
    shutil.copytree(out_dir(tmp_path, name) / "c", bundle)
    sh(["make", "-j2", f"CC={cc}", "WERROR=1"], bundle)
    check = sh(["make", f"CC={cc}", "WERROR=1", "check", f"RUN={' '.join(qemu)}"], bundle)
    assert re.search(rf"^{name}_selfcheck: \d+ checks, 0 failed$", check, re.M), check
    root = tmp_path / "root"
    sh(["make", f"CC={cc}", "WERROR=1", "install", f"DESTDIR={root}", "PREFIX=/usr"], bundle)
    heads = sorted(p.name for p in (DRV / "include").glob("*.h")) + [f"{name}.h", f"{name}_regs.h"]
    jdesc = [f"usr/share/jointer/desc/{name}.jdesc"] if (bundle / f"{name}.jdesc").is_file() else []
    assert installed(root) == sorted(["usr/bin/jointer", f"usr/lib/lib{name}.a", f"usr/lib/pkgconfig/{name}.pc"]
                                     + [f"usr/include/jointer/{h}" for h in heads] + jdesc)
    # pkg-config in the sysroot, a program linked with its flags, run under qemu
    env = dict(os.environ, PKG_CONFIG_SYSROOT_DIR=str(root), PKG_CONFIG_LIBDIR=str(root / "usr/lib/pkgconfig"))
    env.pop("PKG_CONFIG_PATH", None)
    flags = sh(["pkg-config", "--cflags", "--libs", name], tmp_path, env=env).split()
    assert flags == [f"-I{root}/usr/include/jointer", f"-L{root}/usr/lib", f"-l{name}"]
    app = tmp_path / "app.c"
    app.write_text(f'#include <stdio.h>\n#include "{name}.h"\n'
                   f'int main(void)\n{{\n    printf("%s %u %u\\n", {name}_cfg.name, (unsigned){name}_cfg.num_metrics,\n'
                   f'           (unsigned){design.NAME}_NUM_METRICS);\n    return 0;\n}}\n')
    sh([cc, "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", str(app), *flags, "-o", str(tmp_path / "app")],
       tmp_path)
    n = len(design.metrics)
    assert sh(qemu + [str(tmp_path / "app")], tmp_path) == f"{name} {n} {n}\n"
    # the installed CLI against a fake UIO device
    regs = regs_of(files[f"c/{name}_regs.h"])
    img = fake_uio(tmp_path, regs, design.NAME)
    metrics = [m["name"] for m in design.metrics]
    for i, m in enumerate(design.metrics):
        off = regs[f"{design.NAME}_{m['NAME']}_RESULT"]
        img[off:off + 4] = struct.pack("<I", 1000 * (i + 1) + 7)
    (tmp_path / "uio5").write_bytes(bytes(img))
    cli = qemu + [str(root / "usr/bin/jointer"), "--device", f"uio:{tmp_path / 'uio5'}"]
    uenv = dict(os.environ, JOINTER_UIO_SYSFS=str(tmp_path / "sys"))
    if not cli_cfg_default(bundle):         # the generic CLI: the installed descriptor file
        uenv["JOINTER_DESC"] = str(root / f"usr/share/jointer/desc/{name}.jdesc")
    assert sh(cli + ["selftest"], tmp_path, env=uenv).startswith(
        f"selftest: ok (ID, VERSION, CONFIG_HASH 0x{design.config_hash:08X}, INFO)")
    rows = sh(cli + ["read", "--format", "csv"], tmp_path, env=uenv).splitlines()
    assert rows[0] == "lmic,sniffer,metric,width,value"
    assert [(r.split(",")[2], r.split(",")[4]) for r in rows[1:]] == \
        [(m, str(1000 * (i + 1) + 7)) for i, m in enumerate(metrics)]
    assert "usage: jointer" in sh(qemu + [str(root / "usr/bin/jointer"), "--help"], tmp_path)


def cli_cfg_default(bundle: Path) -> str:
    """The Makefile's default CLI_CFG (empty: the generic CLI)."""
    return re.search(r"^CLI_CFG\s*\?=[ \t]*(\S*)", (bundle / "Makefile").read_text(), re.M).group(1)


def test_bundle_default_build_has_no_werror(tmp_path):
    """The user's build warns but does not fail on warnings (no -Werror unless WERROR=1);
    CLI_CFG is the one switch between the compiled-in descriptor and the generic CLI."""
    bundle = out_dir(tmp_path, "selective_accumulations") / "c"
    assert cli_cfg_default(bundle) in ("$(NAME)_cfg", "")
    dry = sh(["make", "-n", "CC=gcc", "CLI_CFG=selective_accumulations_cfg"], bundle)
    cmds = [line for line in dry.splitlines() if line.startswith("gcc ") and " -c " in line]
    assert cmds and not any("-Werror" in c for c in cmds)
    assert all("-std=c99" in c and "-Wall" in c and "-Wextra" in c for c in cmds)
    cli = [c for c in cmds if "jointer/cli/" in c]
    assert cli and all("-DJOINTER_CLI_CFG=selective_accumulations_cfg" in c for c in cli)
    assert not any("JOINTER_CLI_CFG" in c for c in cmds if c not in cli)
    assert all("-Werror" in c for c in sh(["make", "-n", "CC=gcc", "WERROR=1"], bundle).splitlines()
               if c.startswith("gcc ") and " -c " in c)
    generic = sh(["make", "-n", "CC=gcc", "CLI_CFG="], bundle)
    assert "JOINTER_CLI_CFG" not in generic


def shell_blocks(section: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", readme_section(section), re.S)


def test_doc_bundle_commands(tmp_path):
    """doc/integration.md "Linux: the C bundle": its shell block runs as written
    (jointer-gen from this checkout, cwd an empty folder with configs/)."""
    [block] = shell_blocks("Linux: the C bundle")[:1]
    (tmp_path / "configs").symlink_to(REPO / "configs")
    env = dict(os.environ, HOME=str(tmp_path))
    env.pop("PKG_CONFIG_PATH", None)
    script = ("set -euo pipefail\n"
              f"jointer-gen() {{ PYTHONPATH={REPO / 'gen'} python3 -m jointer_gen \"$@\"; }}\n" + block)
    out = sh(["bash", "-c", script], tmp_path, env=env)
    root = tmp_path / "y9-bundle" / "root"
    assert f"-I{root}/usr/include/jointer -L{root}/usr/lib -lselective_accumulations" in out
    assert (tmp_path / "y9-bundle" / "app").is_file()
    assert "usage: jointer" in sh(ARCH["aarch64"][1] + [str(root / "usr/bin/jointer"), "--help"], tmp_path)


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


def test_doc_yocto_recipe(tmp_path):
    """The recipe of doc/integration.md "PetaLinux / Yocto": its oe_runmake lines run
    with a Yocto-like environment (a CC with flags, AR, CFLAGS, LDFLAGS exported;
    ${libdir} = /usr/lib64), and the result is what the recipe packages."""
    text = readme_section("Linux: the C bundle")
    recipe = re.search(r"### PetaLinux / Yocto\n.*?```\n(.*?)```", text, re.S).group(1)
    lines = [line.strip() for line in recipe.splitlines() if line.strip().startswith("oe_runmake")]
    assert lines == ["oe_runmake", "oe_runmake install DESTDIR=${D} PREFIX=${prefix} LIBDIR=${libdir}"]
    src = tmp_path / "work" / "selective_accumulations"
    shutil.copytree(out_dir(tmp_path, "selective_accumulations") / "c", src)
    d = tmp_path / "image"
    env = dict(os.environ, CC="aarch64-linux-gnu-gcc -march=armv8-a", AR="aarch64-linux-gnu-ar",
               CFLAGS="-O2 -pipe -g", LDFLAGS="-Wl,-O1 -Wl,--hash-style=gnu", D=str(d), prefix="/usr",
               libdir="/usr/lib64")
    sh(["bash", "-c", 'set -e; oe_runmake() { make "$@"; }\n' + "\n".join(lines)], src, env=env)
    files = installed(d)
    assert "usr/lib64/libselective_accumulations.a" in files and "usr/bin/jointer" in files
    pc = (d / "usr/lib64/pkgconfig/selective_accumulations.pc").read_text()
    assert pc.startswith("prefix=/usr\nlibdir=/usr/lib64\nincludedir=/usr/include\n")
    assert "aarch64" in sh(["file", str(d / "usr/bin/jointer")], tmp_path)
