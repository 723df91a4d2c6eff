# SPDX-License-Identifier: MIT
"""One release number everywhere, from drivers/include/jointer_version.h:
libjointer's run-time jointer_version(), the generator, the Python package,
the IP's VLNV and the Vitis driver, the C bundle's pkg-config file; the
hardware's VERSION register (the register map's version) is another number."""
import os
import re

from conftest import REPO

import jointer
from jointer import _lib


def header_release():
    with open(os.path.join(REPO, "drivers", "include", "jointer_version.h")) as f:
        text = f.read()
    return tuple(int(re.search(r"#define JOINTER_VERSION_%s\s+(\d+)" % k, text).group(1))
                 for k in ("MAJOR", "MINOR", "PATCH"))


def test_one_release_everywhere():
    major, minor, patch = header_release()
    release = "%d.%d.%d" % (major, minor, patch)
    L = _lib.lib()
    assert L.jointer_version() == major << 16 | minor << 8 | patch
    assert L.jointer_version_string().decode() == release
    assert jointer.__version__ == release
    import jointer_gen
    from jointer_gen.backends.vivado import vitis, vlnv
    assert jointer_gen.__version__ == release
    assert vlnv.IP_VERSION == vitis.IP_DRIVER_VERSION == "%d.%d" % (major, minor)
    with open(os.path.join(REPO, "gen", "jointer_gen", "templates", "c", "Makefile.j2")) as f:
        assert "VERSION    := {{ d.version }}" in f.read()      # the .pc's Version: the generator's


def test_register_map_version_is_its_own():
    with open(os.path.join(REPO, "drivers", "include", "jointer_desc.h")) as f:
        value = int(re.search(r"#define JOINTER_VERSION_VALUE\s+0x([0-9A-Fa-f]+)u", f.read()).group(1), 16)
    with open(os.path.join(REPO, "hdl", "pkg", "jointer_pkg.vhd")) as f:
        vhdl = int(re.search(r'version_c : std_logic_vector\(31 downto 0\) := x"([0-9A-Fa-f]+)"', f.read()).group(1), 16)
    assert value == vhdl == _lib.VERSION_VALUE
