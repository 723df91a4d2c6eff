# SPDX-License-Identifier: MIT
"""ctypes view of libjointer's converters (drivers/include/jointer_export.h)
on the library object _lib.lib() loads: the one C implementation of the
CSV / JSON / VCD / Perfetto formats, the trace-file source and its error
messages, and the wrap rule of cycle counters (jointer_cycles.h).

A jointer_export_src is opaque here: its size comes from the library, its
header through jointer_export_header (the _lib.TfileHeader mirror), its
counts through jointer_export_count. C writes to a FILE * made by fdopen
on a duplicate of a Python file descriptor (Src / cfile below).
"""
import ctypes
import errno as E
import os

from . import _lib
from .errors import JointerError

c_int, c_uint, c_char_p, c_void_p, c_size_t = ctypes.c_int, ctypes.c_uint, ctypes.c_char_p, ctypes.c_void_p, \
    ctypes.c_size_t
u16, u32, u64, i64, P = ctypes.c_uint16, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_int64, ctypes.POINTER

RECORDS, ITEMS, TAIL, SKIPPED, ITEMS_READ, WHY = range(6)
PM_NO_INDEX = 0xFF


class ExportFrame(ctypes.Structure):
    _fields_ = [("cycle", u64), ("function", u16)]


class ExportCalls(ctypes.Structure):
    _fields_ = [("fn", P(_lib.PmFunction)), ("names", P(c_char_p)), ("nfn", c_uint), ("stack", P(ExportFrame)),
                ("stack_depth", c_uint)]


class Perfetto(ctypes.Structure):
    _fields_ = [("out", c_void_p), ("events", u64)]


_PROTOS = {
    "jointer_export_src_size": (c_size_t, []),
    "jointer_export_open": (c_int, [c_void_p, c_void_p, c_char_p]),
    "jointer_export_read": (c_int, [c_void_p, c_void_p, u32, P(u32)]),
    "jointer_export_cycles": (None, [c_void_p, c_void_p, u32, c_void_p]),
    "jointer_export_message": (None, [c_void_p, c_int, c_char_p, c_size_t]),
    "jointer_export_header": (P(_lib.TfileHeader), [c_void_p]),
    "jointer_export_count": (u64, [c_void_p, c_int]),
    "jointer_export_csv": (c_int, [c_void_p, c_void_p]),
    "jointer_export_json": (c_int, [c_void_p, c_void_p]),
    "jointer_export_spans_csv": (c_int, [c_void_p, c_void_p]),
    "jointer_export_set_clock": (c_int, [c_void_p, u32]),
    "jointer_export_vcd": (c_int, [c_void_p, P(c_void_p), c_uint, c_char_p]),
    "jointer_perfetto_begin": (c_int, [P(Perfetto), c_void_p]),
    "jointer_perfetto_process": (c_int, [P(Perfetto), c_uint, c_char_p]),
    "jointer_perfetto_thread": (c_int, [P(Perfetto), c_uint, c_uint, c_char_p]),
    "jointer_perfetto_records": (c_int, [P(Perfetto), c_void_p, c_uint, c_uint, P(ExportCalls)]),
    "jointer_perfetto_counter": (c_int, [P(Perfetto), c_uint, c_char_p, ctypes.c_double, i64]),
    "jointer_perfetto_end": (c_int, [P(Perfetto), c_char_p, P(c_char_p), c_uint]),
}

_done = None
_libc = None


def lib():
    """libjointer with the converters' prototypes set."""
    global _done
    L = _lib.lib()
    if _done is not L:
        for name, (res, args) in _PROTOS.items():
            fn = getattr(L, name)
            fn.restype, fn.argtypes = res, args
        _done = L
    return L


def libc():
    global _libc
    if _libc is None:
        c = _lib.libc()
        c.fdopen.restype, c.fdopen.argtypes = c_void_p, [c_int, c_char_p]
        c.fflush.restype, c.fflush.argtypes = c_int, [c_void_p]
        c.setvbuf.restype, c.setvbuf.argtypes = c_int, [c_void_p, c_char_p, c_int, c_size_t]
        _libc = c
    return _libc


class CFile:
    """A C FILE * on a duplicate of fd (mode "rb" or "wb"); close() says whether it flushed."""

    def __init__(self, fd, mode, path):
        self.path = path
        dup = os.dup(fd)
        self.f = libc().fdopen(dup, mode.encode())
        if not self.f:
            err = ctypes.get_errno() or E.EIO
            os.close(dup)
            raise JointerError(err, "%s: %s" % (path, os.strerror(err)))
        libc().setvbuf(self.f, None, 0, 1 << 16)        # _IOFBF, as the CLI

    def close(self):
        """0, or the positive errno of the flush / close."""
        if not self.f:
            return 0
        c = libc()
        r = c.fclose(self.f)
        self.f = None
        return (ctypes.get_errno() or E.EIO) if r != 0 else 0


class Src:
    """One trace file as a libjointer source (jointer_export_open): header
    checked, size checked against it; JointerError names the file."""

    def __init__(self, path, fd):
        self.path = path
        L = lib()
        self.mem = ctypes.create_string_buffer(L.jointer_export_src_size())
        self.ptr = ctypes.cast(self.mem, c_void_p)
        self.cfile = CFile(fd, "rb", path)
        r = L.jointer_export_open(self.ptr, self.cfile.f, os.fsencode(os.path.basename(path))[:31])
        if r < 0:
            self.close()
            raise self.error(r)

    def error(self, r):
        buf = ctypes.create_string_buffer(256)
        lib().jointer_export_message(self.ptr, r, buf, len(buf))
        return JointerError(-r if r < 0 else E.EIO, "%s: %s" % (self.path, buf.value.decode("ascii", "replace")))

    def stopped(self):
        """True when the source stopped on an error of its input (not the output's)."""
        return self.count(WHY) != 0

    @property
    def header(self):
        return lib().jointer_export_header(self.ptr).contents

    def count(self, what):
        return int(lib().jointer_export_count(self.ptr, what))

    def close(self):
        self.cfile.close()
