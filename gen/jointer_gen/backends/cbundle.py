# SPDX-License-Identifier: MIT
"""Software shapes of a monitor beyond its generated C files: the C bundle
(c/Makefile: the monitor's descriptor library, header, .jdesc and .pc; libjointer
itself is <OUT>/libjointer/, libbundle.py) and the Vitis driver inside the IP
(ip/drivers/<name>_v1_0/).

The Vitis driver carries copies of libjointer (drivers/ of this checkout), as
ip/hdl/ carries copies of the VHDL library: an IP repository is copied away
from the repository and must build there. Which files: the lists of
drivers/sources.mk (read by scripts/driver_sources.py, their one parser),
the headers they include, and the CLI sources of drivers/cli/. The copies
are byte for byte and are left out of the golden files (manifest roles
COPY_ROLES); the tests compare them with their sources.
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
from .vivado.vlnv import IP_VERSION, vlnv

DRIVERS = REPO / "drivers"
IP_DRIVER_VERSION = IP_VERSION    # the driver's version is the IP's (jointer's release)

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


def _included(paths: list[Path]) -> list[Path]:
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


@lru_cache(maxsize=1)
def baremetal_library() -> tuple[tuple[str, Path], ...]:
    """(file name, source) of the Vitis driver's libjointer copies: the
    portable sources (no hosted file) and the headers they and the generated
    files include."""
    g = source_groups()
    srcs = [DRIVERS / "src" / f for f in _unique(Path(f) for f in g["DRV_PORTABLE_SRCS"])]
    heads = _included(srcs + [DRIVERS / "include" / "jointer.h"])
    return tuple((p.name, p) for p in sorted(srcs + heads, key=lambda p: p.name))


def driver_dir(d: Design) -> str:
    return f"ip/drivers/{d.name}_v{IP_DRIVER_VERSION.replace('.', '_')}"


def driver_src_files(d: Design) -> list[str]:
    """File names in the Vitis driver's src/: the BSP Makefile, libjointer, the generated C."""
    own = [f"{d.name}.c", f"{d.name}.h", f"{d.name}_regs.h"]
    return sorted(["Makefile"] + [n for n, _ in baremetal_library()] + own)


def context(d: Design) -> dict:
    ddir = driver_dir(d)
    return {"driver_dir": ddir[len("ip/"):], "driver_name": d.name,
            "driver_version": IP_DRIVER_VERSION, "driver_src": driver_src_files(d),
            "example": f"{d.name}_example.c",
            "hash_c": f"0x{d.config_hash:08X}", "ip_vlnv": vlnv(d)}


def emit(d: Design) -> list[OutFile]:
    """The bundle's and the driver's generated files, then the copies: libjointer
    into c/jointer/ and into the driver's src/, the generated C into the driver's src/."""
    ddir, b = driver_dir(d), context(d)
    out = [render_file(d, "c/Makefile.j2", "c/Makefile", "c-makefile", b=b),
           render_file(d, "vitis/driver.mdd.j2", f"{ddir}/data/{d.name}.mdd", "ip-driver-mdd", b=b),
           render_file(d, "vitis/driver.tcl.j2", f"{ddir}/data/{d.name}.tcl", "ip-driver-tcl", b=b),
           render_file(d, "vitis/Makefile.j2", f"{ddir}/src/Makefile", "ip-driver-makefile", b=b),
           render_file(d, "vitis/example.c.j2", f"{ddir}/examples/{d.name}_example.c", "ip-driver-example",
                       b=b)]
    out.append(OutFile("c/LICENSE", _read(REPO / "LICENSE"), "c-license"))
    out += [OutFile(f"{ddir}/src/{n}", _read(p), "ip-driver-library") for n, p in baremetal_library()]
    out += [OutFile(f"{ddir}/src/{own}", None, "ip-driver-copy", copy_of=f"c/{own}")
            for own in (f"{d.name}.c", f"{d.name}.h", f"{d.name}_regs.h")]
    return out
