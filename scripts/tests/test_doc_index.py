"""doc/index.md is what scripts/doc_index.py writes from the tree, every entity
is in it with an existing test, and no document of the repository links
outside it (except public URLs)."""

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


def test_docs_link_only_inside_the_repository():
    docs = [REPO / "README.md"] + sorted((REPO / "doc").glob("*.md")) + \
        [p for p in REPO.glob("*/README.md")] + [p for p in REPO.glob("*/*/README.md")]
    for d in docs:
        text = d.read_text()
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if re.match(r"https?://", target):
                continue
            assert (d.parent / target).resolve().exists(), f"{d.relative_to(REPO)} links {target}"
