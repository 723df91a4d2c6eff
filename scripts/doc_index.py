#!/usr/bin/env python3
"""doc/index.md: every entity of hdl/ with its test, its reference model and
its documentation (a table written from the tree, so it cannot drift).

    doc_index.py            rewrite doc/index.md
    doc_index.py --check    exit 1 when doc/index.md is not what the tree gives

- test: sim/<area>/test_<entity>.py (or the folder sim/<area>/<entity>/);
- model: the modules of sim/jointer_sim/ the test imports (the shared
  Python reference models), or "in the test" when the test computes its
  expected values itself;
- doc: the section of doc/internals.md that first names the entity.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INDEX = REPO / "doc" / "index.md"
INTERNALS = REPO / "doc" / "internals.md"


def anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")


def doc_section(entity: str, internals: str) -> str:
    """The heading that names the entity, else the one above its first mention."""
    heads = [(m.start(), m.group(1)) for m in re.finditer(r"^#{2,4} (.+)$", internals, re.M)]
    named = [h for _, h in heads if re.search(rf"\b{entity}\b", h)]
    if named:
        h = named[0]
    else:
        m = re.search(rf"\b{entity}\b", internals)
        if m is None:
            return "-"
        above = [h for pos, h in heads if pos < m.start()]
        if not above:
            return "[internals.md](internals.md)"
        h = above[-1]
    return f"[{h.replace('|', '/')}](internals.md#{anchor(h)})"


def rows() -> list[list[str]]:
    internals = INTERNALS.read_text()
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
                    doc_section(e, internals)])
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
