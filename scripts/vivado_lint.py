#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Vivado lint: keep the VHDL synthesis sees, and the IP's top, inside
what AMD documents. Nobody here runs Vivado, and GHDL accepting a construct
proves nothing about Vivado, so every VHDL file of hdl/ and of every
generated top (each --config generated into --work), and each generated IP's
top, is checked against a short deny-list, each rule citing the section of
UG901 (Vivado Design Suite User Guide: Synthesis) or UG1118 (Creating and
Packaging Custom IP) that leaves the construct out:

  record-port      a port or signal of a record type with an unconstrained
                   element (std_logic_vector, unsigned, ... without a range)
                   UG901 "VHDL-2008 Constructs": unconstrained elements are
                   supported in arrays only ("Unconstrained Element Types")
  record-field     a field-by-field association (`p.f => ...`) of such a
                   record port: same section
  exponent         `**` with a left operand other than 2
                   UG901 "VHDL Constructs Support Status", operators: `**`
                   supported if the left operand is 2
  force-release    VHDL-2008 `<= force` / `<= release`: not in UG901's
                   "VHDL-2008 Constructs" list
  psl              VHDL-2008's PSL (vunit, property, sequence, default
                   clock): not in UG901's "VHDL-2008 Constructs" list
  entity-statement statements in an entity (`begin` before `end entity`)
                   UG901 "VHDL Constructs Support Status": Entity Statement
                   Part unsupported
  deferred-constant a constant without a value (set in the package body)
                   UG901 "VHDL Constructs Support Status": constant
                   declarations supported except deferred constants
  linkage-guarded  `linkage` ports, `register`/`bus` signals, `disconnect`
                   UG901 "VHDL Constructs Support Status": unsupported

and for each generated IP (ip/component.xml):

  ip-top           the model (top) is a plain VHDL-93 wrapper: its file is
                   `vhdlSource` (not vhdlSource-2008), it has no generics and
                   only std_logic / std_logic_vector(N downto M) ports, and
                   `ghdl -a --std=93c` analyses it alone
                   UG1118 "Top-Level HDL Requirements" (a VHDL-2008 top is
                   wrapped in VHDL or Verilog before packaging)

    scripts/vivado_lint.py [--config C.yaml ...] [--work DIR] [PATH ...]

PATH: VHDL files or folders (recursively); exit 1 with one line per finding,
`file:line: rule: what (the document's section)`. Vivado synthesis also
skips VHDL assertions unless run with -assert (doc/integration.md "VHDL
assertions in Vivado"): the generator checks what those assertions check.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SPIRIT = "{http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009}"
UG901_2008 = 'UG901 "VHDL-2008 Constructs": unconstrained elements in arrays only'
UG901_STATUS = 'UG901 "VHDL Constructs Support Status"'
UG1118_TOP = 'UG1118 "Top-Level HDL Requirements"'
# array types of the standard packages, unconstrained unless given a range
UNCONSTRAINED = {"std_logic_vector", "std_ulogic_vector", "unsigned", "signed", "bit_vector", "string",
                 "boolean_vector", "integer_vector", "real_vector", "time_vector", "ufixed", "sfixed",
                 "float", "unresolved_unsigned", "unresolved_signed", "u_unsigned", "u_signed"}
PLAIN_PORT = re.compile(r"std_logic|std_logic_vector\s*\(\s*\d+\s+downto\s+\d+\s*\)", re.I)


class Source:
    """A VHDL file with comments and string literals blanked (same offsets and lines)."""

    def __init__(self, path: Path):
        self.path, raw = path, path.read_text()
        blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))          # noqa: E731
        text = re.sub(r"/\*.*?\*/", blank, raw, flags=re.S)
        text = re.sub(r"--[^\n]*", blank, text)
        self.text = re.sub(r'"[^"\n]*"', blank, text).lower()

    def line(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def finding(self, offset: int, rule: str, what: str, ref: str) -> str:
        return f"{self.path}:{self.line(offset)}: {rule}: {what} ({ref})"


def _base(subtype: str) -> str:
    """The type mark of a subtype indication, without its library prefix."""
    return subtype.strip().split("(")[0].split()[0].split(".")[-1] if subtype.strip() else ""


def _unconstrained(subtype: str, names: set[str]) -> bool:
    s = subtype.strip()
    return "(" not in s and " range " not in f" {s} " and _base(s) in names


def unconstrained_types(srcs: list[Source]) -> tuple[set[str], set[str]]:
    """(unconstrained array names, record types with an unconstrained element), over every file."""
    arrays, records = set(UNCONSTRAINED), set()
    for _ in range(3):                            # subtypes of subtypes, records in records
        for s in srcs:
            for m in re.finditer(r"\btype\s+(\w+)\s+is\s+array\s*\((.*?)\)\s*of\s+([^;]+);", s.text, re.S):
                if "<>" in m.group(2) or _unconstrained(m.group(3), arrays | records):
                    arrays.add(m.group(1))
            for m in re.finditer(r"\bsubtype\s+(\w+)\s+is\s+([^;]+);", s.text):
                if _unconstrained(m.group(2), arrays | records):
                    arrays.add(m.group(1))
            for m in re.finditer(r"\btype\s+(\w+)\s+is\s+record\b(.*?)\bend\s+record", s.text, re.S):
                elems = [e.split(":", 1)[1] for e in m.group(2).split(";") if ":" in e]
                if any(_unconstrained(e, arrays | records) for e in elems):
                    records.add(m.group(1))
    return arrays, records


def check_records(srcs: list[Source], records: set[str]) -> list[str]:
    out, ports = [], set()
    decl = re.compile(r"\b(signal\s+)?(\w+(?:\s*,\s*\w+)*)\s*:\s*(?:(in|out|inout|buffer)\s+)?([\w.]+)")
    for s in srcs:
        for m in decl.finditer(s.text):
            is_port, is_signal = m.group(3) is not None, m.group(1) is not None
            if (is_port or is_signal) and _base(m.group(4)) in records:
                names = [n.strip() for n in m.group(2).split(",")]
                if is_port:
                    ports.update(names)
                out.append(s.finding(m.start(2), "record-port", f"{'port' if is_port else 'signal'} "
                                     f"{', '.join(names)} of record type {_base(m.group(4))}, which has an "
                                     "unconstrained element", UG901_2008))
    for s in srcs:
        for m in re.finditer(r"\b(\w+)\s*\.\s*(\w+)\s*=>", s.text):
            if m.group(1) in ports:
                out.append(s.finding(m.start(), "record-field", f"field-by-field association {m.group(1)}."
                                     f"{m.group(2)} of a record port with unconstrained elements", UG901_2008))
    return out


def check_constructs(s: Source) -> list[str]:
    out = []
    for m in re.finditer(r"\*\*", s.text):
        left = re.search(r"([\w.#]+|\))\s*$", s.text[:m.start()])
        if left is None or left.group(1) != "2":
            out.append(s.finding(m.start(), "exponent", f"'{left.group(1) if left else '?'} **': the left operand "
                                 "is not 2", f"{UG901_STATUS}, operators: ** supported if the left operand is 2"))
    for rule, pattern, what, ref in (
            ("force-release", r"<=\s*(force|release)\b", "VHDL-2008 force/release assignment",
             'not in UG901 "VHDL-2008 Constructs"'),
            ("psl", r"\b(vunit|vmode|vprop|sequence|property)\s+\w+|\bdefault\s+clock\b", "PSL declaration",
             'not in UG901 "VHDL-2008 Constructs"'),
            ("linkage-guarded", r":\s*linkage\b|\bdisconnect\b|\bsignal\s[^;]*\b(register|bus)\s*(:=[^;]*)?;",
             "linkage port, guarded signal or disconnection", f"{UG901_STATUS}: unsupported")):
        out += [s.finding(m.start(), rule, what, ref) for m in re.finditer(pattern, s.text)]
    for m in re.finditer(r"\bentity\s+(\w+)\s+is\b(.*?)\bend\b", s.text, re.S):
        b = re.search(r"\bbegin\b", m.group(2))
        if b:
            out.append(s.finding(m.start(2) + b.start(), "entity-statement", f"statements in entity {m.group(1)}",
                                 f"{UG901_STATUS}: Entity Statement Part unsupported"))
    for m in re.finditer(r"\bconstant\s+[\w\s,]+:[^;=]*;", s.text):
        before = s.text[:m.start()]
        if before.count("(") == before.count(")"):      # not a subprogram's or a generic list's parameter
            out.append(s.finding(m.start(), "deferred-constant", "a constant without a value",
                                 f"{UG901_STATUS}: deferred constants unsupported"))
    return out


def lint_vhdl(paths: list[Path]) -> list[str]:
    srcs = [Source(p) for p in paths]
    _, records = unconstrained_types(srcs)
    out = check_records(srcs, records)
    for s in srcs:
        out += check_constructs(s)
    return out


def _entity_header(text: str, name: str) -> tuple[str, str] | None:
    """(generic clause, port clause) of entity `name` in a comment-free lower-case text."""
    m = re.search(rf"\bentity\s+{name}\s+is\b(.*?)\bend\b", text, re.S)
    if m is None:
        return None
    head = m.group(1)
    g = re.search(r"\bgeneric\s*\(", head)
    p = re.search(r"\bport\s*\((.*)\)\s*;\s*$", head, re.S)
    return (head[g.start():] if g else ""), (p.group(1) if p else "")


def lint_ip(component: Path, work: Path) -> list[str]:
    """The IP's top: a plain VHDL-93 wrapper (rule ip-top)."""
    root = ET.parse(component).getroot()
    top = root.findtext(f"{SPIRIT}model/{SPIRIT}views/{SPIRIT}view/{SPIRIT}modelName")
    files = root.findall(f"{SPIRIT}fileSets/{SPIRIT}fileSet/{SPIRIT}file")
    where = f"{component}:1: ip-top"
    ref = f"{UG1118_TOP}: a VHDL-2008 top is wrapped in VHDL-93 or Verilog"
    for f in files:
        path = component.parent / f.findtext(f"{SPIRIT}name")
        if not path.suffix == ".vhd" or not re.search(rf"\bentity\s+{top}\s+is\b", Source(path).text):
            continue
        kind = f.findtext(f"{SPIRIT}fileType") or f.findtext(f"{SPIRIT}userFileType")
        if kind != "vhdlSource":
            return [f"{where}: the top {top} is in {path.name} of type {kind}, not a VHDL-93 file ({ref})"]
        return _plain_top(Source(path), top, work, where, ref)
    return [f"{where}: no VHDL file of the IP holds its top {top} ({ref})"]


def _plain_top(s: Source, top: str, work: Path, where: str, ref: str) -> list[str]:
    out = []
    generics, ports = _entity_header(s.text, top)
    if generics:
        out.append(f"{where}: the top {top} has generics ({ref}; no generics: the YAML configures it)")
    for decl in filter(str.strip, ports.split(";")):
        names, _, rest = decl.partition(":")
        vtype = re.sub(r"^\s*(in|out|inout|buffer)\s+", "", rest).strip()
        if not PLAIN_PORT.fullmatch(vtype):
            out.append(f"{where}: port {names.strip()} of {top} is {vtype} (expected std_logic or "
                       f"std_logic_vector(N downto M); {ref})")
    work.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["ghdl", "-a", "--std=93c", f"--workdir={work}", "--work=jointer", str(s.path)],
                       capture_output=True, text=True)
    if r.returncode:
        out.append(f"{where}: ghdl -a --std=93c {s.path.name} fails ({ref}):\n{r.stderr.strip()}")
    return out


def generate(config: Path, work: Path) -> Path:
    """jointer-gen CONFIG into work/gen/<name>/ (its output folder)."""
    import yaml
    out = work / "gen"
    r = subprocess.run([sys.executable, "-m", "jointer_gen", str(config), "-o", str(out), "-q"],
                       capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO / "gen")})
    if r.returncode:
        raise SystemExit(f"vivado-lint: jointer-gen {config} failed:\n{r.stderr}")
    return out / yaml.safe_load(config.read_text())["monitor"]["name"]


def vhdl_files(paths: list[Path]) -> list[Path]:
    out = []
    for p in paths:
        out += sorted(p.rglob("*.vhd")) if p.is_dir() else [p]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", type=Path, help="VHDL files or folders")
    ap.add_argument("--config", action="append", default=[], type=Path, help="a monitor YAML (repeatable)")
    ap.add_argument("--work", type=Path, default=REPO / "build" / "lint" / "vivado")
    a = ap.parse_args(argv)
    if a.config and shutil.which("ghdl") is None:
        raise SystemExit("vivado-lint: ghdl not found (scripts/install-deps.sh)")
    files, ips = vhdl_files(a.paths), []
    shutil.rmtree(a.work / "gen", ignore_errors=True)
    for c in a.config:
        out = generate(c, a.work)
        files += sorted((out / "hdl").glob("*.vhd")) + sorted((out / "ip" / "hdl").glob("*_wrapper.vhd"))
        ips.append(out / "ip" / "component.xml")
    problems = lint_vhdl(files)
    for comp in ips:
        problems += lint_ip(comp, a.work / "ghdl93")
    for p in problems:
        print(p)
    print(f"vivado-lint: {len(files)} VHDL files, {len(ips)} IP tops: "
          f"{'no finding' if not problems else f'{len(problems)} finding(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
