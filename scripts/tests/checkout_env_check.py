# SPDX-License-Identifier: MIT
"""Two checkouts on one machine do not see each other's code (make env-test).

Two local clones of this repository (with this tree's scripts/install-deps.sh
and Makefile, the things under test), `make deps` in each: each clone's
build/venv imports jointer_gen and jointer from its own sources, its
jointer-gen runs them, `make` runs that venv's Python, a second `make deps`
changes nothing, JOINTER_SKIP_DEPS=1 makes no venv, and the machine-wide
Python keeps the installs it had. Apt is skipped (machine-wide; the Python
environment is what is per checkout).

Slow (two venvs, four editable installs: about a minute), so it is not a
test_*.py of py-test: `make env-test` runs it once in `make test`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNDER_TEST = ["scripts/install-deps.sh", "Makefile"]
PROBE = ("import jointer_gen, jointer; print(jointer_gen.__file__); print(jointer.__file__)")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "JOINTER_SKIP_DEPS", "JOINTER_VENV", "PYTHON", "VIRTUAL_ENV",
                        "MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    env["JOINTER_SKIP_APT"] = "1"
    # the venv's bin directory of this checkout (make puts it first) must not leak into the clones
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep)
                                  if not p.startswith(str(REPO / "build")))
    return env


def _run(cmd: list[str], cwd: Path, **extra: str) -> str:
    r = subprocess.run(cmd, cwd=cwd, env={**_env(), **extra}, capture_output=True, text=True)
    assert r.returncode == 0, f"{' '.join(cmd)} in {cwd}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r.stdout


def _system_installs() -> str:
    """Where the machine-wide Python has jointer_gen and jointer from (or that it has none)."""
    code = ("from importlib import metadata\n"
            "for d in ('jointer_gen', 'jointer'):\n"
            "    try: print(d, metadata.distribution(d).read_text('direct_url.json'))\n"
            "    except metadata.PackageNotFoundError: print(d, None)\n")
    return subprocess.run(["python3", "-c", code], cwd="/", env=_env(), capture_output=True,
                          text=True, check=True).stdout


def _clone(dest: Path) -> Path:
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(dest)], check=True,
                   capture_output=True)
    for rel in UNDER_TEST:
        shutil.copy2(REPO / rel, dest / rel)
    return dest


@pytest.fixture(scope="module")
def clones(tmp_path_factory):
    root = tmp_path_factory.mktemp("checkouts").resolve()
    before = _system_installs()
    a, b = _clone(root / "a"), _clone(root / "b")
    skipped = _run(["make", "-s", "deps"], a, JOINTER_SKIP_DEPS="1")
    skipped_py = _run(["make", "-s", "-n", "py-test"], a, JOINTER_SKIP_DEPS="1")
    skipped_venv = (a / "build" / "venv").exists()
    first = {c: _run(["make", "-s", "deps"], c) for c in (a, b)}
    again = _run(["make", "-s", "deps"], a)
    yield {"a": a, "b": b, "before": before, "after": _system_installs(), "first": first,
           "again": again, "skipped": skipped, "skipped_py": skipped_py, "skipped_venv": skipped_venv}


@pytest.mark.parametrize("name", ["a", "b"])
def test_each_venv_imports_its_own_checkout(clones, name):
    c = clones[name]
    out = _run([str(c / "build" / "venv" / "bin" / "python"), "-c", PROBE], Path("/"))
    assert out.split() == [str(c / "gen" / "jointer_gen" / "__init__.py"),
                           str(c / "drivers" / "python" / "jointer" / "__init__.py")]


@pytest.mark.parametrize("name", ["a", "b"])
def test_each_jointer_gen_command_runs_its_own_checkout(clones, name):
    c = clones[name]
    exe = c / "build" / "venv" / "bin" / "jointer-gen"
    assert exe.read_text().startswith(f"#!{c}/build/venv/bin/python")
    out = _run([str(exe), "--help"], Path("/"))
    assert "jointer-gen" in out


@pytest.mark.parametrize("name", ["a", "b"])
def test_make_runs_the_venv_of_its_checkout(clones, name):
    c = clones[name]
    out = _run(["make", "-s", "-n", "py-test"], c)
    assert f"{c}/build/venv/bin/python -m pytest" in out
    py = _run(["bash", "-c", "make -s --eval 'where: ; @command -v python3 jointer-gen' where"], c)
    assert py.split() == [f"{c}/build/venv/bin/python3", f"{c}/build/venv/bin/jointer-gen"]


def test_a_second_deps_run_does_nothing(clones):
    assert "pip install" in clones["first"][clones["a"]]
    assert clones["again"] == ""


def test_skip_deps_makes_no_venv_and_falls_back_to_python3(clones):
    assert clones["skipped"] == "" and not clones["skipped_venv"]
    assert "\npython3 -m pytest" in "\n" + clones["skipped_py"]


def test_the_machine_wide_python_is_untouched(clones):
    assert clones["after"] == clones["before"]


@pytest.mark.parametrize("name", ["a", "b"])
def test_deps_gives_a_working_python_package(clones, name):
    """make deps builds the checkout's libjointer.so: the package loads it, no make py-lib first."""
    c = clones[name]
    out = _run([str(c / "build" / "venv" / "bin" / "python"), "-c",
                "import jointer; from jointer import _lib; _lib.lib(); print(_lib.lib_path())"], Path("/"))
    assert out.strip() == str(c / "build" / "drivers" / "shared" / "libjointer.so")
