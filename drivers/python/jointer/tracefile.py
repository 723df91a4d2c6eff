# SPDX-License-Identifier: MIT
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

from . import _conv, _lib, safeio
from .errors import JointerError

EPROTO = getattr(E, "EPROTO", 71)
_CHUNK = 65536


def _header_dict(h):
    return {"version": h.version, "encoding": h.encoding, "config_hash": h.config_hash, "clock_hz": h.clock_hz,
            "depth": h.depth, "flags": h.flags, "complete": bool(h.flags & _lib.TFILE_COMPLETE), "lost": h.lost,
            "records": h.records, "monitor": h.monitor.decode(errors="replace"),
            "trace": h.trace.decode(errors="replace"), "clock": h.clock.decode(errors="replace"),
            "lanes": [h.lane_names[k].value.decode(errors="replace") for k in range(h.num_lanes)],
            "sync": bool(h.sync), "spans": [h.spans[k].name.decode(errors="replace") for k in range(h.num_spans)],
            "syncs": [(h.syncs[k].before_ns, h.syncs[k].after_ns) for k in range(h.num_syncs)],
            "data_offset": h.data_offset}


def open_source(path, expect_hash=None):
    """A checked trace-file source (jointer._conv.Src): a regular file (no
    hang on a FIFO or a device), its header and size consistent; expect_hash:
    refuse a file of another monitor."""
    fd = safeio.open_input(path, "a jointer trace file")
    try:
        src = _conv.Src(path, fd)
    finally:
        os.close(fd)
    h = src.header
    if expect_hash is not None and h.config_hash != expect_hash:
        src.close()
        raise JointerError(E.ESTALE, "%s: recorded from monitor %s with config hash 0x%08X, not 0x%08X "
                                     "(a trace file from another monitor)"
                           % (path, h.monitor.decode(errors="replace") or "?", h.config_hash, expect_hash))
    return src


def warning(src):
    """The one-line warning of a source read to its end, or None: a partial
    item at the end of a file without COMPLETE, units before the first SYNC."""
    tail, skipped = src.count(_conv.TAIL), src.count(_conv.SKIPPED)
    out = []
    if tail:
        out.append("incomplete file (the recording was cut short): the %d bytes of a partial item at byte offset "
                   "%d ignored" % (tail, src.header.data_offset + _lib.TFILE_RECORD_BYTES * src.count(_conv.ITEMS)))
    if skipped:
        out.append("%d units before the first SYNC skipped" % skipped)
    return "%s: %s" % (src.path, "; ".join(out)) if out else None


def read_trace_file(path, expect_hash=None):
    """(header dict, records) of a trace file. JointerError names the file and
    what is wrong: not a regular file, not a trace file, unknown version,
    truncated header, a record count the file does not hold, bytes after
    them, a malformed compact unit (with its byte offset), or (expect_hash)
    a file from another monitor. A file without COMPLETE (the recording was
    cut short) gives its whole records: a partial one at its end is left out
    (header "tail_bytes")."""
    import numpy as np
    from .monitor import TRACE_DTYPE
    src = open_source(path, expect_hash)
    try:
        h = src.header
        hd = _header_dict(h)
        compact = h.encoding == _lib.TFILE_ENC_COMPACT
        out = np.zeros(src.count(_conv.ITEMS) * (3 if compact else 1) + 3, TRACE_DTYPE)
        got, n = 0, _lib.u32()
        L = _conv.lib()
        while True:
            r = L.jointer_export_read(src.ptr, out[got:].ctypes.data, int(min(_CHUNK, len(out) - got)),
                                      ctypes.byref(n))
            if r < 0:
                raise src.error(r)
            got += n.value
            if n.value == 0:
                break
        out = out[:got]
        hd["records"] = got
        hd["tail_bytes"] = src.count(_conv.TAIL)
        if compact:
            hd["units"], hd["skipped_units"] = src.count(_conv.ITEMS), src.count(_conv.SKIPPED)
        return hd, out
    finally:
        src.close()


def write_trace_file(path, descriptor, trace, records, lost=0, complete=True, syncs=()):
    """A trace file for trace `trace` of descriptor with these records,
    through libjointer's writer (jointer_tfile_header_init/append/finish),
    written as jointer.safeio.Output writes (a temporary file renamed, a
    device in place); the header's clock_hz is the trace's LMIC clock, its
    lanes and spans the trace's; syncs: the host's (before_ns, after_ns) of
    each sync (Monitor.syncs[trace]), at most 4."""
    import numpy as np
    from .monitor import TRACE_DTYPE
    L = _lib.lib()
    t = descriptor.trace(trace)
    rec = np.ascontiguousarray(np.asarray(records, dtype=TRACE_DTYPE))
    h = _lib.TfileHeader()
    r = L.jointer_tfile_header_init(ctypes.byref(h), descriptor.cfg_ptr, t.index)
    for before, after in syncs:
        r = r or L.jointer_tfile_add_sync(ctypes.byref(h), before, after)
    if r < 0:
        raise JointerError(-r, "trace file header: %s" % _lib.strerror(r))
    with safeio.Output(path) as out:
        f = _conv.CFile(out.fileno(), "wb", path)
        try:
            r = L.jointer_tfile_write_header(f.f, ctypes.byref(h))
            for k in range(0, len(rec), _CHUNK):
                if r == 0:
                    part = rec[k:k + _CHUNK]
                    r = L.jointer_tfile_append(f.f, ctypes.byref(h), part.ctypes.data, len(part))
            if r == 0 and complete:
                r = L.jointer_tfile_finish(f.f, ctypes.byref(h), lost)
        finally:
            err = f.close()
        if r == 0 and err:
            r = -err
        if r < 0:
            raise JointerError(-r, "%s: cannot write: %s" % (path, os.strerror(-r)))
