# SPDX-License-Identifier: MIT
"""component.xml lists every register of the monitor: the
same registers as the C header, at the same offsets, with access, reset
values and fields; ipyxact reads them, and the elements follow the order of
the IEEE 1685-2009 schema (spirit:register, spirit:field sequences)."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gentest_util import CONFIGS

S = "{http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009}"
# the 1685-2009 sequences (elements this generator writes, in schema order)
REGISTER_ORDER = ["name", "displayName", "description", "dim", "addressOffset", "typeIdentifier", "size",
                  "volatile", "access", "reset", "field"]
FIELD_ORDER = ["name", "displayName", "description", "bitOffset", "typeIdentifier", "bitWidth", "volatile",
               "access", "enumeratedValues", "modifiedWriteValue"]
# C macros that name a register's address (offsets from the monitor's base)
ADDRESS_SUFFIXES = ("_CONTROL", "_STATUS", "_IRQ_STATUS", "_IRQ_ENABLE", "_INIT", "_RESULT", "_THRESHOLD",
                    "_REGS", "_RAM")


def generated(tmp_path, config):
    from jointer_gen.cli import generate
    from jointer_gen.output import write_tree
    design, rendered = generate(str(config))
    write_tree(rendered, tmp_path / design.name)
    return design, tmp_path / design.name


def macros(regs_h: Path) -> dict:
    return {m.group(1): int(m.group(2), 0)
            for m in re.finditer(r"#define (\w+)\s+(0x[0-9A-Fa-f]+|\d+)u", regs_h.read_text())}


def registers(component: Path) -> list[ET.Element]:
    root = ET.parse(component).getroot()
    blocks = root.findall(f"./{S}memoryMaps/{S}memoryMap/{S}addressBlock")
    assert len(blocks) == 1
    return blocks[0].findall(f"{S}register")


def in_schema_order(elem: ET.Element, order: list[str]) -> bool:
    tags = [c.tag.replace(S, "") for c in elem]
    return all(t in order for t in tags) and [order.index(t) for t in tags] == sorted(order.index(t) for t in tags)


@pytest.mark.parametrize("config", sorted(p.stem for p in CONFIGS.glob("*.yaml")))
def test_registers_match_the_c_header(tmp_path, config):
    design, out = generated(tmp_path, CONFIGS / f"{config}.yaml")
    name = design.name
    regs = registers(out / "ip" / "component.xml")
    c = macros(out / "c" / f"{name}_regs.h")
    N = name.upper()
    offset = {}
    for r in regs:
        rname = r.find(f"{S}name").text
        off = int(r.find(f"{S}addressOffset").text, 0)
        assert rname not in offset, f"{rname} twice"
        offset[rname] = off
        assert off % 4 == 0 and off < c[f"{N}_SPAN"], (rname, off)
        assert r.find(f"{S}size").text == "32"
        assert in_schema_order(r, REGISTER_ORDER), rname
        fields = r.findall(f"{S}field")
        assert fields, rname
        bits = 0
        for f in fields:
            assert in_schema_order(f, FIELD_ORDER), (rname, f.find(f"{S}name").text)
            lo, w = int(f.find(f"{S}bitOffset").text), int(f.find(f"{S}bitWidth").text)
            mask = ((1 << w) - 1) << lo
            assert lo + w <= 32 and not bits & mask, (rname, "fields overlap or exceed 32 bits")
            bits |= mask
    # one register per row of the register map (the docs' table), none more
    assert len(regs) == len(design.register_map)
    # every address the C header names is a register of component.xml
    named = {k: v for k, v in c.items() if k.startswith(N + "_") and k.endswith(ADDRESS_SUFFIXES)
             and not k.startswith(N + "_PROG_")}
    assert named
    for k, v in named.items():
        assert v in offset.values(), f"{k} = 0x{v:X} is no register of component.xml"
    # the global block: what INFO says exists, at the header's offsets, with its reset values
    for reg in ("ID", "VERSION", "CONFIG_HASH", "INFO", "IRQ_STATUS", "IRQ_ENABLE"):
        assert offset[reg] == c[f"{N}_REG_{reg}"]
    for reg, has in (("TIMESTAMP_LO", "TIMESTAMP"), ("MARK", "MARK"), ("SCRATCH", "SCRATCH")):
        assert (reg in offset) == bool(c[f"{N}_HAS_{has}"]), reg
    reset = {r.find(f"{S}name").text: int(r.find(f"{S}reset/{S}value").text, 0) for r in regs}
    assert reset["ID"] == c[f"{N}_ID_VALUE"] and reset["VERSION"] == c[f"{N}_VERSION_VALUE"]
    assert reset["CONFIG_HASH"] == c[f"{N}_CONFIG_HASH"] and reset["INFO"] == c[f"{N}_INFO"]


def test_y9_registers_fields_and_ipyxact(tmp_path):
    """The Y9 monitor in detail, read back with ipyxact (an independent IP-XACT reader)."""
    from ipyxact.ipyxact import Component
    design, out = generated(tmp_path, CONFIGS / "selective_accumulations.yaml")
    comp = Component()
    comp.load(str(out / "ip" / "component.xml"))
    block = comp.memoryMaps.memoryMap[0].addressBlock[0]
    regs = {r.name: r for r in block.register}
    c = macros(out / "c" / "selective_accumulations_regs.h")
    N = "SELECTIVE_ACCUMULATIONS"
    assert int(regs["accel_CONTROL"].addressOffset) == c[f"{N}_ACCEL_CONTROL"]
    assert int(regs["accel_COMPUTE_CYCLES_0"].addressOffset) == c[f"{N}_COMPUTE_CYCLES_RESULT"]
    assert int(regs["accel_COMPUTE_CYCLES_1"].addressOffset) == c[f"{N}_COMPUTE_CYCLES_RESULT"] + 4
    assert int(regs["accel_MAC_FIRES_THRESHOLD"].addressOffset) == c[f"{N}_MAC_FIRES_THRESHOLD"]
    assert int(regs["accel_INIT_0"].addressOffset) == c[f"{N}_TRANSACTION_INIT"]
    assert regs["accel_BYTES_WRITTEN"].access == "read-only"
    assert regs["accel_INIT_0"].access == "write-only"
    assert regs["accel_MAC_FIRES_THRESHOLD"].access == "read-write"
    ctrl = {f.name: (int(f.bitOffset), int(f.bitWidth)) for f in regs["accel_CONTROL"].field}
    assert ctrl == {"RUN": (0, 1), "SOFT_RESET": (1, 1), "PROG_transaction": (c[f"{N}_TRANSACTION_PROG_SHIFT"], 2),
                    "PROG_task": (c[f"{N}_TASK_PROG_SHIFT"], 2), "PROG_operation": (c[f"{N}_OPERATION_PROG_SHIFT"], 2)}
    status = {f.name: int(f.bitOffset) for f in regs["accel_STATUS"].field}
    assert status["VALID_task"] == (c[f"{N}_TASK_VALID_MASK"]).bit_length() - 1
    assert status["OVERFLOW_operation"] == (c[f"{N}_OPERATION_OVERFLOW_MASK"]).bit_length() - 1
    irq = regs["accel_IRQ_STATUS"].field
    assert [f.name for f in irq] == ["SOURCE_0"] and irq[0].modifiedWriteValue == "oneToClear"
    # the threshold resets to all ones of the 10-bit result (no interrupt until it is set)
    root = ET.parse(out / "ip" / "component.xml").getroot()
    thr = next(r for r in root.iter(f"{S}register") if r.find(f"{S}name").text == "accel_MAC_FIRES_THRESHOLD")
    assert thr.find(f"{S}reset/{S}value").text == "0x000003FF"
    assert "MARK" not in regs and "TIMESTAMP_LO" not in regs   # Y9 has neither
