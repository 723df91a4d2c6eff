# SPDX-License-Identifier: MIT
"""The C bundle of a generated monitor (<OUT>/<name>/c/): the monitor's own files
only, and the roles of every copy of the output. Its build, install and Yocto
recipe beside libjointer's bundle: test_gen_libjointer.py. The Vitis driver
inside the IP: test_gen_vitis.py.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gentest_util import REPO, generated, readme_section
from jointer_gen.backends import cbundle
from jointer_gen.output import write_tree

NAMES = ["selective_accumulations", "trace_sink"]
ARCH = {"armhf": ("arm-linux-gnueabihf-gcc", ["qemu-arm", "-L", "/usr/arm-linux-gnueabihf"]),
        "aarch64": ("aarch64-linux-gnu-gcc", ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"])}
S = "{http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009}"
DRV = REPO / "drivers"


def sh(cmd, cwd, env=None, **kw):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, **kw)
    assert p.returncode == 0, f"{cmd} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


def out_dir(tmp_path: Path, name: str) -> Path:
    design, files = generated(name)
    write_tree(files, tmp_path / "out" / name)
    return tmp_path / "out" / name


def sources_mk() -> dict[str, list[str]]:
    text = re.sub(r"\\\n", " ", (DRV / "sources.mk").read_text())
    groups: dict[str, list[str]] = {}
    for m in re.finditer(r"^([A-Z_]+)\s*:=\s*(.*)$", text, re.M):
        words = []
        for w in m.group(2).split():
            ref = re.fullmatch(r"\$\((\w+)\)", w)
            words += groups[ref.group(1)] if ref else [w]
        groups[m.group(1)] = words
    return groups


# ---------------------------------------------------------------------------
# the copies
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_copies(name):
    """c/ = the monitor's own files and LICENSE (no copy of libjointer:
    test_gen_libjointer.py); every copy role of the output is used."""
    design, files = generated(name)
    roles = {f["path"]: f["role"] for f in json.loads(files["manifest.json"])["files"]}
    assert sorted(p for p in files if p.startswith("c/")) == sorted(
        f"c/{n}" for n in ("Makefile", "LICENSE", f"{name}.c", f"{name}.h", f"{name}_regs.h",
                           f"{name}_selfcheck.c", f"{name}.jdesc"))     # libjointer is <OUT>/libjointer/
    assert files["c/LICENSE"] == (REPO / "LICENSE").read_text()
    assert (roles["c/Makefile"], roles["c/LICENSE"]) == ("c-makefile", "c-license")
    assert {r for r in roles.values() if r in cbundle.COPY_ROLES} == set(cbundle.COPY_ROLES)
    m = json.loads(files["manifest.json"])["integration"]
    assert m["c_bundle"] == {"makefile": "c/Makefile", "pkg_config": name}
