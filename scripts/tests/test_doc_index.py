# SPDX-License-Identifier: MIT
"""doc/index.md is what scripts/doc_index.py writes from the tree, every entity
is in it with an existing test and one link to its section of doc/internals/,
and every relative link of every tracked Markdown file reaches an existing
file of the repository and, with a #fragment, an existing heading (except
public URLs)."""

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_index_is_current():
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "doc_index.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_every_entity_has_a_test_and_a_doc_section():
    text = (REPO / "doc" / "index.md").read_text()
    for f in sorted((REPO / "hdl").rglob("*.vhd")):
        row = next((ln for ln in text.splitlines() if ln.startswith(f"| `{f.stem}` |")), None)
        assert row is not None, f"{f.stem} missing from doc/index.md"
        cells = [c.strip() for c in row.strip("|").split("|")]
        if f.stem != "jointer_pkg":               # the package is tested through every entity
            assert cells[2] != "-" and cells[4] != "-", row
        # the doc: one link, to a section of a page of the entity contract
        assert re.fullmatch(r"\[[^\]]+\]\(internals/[\w.-]+\.md#[\w-]+\)", cells[4]), row


def _tracked_markdown() -> list[Path]:
    out = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--", "*.md"],
                         capture_output=True, text=True, check=True).stdout
    return [REPO / p for p in out.split("\0") if p]


def _prose(text: str) -> str:
    """The text without fenced code blocks and inline code spans (links there are not links)."""
    text = re.sub(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", "", text, flags=re.M | re.S)
    return re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", "", text, flags=re.S)


def _links(text: str) -> list[str]:
    """Targets of inline links/images `[x](target)` and reference definitions `[x]: target`."""
    prose = _prose(text)
    inline = re.findall(r"\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)", prose)
    refs = re.findall(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", prose, re.M)
    return inline + refs


def _anchors(md: Path) -> set[str]:
    sys.path.insert(0, str(REPO / "scripts"))
    import doc_index
    text = md.read_text()
    fenced = re.sub(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", "", text, flags=re.M | re.S)
    explicit = set(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", fenced))
    return {a for _, _, a in doc_index.headings(text)} | explicit


def broken_links(mds: list[Path]) -> list[str]:
    """Every relative link of the given Markdown files whose file or anchor does not exist."""
    bad, cache = [], {}
    for md in mds:
        for target in _links(md.read_text()):
            if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):   # https:, mailto: ...
                continue
            path, _, frag = target.partition("#")
            dest = (md.parent / path).resolve() if path else md
            where = f"{md.relative_to(REPO)} links {target}"
            if not dest.exists():
                bad.append(f"{where}: no such file")
                continue
            if not dest.is_relative_to(REPO):
                bad.append(f"{where}: outside the repository")
                continue
            if frag and dest.suffix == ".md":
                if dest not in cache:
                    cache[dest] = _anchors(dest)
                if frag not in cache[dest]:
                    bad.append(f"{where}: no heading with anchor #{frag}")
    return bad


def test_every_relative_link_and_anchor_of_tracked_markdown_resolves():
    mds = _tracked_markdown()
    assert REPO / "README.md" in mds and len(mds) > 10
    assert broken_links(mds) == []


def test_the_link_check_can_fail(tmp_path):
    """A missing file, a missing anchor and a link leaving the repository are found;
    code spans, code blocks and URLs are not links."""
    d = REPO / "doc"
    probe = d / "_link_probe_test.md"
    probe.write_text("# Title\n## A `b` c\n[ok](#a-b-c) [ok2](index.md) [ok3](#title) [u](https://x.y/z)\n"
                     "`[no](nowhere.md)`\n```\n[no](nowhere2.md)\n```\n"
                     "[bad1](nowhere3.md) [bad2](#nope) [bad3](index.md#nope) [bad4](../../x.md)\n"
                     "[r]: design.md#nope2\n")
    try:
        bad = broken_links([probe])
    finally:
        probe.unlink()
    assert [b.split(" links ")[1] for b in bad] == [
        "nowhere3.md: no such file", "#nope: no heading with anchor #nope",
        "index.md#nope: no heading with anchor #nope", "../../x.md: " + (
            "no such file" if not (REPO.parent.parent / "x.md").exists() else "outside the repository"),
        "design.md#nope2: no heading with anchor #nope2"]
