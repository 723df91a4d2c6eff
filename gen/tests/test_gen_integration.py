# SPDX-License-Identifier: MIT
"""Integration outputs: the Vivado IP (ip/component.xml, ip/xgui/, ip/package_ip.tcl,
ip/hdl/) and the FuseSoC cores (<name>.core, jointer.core), for every example
and the edge designs (the device tree: test_gen_devicetree.py).

- component.xml: well-formed, IP-XACT 1685-2009 namespace, the children of
  every element in the schema's sequence order (the orders are written out
  below from the 1685-2009 XSD: component.xsd, busInterface.xsd, model.xsd,
  port.xsd, memoryMap.xsd, file.xsd) and Vivado's for its extensions; ipyxact
  (PyPI) parses it and reports the bus interfaces, port maps and memory map
  derived here independently (from the generated VHDL entity and the YAML
  model); modes, vectors and bus parameters read with ElementTree (ipyxact
  keeps neither a monitor mode nor 1685-2009 vectors); every file it names
  exists, in compile order, byte-identical to its source.
- package_ip.tcl runs in a Tcl interpreter with stand-ins for the Vivado
  commands it uses; what it builds (files, bus interfaces, port maps,
  parameters, clock/reset associations, memory map) must equal component.xml.
- FuseSoC: both cores are listed, the Y9 monitor's `sim` target (GHDL:
  analysis, elaboration, 0 ns run) succeeds, and fails on a broken source.
- the README walkthroughs (Vivado, Linux) name only files the generator writes.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

import pytest

from gentest_util import EXAMPLES, REPO, edge_configs, generated
from jointer_gen import __version__
from jointer_gen.output import write_tree

SPIRIT = "http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009"
XILINX = "http://www.xilinx.com"
S = f"{{{SPIRIT}}}"
X = f"{{{XILINX}}}"

# ---------------------------------------------------------------------------
# IEEE 1685-2009 sequences (a tuple: one choice of the sequence); children must
# appear in this order, each entry possibly repeated or absent
# ---------------------------------------------------------------------------
NAME_GROUP = ["name", "displayName", "description"]
ORDERS = {
    "component": ["vendor", "library", "name", "version", "busInterfaces", "channels", "remapStates",
                  "addressSpaces", "memoryMaps", "model", "componentGenerators", "choices", "fileSets",
                  "whiteboxElements", "cpus", "otherClockDrivers", "description", "parameters",
                  "vendorExtensions"],
    "busInterface": NAME_GROUP + ["busType", "abstractionType",
                                  ("master", "slave", "system", "mirroredSlave", "mirroredMaster",
                                   "mirroredSystem", "monitor"),
                                  "connectionRequired", "portMaps", "bitsInLau", "bitSteering", "endianness",
                                  "parameters", "vendorExtensions"],
    "portMap": ["logicalPort", "physicalPort"],
    "logicalPort": ["name", "vector"],
    "physicalPort": ["name", "vector"],
    "slave": ["memoryMapRef", "bridge", "fileSetRefGroup"],
    "memoryMap": NAME_GROUP + [("addressBlock", "bank", "subspaceMap"), "memoryRemap", "addressUnitBits",
                               "vendorExtensions"],
    "addressBlock": NAME_GROUP + ["baseAddress", "typeIdentifier", "range", "width", "usage", "volatile",
                                  "access", "parameters", "register", "registerFile", "vendorExtensions"],
    "model": ["views", "ports", "modelParameters"],
    "view": NAME_GROUP + ["envIdentifier", "hierarchyRef", "language", "modelName", "defaultFileBuilder",
                          "fileSetRef", "constraintSetRef", "whiteboxElementRefs", "parameters",
                          "vendorExtensions"],
    "port": NAME_GROUP + [("wire", "transactional"), "access", "vendorExtensions"],
    "wire": ["direction", "vector", "wireTypeDefs", "driver", "constraintSets"],
    "vector": ["left", "right"],
    "wireTypeDef": ["typeName", "typeDefinition", "viewNameRef"],
    "fileSet": NAME_GROUP + ["group", "file", "defaultFileBuilder", "dependency", "function",
                             "vendorExtensions"],
    "file": ["name", ("fileType", "userFileType"), "isIncludeFile", "logicalName", "exportedName",
             "buildCommand", "dependency", "define", "imageType", "description", "vendorExtensions"],
    "parameter": NAME_GROUP + ["value", "vendorExtensions"],
}
# Vivado's own element order in xilinx:coreExtensions (component.xml files it writes)
XILINX_CORE_EXTENSIONS = ["supportedFamilies", "taxonomies", "displayName", "definitionSource",
                          "autoFamilySupportLevel", "coreRevision", "coreCreationDateTime", "tags"]

BUS_VLNV = {  # kind -> (busType, abstractionType) as vendor:library:name:version
    "aximm": ("xilinx.com:interface:aximm:1.0", "xilinx.com:interface:aximm_rtl:1.0"),
    "axis": ("xilinx.com:interface:axis:1.0", "xilinx.com:interface:axis_rtl:1.0"),
    "clock": ("xilinx.com:signal:clock:1.0", "xilinx.com:signal:clock_rtl:1.0"),
    "reset": ("xilinx.com:signal:reset:1.0", "xilinx.com:signal:reset_rtl:1.0"),
    "interrupt": ("xilinx.com:signal:interrupt:1.0", "xilinx.com:signal:interrupt_rtl:1.0"),
}
KIND_OF = {v: k for k, v in BUS_VLNV.items()}

# the Y9 monitor (configs/selective_accumulations.yaml), written out:
# (name, kind, mode, parameters)
Y9_INTERFACES = [
    ("s_axi", "aximm", "slave", {}),
    ("transaction", "aximm", "monitor", {}),
    ("irq", "interrupt", "master", {"SENSITIVITY": "LEVEL_HIGH"}),
    ("s_axi_aresetn", "reset", "slave", {"POLARITY": "ACTIVE_LOW"}),
    ("s_axi_aclk", "clock", "slave", {"ASSOCIATED_BUSIF": "s_axi", "ASSOCIATED_RESET": "s_axi_aresetn"}),
    ("accel_resetn", "reset", "slave", {"POLARITY": "ACTIVE_LOW"}),
    ("accel_clk", "clock", "slave", {"ASSOCIATED_BUSIF": "transaction", "ASSOCIATED_RESET": "accel_resetn"}),
]


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


@lru_cache(maxsize=None)
def output(name: str):
    """(design, files) of an example or an edge design (README example, gen/tests/configs)."""
    if name in EXAMPLES:
        return generated(name)
    import tempfile
    from jointer_gen.cli import generate
    with tempfile.TemporaryDirectory(prefix="jointer-int-") as tmp:
        for cfg in edge_configs(Path(tmp)):
            if cfg.stem == name:
                return generate(str(cfg))
    raise KeyError(name)


ALL = EXAMPLES + ["readme_example", "only_trace"]


def written(tmp_path: Path, name: str) -> Path:
    design, files = output(name)
    write_tree(files, tmp_path / design.name)
    return tmp_path / design.name


def check_order(elem, path="component"):
    """Every element of the tree whose type has a sequence in ORDERS: its
    children in that order and all known."""
    tag = local(elem.tag)
    if tag in ORDERS and elem.tag.startswith(S):
        index = {}
        for i, entry in enumerate(ORDERS[tag]):
            for n in (entry if isinstance(entry, tuple) else (entry,)):
                index[n] = i
        last = -1
        for child in elem:
            if not isinstance(child.tag, str):      # comments
                continue
            c = local(child.tag)
            assert child.tag.startswith(S), f"{path}/{c}: not in the SPIRIT namespace"
            assert c in index, f"{path}: <{c}> is not a child of <{tag}> in IEEE 1685-2009"
            assert index[c] >= last, f"{path}: <{c}> after a later element of the <{tag}> sequence"
            last = index[c]
    for child in elem:
        if isinstance(child.tag, str) and child.tag.startswith(S):
            check_order(child, f"{path}/{local(child.tag)}")


def vhdl_ports(text: str) -> dict[str, tuple[str, int | None]]:
    """Ports of the generated top entity, read from its VHDL: name -> (direction, width)."""
    text = re.sub(r"--[^\n]*", "", text)
    body = re.search(r"entity\s+\w+\s+is\s+port\s*\((.*?)\);\s*end\s+entity", text, re.S | re.I).group(1)
    out = {}
    for m in re.finditer(r"(\w+)\s*:\s*(in|out)\s+(std_logic_vector\((\d+) downto (\d+)\)|std_logic)", body):
        out[m.group(1)] = (m.group(2), int(m.group(4)) - int(m.group(5)) + 1 if m.group(4) else None)
    return out


def expected_interfaces(design, ports: dict) -> dict[str, tuple[str, str, dict]]:
    """name -> (kind, mode, {logical: physical}), derived from the YAML model and
    the VHDL ports (not from the generator's bus-interface list)."""
    mon = design.monitor
    exp = {"s_axi": ("aximm", "slave", {p[6:].upper(): p for p in ports
                                        if p.startswith("s_axi_") and p not in ("s_axi_aclk", "s_axi_aresetn")}),
           "irq": ("interrupt", "master", {"INTERRUPT": "irq"})}
    for i, c in enumerate(mon.clocks):
        clk, rst = ("s_axi_aclk", "s_axi_aresetn") if i == 0 else (f"{c.name}_clk", f"{c.name}_resetn")
        exp[clk] = ("clock", "slave", {"CLK": clk})
        exp[rst] = ("reset", "slave", {"RST": rst})
    for sn in mon.sniffers():
        t = sn.interfacer.type
        if t in ("axi4", "axi4lite", "axis", "axi_util", "axi4_latency"):   # axi_util: its VALID/READY ports
            pre = sn.name + "_"
            exp[sn.name] = ("axis" if t == "axis" else "aximm", "monitor",
                            {p[len(pre):].upper(): p for p in ports if p.startswith(pre)})
        for dc in sn.dcapfs:         # a sink trace's AXI4 master, write channels only
            if dc.extractor == "trace" and dc.mode == "sink":
                pre = f"m_axi_{dc.name}_"
                maps = {p[len(pre):].upper(): p for p in ports if p.startswith(pre)}
                assert sorted(maps) == sorted(SINK_MASTER), maps
                exp[f"m_axi_{dc.name}"] = ("aximm", "master", maps)
    return exp


# the write channels of an AXI4 master with one ID bit (jointer_trace_sink_axi)
SINK_MASTER = ["AWID", "AWADDR", "AWLEN", "AWSIZE", "AWBURST", "AWVALID", "AWREADY", "WDATA", "WSTRB",
               "WLAST", "WVALID", "WREADY", "BID", "BRESP", "BVALID", "BREADY"]


def parse_component(path: Path):
    tree = ET.parse(path)
    return tree.getroot()


def bus_table(root) -> dict[str, dict]:
    out = {}
    for b in root.find(f"{S}busInterfaces"):
        name = b.findtext(f"{S}name")
        bt, at = b.find(f"{S}busType"), b.find(f"{S}abstractionType")
        vl = lambda e: ":".join(e.get(f"{S}{k}") for k in ("vendor", "library", "name", "version"))  # noqa: E731
        mode_el = next(c for c in b if local(c.tag) in ("master", "slave", "monitor", "system",
                                                         "mirroredMaster", "mirroredSlave", "mirroredSystem"))
        params = {p.findtext(f"{S}name"): p.findtext(f"{S}value")
                  for p in b.findall(f"{S}parameters/{S}parameter")}
        maps = {m.findtext(f"{S}logicalPort/{S}name"): m.findtext(f"{S}physicalPort/{S}name")
                for m in b.findall(f"{S}portMaps/{S}portMap")}
        out[name] = {"vlnv": (vl(bt), vl(at)), "mode": local(mode_el.tag),
                     "monitored": mode_el.get(f"{S}interfaceMode"),
                     "memory_map": (mode_el.find(f"{S}memoryMapRef").get(f"{S}memoryMapRef")
                                    if mode_el.find(f"{S}memoryMapRef") is not None else None),
                     "address_space": (mode_el.find(f"{S}addressSpaceRef").get(f"{S}addressSpaceRef")
                                       if mode_el.find(f"{S}addressSpaceRef") is not None else None),
                     "params": params, "maps": maps}
    return out


# ---------------------------------------------------------------------------
# component.xml
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL)
def test_component_xml_structure(name):
    design, files = output(name)
    text = files["ip/component.xml"]
    lines = text.splitlines()
    assert lines[0] == '<?xml version="1.0" encoding="UTF-8"?>'
    assert lines[1] == "<!-- SPDX-License-Identifier: MIT -->"
    assert lines[2] == (f"<!-- generated by jointer {__version__} from {design.source_name}, config hash "
                        f"{design.hash_hex}; do not edit. -->")
    root = ET.fromstring(text.encode())
    assert root.tag == f"{S}component"
    check_order(root)
    ext = root.find(f"{S}vendorExtensions/{X}coreExtensions")
    seq = [XILINX_CORE_EXTENSIONS.index(local(c.tag)) for c in ext]
    assert seq == sorted(seq)
    assert root.findtext(f"{S}vendor") == "jointer" and root.findtext(f"{S}library") == "jointer"
    assert root.findtext(f"{S}name") == design.name and root.findtext(f"{S}version") == "1.0"
    # the views and their file sets
    views = {v.findtext(f"{S}name"): v for v in root.findall(f"{S}model/{S}views/{S}view")}
    assert list(views) == ["xilinx_anylanguagesynthesis", "xilinx_anylanguagebehavioralsimulation",
                           "xilinx_softwaredriver", "xilinx_xpgui"]
    for v in list(views.values())[:2]:        # the top: the VHDL-93 wrapper (UG1118)
        assert v.findtext(f"{S}language") == "VHDL" and v.findtext(f"{S}modelName") == f"{design.name}_wrapper"
    assert views["xilinx_softwaredriver"].findtext(f"{S}envIdentifier") == ":vivado.xilinx.com:sw.driver"
    assert views["xilinx_softwaredriver"].findtext(f"{S}language") is None
    sets = {fs.findtext(f"{S}name"): fs for fs in root.findall(f"{S}fileSets/{S}fileSet")}
    assert sorted(sets) == sorted(v.findtext(f"{S}fileSetRef/{S}localName") for v in views.values())


@pytest.mark.parametrize("name", ALL)
def test_component_interfaces_and_ports(name):
    """Bus interfaces and ports against the VHDL entity and the YAML model."""
    design, files = output(name)
    root = ET.fromstring(files["ip/component.xml"].encode())
    ports = vhdl_ports(files[f"hdl/{design.name}_monitor.vhd"])
    # model ports = the VHDL entity's, with direction, vector and type
    have = {}
    for p in root.findall(f"{S}model/{S}ports/{S}port"):
        w = p.find(f"{S}wire")
        vec = w.find(f"{S}vector")
        width = int(vec.findtext(f"{S}left")) - int(vec.findtext(f"{S}right")) + 1 if vec is not None else None
        have[p.findtext(f"{S}name")] = (w.findtext(f"{S}direction"), width)
        assert w.findtext(f"{S}wireTypeDefs/{S}wireTypeDef/{S}typeName") == \
            ("std_logic" if vec is None else "std_logic_vector")
    assert have == ports
    # bus interfaces
    exp = expected_interfaces(design, ports)
    got = bus_table(root)
    assert sorted(got) == sorted(exp)
    mapped = set()
    for n, (kind, mode, maps) in exp.items():
        g = got[n]
        assert KIND_OF[g["vlnv"]] == kind, n
        assert g["mode"] == mode, n
        assert g["maps"] == maps, n
        mapped |= set(maps.values())
        if mode == "monitor":
            assert g["monitored"] == "slave", n
            assert all(ports[p][0] == "in" for p in maps.values()), n    # passive
    assert got["s_axi"]["memory_map"] == "s_axi"
    # each sink master drives an address space of its own: 4 GB, its data width
    spaces = {a.findtext(f"{S}name"): a for a in root.findall(f"{S}addressSpaces/{S}addressSpace")}
    masters = {n for n, (_, mode, _) in exp.items() if mode == "master" and n != "irq"}
    assert set(spaces) == masters
    for n in masters:
        dc = next(d for d in design.monitor.dcapfs() if f"m_axi_{d.name}" == n)
        assert spaces[n].findtext(f"{S}range") == str(1 << 32)
        assert spaces[n].findtext(f"{S}width") == str(dc.sink.data_width)
        assert got[n]["params"]["DATA_WIDTH"] == str(dc.sink.data_width)
        assert got[n]["params"]["READ_WRITE_MODE"] == "WRITE_ONLY"
        mode_el = next(b for b in root.find(f"{S}busInterfaces") if b.findtext(f"{S}name") == n)
        ref = mode_el.find(f"{S}master/{S}addressSpaceRef")
        assert ref is not None and ref.get(f"{S}addressSpaceRef") == n
    # what stays a plain port: start/done, event strobes and values
    plain = sorted(set(ports) - mapped)
    for p in plain:
        sn = next(s for s in design.monitor.sniffers() if p.startswith(s.name + "_"))
        assert sn.interfacer.type in ("start_done", "events", "contention", "pc"), p
    # clock domains: each clock names the interfaces of its LMICs and its reset
    for i, c in enumerate(design.monitor.clocks):
        clk, rst = ("s_axi_aclk", "s_axi_aresetn") if i == 0 else (f"{c.name}_clk", f"{c.name}_resetn")
        busifs = (["s_axi"] if i == 0 else []) + [
            s.name for lm in design.monitor.lmics if lm.clock == c.name for s in lm.sniffers
            if s.interfacer.type in ("axi4", "axi4lite", "axis", "axi_util", "axi4_latency")] + [
            f"m_axi_{dc.name}" for lm in design.monitor.lmics if lm.clock == c.name for s in lm.sniffers
            for dc in s.dcapfs if dc.mode == "sink"]
        want = {"ASSOCIATED_RESET": rst, **({"ASSOCIATED_BUSIF": ":".join(busifs)} if busifs else {})}
        assert got[clk]["params"] == want, clk
        assert got[rst]["params"] == {"POLARITY": "ACTIVE_LOW"}, rst
    assert got["irq"]["params"] == {"SENSITIVITY": "LEVEL_HIGH"}


def test_y9_interfaces():
    """The Y9 monitor's interfaces, written out (the issue's closing note)."""
    _, files = output("selective_accumulations")
    got = bus_table(ET.fromstring(files["ip/component.xml"].encode()))
    assert [(n, KIND_OF[g["vlnv"]], g["mode"], g["params"]) for n, g in got.items()] == Y9_INTERFACES
    assert len(got["transaction"]["maps"]) == 37 and got["transaction"]["maps"]["AWID"] == "transaction_awid"


@pytest.mark.parametrize("name", ALL)
def test_component_ipyxact(name, tmp_path):
    """ipyxact (PyPI) reads the file: identity, bus interfaces with their bus
    definitions and port maps, the memory map (base 0, range = the space s_axi
    decodes, 2^addr_width: a power of two as Vivado's address segments, holding
    the register space), the parameters, the file sets."""
    from ipyxact.ipyxact import Component
    design, files = output(name)
    out = written(tmp_path, name)
    c = Component()
    c.load(str(out / "ip" / "component.xml"))
    assert (c.vendor, c.library, c.name, c.version) == ("jointer", "jointer", design.name, "1.0")
    exp = expected_interfaces(design, vhdl_ports(files[f"hdl/{design.name}_monitor.vhd"]))
    got = {}
    for b in c.busInterfaces.busInterface:
        bus = ":".join((b.busType.vendor, b.busType.library, b.busType.name, b.busType.version))
        ab = ":".join((b.abstractionType.vendor, b.abstractionType.library, b.abstractionType.name,
                       b.abstractionType.version))
        got[b.name] = (KIND_OF[(bus, ab)],
                       {m.logicalPort.name: m.physicalPort.name for m in b.portMaps.portMap})
    assert got == {n: (kind, maps) for n, (kind, _, maps) in exp.items()}
    [mm] = c.memoryMaps.memoryMap
    [block] = mm.addressBlock
    ports = vhdl_ports(files[f"hdl/{design.name}_monitor.vhd"])
    addr_bits = ports["s_axi_awaddr"][1]
    assert (mm.name, block.baseAddress, block.range, block.width, block.usage) == \
        ("s_axi", 0, 1 << addr_bits, 32, "register")
    span = int(re.search(rf"#define {design.NAME}_SPAN\s+(0x[0-9A-F]+|\d+)u", files[f"c/{design.name}_regs.h"])
               .group(1), 0)
    assert span <= block.range and design.monitor.bus.base_address % block.range == 0
    assert [(p.name, p.value) for p in c.parameters.parameter] == [("Component_Name", f"{design.name}_v1_0"),
                                                                   ("CONFIG_HASH", f"0x{design.config_hash:08X}")]
    assert [v.name for v in c.model.views.view] == [
        "xilinx_anylanguagesynthesis", "xilinx_anylanguagebehavioralsimulation", "xilinx_softwaredriver",
        "xilinx_xpgui"]
    assert [fs.name for fs in c.fileSets.fileSet] == [
        "xilinx_anylanguagesynthesis_view_fileset", "xilinx_anylanguagebehavioralsimulation_view_fileset",
        "xilinx_softwaredriver_view_fileset", "xilinx_xpgui_view_fileset"]
    assert all(f.logicalName == "jointer" for fs in c.fileSets.fileSet[:2] for f in fs.file
               if not f.name.endswith(".xdc"))


def roles_of(manifest: dict) -> dict:
    return {f["path"]: f["role"] for f in manifest["files"]}


@pytest.mark.parametrize("name", ALL)
def test_component_files(name, tmp_path):
    """Every file component.xml names exists relative to it; the HDL file sets
    hold the library files the design needs and the generated ones, in compile
    order, each a byte-identical copy; ip/hdl/ holds nothing else."""
    design, files = output(name)
    out = written(tmp_path, name)
    ip = out / "ip"
    root = ET.parse(ip / "component.xml").getroot()
    m = json.loads(files["manifest.json"])
    want = [f"hdl/{Path(p).name}" for p in m["library_sources"] + m["compile_order"]]
    sets = {fs.findtext(f"{S}name"): fs for fs in root.findall(f"{S}fileSets/{S}fileSet")}
    for fs in sets.values():
        for f in fs.findall(f"{S}file"):
            assert (ip / f.findtext(f"{S}name")).is_file(), f.findtext(f"{S}name")
    # the synthesis file set also carries the constraints: last, processed LATE
    *_, xdc = sets["xilinx_anylanguagesynthesis_view_fileset"].findall(f"{S}file")
    assert xdc.findtext(f"{S}name") == f"{design.name}.xdc"
    assert [t.text for t in xdc.findall(f"{S}userFileType")] == [
        "xdc", "USED_IN_implementation", "USED_IN_synthesis"]
    assert [(x.findtext(f"{S}name"), x.findtext(f"{S}value")) for x in xdc.findall(f"{S}define")] == [
        ("processing_order", "late")]
    assert roles_of(m)[f"ip/{design.name}.xdc"] == "ip-xdc"
    wrapper = f"hdl/{design.name}_wrapper.vhd"
    for key in ("xilinx_anylanguagesynthesis_view_fileset", "xilinx_anylanguagebehavioralsimulation_view_fileset"):
        *fl, top = [f for f in sets[key].findall(f"{S}file") if f is not xdc]
        assert [f.findtext(f"{S}name") for f in fl] == want
        assert all(f.findtext(f"{S}userFileType") == "vhdlSource-2008" and f.findtext(f"{S}fileType") is None
                   and f.findtext(f"{S}logicalName") == "jointer" for f in fl)
        # last, the top: the VHDL-93 wrapper, plain VHDL (vhdlSource), same library
        assert (top.findtext(f"{S}name"), top.findtext(f"{S}fileType"), top.findtext(f"{S}userFileType"),
                top.findtext(f"{S}logicalName")) == (wrapper, "vhdlSource", None, "jointer")
    [xgui] = sets["xilinx_xpgui_view_fileset"].findall(f"{S}file")
    assert xgui.findtext(f"{S}name") == f"xgui/{design.name}_v1_0.tcl"
    assert [t.text for t in xgui.findall(f"{S}userFileType")] == ["XGUI_VERSION_2"]
    for src in m["library_sources"]:
        assert (ip / "hdl" / Path(src).name).read_bytes() == (REPO / src).read_bytes(), src
    for src in m["compile_order"]:
        assert (ip / "hdl" / Path(src).name).read_bytes() == (out / src).read_bytes(), src
    assert sorted(p.name for p in (ip / "hdl").iterdir()) == sorted(Path(p).name for p in want + [wrapper])
    roles = {f["path"]: f["role"] for f in m["files"]}
    assert {p for p, r in roles.items() if r in ("ip-hdl", "ip-hdl-library")} == {f"ip/{p}" for p in want}
    assert roles[f"ip/{wrapper}"] == "ip-wrapper" and m["integration"]["vivado_ip"]["top"] == f"{design.name}_wrapper"
    assert roles["ip/component.xml"] == "ip-component" and roles["ip/package_ip.tcl"] == "ip-package-script"
    assert m["integration"]["vivado_ip"]["vlnv"] == f"jointer:jointer:{design.name}:1.0"


# ---------------------------------------------------------------------------
# package_ip.tcl and the XGUI file, run with stand-ins for Vivado's commands
# ---------------------------------------------------------------------------


class VivadoStub:
    """Records what the script does to the IP it packages."""

    def __init__(self, tcl):
        self.tcl = tcl
        self.props: dict[str, dict[str, str]] = {}
        self.buses: dict[str, dict] = {}
        self.removed: list[str] = []
        self.files: list[str] = []
        self.assoc: list[tuple] = []
        self.calls: list[str] = []
        self.params: list[str] = []
        tcl.eval("namespace eval ipx {}; namespace eval ipgui {}")
        for name, fn in {
            "create_project": self.nop("create_project"), "current_project": lambda *a: "project",
            "current_fileset": lambda *a: "sources_1", "update_compile_order": self.nop("update_compile_order"),
            "close_project": self.nop("close_project"), "add_files": self.add_files,
            "get_files": lambda *a: a[-1], "set_property": self.set_property, "get_property": self.get_property,
            "ipx::package_project": self.package_project, "ipx::current_core": lambda *a: "core",
            "ipx::get_bus_interfaces": lambda *a: "bif:S00_AXI bif:s_axi_aclk",     # "inferred" ones
            "ipx::remove_bus_interface": lambda n, core: self.removed.append(f"bif:{n}"),
            "ipx::get_memory_maps": lambda *a: "mm:S00_AXI",
            "ipx::remove_memory_map": lambda n, core: self.removed.append(f"mm:{n}"),
            "ipx::get_address_spaces": lambda *a: "as:M00_AXI",
            "ipx::remove_address_space": lambda n, core: self.removed.append(f"as:{n}"),
            "ipx::add_address_space": lambda n, c: f"as:{n}",
            "ipx::add_bus_interface": self.add_bus_interface, "ipx::add_port_map": self.add_port_map,
            "ipx::add_bus_parameter": self.add_bus_parameter, "ipx::add_memory_map": lambda n, c: f"mm:{n}",
            "ipx::add_address_block": lambda n, mm: f"ab:{mm[3:]}:{n}",
            "ipx::associate_bus_interfaces": self.associate,
            "ipx::create_xgui_files": self.nop("create_xgui_files"),
            "ipx::update_checksums": self.nop("update_checksums"),
            "ipx::check_integrity": self.nop("check_integrity"), "ipx::save_core": self.nop("save_core"),
            "ipgui::add_param": lambda *a: self.params.append(a[2]), "ipgui::add_page": lambda *a: "page",
        }.items():
            tcl.createcommand(name, fn)

    def nop(self, what):
        return lambda *a: self.calls.append(what) or ""

    def add_files(self, *args):
        self.files += self.tcl.splitlist(args[-1])
        return ""

    def set_property(self, prop, value, obj):
        for o in self.tcl.splitlist(obj) if obj.startswith("/") else [obj]:
            self.props.setdefault(o, {})[prop.lower()] = value
        return ""

    def get_property(self, prop, obj):
        assert prop == "NAME"
        return obj.split(":", 1)[1]

    def package_project(self, *args):
        self.package_args = args
        return ""

    def add_bus_interface(self, name, core):
        assert name not in self.buses
        self.buses[name] = {"maps": {}, "params": {}}
        return f"bif:{name}"

    def add_port_map(self, logical, bif):
        return f"pm:{bif[4:]}:{logical}"

    def add_bus_parameter(self, name, bif):
        return f"bp:{bif[4:]}:{name}"

    def associate(self, *args):
        opts = dict(zip(args[0:-1:2], args[1:-1:2]))
        self.assoc.append(opts)
        return ""

    def result(self) -> dict:
        """The IP as the script left it: interfaces, memory map, files."""
        buses = {}
        for name in self.buses:
            p = self.props[f"bif:{name}"]
            maps = {k.split(":")[2]: v["physical_name"] for k, v in self.props.items()
                    if k.startswith(f"pm:{name}:")}
            params = {k.split(":")[2]: v["value"] for k, v in self.props.items() if k.startswith(f"bp:{name}:")}
            buses[name] = {"vlnv": (p["bus_type_vlnv"], p["abstraction_type_vlnv"]),
                           "mode": p["interface_mode"], "monitored": p.get("monitor_interface_mode"),
                           "memory_map": p.get("slave_memory_map_ref"), "params": params, "maps": maps,
                           "address_space": p.get("master_address_space_ref")}
            if p.get("master_address_space_ref"):     # a sink's master
                a = self.props[f"as:{p['master_address_space_ref']}"]
                buses[name]["space"] = (a["range"], a["width"])
        for a in self.assoc:
            clk = buses[a["-clock"]]["params"]
            if "-busif" in a:
                clk["ASSOCIATED_BUSIF"] = ":".join(filter(None, [clk.get("ASSOCIATED_BUSIF"), a["-busif"]]))
            else:
                clk["ASSOCIATED_RESET"] = a["-reset"]
        return buses


@pytest.mark.parametrize("name", ALL)
def test_package_ip_tcl(name, tmp_path):
    """package_ip.tcl, run with Vivado stand-ins, builds the IP of component.xml:
    the same files in the same order (all present next to the script), the same
    bus interfaces, port maps, modes, bus parameters and clock/reset
    associations, the same memory map; it removes what Vivado inferred and saves."""
    import tkinter  # Python's Tcl binding; scripts/install-deps.sh makes sure it is there
    design, files = output(name)
    out = written(tmp_path, name)
    ip = out / "ip"
    tcl = tkinter.Tcl()
    stub = VivadoStub(tcl)
    tcl.eval(f"set argc 1; set argv [list {{{tmp_path / 'packaged'}}}]; set ::argv0 vivado")
    tcl.eval(f"info script {{{ip / 'package_ip.tcl'}}}")
    tcl.evalfile(str(ip / "package_ip.tcl"))
    root = ET.parse(ip / "component.xml").getroot()
    comp = bus_table(root)
    got = stub.result()
    assert list(got) == list(comp)
    for n, c in comp.items():
        g = got[n]
        assert g["vlnv"] == c["vlnv"] and g["mode"] == c["mode"] and g["maps"] == c["maps"], n
        assert g["monitored"] == c["monitored"] and g["memory_map"] == c["memory_map"], n
        assert g["params"] == c["params"], n
        assert g["address_space"] == c["address_space"], n
        if c["address_space"]:               # 4 GB, the data width of component.xml
            sp = root.find(f"{S}addressSpaces/{S}addressSpace[{S}name='{c['address_space']}']")
            assert g["space"] == ("4G", sp.findtext(f"{S}width")), n
    masters = any(c["address_space"] for c in comp.values())     # trace sinks
    assert stub.removed == ["bif:S00_AXI", "bif:s_axi_aclk", "mm:S00_AXI"] + (["as:M00_AXI"] if masters else [])
    block = root.find(f"{S}memoryMaps/{S}memoryMap/{S}addressBlock")
    ab = stub.props[f"ab:s_axi:{block.findtext(f'{S}name')}"]
    assert (ab["base_address"], ab["range"], ab["width"], ab["usage"]) == (
        block.findtext(f"{S}baseAddress"), block.findtext(f"{S}range"), block.findtext(f"{S}width"), "register")
    synth = root.find(f"{S}fileSets/{S}fileSet")
    assert stub.files == [str(ip / f.findtext(f"{S}name")) for f in synth.findall(f"{S}file")]
    assert all(Path(f).is_file() for f in stub.files)
    *vhdl, wrapper, xdc = stub.files
    assert all(stub.props[f] == {"library": "jointer", "file_type": "VHDL 2008"} for f in vhdl)
    assert wrapper == str(ip / "hdl" / f"{design.name}_wrapper.vhd")
    assert stub.props[wrapper] == {"library": "jointer", "file_type": "VHDL"}      # VHDL-93: the top
    assert xdc == str(ip / f"{design.name}.xdc")
    assert stub.props[xdc] == {"processing_order": "LATE", "used_in": "synthesis implementation"}
    assert stub.props["sources_1"] == {"top": f"{design.name}_wrapper"}
    assert stub.props["core"]["name"] == design.name and stub.props["core"]["version"] == "1.0"
    args = dict(zip(stub.package_args[0::2], stub.package_args[1::2]))
    assert args["-root_dir"] == str(tmp_path / "packaged") and args["-vendor"] == "jointer"
    assert stub.calls[-5:] == ["create_xgui_files", "update_checksums", "check_integrity", "save_core",
                               "close_project"]
    # the XGUI file: Component_Name, and CONFIG_HASH on a page, as Vivado writes them
    tcl.evalfile(str(ip / "xgui" / f"{design.name}_v1_0.tcl"))
    tcl.eval("init_gui IPINST")
    assert stub.params == ["Component_Name", "CONFIG_HASH"]
    assert tcl.eval("validate_PARAM_VALUE.CONFIG_HASH x") == "true"


# ---------------------------------------------------------------------------
# FuseSoC
# ---------------------------------------------------------------------------


def _fusesoc() -> list[str]:
    exe = shutil.which("fusesoc")
    return [exe] if exe else [sys.executable, "-m", "fusesoc.main"]


def test_library_core_up_to_date():
    """jointer.core = what `python3 -m jointer_gen.tools.library_core` writes: every hdl/
    file once, each after the units it uses; VLNV version = the generator's."""
    from jointer_gen.tools import library_core as libcore
    text = (REPO / "jointer.core").read_text()
    assert text == libcore.render(), "jointer.core is out of date: python3 -m jointer_gen.tools.library_core"
    assert text.startswith("CAPI=2:\n# SPDX-License-Identifier: MIT\n# generated by jointer")
    files = re.findall(r"^      - (hdl/\S+)$", text, re.M)
    assert sorted(files) == sorted(p.relative_to(REPO).as_posix() for p in (REPO / "hdl").rglob("*.vhd"))
    stems = [Path(p).stem for p in files]
    for i, p in enumerate(files):
        body = re.sub(r"--[^\n]*", "", (REPO / p).read_text())
        for used in re.findall(r"\b(?:entity|use)\s+work\.(\w+)", body, re.I):
            assert used.lower() in stems[:i], f"{p} uses {used} before it is compiled"
    assert f"name: jointer:jointer:jointer:{__version__}\n" in text


@pytest.mark.parametrize("name", ALL)
def test_monitor_core(name):
    design, files = output(name)
    text = files[f"{design.name}.core"]
    assert text.startswith("CAPI=2:\n# SPDX-License-Identifier: MIT\n# generated by jointer")
    m = json.loads(files["manifest.json"])
    assert re.findall(r"^      - (hdl/\S+)$", text, re.M) == m["compile_order"]
    assert f"\n      - jointer:jointer:jointer:{__version__}\n" in text
    assert f"name: jointer:monitor:{design.name}:{__version__}\n" in text
    # default: the IP's top (the wrapper) and its constraints; sim: the VHDL-2008 top in GHDL
    assert text.count(f"toplevel: jointer.{design.name}_wrapper\n") == 1
    assert text.count(f"toplevel: jointer.{design.name}_monitor\n") == 1
    assert f"\n      - ip/hdl/{design.name}_wrapper.vhd\n" in text
    assert f"\n      - ip/{design.name}.xdc: {{file_type: xdc}}" in text
    assert "\n    filesets: [rtl, wrapper, constraints]\n" in text
    assert m["integration"]["fusesoc"]["core"] == f"{design.name}.core"


def test_fusesoc_list_and_sim(tmp_path):
    """fusesoc lists the library core and the Y9 monitor's core and runs its sim
    target with GHDL (analysis, elaboration, 0 ns); a broken source fails it."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "jointer.core").symlink_to(REPO / "jointer.core")
    (lib / "hdl").symlink_to(REPO / "hdl")
    out = written(tmp_path / "gen", "selective_accumulations")
    base = _fusesoc() + ["--cores-root", str(lib), "--cores-root", str(out)]
    r = subprocess.run(base + ["core", "list"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert re.search(rf"^jointer:jointer:jointer:{re.escape(__version__)}\s", r.stdout, re.M), r.stdout
    assert re.search(rf"^jointer:monitor:selective_accumulations:{re.escape(__version__)}\s", r.stdout, re.M)
    run = ["run", "--build-root", str(tmp_path / "build"), "--target=sim", "jointer:monitor:selective_accumulations"]
    r = subprocess.run(base + run, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ghdl -m --std=08" in r.stdout and "selective_accumulations_monitor" in r.stdout
    assert re.search(r"^ghdl -r .*selective_accumulations_monitor --ieee-asserts=disable-at-0 --stop-time=0ns$",
                     r.stdout, re.M), r.stdout
    # the same with a port missing from the generated top: GHDL's elaboration fails, so does fusesoc
    top = out / "hdl" / "selective_accumulations_monitor.vhd"
    top.write_text(top.read_text().replace("task_done           : in  std_logic;", ""))
    r = subprocess.run(base + ["run", "--clean", *run[1:]], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode != 0 and "task_done" in r.stdout + r.stderr


# ---------------------------------------------------------------------------
# the walkthroughs name real outputs
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("doc", ["Use it in Vivado", "Use it on Linux"])
def test_walkthrough_names_real_files(doc):
    """Every build/selective_accumulations/... path in the README section `doc`
    is an output of the generator for the Y9 monitor (or its output folder)."""
    from gentest_util import readme_section
    text = readme_section(doc)
    _, files = output("selective_accumulations")
    named = set(re.findall(r"build/selective_accumulations/([\w./-]*[\w])", text))
    assert named, doc
    dirs = {str(Path(p).parent) for p in files} | {str(p) for f in files for p in Path(f).parents}
    for p in named:
        assert p in files or p in dirs, f"{doc} names build/selective_accumulations/{p}, which is not generated"
