# SPDX-License-Identifier: MIT
"""The VHDL library (hdl/ of this checkout): which files a design needs, in
compile order (dependencies first).

The generator reads the library sources for three outputs: the manifest's
`library_sources`, the copies that make the Vivado IP folder self-contained
(ip/hdl/), and the library's FuseSoC core (jointer.core at the repository
root, written by `python -m jointer_gen.tools.library_core`). Dependencies are the
`entity work.X` and `use work.X` references of each file (comments removed);
files are named after their unit (doc/design.md, "VHDL rules").
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
HDL = REPO / "hdl"
LIBRARY = "jointer"             # VHDL library of every library and generated unit

_USE = re.compile(r"\b(?:entity\s+work|use\s+work)\.(\w+)", re.I)


class LibraryMissing(Exception):
    """hdl/ is not next to the generator (an installed copy without the checkout)."""


@lru_cache(maxsize=1)
def _units() -> tuple[dict[str, Path], dict[str, list[str]]]:
    files = {p.stem: p for p in sorted(HDL.rglob("*.vhd"))} if HDL.is_dir() else {}
    uses = {}
    for stem, p in files.items():
        text = re.sub(r"--[^\n]*", "", p.read_text(encoding="utf-8"))
        uses[stem] = sorted(set(m.lower() for m in _USE.findall(text)) & files.keys() - {stem})
    return files, uses


def order(entities) -> list[str]:
    """Library files the given units need, dependencies first, as paths
    relative to the repository (hdl/<area>/<unit>.vhd); [] without hdl/."""
    files, uses = _units()
    out, seen = [], set()

    def visit(u: str) -> None:
        if u in seen or u not in files:
            return
        seen.add(u)
        for dep in uses[u]:
            visit(dep)
        out.append(u)
    for e in sorted(entities):
        visit(e)
    return [files[u].relative_to(REPO).as_posix() for u in out]


def all_sources() -> list[str]:
    """Every library file, dependencies first (the library core's file list)."""
    files, _ = _units()
    return order(files)


def read(rel: str) -> str:
    """The text of a library file (a path from order())."""
    p = REPO / rel
    if not p.is_file():
        raise LibraryMissing(f"the jointer VHDL library is not at {HDL} (missing {rel}); "
                             "run jointer-gen from a checkout (pip install -e gen)")
    return p.read_bytes().decode("utf-8")    # byte for byte (no newline translation)


def design_entities(d) -> set[str]:
    """The library units a design's generated units instantiate (and jointer_pkg);
    their dependency closure is design_sources()."""
    entities = {"jointer_pkg"}
    for lv in d.lmics:
        for sv in lv.sniffers:
            entities |= {i.entity for i in sv.instances}
        entities |= {i.entity for i in lv.instances if i.entity.startswith("jointer_")}
    entities |= {i.entity for i in d.top["instances"] if i.entity.startswith("jointer_")}
    return entities


def design_sources(d) -> list[str]:
    """The library files a design needs, dependencies first (order())."""
    return order(design_entities(d))
