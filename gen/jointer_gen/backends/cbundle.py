# SPDX-License-Identifier: MIT
"""The C bundle of a monitor, c/ (c/Makefile: the monitor's descriptor library,
header, .jdesc and .pc; libjointer itself is <OUT>/libjointer/, libbundle.py),
and the helpers that find libjointer's files for every copy of them: the
bundles and the Vitis driver inside the IP (vivado/vitis.py), which carries
copies of libjointer as ip/hdl/ carries copies of the VHDL library (an IP
repository is copied away from the repository and must build there).

Which files: the lists of drivers/sources.mk (read by
scripts/driver_sources.py, their one parser), the headers they include, and
the CLI sources of drivers/cli/. The copies are byte for byte and are left
out of the golden files (manifest roles COPY_ROLES); the tests compare them
with their sources.
"""

from __future__ import annotations

import importlib.util
import re
from functools import lru_cache
from pathlib import Path

from ..model.views import Design
from ..model.vhdl_library import REPO, LibraryMissing
from . import COPY_ROLES, OutFile  # noqa: F401  (COPY_ROLES: the manifest roles of the copies)
from .templates import render_file

DRIVERS = REPO / "drivers"

_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def _missing(what: str) -> LibraryMissing:
    return LibraryMissing(f"libjointer is not at {DRIVERS} (missing {what}); "
                          "run jointer-gen from a checkout (pip install -e gen)")


@lru_cache(maxsize=1)
def source_groups() -> dict[str, list[str]]:
    """drivers/sources.mk's groups ({NAME: [file names]}) through scripts/driver_sources.py."""
    script = REPO / "scripts" / "driver_sources.py"
    if not script.is_file() or not (DRIVERS / "sources.mk").is_file():
        raise _missing("drivers/sources.mk")
    spec = importlib.util.spec_from_file_location("jointer_driver_sources", script)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.groups()


def read_text(p: Path) -> str:
    """A file of the checkout, byte for byte (libbundle.py's copies too)."""
    return _read(p)


def _read(p: Path) -> str:
    if not p.is_file():
        raise _missing(p.relative_to(REPO).as_posix())
    return p.read_bytes().decode("utf-8")     # byte for byte (no newline translation)


def _header(name: str) -> Path | None:
    """A quoted include of libjointer: drivers/include/ first, then drivers/src/."""
    for folder in ("include", "src"):
        p = DRIVERS / folder / name
        if p.is_file():
            return p
    return None


def included(paths: list[Path]) -> list[Path]:
    """libjointer headers the given files include, transitively, sorted by name."""
    seen: dict[str, Path] = {}
    todo = list(paths)
    while todo:
        for inc in _INCLUDE.findall(_read(todo.pop())):
            h = _header(inc)
            if h is not None and h.name not in seen:
                seen[h.name] = h
                todo.append(h)
    return [seen[k] for k in sorted(seen)]


def _unique(paths) -> list[Path]:
    out: dict[str, Path] = {}
    for p in paths:
        out.setdefault(p.as_posix(), p)
    return list(out.values())


@lru_cache(maxsize=1)
def bundle_library() -> tuple[tuple[str, Path], ...]:
    """(path inside c/, source) of the libjointer copies of the C bundle:
    jointer/include/ every public header, jointer/src/ the portable and hosted
    sources with the private headers, jointer/cli/ the CLI."""
    g = source_groups()
    srcs = [DRIVERS / "src" / f for f in _unique(Path(f) for f in g["DRV_PORTABLE_SRCS"] + g["DRV_HOSTED_SRCS"])]
    out = [(f"jointer/include/{p.name}", p) for p in sorted((DRIVERS / "include").glob("*.h"))]
    out += [(f"jointer/src/{p.name}", p) for p in sorted(srcs + sorted((DRIVERS / "src").glob("*.h")))]
    out += [(f"jointer/cli/{p.name}", p) for p in sorted((DRIVERS / "cli").glob("*.[ch]"))]
    for _, p in out:
        _read(p)
    return tuple(out)


def emit(d: Design) -> list[OutFile]:
    """The bundle's Makefile and its LICENSE (its C files are c_files.py's)."""
    return [render_file(d, "c/Makefile.j2", "c/Makefile", "c-makefile"),
            OutFile("c/LICENSE", _read(REPO / "LICENSE"), "c-license")]
