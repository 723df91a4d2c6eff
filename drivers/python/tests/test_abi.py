# SPDX-License-Identifier: MIT
"""The ctypes mirrors of the C structs (jointer/_lib.py) against the C
compiler: sizeof and offsetof of every field, from a generated C program."""
import os
import subprocess

from conftest import REPO

from jointer import _lib


def test_struct_layout_matches_c(tmp_path):
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "jointer.h"', '#include "jointer_hosted.h"',
             '#include "jointer_pm.h"', '#include "jointer_trace_file.h"', "int main(void) {"]
    want = []
    for cname, st in _lib.STRUCTS.items():
        lines.append('printf("%%zu\\n", sizeof(%s));' % cname)
        want.append(("sizeof", cname, __import__("ctypes").sizeof(st)))
        for f in st._fields_:
            lines.append('printf("%%zu\\n", offsetof(%s, %s));' % (cname, f[0]))
            want.append(("offsetof", cname + "." + f[0], getattr(st, f[0]).offset))
    lines.append("return 0; }")
    src, exe = tmp_path / "abi.c", tmp_path / "abi"
    src.write_text("\n".join(lines))
    inc = os.path.join(REPO, "drivers", "include")
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Werror", "-I" + inc, str(src), "-o", str(exe)], check=True)
    got = [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()]
    assert len(got) == len(want)
    bad = [(w[0], w[1], w[2], g) for w, g in zip(want, got) if w[2] != g]
    assert bad == [], bad
