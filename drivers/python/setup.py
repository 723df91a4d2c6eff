# SPDX-License-Identifier: MIT
"""Build of the jointer package's libjointer: the C runtime compiled by
setuptools into jointer/libjointer.so, a plain shared object (no Python C
API) that jointer/_lib.py loads with ctypes.

The C sources are the ones drivers/sources.mk lists (the portable and the
hosted groups, as `make py-lib` builds them) plus the headers of
drivers/src and drivers/include. From a checkout they are copied into csrc/
next to this file (csrc/ is what an sdist carries: MANIFEST.in), so an sdist
or a wheel installs with neither the repository nor make. CC=... (and
_PYTHON_HOST_PLATFORM=linux-aarch64, linux-armv7l) cross-builds a board
wheel. The wheel is tagged py3-none-<platform>: one per platform serves
every Python 3.

An editable install (`pip install -e`, the checkout's development setup)
builds nothing: there the library is build/drivers/shared/libjointer.so of
`make py-lib`, which follows the C sources.
"""
import filecmp
import glob
import os
import re
import shutil

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:  # setuptools >= 70.1 has its own bdist_wheel, older ones use the wheel package's
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover - depends on the installed setuptools
    try:
        from wheel.bdist_wheel import bdist_wheel
    except ImportError:
        bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
CSRC = os.path.join(HERE, "csrc")
CHECKOUT_DRIVERS = os.path.dirname(HERE)          # drivers/ when this file sits in a checkout
GROUPS = ("DRV_PORTABLE_SRCS", "DRV_HOSTED_SRCS")  # drivers.mk's DRV_LIB


def source_groups(text):
    """{NAME: [file names]} of a sources.mk, $(NAME) references expanded
    (the format scripts/driver_sources.py reads)."""
    out = {}
    for line in re.sub(r"\\\n", " ", text).splitlines():
        m = re.match(r"^\s*([A-Z_]+)\s*:=\s*(.*)$", line)
        if not m:
            continue
        words = []
        for w in m.group(2).split():
            ref = re.fullmatch(r"\$\(([A-Z_]+)\)", w)
            words += out[ref.group(1)] if ref else [w]
        out[m.group(1)] = words
    return out


def library_sources(root):
    """The .c files of libjointer under root (drivers/ or csrc/), in order, once each."""
    with open(os.path.join(root, "sources.mk")) as f:
        groups = source_groups(f.read())
    names = []
    for g in GROUPS:
        if g not in groups:
            raise SystemExit("jointer setup.py: %s has no %s" % (os.path.join(root, "sources.mk"), g))
        names += [n for n in groups[g] if n not in names]
    return names


def _copy_if_changed(src, dst):
    if not (os.path.exists(dst) and filecmp.cmp(src, dst, shallow=False)):
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(src, dst)


def sync_csrc():
    """From a checkout: csrc/ = sources.mk, the listed .c files and every
    header (files written only when they changed, stale ones removed).
    From an sdist (no checkout around): csrc/ is already there."""
    if not (os.path.isfile(os.path.join(CHECKOUT_DRIVERS, "sources.mk"))
            and os.path.isdir(os.path.join(CHECKOUT_DRIVERS, "src"))):
        if not os.path.isfile(os.path.join(CSRC, "sources.mk")):
            raise SystemExit("jointer setup.py: no C sources: neither %s/sources.mk (a checkout) nor "
                             "csrc/sources.mk (an sdist)" % CHECKOUT_DRIVERS)
        return
    want = {"sources.mk": os.path.join(CHECKOUT_DRIVERS, "sources.mk")}
    for n in library_sources(CHECKOUT_DRIVERS):
        want[os.path.join("src", n)] = os.path.join(CHECKOUT_DRIVERS, "src", n)
    for d in ("src", "include"):
        for h in glob.glob(os.path.join(CHECKOUT_DRIVERS, d, "*.h")):
            want[os.path.join(d, os.path.basename(h))] = h
    for rel, src in want.items():
        _copy_if_changed(src, os.path.join(CSRC, rel))
    for path in glob.glob(os.path.join(CSRC, "*", "*")) + glob.glob(os.path.join(CSRC, "*")):
        if os.path.isfile(path) and os.path.relpath(path, CSRC) not in want:
            os.unlink(path)


class BuildLib(build_ext):
    """build_ext for a ctypes library: named libjointer.so, no module init
    symbol; nothing for an editable install."""

    def get_ext_filename(self, fullname):
        return os.path.join(*fullname.split(".")[:-1], "libjointer.so")

    def get_export_symbols(self, ext):
        return []

    def run(self):
        if getattr(self, "editable_mode", False):
            print("jointer: editable install, libjointer not built here (`make py-lib`, or $JOINTER_LIB)")
            return
        build_ext.run(self)


CMDCLASS = {"build_ext": BuildLib}

if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        """py3-none-<platform>: the library does not depend on the Python version."""

        def get_tag(self):
            return ("py3", "none") + tuple(bdist_wheel.get_tag(self)[2:])

    CMDCLASS["bdist_wheel"] = PlatformWheel

sync_csrc()
LIB = Extension(
    "jointer.libjointer",
    sources=[os.path.join("csrc", "src", n) for n in library_sources(CSRC)],
    include_dirs=[os.path.join("csrc", "include"), os.path.join("csrc", "src")],
    extra_compile_args=["-std=c99"],
    py_limited_api=False,
)

def release(root):
    """jointer's release from its one place, include/jointer_version.h under root."""
    with open(os.path.join(root, "include", "jointer_version.h")) as f:
        text = f.read()
    parts = [re.search(r"#define JOINTER_VERSION_%s\s+(\d+)" % k, text) for k in ("MAJOR", "MINOR", "PATCH")]
    if not all(parts):
        raise SystemExit("jointer setup.py: no version in %s/include/jointer_version.h" % root)
    return ".".join(m.group(1) for m in parts)


setup(version=release(CSRC), ext_modules=[LIB], cmdclass=CMDCLASS)
