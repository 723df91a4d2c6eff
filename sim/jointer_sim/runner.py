# SPDX-License-Identifier: MIT
"""Build and run a cocotb test bench on one jointer entity under GHDL.

Every test module in sim/ calls `run()` from a pytest function:

    def test_counter():
        run("jointer_dcapf_counter", module=__name__, generics={"width_g": 8})

GHDL 2.0 cannot override std_logic_vector or integer_vector generics from
the command line, so `run()` always elaborates a thin wrapper entity
`tb_<entity>` with the same ports and the requested generic values as
defaults. Each generic set gets its own build directory, so parametrised
tests can run in parallel (pytest -n).

Seeds: the cocotb random seed is derived from the test name (stable in CI);
set JOINTER_SEED to override it. cocotb prints the seed at start-up.
"""

from __future__ import annotations

import hashlib
import os
import re
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HDL = REPO / "hdl"
BUILD = REPO / "build" / "sim"
LIBRARY = "jointer"


def library_sources() -> list[Path]:
    """All library files; `ghdl -i` + `ghdl -m` work out the order."""
    return sorted(HDL.rglob("*.vhd"))


_UNIT_RE = re.compile(r"^\s*(?:entity|package)\s+(\w+)\s+is\b", re.M | re.I)
_REF_RE = re.compile(r"\b(?:work|jointer)\.(\w+)", re.I)


def needed_sources(tops: list[Path], sources: list[Path]) -> list[Path]:
    """The sources that `tops` reach through `work.x` / `jointer.x` references.

    Only what a test bench uses is compiled: faster, and a file being edited
    elsewhere in the library cannot break an unrelated test.
    """
    unit_file = {}
    for src in sources:
        for m in _UNIT_RE.finditer(_strip_comments(src.read_text())):
            unit_file.setdefault(m.group(1).lower(), src)
    todo, seen = list(tops), []
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.append(f)
        for m in _REF_RE.finditer(_strip_comments(f.read_text())):
            dep = unit_file.get(m.group(1).lower())
            if dep is not None and dep not in seen:
                todo.append(dep)
    return [s for s in sources if s in seen] + [t for t in tops if t not in sources]


def slv(value: int, width: int = 32) -> str:
    """A VHDL bit-string literal for a std_logic_vector generic."""
    if width % 4 == 0:
        return f'x"{value:0{width // 4}X}"'
    return f'"{value:0{width}b}"'


def vhdl_literal(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):  # integer_vector
        items = [vhdl_literal(v) for v in value]
        if len(items) == 1:
            return f"(0 => {items[0]})"
        return "(" + ", ".join(items) + ")"
    return str(value)  # already a VHDL literal (slv(), string)


_ENTITY_RE = re.compile(r"\bentity\s+(\w+)\s+is(.*?)\bend\s+(?:entity\b|\1\b)", re.S | re.I)


def _split_clause(text: str, keyword: str) -> str | None:
    """The text inside `keyword ( ... )` at parenthesis depth 0."""
    m = re.search(rf"\b{keyword}\s*\(", text, re.I)
    if not m:
        return None
    depth, start = 1, m.end()
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start:i]
    raise ValueError(f"unbalanced {keyword} clause")


def _items(clause: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in clause:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == ";" and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _strip_comments(text: str) -> str:
    return re.sub(r"--[^\n]*", "", text)


def entity_interface(entity: str, sources: list[Path]) -> tuple[list[str], list[str], list[str]]:
    """(generic items, port items, port names) of an entity in the sources."""
    for src in sources:
        text = _strip_comments(src.read_text())
        for m in _ENTITY_RE.finditer(text):
            if m.group(1).lower() != entity.lower():
                continue
            body = m.group(2)
            gen = _split_clause(body, "generic")
            # the port clause comes after the generic clause
            rest = body[body.lower().find("port", body.lower().find(gen) + len(gen) if gen else 0):]
            ports = _split_clause(rest, "port") or ""
            gitems = _items(gen) if gen else []
            pitems = _items(ports)
            names = []
            for p in pitems:
                names += [n.strip() for n in p.split(":")[0].split(",")]
            return gitems, pitems, names
    raise ValueError(f"entity {entity} not found in {len(sources)} sources")


def write_wrapper(entity: str, generics: dict, sources: list[Path], path: Path) -> str:
    """Write tb_<entity> with the given generic values; return its name."""
    gitems, pitems, pnames = entity_interface(entity, sources)
    unknown = set(k.lower() for k in generics) - {
        n.strip().lower() for g in gitems for n in g.split(":")[0].split(",")
    }
    if unknown:
        raise ValueError(f"{entity} has no generic(s) {sorted(unknown)}")
    lowered = {k.lower(): v for k, v in generics.items()}
    new_g, gnames = [], []
    for g in gitems:
        names = [n.strip() for n in g.split(":")[0].split(",")]
        typ = g.split(":", 1)[1].split(":=")[0].strip()
        for n in names:
            gnames.append(n)
            if n.lower() in lowered:
                new_g.append(f"{n} : {typ} := {vhdl_literal(lowered[n.lower()])}")
            else:
                default = g.split(":=", 1)[1].strip() if ":=" in g else None
                new_g.append(f"{n} : {typ}" + (f" := {default}" if default else ""))
    name = f"tb_{entity}"
    lines = ["library ieee;", "use ieee.std_logic_1164.all;", "use ieee.numeric_std.all;",
             f"library {LIBRARY};", f"use {LIBRARY}.jointer_pkg.all;", "",
             f"entity {name} is"]
    if new_g:
        lines.append("  generic (\n    " + ";\n    ".join(new_g) + ");")
    lines.append("  port (\n    " + ";\n    ".join(pitems) + ");")
    lines += [f"end entity {name};", "", f"architecture wrap of {name} is", "begin",
              f"  dut : entity {LIBRARY}.{entity}"]
    if gnames:
        lines.append("    generic map (" + ", ".join(f"{n} => {n}" for n in gnames) + ")")
    lines.append("    port map (" + ", ".join(f"{n} => {n}" for n in pnames) + ");")
    lines += [f"end architecture wrap;", ""]
    path.write_text("\n".join(lines))
    return name


def _seed(name: str) -> int:
    env = os.environ.get("JOINTER_SEED")
    if env:
        return int(env)
    return zlib.crc32(name.encode()) & 0x7FFFFFFF


def run(entity: str, module: str, generics: dict | None = None, *,
        extra_sources: list[Path] | None = None, toplevel: str | None = None,
        testcase: str | None = None, test_dir: Path | None = None,
        name: str | None = None, extra_env: dict | None = None, waves: bool = False) -> None:
    """Build the library (+ extra sources), wrap `entity`, run cocotb `module`.

    `toplevel` skips the wrapper and elaborates that entity as it is (for
    test benches written in VHDL). Raises (fails the pytest) on any failed test.
    """
    from cocotb_tools.runner import get_runner  # imported late: pytest collection stays fast

    generics = generics or {}
    module_name = module.rsplit(".", 1)[-1]
    key = hashlib.sha1(repr(sorted(generics.items())).encode()).hexdigest()[:10]
    build_dir = BUILD / (name or entity) / key
    build_dir.mkdir(parents=True, exist_ok=True)
    sources = library_sources() + [Path(p) for p in (extra_sources or [])]
    if toplevel is None:
        wrapper = build_dir / f"tb_{entity}.vhd"
        toplevel = write_wrapper(entity, generics, sources, wrapper)
        sources = needed_sources([wrapper], sources)
    else:
        sources = needed_sources([Path(p) for p in (extra_sources or [])], sources)
    if test_dir is None:  # where the cocotb module lives (goes on PYTHONPATH)
        import sys
        test_dir = Path(sys.modules[module].__file__).parent if module in sys.modules else Path.cwd()
    runner = get_runner("ghdl")
    runner.build(sources=sources, hdl_library=LIBRARY, hdl_toplevel=toplevel,
                 build_dir=build_dir, build_args=["--std=08"], always=True,
                 log_file=build_dir / "build.log")
    sim_dir = Path(__file__).resolve().parent.parent
    env = {"PYTHONPATH": os.pathsep.join([str(sim_dir), str(test_dir),
                                          os.environ.get("PYTHONPATH", "")])}
    env.update(extra_env or {})
    results = runner.test(test_module=module_name, hdl_toplevel=toplevel,
                          hdl_toplevel_library=LIBRARY, testcase=testcase,
                          seed=_seed(f"{name or entity}/{key}/{testcase}"),
                          build_dir=build_dir, test_dir=build_dir, extra_env=env,
                          test_args=["--std=08"], plusargs=["--ieee-asserts=disable"],
                          waves=waves, results_xml=str(build_dir / "results.xml"))
    _check_results(Path(results))


def _check_results(xml: Path) -> None:
    import xml.etree.ElementTree as ET
    tree = ET.parse(xml)
    cases = list(tree.iter("testcase"))
    failed = [c.get("name") for c in cases if c.find("failure") is not None or c.find("error") is not None]
    if not cases:
        raise AssertionError(f"no cocotb test ran ({xml})")
    if failed:
        raise AssertionError(f"cocotb tests failed: {failed} (see {xml.parent})")
