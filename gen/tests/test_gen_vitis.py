# SPDX-License-Identifier: MIT
"""The Vitis driver of a monitor's IP (ip/drivers/<name>_v1_0/), built the two
ways Vitis builds it, with no step a Vitis user would not do.

Vitis Unified: the driver travels inside the .xsa (component.xml lists it) and
sdtgen puts it beside the system device tree (<sdt>/drivers/<name>_v1_0/). A
system device tree of a Zynq UltraScale+ design holding two instances of the
IP, written as sdtgen writes one (pl.dtsi: node <ip>@<addr> labelled with the
instance name, compatible xlnx,<ip>-<version>, the IP's parameters as
xlnx,<param>, status, xlnx,name; the A53 cluster's address-map), goes through
PyPI's lopper as the BSP generator runs it (LOPPER_DTC_FLAGS="-b 0 -@"):
baremetaldrvlist_xlnx, then one lop file with baremetalconfig_xlnx (the
config table), bmcmake_metadata_xlnx (the examples) and
baremetal_xparameters_xlnx. The BSP's libxil CMake is played by a CMake
project that adds every driver of DRVLISTConfig.cmake and needs target <drv>;
it builds for the A53 (aarch64-linux-gnu-gcc -ffreestanding -DSDT) with the
example, run under qemu-aarch64 by gen/tests/vitis/harness.c on register files
mapped at the instances' base addresses. A driver from a software repository
instead (`empyro repo` over ip/) is found by the driver list too.

Classic Vitis: the Tcl hook under tclsh with stand-ins of the three HSI calls
it makes (exact xparameters.h and x<name>_g.c), the BSP Makefile in a BSP's
folders for the Zynq-7000 A9 (arm-none-eabi-gcc, hard float), the example
linked against libxil.a with no OS; the same sources and table run on this
machine by the harness.

Every copy equals its source; component.xml lists every file of the driver and
carries the fixed CONFIG_HASH parameter.
"""
from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from gentest_util import REPO, generated, readme_section
from jointer_gen.backends.vivado import vitis
from jointer_gen.output import write_tree

NAMES = ["selective_accumulations", "trace_sink"]
S = "{http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009}"
X = "{http://www.xilinx.com}"
DRV = REPO / "drivers"
HARNESS = Path(__file__).resolve().parent / "vitis" / "harness.c"
PROC = "psu_cortexa53_0"
SDT_INSTANCES = [(0xA0000000, 0x10000), (0xA0010000, 0x10000)]


def sh(cmd, cwd, env=None, **kw):
    p = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=600, **kw)
    assert p.returncode == 0, f"{cmd} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


def out_dir(tmp_path: Path, name: str) -> Path:
    design, files = generated(name)
    write_tree(files, tmp_path / "out" / name)
    return tmp_path / "out" / name


def driver(ip: Path, name: str) -> Path:
    return ip / "drivers" / f"{name}_v1_0"


def names(name: str) -> dict:
    design, _ = generated(name)
    return {**vitis.names(design), "hash": design.config_hash, "NAME": design.NAME}


# ---------------------------------------------------------------------------
# the files
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_copies(name):
    """src/ = libjointer's portable sources (no hosted one) and the headers they
    and the generated files include, byte for byte; the monitor's C = c/'s."""
    design, files = generated(name)
    roles = {f["path"]: f["role"] for f in json.loads(files["manifest.json"])["files"]}
    g = vitis.cbundle.source_groups()
    src = f"ip/drivers/{name}_v1_0/src/"
    drv = {p[len(src):]: r for p, r in roles.items() if p.startswith(src)}
    x = vitis.names(design)["stem"]
    assert sorted(n for n in drv if n.endswith(".c")) == sorted(
        g["DRV_PORTABLE_SRCS"] + [f"{name}.c", f"{x}_g.c", f"{x}_sinit.c"])
    assert not set(drv) & set(g["DRV_HOSTED_SRCS"]) and "jointer_hosted.h" not in drv
    own = {"Makefile": "ip-driver-makefile", "CMakeLists.txt": "ip-driver-cmake", f"{x}.h": "ip-driver-header",
           f"{x}_g.c": "ip-driver-table", f"{x}_sinit.c": "ip-driver-sinit"}
    for n, r in drv.items():
        if r == "ip-driver-library":
            assert files[src + n].encode() == ((DRV / "include" / n) if (DRV / "include" / n).is_file()
                                               else DRV / "src" / n).read_bytes(), n
        elif r == "ip-driver-copy":
            assert files[src + n] == files[f"c/{n}"], n
        else:
            assert own.pop(n) == r, n
    assert not own
    m = json.loads(files["manifest.json"])["integration"]["vitis_driver"]
    assert m == {"folder": f"ip/drivers/{name}_v1_0", "name": name, "version": "1.0",
                 "compatible": "xlnx," + name.replace("_", "-") + "-1.0"}


@pytest.mark.parametrize("name", NAMES)
def test_component_lists_the_driver(name, tmp_path):
    """ip/component.xml: view xilinx_softwaredriver with a file set of every file of
    the driver (what the .xsa carries to Vitis), and the fixed parameter CONFIG_HASH
    (bitString, not editable) holding the configuration's hash."""
    design, _ = generated(name)
    ip = out_dir(tmp_path, name) / "ip"
    root = ET.parse(ip / "component.xml").getroot()
    views = {v.findtext(f"{S}name"): v for v in root.iter(f"{S}view")}
    sw = views["xilinx_softwaredriver"]
    assert sw.findtext(f"{S}envIdentifier") == ":vivado.xilinx.com:sw.driver"
    assert sw.findtext(f"{S}fileSetRef/{S}localName") == "xilinx_softwaredriver_view_fileset"
    [fs] = [f for f in root.iter(f"{S}fileSet") if f.findtext(f"{S}name") == "xilinx_softwaredriver_view_fileset"]
    listed = sorted(f.findtext(f"{S}name") for f in fs.findall(f"{S}file"))
    base = driver(ip, name)
    assert listed == sorted(p.relative_to(ip).as_posix() for p in base.rglob("*") if p.is_file())
    kinds = {f.findtext(f"{S}name"): f.findtext(f"{S}fileType") for f in fs.findall(f"{S}file")}
    assert all((kinds[p] == "cSource") == p.endswith((".c", ".h")) for p in listed if "/data/" not in p)
    params = {p.findtext(f"{S}name"): p for p in root.findall(f"{S}parameters/{S}parameter")}
    assert list(params) == ["Component_Name", "CONFIG_HASH"]
    value = params["CONFIG_HASH"].find(f"{S}value")
    assert value.text == f"0x{design.config_hash:08X}"
    assert (value.get(f"{S}format"), value.get(f"{S}resolve"), value.get(f"{S}bitStringLength")) == \
        ("bitString", "user", "32")
    assert params["CONFIG_HASH"].findtext(f".//{X}isEnabled") == "false"


@pytest.mark.parametrize("name", NAMES)
def test_driver_data(name, tmp_path):
    """data/<name>.yaml is the binding lopper reads: type driver, the compatible
    sdtgen writes for jointer:jointer:<name>:1.0, `required` in the order of the
    config struct's fields, the struct, the example and the properties it needs.
    data/<name>.mdd names the IP for the classic flow."""
    design, _ = generated(name)
    n = vitis.names(design)
    data = driver(out_dir(tmp_path, name) / "ip", name) / "data"
    b = yaml.safe_load((data / f"{name}.yaml").read_text())
    assert b["type"] == "driver"
    assert b["properties"]["compatible"] == {"items": [{"const": "xlnx," + name.replace("_", "-") + "-1.0"}]}
    assert b["required"] == ["compatible", "reg", "xlnx,config-hash", "interrupts", "interrupt-parent"]
    assert set(b["required"]) <= set(b["properties"])
    assert b["config"] == [f"{n['prefix']}_Config"]
    assert b["examples"] == {f"{name}_example.c": ["reg", "xlnx,config-hash"]}
    h = (data.parent / "src" / f"{n['stem']}.h").read_text()
    fields = re.sub(r"/\*.*?\*/", "", re.search(r"typedef struct \w+_Config \{(.*?)\}", h, re.S).group(1))
    sdt = re.sub(r"#else.*?#endif", "", fields, flags=re.S)        # the SDT branch of every #ifdef
    assert re.findall(r"(\w+);", sdt) == ["Name", "BaseAddress", "ConfigHash", "IntrId", "IntrParent"]
    mdd = (data / f"{name}.mdd").read_text()
    assert re.sub(r"#[^\n]*\n", "", mdd).split() == (
        f"OPTION psf_version = 2.1; BEGIN driver {name} OPTION supported_peripherals = ({name}); "
        f"OPTION driver_state = ACTIVE; OPTION copyfiles = all; OPTION VERSION = 1.0; "
        f"OPTION NAME = {name}; END driver").split()


def test_placeholder_table(tmp_path):
    """src/x<name>_g.c as shipped: with SDT an empty table that compiles (a BSP
    without an instance keeps it); without, an error that says what to do."""
    name = "selective_accumulations"
    src = driver(out_dir(tmp_path, name) / "ip", name) / "src"
    g = src / f"{names(name)['stem']}_g.c"
    cc = ["gcc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", f"-I{src}", g]
    sh([*cc, "-DSDT"], tmp_path)
    p = subprocess.run([str(c) for c in cc], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode != 0 and f"was not written by data/{name}.tcl: generate the BSP" in p.stderr


# ---------------------------------------------------------------------------
# Vitis Unified: system device tree, lopper, CMake
# ---------------------------------------------------------------------------


def pl_node(name: str, label: str, base: int, size: int, config_hash: int, irq: int | None) -> str:
    """An instance of the IP as sdtgen writes it into pl.dtsi."""
    intr = (f"\t\t\tinterrupt-names = \"irq\";\n\t\t\tinterrupt-parent = <&gic_a53>;\n"
            f"\t\t\tinterrupts = < 0 {irq} 4 >;\n") if irq is not None else ""
    return (f"\t\t{label}: {name}@{base:x} {{\n"
            f"\t\t\tcompatible = \"xlnx,{name.replace('_', '-')}-1.0\";\n"
            "\t\t\tstatus = \"okay\";\n"
            "\t\t\tclock-names = \"s_axi_aclk\";\n"
            f"\t\t\txlnx,ip-name = \"{name}\";\n"
            "\t\t\txlnx,edk-iptype = \"PERIPHERAL\";\n"
            f"\t\t\txlnx,config-hash = <0x{config_hash:x}>;\n"
            f"\t\t\treg = <0x0 0x{base:x} 0x0 0x{size:x}>;\n"
            "\t\t\tclocks = <&zynqmp_clk 71>;\n"
            f"{intr}"
            f"\t\t\txlnx,name = \"{label}\";\n"
            "\t\t};\n")


def system_device_tree(sdt: Path, name: str, config_hash: int) -> Path:
    """system-top.dts + pl.dtsi of a ZynqMP design with two instances of the IP
    (<name>_0 with its irq on the GIC, <name>_1 without an interrupt), the A53
    cluster and its address map, DDR and the GIC (what zynqmp.dtsi and pcw.dtsi
    give; the PL interrupt parent is the GIC, as after lop-a53-imux)."""
    labels = [f"{name}_{i}" for i in range(len(SDT_INSTANCES))]
    pl = "".join(pl_node(name, lab, base, size, config_hash, 89 if i == 0 else None)
                 for i, (lab, (base, size)) in enumerate(zip(labels, SDT_INSTANCES)))
    (sdt / "pl.dtsi").write_text(
        "/ {\n\tamba_pl: amba_pl {\n\t\tranges;\n\t\tcompatible = \"simple-bus\";\n"
        "\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n"
        "\t\tfirmware-name = \"design_1_wrapper.bit.bin\";\n" + pl + "\t};\n};\n")
    amap = "".join(f",\n\t\t\t<0x0 0x{b:x} &{lab} 0x0 0x{b:x} 0x0 0x{s:x}>"
                   for lab, (b, s) in zip(labels, SDT_INSTANCES))
    (sdt / "system-top.dts").write_text(f"""/dts-v1/;
/ {{
\tcompatible = "xlnx,zynqmp";
\t#address-cells = <2>;
\t#size-cells = <2>;
\tmodel = "Xilinx ZynqMP";
\tcpus_a53: cpus-a53@0 {{
\t\t#address-cells = <1>;
\t\t#size-cells = <0>;
\t\tpsu_cortexa53_0: cpu@0 {{
\t\t\tcompatible = "arm,cortex-a53";
\t\t\tdevice_type = "cpu";
\t\t\treg = <0x0>;
\t\t\txlnx,ip-name = "psu_cortexa53";
\t\t\txlnx,cpu-clk-freq-hz = <1199988037>;
\t\t\txlnx,timestamp-clk-freq = <99999001>;
\t\t}};
\t}};
\tzynqmp_clk: clock-controller {{
\t\t#clock-cells = <1>;
\t\tcompatible = "xlnx,zynqmp-clk";
\t}};
\tamba_apu: apu-bus {{
\t\tcompatible = "simple-bus";
\t\t#address-cells = <2>;
\t\t#size-cells = <2>;
\t\tranges;
\t\tgic_a53: interrupt-controller@f9010000 {{
\t\t\tcompatible = "arm,gic-400";
\t\t\t#address-cells = <0>;
\t\t\t#interrupt-cells = <3>;
\t\t\treg = <0x0 0xf9010000 0x0 0x10000>, <0x0 0xf9020000 0x0 0x20000>;
\t\t\tinterrupt-controller;
\t\t\tstatus = "okay";
\t\t\txlnx,ip-name = "psu_acpu_gic";
\t\t\txlnx,name = "psu_acpu_gic";
\t\t}};
\t}};
}};
#include "pl.dtsi"
/ {{
\tdevice_id = "xczu3eg";
\tfamily = "ZynqMP";
\tpsu_ddr_0_memory: memory@0 {{
\t\tcompatible = "xlnx,psu-ddr-1.0";
\t\txlnx,ip-name = "psu_ddr";
\t\tdevice_type = "memory";
\t\tmemory_type = "memory";
\t\treg = <0x0 0x0 0x0 0x7ff00000>;
\t}};
\tcpus_a53: cpus-a53@0 {{
\t\tcompatible = "cpus,cluster";
\t\t#ranges-address-cells = <0x2>;
\t\t#ranges-size-cells = <0x2>;
\t\taddress-map = <0x0 0x0 &psu_ddr_0_memory 0x0 0x0 0x0 0x7ff00000>,
\t\t\t<0x0 0xf9010000 &gic_a53 0x0 0xf9010000 0x0 0x70000>{amap};
\t}};
}};
""")
    return sdt / "system-top.dts"


def esw_stand_ins(root: Path, drivers: dict[str, Path]) -> Path:
    """The parts of an embeddedsw repository the assists read (the `common`
    driver every BSP has, the standalone OS) and the repository file `empyro
    repo` writes (.repo.yaml: every component under the given paths)."""
    (root / "common" / "data").mkdir(parents=True)
    (root / "common" / "data" / "common.yaml").write_text("title: common\ntype: driver\n")
    (root / "standalone" / "data").mkdir(parents=True)
    repo = {"paths": {}, "os": {"standalone": {"path": [str(root / "standalone")]}},
            "driver": {"common": {"path": [str(root / "common")]}}, "library": {}, "apps": {}}
    for name, folder in drivers.items():
        repo["driver"][name] = {"path": [str(folder)]}
    (root / "repo.yaml").write_text(yaml.safe_dump(repo))
    return root / "repo.yaml"


def lopper(args, cwd: Path) -> str:
    """lopper (requirements.txt) as the BSP generator runs it; an assist that
    fails (lopper reports it and goes on) fails the test."""
    exe = shutil.which("lopper", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if exe is None:
        pytest.fail("lopper not found (scripts/install-deps.sh installs it, requirements.txt)")
    env = dict(os.environ, LOPPER_DTC_FLAGS="-b 0 -@")
    p = subprocess.run([exe, *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    out = p.stdout + p.stderr
    assert p.returncode == 0 and not re.search(r"assist .* failed|\[ERROR\]", out), f"lopper {args}:\n{out}"
    return out


def lop_file(cmds: list[tuple[str, str, str]]) -> str:
    """The lop file of the BSP generator: the assists loaded, then one assist-v1
    lop (outdir, id, options) each."""
    text = "/dts-v1/;\n/ {\n\tcompatible = \"system-device-tree-v1,lop\";\n\tlops {\n"
    for i, assist in enumerate(("baremetalconfig_xlnx.py", "bmcmake_metadata_xlnx.py",
                                "baremetal_xparameters_xlnx.py")):
        text += (f"\t\tlop_{i} {{\n\t\t\tcompatible = \"system-device-tree-v1,lop,load\";\n"
                 f"\t\t\tload = \"assists/{assist}\";\n\t\t}};\n")
    for i, (outdir, ident, options) in enumerate(cmds, 3):
        text += (f"\t\tlop_{i} {{\n\t\t\tcompatible = \"system-device-tree-v1,lop,assist-v1\";\n"
                 f"\t\t\tnode = \"/\";\n\t\t\toutdir = \"{outdir}\";\n\t\t\tid = \"{ident}\";\n"
                 f"\t\t\toptions = \"{options}\";\n\t\t}};\n")
    return text + "\t};\n};\n"


def unified_bsp(tmp_path: Path, name: str, sdt_hash: int) -> tuple[Path, Path, Path]:
    """The domain a Vitis Unified platform makes: (bsp folder, the driver in the
    SDT's folder, the SDT). The .xsa's driver is copied by sdtgen beside the SDT;
    the BSP copies src/ to libsrc/<drv>/src and runs the assists."""
    ip = out_dir(tmp_path, name) / "ip"
    sdt = tmp_path / "sdt"
    shutil.copytree(driver(ip, name), sdt / "drivers" / f"{name}_v1_0")
    dts = system_device_tree(sdt, name, sdt_hash)
    repo = esw_stand_ins(tmp_path / "esw", {})
    bsp = tmp_path / "bsp"
    for sub in ("include", "lib", "libsrc"):
        (bsp / sub).mkdir(parents=True)
    lopper(["-O", bsp / "libsrc", "-f", dts, "--", "baremetaldrvlist_xlnx", PROC, repo], tmp_path)
    drv = sdt / "drivers" / f"{name}_v1_0"
    shutil.copytree(drv / "src", bsp / "libsrc" / name / "src")
    (bsp / "lop-config.dts").write_text(lop_file([
        (bsp / "libsrc" / name / "src", "module,baremetalconfig_xlnx", f"{PROC} {drv / 'src'}"),
        (bsp / "libsrc" / name, "module,bmcmake_metadata_xlnx", f"{PROC} {drv / 'examples'} drvcmake_metadata"),
        (bsp / "include", "module,baremetal_xparameters_xlnx", f"{PROC} {repo}")]))
    lopper(["-O", bsp, "-i", bsp / "lop-config.dts", "-f", dts], tmp_path)
    return bsp, drv, dts


def sdt_table(name: str, config_hash: int) -> str:
    """x<name>_g.c as baremetalconfig_xlnx writes it for the two instances."""
    n = names(name)
    rows = []
    for i, (base, _) in enumerate(SDT_INSTANCES):
        irq, parent = ("0x4059", "0xf9010000") if i == 0 else ("0xffff", "0xffff")
        rows.append(f"\n\t{{\n\t\t\"xlnx,{name.replace('_', '-')}-1.0\", /* compatible */\n\t\t{hex(base)}, /* reg */"
                    f"\n\t\t{hex(config_hash)}, /* xlnx,config-hash */\n\t\t{irq}, /* interrupts */"
                    f"\n\t\t{parent} /* interrupt-parent */\n\t}},")
    return (f"#include \"{n['stem']}.h\"\n\n{n['prefix']}_Config {n['prefix']}_ConfigTable[] "
            f"__attribute__ ((section (\".drvcfg_sec\"))) = {{\n{''.join(rows)}\n\t {{\n\t\t NULL\n\t}}\n}};")


def harness_names(name: str, sdt: bool) -> str:
    n = names(name)
    N = n["NAME"]
    flow = "#define MON_SDT_FLOW\n" if sdt else \
        f"#include \"xparameters.h\"\n#define MON_NUM_INSTANCES XPAR_{n['xpar']}_NUM_INSTANCES\n"
    return (f"#include \"{n['stem']}.h\"\n{flow}#define MON_X(s) {n['prefix']}_##s\n#define MON_DEV {n['prefix']}\n"
            f"#define MON_CFG {name}_cfg\n#define MON_ID_VALUE {N}_ID_VALUE\n"
            f"#define MON_VERSION_VALUE {N}_VERSION_VALUE\n#define MON_CONFIG_HASH {N}_CONFIG_HASH\n"
            f"#define MON_INFO {N}_INFO\n")


def harness_expected(name: str, bases: list[int], hashes: list[int], lookups: list[str]) -> str:
    """What the harness prints: every instance initialised (instance 1 runs on a
    stale bitstream: -ESTALE), the look-ups, the refusals, then the example on
    instance 0 (identity, then 0x100 + m for metric m)."""
    design, _ = generated(name)
    out = [f"instances {len(bases)}"]
    for i, (b, h) in enumerate(zip(bases, hashes)):
        init = -errno.ESTALE if i == 1 or h != design.config_hash else 0
        out.append(f"instance {i} base {hex(b)} hash 0x{h:08x} init {init}")
    out += lookups + [f"stale description {-errno.ESTALE}", f"null {-errno.EINVAL}"]
    regs = generated(name)[1][f"c/{name}_regs.h"]
    value = {k: int(re.search(rf"#define {design.NAME}_{k}\s+(0x[0-9A-F]+)u", regs).group(1), 16)
             for k in ("INFO", "VERSION_VALUE")}
    out.append(f"{name}: id 0x4A4E5452 version 0x{value['VERSION_VALUE']:08X} config 0x{design.config_hash:08X} "
               f"info 0x{value['INFO']:08X}")
    out += [f"{m['name']} {0x100 + i}" for i, m in enumerate(design.metrics)]
    return "\n".join(out + ["example 0"]) + "\n"


CMAKE_BSP = """cmake_minimum_required(VERSION 3.14.7)
project(domain C)
# the BSP's libsrc/CMakeLists.txt: every driver of the driver list that the BSP holds
set(DRVLIST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/libsrc)
find_package(DRVLIST REQUIRED)
foreach(DRIVER ${DRIVER_LIST})
  if(EXISTS ${DRVLIST_DIR}/${DRIVER}/src/CMakeLists.txt)
    add_subdirectory(${DRVLIST_DIR}/${DRIVER}/src libsrc/${DRIVER}/src)
    if(NOT TARGET ${DRIVER})
      message(FATAL_ERROR "driver ${DRIVER} has no target ${DRIVER}")
    endif()
    list(APPEND BUILT ${DRIVER})
  endif()
endforeach()
# an application component: the driver's example, run by the harness
add_executable(example ${EXAMPLE} ${HARNESS})
set_source_files_properties(${EXAMPLE} PROPERTIES COMPILE_DEFINITIONS main=example_main)
target_include_directories(example PRIVATE ${CMAKE_BINARY_DIR}/include ${HARNESS_NAMES})
target_link_libraries(example ${BUILT})
"""

# the A53 toolchain file of the BSP (cortexa53_toolchain.cmake: -DSDT, -I of the BSP's include)
TOOLCHAIN = """set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR cortexa53)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_C_FLAGS "-DSDT -ffreestanding -O2 -std=c99 -pedantic -Wall -Wextra -Werror -I{include}" CACHE STRING "")
set(CMAKE_EXE_LINKER_FLAGS "-static" CACHE STRING "")
"""


def test_unified_flow(tmp_path):
    """Vitis Unified, Y9 on a Zynq UltraScale+ A53: the driver list holds the driver,
    lopper's table has both instances, xparameters.h the canonical names the
    example checks (and the lines doc/integration.md shows), the example list
    both instances; CMake builds target selective_accumulations and the
    example, which run."""
    name = "selective_accumulations"
    n = names(name)
    bsp, drv, dts = unified_bsp(tmp_path, name, n["hash"])
    drvlist = (bsp / "libsrc" / "DRVLISTConfig.cmake").read_text()
    assert drvlist == f"set(DRIVER_LIST common;{name})\n"
    ipmap = yaml.safe_load((bsp / "libsrc" / "ip_drv_map.yaml").read_text())
    assert {k: v for k, v in ipmap.items() if v[1] == name} == {f"{name}_0": [name, name], f"{name}_1": [name, name]}
    src = bsp / "libsrc" / name / "src"
    assert (src / f"{n['stem']}_g.c").read_text() == sdt_table(name, n["hash"])
    assert (src / f"{name.upper()}Config.cmake").read_text().startswith(
        f"set(DRIVER_INSTANCES \"{name}@a0000000;{name}@a0010000\")\n")
    assert yaml.safe_load((bsp / "libsrc" / name / f"{name}_exlist.yaml").read_text()) == \
        {f"{name}_{i}": {f"{name}_example.c": []} for i in range(2)}
    xpar = (bsp / "include" / "xparameters.h").read_text()
    for i, (base, size) in enumerate(SDT_INSTANCES):
        for key, value in (("BASEADDR", hex(base)), ("HIGHADDR", hex(base + size - 1)),
                           ("CONFIG_HASH", hex(n["hash"])), ("COMPATIBLE", f"\"{vitis.compatible(generated(name)[0])}\"")):
            for prefix in (f"{n['xpar']}_{i}", f"{name.upper()}_{i}"):       # canonical, instance
                assert f"\n#define XPAR_{prefix}_{key} {value}\n" in xpar, (prefix, key)
    assert f"\n#define XPAR_{n['xpar']}_NUM_INSTANCES 2\n" in xpar
    doc = readme_section("Bare metal with Vitis")        # the lines doc/integration.md shows
    doc = doc[doc.index("Vitis Unified writes"):doc.index("Classic Vitis writes")]
    shown = [ln.strip() for ln in doc.splitlines() if ln.strip().startswith("#define")]
    assert shown and not set(shown) - set(xpar.splitlines()), set(shown) - set(xpar.splitlines())
    build = tmp_path / "build"
    (bsp / "CMakeLists.txt").write_text(CMAKE_BSP)
    (tmp_path / "names").mkdir()
    (tmp_path / "names" / "harness_names.h").write_text(harness_names(name, True))
    (tmp_path / "toolchain.cmake").write_text(TOOLCHAIN.format(include=bsp / "include"))
    sh(["cmake", "-S", bsp, "-B", build, f"-DCMAKE_TOOLCHAIN_FILE={tmp_path / 'toolchain.cmake'}",
        f"-DEXAMPLE={drv / 'examples' / f'{name}_example.c'}", f"-DHARNESS={HARNESS}",
        f"-DHARNESS_NAMES={tmp_path / 'names'}"], tmp_path)
    sh(["cmake", "--build", build, "-j2"], tmp_path)
    lib = build / "libsrc" / name / "src" / f"lib{name}.a"
    ctx = vitis.context(generated(name)[0])
    assert sorted(sh(["aarch64-linux-gnu-ar", "t", lib], tmp_path).split()) == sorted(f"{f}.obj" for f in ctx["sources"])
    assert sorted(p.name for p in (build / "include").iterdir()) == sorted(ctx["headers"])
    got = sh(["qemu-aarch64", build / "example"], tmp_path)
    assert got == harness_expected(name, [b for b, _ in SDT_INSTANCES], [n["hash"]] * 2, [
        "lookup 0x0 -> 0", f"lookup {hex(SDT_INSTANCES[1][0])} -> 1", "lookup 0x1000 -> -1"])


def repo_file(root: Path, paths: list[Path]) -> Path:
    """.repo.yaml as `empyro repo -st PATH...` writes it (embeddedsw's repo.py):
    every data/<component>.yaml under the paths, by its type, named after its
    folder without the _v<major>_<minor> suffix; with the stand-ins' components."""
    repo = yaml.safe_load(esw_stand_ins(root, {}).read_text())
    for path in paths:
        for y in sorted(path.glob("**/data/*.yaml")):
            folder = y.parent.parent
            kind = yaml.safe_load(y.read_text())["type"]
            repo[kind][re.split(r"_v(\d+)_(\d+)", folder.name)[0]] = {"path": [str(folder)]}
    (root / "repo.yaml").write_text(yaml.safe_dump(repo))
    return root / "repo.yaml"


def test_unified_flow_repository(tmp_path):
    """A driver from a software repository (the IP folder, or any folder above its
    driver) rather than from the .xsa: the driver list finds it for both instances."""
    name = "trace_sink"
    ip = out_dir(tmp_path, name) / "ip"
    dts = system_device_tree(tmp_path, name, generated(name)[0].config_hash)
    repo = repo_file(tmp_path / "esw", [ip])
    assert yaml.safe_load(repo.read_text())["driver"][name] == {"path": [str(driver(ip, name))]}
    (tmp_path / "libsrc").mkdir()
    lopper(["-O", tmp_path / "libsrc", "-f", dts, "--", "baremetaldrvlist_xlnx", PROC, repo], tmp_path)
    assert (tmp_path / "libsrc" / "DRVLISTConfig.cmake").read_text() == f"set(DRIVER_LIST common;{name})\n"
    ipmap = yaml.safe_load((tmp_path / "libsrc" / "ip_drv_map.yaml").read_text())
    assert {k: v for k, v in ipmap.items() if v[1] == name} == {f"{name}_0": [name, name], f"{name}_1": [name, name]}


# ---------------------------------------------------------------------------
# classic Vitis: HSI, the Tcl hook, the BSP Makefile
# ---------------------------------------------------------------------------

# instance: base address, high address, CONFIG_HASH parameter (None: an IP older than it)
CLASSIC = {"monitor": (0x43C00000, 0x43C0FFFF, True), "mon_b": (0x80010000, 0x8001FFFF, True),
           "mon_old": (0x80020000, 0x8002FFFF, False)}

HSI_STUB = r"""
# stand-ins of the HSI calls the hook makes: the driver's instances, their
# properties (HSI gives addresses and bitString parameters as 0x... strings),
# xparameters.h opened for appending in the BSP's include folder
namespace eval ::hsi::utils {}
namespace eval ::common {}
proc ::common::get_property {p obj} { if {[info exists ::prop($obj,$p)]} { return $::prop($obj,$p) }; return "" }
proc ::hsi::utils::get_common_driver_ips {drv} { return $::ips }
proc ::hsi::utils::open_include_file {name} { return [open [file join $::include $name] a] }
"""


def classic_bsp(tmp_path: Path, ip: Path, name: str, instances: dict) -> tuple[Path, Path]:
    """A classic BSP (ps7_cortexa9_0/{include,lib,libsrc/<name>_v1_0}) after the
    generator ran the hook of the IP folder ip: (bsp folder, the driver's folder in libsrc)."""
    bsp = tmp_path / "bsp" / "ps7_cortexa9_0"
    lib = bsp / "libsrc" / f"{name}_v1_0"
    shutil.copytree(driver(ip, name) / "src", lib / "src")
    (bsp / "include").mkdir()
    (bsp / "lib").mkdir()
    props = {}
    for inst, (base, high, has_hash) in instances.items():
        props.update({f"{inst},NAME": inst, f"{inst},CONFIG.C_S_AXI_BASEADDR": f"0x{base:08x}",
                      f"{inst},CONFIG.C_S_AXI_HIGHADDR": f"0x{high:08x}"})
        if has_hash:
            props[f"{inst},CONFIG.CONFIG_HASH"] = f"0x{generated(name)[0].config_hash:08X}"
    tcl = driver(ip, name) / "data" / f"{name}.tcl"
    script = (f"set ::ips {{{' '.join(instances)}}}\nset ::include {{{bsp / 'include'}}}\n"
              f"array set ::prop {{{' '.join(f'{k} {v}' for k, v in props.items())}}}\n"
              + HSI_STUB + f"source {{{tcl}}}\ngenerate drv\n")
    (tmp_path / "run.tcl").write_text(script)
    sh(["tclsh", tmp_path / "run.tcl"], lib)
    return bsp, lib


def xparameters(tmp_path: Path, ip: Path, name: str, instance: str = "monitor") -> str:
    """xparameters.h as the classic hook of the IP folder ip writes it for one
    instance (at the address of CLASSIC's first one)."""
    bsp, _ = classic_bsp(tmp_path, ip, name, {instance: CLASSIC["monitor"]})
    return (bsp / "include" / "xparameters.h").read_text()


def classic_xparameters(name: str, instances: dict) -> str:
    n = names(name)
    out = f"/* Definitions for driver {n['NAME']} */\n#define XPAR_{n['xpar']}_NUM_INSTANCES {len(instances)}U\n"
    for i, (inst, (base, high, has_hash)) in enumerate(instances.items()):
        defs = [("DEVICE_ID", f"{i}U"), ("BASEADDR", f"0x{base:08X}U"), ("HIGHADDR", f"0x{high:08X}U")]
        defs += [("CONFIG_HASH", f"0x{n['hash']:08X}U")] if has_hash else []
        out += f"\n/* Definitions for peripheral {inst.upper()} */\n"
        out += "".join(f"#define XPAR_{inst.upper()}_{k} {v}\n" for k, v in defs)
        out += f"\n/* Canonical definitions for peripheral {inst.upper()} */\n"
        out += "".join(f"#define XPAR_{n['xpar']}_{i}_{k} {v}\n" for k, v in defs)
    return out + "\n"


def classic_table(name: str, instances: dict) -> str:
    n = names(name)
    x = n["xpar"]
    rows = "".join(f"\t{{ /* {inst} */\n\t\tXPAR_{x}_{i}_DEVICE_ID,\n\t\tXPAR_{x}_{i}_BASEADDR,\n"
                   f"\t\t{f'XPAR_{x}_{i}_CONFIG_HASH' if h else '0x0U'}\n\t}},\n"
                   for i, (inst, (_, _, h)) in enumerate(instances.items()))
    return (f"// SPDX-License-Identifier: MIT\n/* {n['stem']}_g.c: the {name} instances, written by data/{name}.tcl "
            f"(classic Vitis BSP) */\n#include \"xparameters.h\"\n#include \"{n['stem']}.h\"\n\n"
            f"{n['prefix']}_Config {n['prefix']}_ConfigTable[XPAR_{n['xpar']}_NUM_INSTANCES] = {{\n{rows}}};\n")


def test_classic_flow(tmp_path):
    """Classic Vitis, trace_sink on a Zynq-7000 A9: the hook writes xparameters.h
    and the config table (three instances, one an IP older than its CONFIG_HASH
    parameter); `make include` and `make libs` as the BSP runs them; the example
    links with no OS against libxil.a; the same sources and table, compiled for
    this machine, run the harness."""
    name = "trace_sink"
    bsp, lib = classic_bsp(tmp_path, out_dir(tmp_path, name) / "ip", name, CLASSIC)
    n = names(name)
    assert (bsp / "include" / "xparameters.h").read_text() == classic_xparameters(name, CLASSIC)
    assert (lib / "src" / f"{n['stem']}_g.c").read_text() == classic_table(name, CLASSIC)
    flags = "-O2 -c -mcpu=cortex-a9 -mfpu=vfpv3 -mfloat-abi=hard"
    args = ["COMPILER=arm-none-eabi-gcc", "ARCHIVER=arm-none-eabi-ar", f"COMPILER_FLAGS={flags}",
            "EXTRA_COMPILER_FLAGS=-g -std=c99 -pedantic -Wall -Wextra -Werror"]
    sh(["make", "-C", lib / "src", "include", *args], tmp_path)
    sh(["make", "-C", lib / "src", "libs", *args], tmp_path)
    sources = sorted(p.name for p in (lib / "src").glob("*.c"))
    assert sorted(sh(["arm-none-eabi-ar", "t", bsp / "lib" / "libxil.a"], tmp_path).split()) == \
        sorted(s[:-2] + ".o" for s in sources)
    assert not list((lib / "src").glob("*.o"))                         # `make libs` cleans up
    assert sorted(p.name for p in (bsp / "include").iterdir()) == \
        sorted(["xparameters.h"] + [p.name for p in (lib / "src").glob("*.h")])
    example = driver(tmp_path / "out" / name / "ip", name) / "examples" / f"{name}_example.c"
    elf = tmp_path / "example.elf"
    sh(["arm-none-eabi-gcc", *flags.replace("-c", "").split(), "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror",
        "--specs=nosys.specs", f"-I{bsp / 'include'}", example, f"-L{bsp / 'lib'}", "-lxil", "-o", elf], tmp_path)
    syms = sh(["arm-none-eabi-nm", elf], tmp_path)
    for sym in ("main", f"{n['prefix']}_Initialize", f"{n['prefix']}_CfgInitialize", f"{n['prefix']}_LookupConfig",
                f"{n['prefix']}_ConfigTable", "jointer_selftest", "jointer_init_baremetal", f"{name}_cfg"):
        assert re.search(rf" [TtRrDd] {sym}$", syms, re.M), sym
    assert "jointer_open" not in syms                         # no hosted code
    (tmp_path / "names").mkdir()
    (tmp_path / "names" / "harness_names.h").write_text(harness_names(name, False))
    cflags = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", f"-I{bsp / 'include'}", f"-I{tmp_path / 'names'}"]
    sh(["gcc", *cflags, "-Dmain=example_main", "-c", example, "-o", tmp_path / "example.o"], tmp_path)
    sh(["gcc", *cflags, *sorted((lib / "src").glob("*.c")), HARNESS, tmp_path / "example.o", "-o",
        tmp_path / "harness"], tmp_path)
    got = sh([tmp_path / "harness"], tmp_path)
    hashes = [n["hash"] if h else 0 for _, _, h in CLASSIC.values()]
    assert got == harness_expected(name, [b for b, _, _ in CLASSIC.values()], hashes,
                                   ["lookup 1 -> 1", "lookup 7 -> -1"])


def test_doc_classic_xparameters(tmp_path):
    """The xparameters.h lines doc/integration.md shows for classic Vitis (Y9,
    one instance named monitor) are what the hook writes."""
    doc = readme_section("Bare metal with Vitis")
    block = doc[doc.index("Classic Vitis writes"):]
    lines = [ln.strip() for ln in block.splitlines() if ln.strip().startswith("#define")]
    name = "selective_accumulations"
    got = [ln for ln in xparameters(tmp_path, out_dir(tmp_path, name) / "ip", name).splitlines()
           if ln.startswith("#define")]
    assert lines and lines == got
