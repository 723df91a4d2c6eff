# SPDX-License-Identifier: MIT
"""The MIT License: LICENSE at the root, and the SPDX tag
(`SPDX-License-Identifier: MIT`) in the first lines of every tracked source
file and of every text file the generator writes (VHDL, C, Tcl, XDC, XML,
Makefiles, device tree, docs), so that each file says its licence on its own
when it is copied out (a Vivado IP, a C bundle, a Yocto recipe's sources).
Data files carry none: JSON (the manifest says `"license": "MIT"`), the
binary descriptor, CSV/TSV tables, golden checksums and fuzz seeds.
"""
import json
import subprocess

import pytest

from gentest_util import EXAMPLES, REPO, generated

TAG = "SPDX-License-Identifier: MIT"
SOURCE_SUFFIXES = {".py", ".c", ".h", ".cpp", ".vhd", ".v", ".sv", ".tcl", ".sh", ".mk", ".j2", ".yaml",
                   ".yml", ".core", ".xdc", ".xml", ".html", ".toml", ".ini", ".mdd", ".dtsi", ".dts",
                   ".dtso", ".in", ".supp"}
SOURCE_NAMES = {"Makefile", "run", "jointer-topology", ".gitignore"}
GENERATED_TEXT = SOURCE_SUFFIXES | {".md"}
HEAD_LINES = 5


def is_source(path: str, suffixes=SOURCE_SUFFIXES) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name in SOURCE_NAMES or any(name.endswith(s) for s in suffixes)


def tagged(text: str) -> bool:
    return TAG in "\n".join(text.split("\n")[:HEAD_LINES])


def test_license_file():
    text = (REPO / "LICENSE").read_text()
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text


def test_every_tracked_source_is_tagged():
    files = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True,
                           check=True).stdout.split()
    missing = [f for f in files if is_source(f) and (REPO / f).is_file()
               and not tagged((REPO / f).read_text(errors="replace"))]
    assert not missing, f"no '{TAG}' in the first {HEAD_LINES} lines of: {missing}"


def test_libjointer_bundle_is_tagged():
    """<OUT>/libjointer/ (written beside every monitor): its Makefile and copies, LICENSE itself."""
    from jointer_gen.backends import libbundle
    files = libbundle.files()
    missing = [p for p, t in files.items() if is_source(p, GENERATED_TEXT) and not tagged(t)]
    assert not missing and files["LICENSE"] == (REPO / "LICENSE").read_text(), missing


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_generated_text_file_is_tagged(name):
    _, files = generated(name)
    missing = [p for p, t in files.items() if isinstance(t, str) and is_source(p, GENERATED_TEXT)
               and not tagged(t)]
    assert not missing, f"{name}: no '{TAG}' in: {missing}"
    assert json.loads(files["manifest.json"])["license"] == "MIT"
