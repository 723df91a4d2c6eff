#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""doc/index.md: every entity of hdl/ with its test, its reference model and
its documentation (a table written from the tree, so it cannot drift).

    doc_index.py            rewrite doc/index.md
    doc_index.py --check    exit 1 when doc/index.md is not what the tree gives

- test: sim/<area>/test_<entity>.py (or the folder sim/<area>/<entity>/);
- model: the modules of sim/jointer_sim/ the test imports (the shared
  Python reference models), or "in the test" when the test computes its
  expected values itself;
- doc: one link to the section of the entity contract (doc/internals/) that
  documents the entity: a heading that names it, else the heading above the
  bullet that defines it (`- `entity` — ...`), else the heading above its
  first mention. The page of the entity's area (hdl/<area>/ ->
  doc/internals/<area>.md) is searched first, then the others.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INDEX = REPO / "doc" / "index.md"
INTERNALS = REPO / "doc" / "internals"
AREA_PAGE = {"eig": "eig.md", "dcapf": "dcapf.md", "trace": "trace.md", "collect": "collect.md",
             "pkg": "README.md"}


def anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading (before duplicate suffixes)."""
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")


def headings(text: str) -> list[tuple[int, str, str]]:
    """(offset, text, anchor) of every heading outside code blocks; a repeated
    anchor gets GitHub's -1, -2, ... suffix."""
    out, seen, fence = [], {}, False
    pos = 0
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"#{1,6} (.+?)\s*#*\s*$", line)
        if m:
            a = anchor(m.group(1))
            n = seen.get(a, 0)
            seen[a] = n + 1
            out.append((pos, m.group(1), a if n == 0 else f"{a}-{n}"))
        pos += len(line)
    return out


def _link(page: str, head: tuple[int, str, str] | None) -> str:
    if head is None:
        return f"[internals/{page}](internals/{page})"
    return f"[{head[1].replace('|', '/')}](internals/{page}#{head[2]})"


def _above(heads: list[tuple[int, str, str]], pos: int) -> tuple[int, str, str] | None:
    above = [h for h in heads if h[0] < pos]
    return above[-1] if above else None


def doc_section(entity: str, area: str, pages: dict[str, str]) -> str:
    """One link: the section of doc/internals/ that documents the entity."""
    first = AREA_PAGE.get(area)
    order = ([first] if first in pages else []) + [p for p in sorted(pages) if p != first]
    heads = {p: headings(pages[p]) for p in order}
    for p in order:                                   # a heading that names it
        for h in heads[p]:
            if re.search(rf"\b{entity}\b", h[1]):
                return _link(p, h)
    for p in order:                                   # the bullet that defines it
        m = re.search(rf"^(?:- )?`{entity}`(?: \([^)]*\))? —", pages[p], re.M)
        if m:
            return _link(p, _above(heads[p], m.start()))
    for p in order:                                   # its first mention
        m = re.search(rf"\b{entity}\b", pages[p])
        if m:
            return _link(p, _above(heads[p], m.start()))
    return "-"


def rows() -> list[list[str]]:
    pages = {p.name: p.read_text() for p in sorted(INTERNALS.glob("*.md"))}
    out = []
    for f in sorted((REPO / "hdl").rglob("*.vhd")):
        e, area = f.stem, f.parent.name
        test = REPO / "sim" / area / f"test_{e}.py"
        if not test.exists():
            test = REPO / "sim" / area / e
        models = []
        if test.is_file():
            src = test.read_text()
            models = sorted({f"sim/jointer_sim/{m}.py" for m in re.findall(r"from jointer_sim\.(\w+) import", src)}
                            | {f"sim/jointer_sim/{m}.py" for m in re.findall(r"from jointer_sim import ([a-z_]*model\w*)", src)})
            if not models:
                models.append("in the test")
        rel = lambda p: f"[{p.relative_to(REPO)}](../{p.relative_to(REPO)})"   # noqa: E731
        out.append([f"`{e}`", rel(f), rel(test) if test.exists() else "-",
                    ", ".join(f"[{m}](../{m})" if m.startswith("sim/") else m for m in models) or "-",
                    doc_section(e, area, pages)])
    return out


def render() -> str:
    lines = ["# Index: every entity, its test, its model, its doc", "",
             "Written by `scripts/doc_index.py` from the tree (a test checks it is current:",
             "`python3 scripts/doc_index.py` rewrites it). Tests run in `make test` under GHDL",
             "(cocotb); models are the Python reference models the tests compare against.", "",
             "| entity | source | test | model | doc |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows()]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not INDEX.exists() or INDEX.read_text() != text:
            print("doc/index.md is not current: run python3 scripts/doc_index.py")
            return 1
        return 0
    INDEX.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
