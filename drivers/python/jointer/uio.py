# SPDX-License-Identifier: MIT
"""UIO devices by name ("uio:name=<node-name>"): libjointer's jointer_uio_find
resolves them; here the parameters the package passes (the test hooks
$JOINTER_UIO_SYSFS and $JOINTER_UIO_DEV) and the message of a name that
found no device or several, which names every UIO device that was found."""

import ctypes
import errno as E
import os

from . import _lib
from .errors import JointerError


def uio_params(sysfs_root=None, map_index=0):
    """UIO port parameters: sysfs_root ($JOINTER_UIO_SYSFS) replaces /sys/class/uio,
    $JOINTER_UIO_DEV replaces /dev (where uio:name= finds uioN; tests)."""
    root = sysfs_root or os.environ.get("JOINTER_UIO_SYSFS")
    dev = os.environ.get("JOINTER_UIO_DEV")
    return _lib.UioParams(root.encode() if root else None, None, map_index, dev.encode() if dev else None)


def uio_find(name, sysfs_root=None):
    """(r, path, found) of libjointer's jointer_uio_find: the /dev/uioN named `name`."""
    path, found = ctypes.create_string_buffer(512), ctypes.create_string_buffer(1024)
    p = uio_params(sysfs_root)
    r = _lib.lib().jointer_uio_find(name.encode(), ctypes.byref(p), path, len(path), found, len(found))
    return r, path.value.decode(errors="replace"), found.value.decode(errors="replace")


def uio_name_error(spec, r, sysfs_root=None):
    """The JointerError of a uio:name= that found no device (-ENOENT) or several (-ENOTUNIQ)."""
    _, _, found = uio_find(spec[len("uio:name="):], sysfs_root)
    return JointerError(-r, "%s: %s UIO device is named \"%s\"; found: %s\n"
                            "  hint: the name is the device-tree node's (cat /sys/class/uio/uio*/name)"
                        % (spec, "no" if r == -E.ENOENT else "more than one", spec[len("uio:name="):],
                           found or "no UIO device at all"))
