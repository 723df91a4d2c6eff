# SPDX-License-Identifier: MIT
"""Generated C: every file compiles with gcc -std=c99 -Wall -Wextra -Werror
-pedantic, the generated self-check builds and runs, and the typed wrappers
reach the right registers through libjointer (over a RAM-backed register
seam). The self-check can fail: a wrong macro stops its build, a wrong
descriptor row fails its run."""
import re
import shutil
import subprocess

import pytest

from gentest_util import EXAMPLES, REPO, generated
from jointer_gen.backends import c as c_backend
from jointer_gen.output import write_tree

CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]
INC = ["-I", str(REPO / "drivers" / "include")]


def _tree(tmp_path, name):
    _, files = generated(name)
    write_tree(files, tmp_path / name)
    return tmp_path / name / "c"


def _driver_groups():
    """drivers/sources.mk's groups (the core's file list is there, not here)."""
    from jointer_gen.backends.cbundle import source_groups
    return source_groups()


def _cc(args, cwd):
    return subprocess.run(["gcc", *CFLAGS, *INC, *args], cwd=cwd, capture_output=True, text=True)


@pytest.mark.parametrize("name", EXAMPLES)
def test_compile_and_selfcheck(tmp_path, name):
    c = _tree(tmp_path, name)
    for src in (f"{name}.c", f"{name}_selfcheck.c"):
        r = _cc(["-I.", "-c", src, "-o", f"{src}.o"], c)
        assert r.returncode == 0, r.stderr
    for hdr in (f"{name}_regs.h", f"{name}.h"):      # each header alone
        (c / "one.c").write_text(f'#include "{hdr}"\nint one(void) {{ return 0; }}\n')
        r = _cc(["-I.", "-c", "one.c", "-o", "one.o"], c)
        assert r.returncode == 0, (hdr, r.stderr)
    r = _cc(["-I.", f"{name}_selfcheck.c", f"{name}.c", "-o", "selfcheck"], c)
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(c / "selfcheck")], capture_output=True, text=True)
    text = (c / f"{name}_selfcheck.c").read_text()
    n = sum(1 for line in text.splitlines() if line.startswith("    check("))   # the checks main() runs
    assert (run.returncode, run.stdout) == (0, f"{name}_selfcheck: {n} checks, 0 failed\n")


def test_regs_header_is_cxx_clean(tmp_path):
    c = _tree(tmp_path, "selective_accumulations")
    (c / "t.cc").write_text('#include "selective_accumulations_regs.h"\n'
                            'extern "C" unsigned f() { return SELECTIVE_ACCUMULATIONS_MAC_FIRES_RESULT; }\n')
    r = subprocess.run(["g++", "-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I.", "-c", "t.cc"],
                       cwd=c, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_selfcheck_catches_a_wrong_macro(tmp_path):
    c = _tree(tmp_path, "selective_accumulations")
    regs = c / "selective_accumulations_regs.h"
    text = regs.read_text()
    bad = text.replace("SELECTIVE_ACCUMULATIONS_FORWARD_FIRES_RESULT       0x68u",
                       "SELECTIVE_ACCUMULATIONS_FORWARD_FIRES_RESULT       0x6Cu")
    assert bad != text
    regs.write_text(bad)
    r = _cc(["-I.", "selective_accumulations_selfcheck.c", "selective_accumulations.c", "-o", "x"], c)
    assert r.returncode != 0 and "selective_accumulations_check_forward_fires_result" in r.stderr


def test_selfcheck_catches_a_wrong_descriptor(tmp_path):
    c = _tree(tmp_path, "two_clock_bus")
    src = c / "two_clock_bus.c"
    text = src.read_text()
    bad = text.replace(".dcapf = 1, .width = 16", ".dcapf = 1, .width = 15")
    assert bad != text
    src.write_text(bad)
    r = _cc(["-I.", "two_clock_bus_selfcheck.c", "two_clock_bus.c", "-o", "x"], c)
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(c / "x")], capture_output=True, text=True)
    assert run.returncode == 1
    assert "two_clock_bus_selfcheck: FAILED: metric dma_max_addr: result" in run.stdout


WRAPPER_TEST = r"""
#include <stdio.h>
#include <string.h>
#include "{name}.h"

static uint32_t regs[{words}];
static int rd(void *ctx, uint32_t off, uint32_t *v) {{ (void)ctx; *v = regs[off / 4u]; return 0; }}
static int wr(void *ctx, uint32_t off, uint32_t v) {{ (void)ctx; regs[off / 4u] = v; return 0; }}
static const jointer_io_ops ops = {{ rd, wr, NULL }};

int main(void)
{{
    {name}_dev d;
    jointer_io io = jointer_io_from_ops(&ops, NULL);
    uint64_t v;
    int bad = 0;
    if ({name}_init(&d, &io) != 0) {{ puts("init failed"); return 2; }}
{body}
    printf("wrappers: %d wrong\n", bad);
    return bad != 0;
}}
"""


@pytest.mark.parametrize("name", EXAMPLES)
def test_typed_wrappers_read_their_registers(tmp_path, name):
    """<name>_read_<metric>() returns the RESULT words of that metric, and
    run/set_mode write the right CONTROL bits, through libjointer over a
    RAM-backed register seam."""
    design, _ = generated(name)
    c = _tree(tmp_path, name)
    N = name.upper()
    body = []
    for i, m in enumerate(design.metrics):
        # what the hardware holds: the result zero-extended to whole words
        value = want = (0x0123456789ABCDEF * (i + 3)) & ((1 << m["width"]) - 1)
        off = m["result_offset"] // 4
        body.append(f"    regs[{off}] = 0x{value & 0xFFFFFFFF:08X}u;")
        if m["words"] > 1:
            body.append(f"    regs[{off + 1}] = 0x{value >> 32:08X}u;")
        body.append(f"    if ({name}_read_{m['name']}(&d, &v) != 0 || v != 0x{want:X}ull) "
                    f"{{ printf(\"{m['name']}: %llx\\n\", (unsigned long long)v); bad++; }}")
    for lv in design.lmics:
        body.append(f"    if ({name}_run_{lv.model.name}(&d) != 0 || (regs[{N}_{lv.model.name.upper()}_CONTROL / 4u]"
                    f" & JOINTER_CONTROL_RUN) == 0u) bad++;")
    for sv in design.sniffers:
        S = sv.model.name.upper()
        body.append(f"    if ({name}_set_mode_{sv.model.name}(&d, JOINTER_NO_FILTERING) != 0 || "
                    f"((regs[{N}_LMIC_BASE_OF_{S} / 4u] & {N}_{S}_PROG_MASK) >> {N}_{S}_PROG_SHIFT) != 3u) bad++;"
                    .replace(f"{N}_LMIC_BASE_OF_{S}",
                             f"{N}_{design.lmics[sv.lmic].model.name.upper()}_CONTROL"))
    (c / "wrappers.c").write_text(WRAPPER_TEST.format(name=name, words=design.layout.span // 4,
                                                      body="\n".join(body)))
    drv = REPO / "drivers" / "src"
    core = [str(drv / f) for f in _driver_groups()["DRV_BASE_SRCS"]]
    r = _cc(["-I.", "-I", str(drv), "wrappers.c", f"{name}.c", *core,
             str(drv / "jointer_trace.c"), "-o", "wrappers"], c)
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(c / "wrappers")], capture_output=True, text=True)
    assert (run.returncode, run.stdout) == (0, "wrappers: 0 wrong\n")


def test_no_compiler_no_silent_pass():
    assert shutil.which("gcc"), "gcc is required (scripts/install-deps.sh installs it)"


def test_edge_designs_compile_and_selfcheck(tmp_path):
    from gentest_util import edge_configs
    from jointer_gen.cli import generate
    for cfg in edge_configs(tmp_path):
        design, files = generate(str(cfg))
        write_tree(files, tmp_path / design.name)
        c = tmp_path / design.name / "c"
        r = _cc(["-I.", f"{design.name}_selfcheck.c", f"{design.name}.c", "-o", "selfcheck"], c)
        assert r.returncode == 0, (cfg.name, r.stderr)
        run = subprocess.run([str(c / "selfcheck")], capture_output=True, text=True)
        assert run.returncode == 0 and run.stdout.endswith(" checks, 0 failed\n"), (cfg.name, run.stdout)
