# SPDX-License-Identifier: MIT
"""The C bundle of a generated monitor (<OUT>/<name>/c/): the monitor's own files
only, and the roles of every copy of the output. Its build, install and Yocto
recipe beside libjointer's bundle: test_gen_libjointer.py. The Vitis driver
inside the IP: test_gen_vitis.py.
"""
from __future__ import annotations

import json

import pytest

from gentest_util import REPO, generated
from jointer_gen.backends import cbundle

NAMES = ["selective_accumulations", "trace_sink"]


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
