"""Relay trace files (drivers/include/jointer_trace_file.h), read and written
by libjointer's own reader/writer (jointer_tfile_*) through a C FILE *:
the format is not implemented a second time here. A file of either
encoding (raw records or compact units, doc/trace-encoding.md) reads as
records; for a compact file the header dict's "units" is the header's count
and "records" the records decoded.

    hdr, records = read_trace_file("run.jtr")   # dict, numpy TRACE_DTYPE array
"""
import ctypes
import errno as E
import os

import numpy as np

from . import _lib
from .errors import JointerError
from .monitor import TRACE_DTYPE

EPROTO = getattr(E, "EPROTO", 71)
_CHUNK = 65536


def _fopen(path, mode):
    c = _lib.libc()
    f = c.fopen(os.fsencode(path), mode.encode())
    if not f:
        err = ctypes.get_errno() or E.EIO
        raise JointerError(err, "%s: cannot open: %s" % (path, os.strerror(err)))
    return f


def _header_dict(h):
    return {"version": h.version, "encoding": h.encoding, "config_hash": h.config_hash, "clock_hz": h.clock_hz,
            "depth": h.depth, "flags": h.flags, "complete": bool(h.flags & _lib.TFILE_COMPLETE), "lost": h.lost,
            "records": h.records, "monitor": h.monitor.decode(errors="replace"),
            "trace": h.trace.decode(errors="replace")}


def read_trace_file(path, expect_hash=None):
    """(header dict, records) of a trace file. JointerError names the file and
    what is wrong: not a trace file, unknown version, truncated header,
    partial record, a record count the file does not hold, or (expect_hash)
    a file from another monitor."""
    L, c = _lib.lib(), _lib.libc()
    f = _fopen(path, "rb")
    try:
        h = _lib.TfileHeader()
        r = L.jointer_tfile_read_header(f, ctypes.byref(h))
        if os.path.getsize(path) == 0:
            raise JointerError(EPROTO, "%s: empty file, not a jointer trace file" % path)
        if r == -EPROTO:
            raise JointerError(EPROTO, "%s: not a jointer trace file of a known version (magic \"JNTRTRC\", "
                                       "version 1, raw or compact encoding)" % path)
        if r < 0:
            raise JointerError(-r, "%s: truncated header (a trace file starts with %d header bytes): %s"
                               % (path, _lib.TFILE_HEADER_BYTES, _lib.strerror(r)))
        hd = _header_dict(h)
        if expect_hash is not None and h.config_hash != expect_hash:
            raise JointerError(E.ESTALE, "%s: recorded from monitor %s with config hash 0x%08X, not 0x%08X "
                                         "(a trace file from another monitor)"
                               % (path, hd["monitor"] or "?", h.config_hash, expect_hash))
        size = os.path.getsize(path)
        have = (size - _lib.TFILE_HEADER_BYTES) // _lib.TFILE_RECORD_BYTES
        if h.records > have:
            raise JointerError(EPROTO, "%s: the header says %d records, the file holds %d (truncated)"
                               % (path, h.records, have))
        compact = h.encoding == _lib.TFILE_ENC_COMPACT
        out = np.zeros(int(h.records) * (3 if compact else 1), TRACE_DTYPE)
        rd = _lib.TfileReader()
        L.jointer_tfile_reader_init(ctypes.byref(rd))
        got, n = 0, _lib.u32()
        while rd.items < h.records:
            want = int(min(_CHUNK, len(out) - got))
            r = L.jointer_tfile_read_records(f, ctypes.byref(h), ctypes.byref(rd), out[got:].ctypes.data, want,
                                             ctypes.byref(n))
            if r < 0:
                what = {EPROTO: "partial record at the end", E.EILSEQ: "malformed compact unit"}
                raise JointerError(-r, "%s: %s %d: %s" % (path, "unit" if compact else "record", rd.items - 1,
                                                          what.get(-r, _lib.strerror(r))))
            got += n.value
            if n.value == 0:
                break
        if rd.items < h.records:
            raise JointerError(EPROTO, "%s: %d %s of %d, then the end" % (path, rd.items,
                                                                         "units" if compact else "records", h.records))
        out = out[:got]
        if compact:
            hd["units"], hd["records"], hd["skipped_units"] = int(h.records), got, int(rd.skipped)
        if size > _lib.TFILE_HEADER_BYTES + h.records * _lib.TFILE_RECORD_BYTES and hd["complete"]:
            extra = size - _lib.TFILE_HEADER_BYTES - h.records * _lib.TFILE_RECORD_BYTES
            raise JointerError(EPROTO, "%s: %d bytes after the %d records the header counts (corrupted)"
                               % (path, extra, h.records))
        return hd, out
    finally:
        c.fclose(f)


def write_trace_file(path, descriptor, trace, records, lost=0, complete=True):
    """A trace file for trace `trace` of descriptor with these records,
    through libjointer's writer (jointer_tfile_header_init/append/finish);
    written to PATH.tmp then renamed."""
    L, c = _lib.lib(), _lib.libc()
    t = descriptor.trace(trace)
    rec = np.ascontiguousarray(np.asarray(records, dtype=TRACE_DTYPE))
    tmp = path + ".tmp"
    h = _lib.TfileHeader()
    r = L.jointer_tfile_header_init(ctypes.byref(h), descriptor.cfg_ptr, t.index)
    if r < 0:
        raise JointerError(-r, "trace file header: %s" % _lib.strerror(r))
    f = _fopen(tmp, "w+b")
    try:
        r = L.jointer_tfile_write_header(f, ctypes.byref(h))
        for k in range(0, len(rec), _CHUNK):
            if r == 0:
                part = rec[k:k + _CHUNK]
                r = L.jointer_tfile_append(f, ctypes.byref(h), part.ctypes.data, len(part))
        if r == 0 and complete:
            r = L.jointer_tfile_finish(f, ctypes.byref(h), lost)
    finally:
        if c.fclose(f) != 0 and r == 0:
            r = -E.EIO
    if r < 0:
        os.unlink(tmp)
        raise JointerError(-r, "%s: %s" % (path, _lib.strerror(r)))
    os.replace(tmp, path)
