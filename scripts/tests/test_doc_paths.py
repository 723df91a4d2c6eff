# SPDX-License-Identifier: MIT
"""Every repository path the documentation names exists.

A path is a word that starts with a top-level folder of the repository
(configs/, doc/, drivers/, gen/, hdl/, scripts/, sim/, .ci/) followed by at
least one more path component of letters, digits, `_ . + -`, e.g.
`configs/selective_accumulations.yaml` or drivers/src/jointer.c. Not paths:
templates (a component with <...>, *, {...} or $: `hdl/<area>/...`,
`sim/*/test_*.py`), anything under build/ or `<out>/` (generated), and URLs.
The documentation is every tracked Markdown file outside the goldens
(README.md, doc/, doc/internals/, the READMEs of the areas).

A second check covers every tracked text file: a mention of a page of doc/
(`doc/<name>.md`, `doc/<dir>/<name>.md`) names an existing page, so a VHDL
header or a docstring cannot point at a page that moved."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOP = ("configs", "doc", "drivers", "gen", "hdl", "scripts", "sim", ".ci")
PATH_RE = re.compile(r"(?<![\w./<>$*{}@:-])((?:%s)/[\w.+-]+(?:/[\w.+-]+)*)(/?)(.?)"
                     % "|".join(re.escape(t) for t in TOP))
DOC_PAGE_RE = re.compile(r"(?<![\w./<>{}-])(doc/(?:[\w-]+/)*[\w.-]+\.md)(?![\w-]|\.\w)")


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--", *patterns],
                         capture_output=True, text=True, check=True).stdout
    return [REPO / p for p in out.split("\0") if p]


def doc_files() -> list[Path]:
    return [p for p in tracked("*.md") if not p.relative_to(REPO).as_posix().startswith("gen/tests/golden/")]


def named_paths(text: str) -> list[str]:
    """The repository paths a text names (see the module docstring)."""
    text = re.sub(r"[a-z][a-z0-9+.-]*://\S+", "", text)          # URLs
    out = []
    for m in PATH_RE.finditer(text):
        path, slash, nxt = m.groups()
        if nxt and nxt in "<*{$" or "build/" in path:
            continue
        out.append(path.rstrip("."))
    return out


def missing_paths(md: Path) -> list[str]:
    return [f"{md.relative_to(REPO)}: {p}" for p in named_paths(md.read_text())
            if not (REPO / p).exists()]


def test_every_path_the_docs_name_exists():
    docs = doc_files()
    assert REPO / "README.md" in docs and REPO / "doc" / "internals" / "README.md" in docs
    bad = [b for d in docs for b in missing_paths(d)]
    assert bad == []


def test_every_doc_page_named_anywhere_exists():
    bad = []
    for f in tracked():
        rel = f.relative_to(REPO).as_posix()
        if rel.startswith("gen/tests/golden/") or rel in ("scripts/tests/test_no_history_refs.py",
                                                          "scripts/tests/test_doc_paths.py"):
            continue
        try:
            text = f.read_text()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        bad += [f"{rel}: {p}" for p in DOC_PAGE_RE.findall(text) if not (REPO / p).exists()]
    assert bad == []


def test_the_path_pattern():
    """What counts as a path, and that a missing one is reported."""
    text = ("see `configs/selective_accumulations.yaml`, drivers/src/jointer.c. and hdl/<area>/x.vhd, "
            "`sim/*/test_*.py`, gen/{a,b}, $BUILD/x, build/drivers/x.o, https://x.org/doc/y.md, "
            "./gen/x, doc/internals/ and configs/no_such_config.yaml")
    assert named_paths(text) == ["configs/selective_accumulations.yaml", "drivers/src/jointer.c",
                                 "doc/internals", "configs/no_such_config.yaml"]
    probe = REPO / "doc" / "_path_probe_test.md"
    probe.write_text(text)
    try:
        assert missing_paths(probe) == ["doc/_path_probe_test.md: configs/no_such_config.yaml"]
    finally:
        probe.unlink()
    assert DOC_PAGE_RE.findall("-- doc/internals.md section 3; doc/internals/eig.md. doc/monitor.md.j2 "
                               "doc/{d.name}.md") == ["doc/internals.md", "doc/internals/eig.md"]


def _brace_names(text: str, stem: str) -> set[str]:
    """`stem{a,b}.c` and `stem_x.c` written in a text, expanded."""
    names = set(re.findall(rf"\b({re.escape(stem)}\w+\.c)\b", text))
    for group in re.findall(rf"\b{re.escape(stem)}\{{([\w,]+)\}}\.c", text):
        names |= {f"{stem}{g}.c" for g in group.split(",")}
    return names


def test_the_cli_sources_are_listed_where_the_cli_is_described():
    """The header of drivers/cli/jointer_cli.c and the file table of drivers/README.md
    name every command file of the CLI."""
    files = {p.name for p in (REPO / "drivers" / "cli").glob("jointer_cli_*.c")}
    assert len(files) >= 5
    header = (REPO / "drivers" / "cli" / "jointer_cli.c").read_text().split("*/")[0]
    assert _brace_names(header, "jointer_cli_") == files
    assert _brace_names((REPO / "drivers" / "README.md").read_text(), "jointer_cli_") >= files
    assert _brace_names("a jointer_cli_{x,y}.c b jointer_cli_z.c", "jointer_cli_") == \
        {"jointer_cli_x.c", "jointer_cli_y.c", "jointer_cli_z.c"}
