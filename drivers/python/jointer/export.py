# SPDX-License-Identifier: MIT
"""Export trace files as VCD, Chrome/Perfetto JSON, CSV or JSON, written by
libjointer's converters (drivers/include/jointer_export.h, through
jointer._conv): the same code as `jointer trace --convert`, record by
record, memory independent of the trace's length.
  - VCD: per trace a 32-bit `data` signal and a 1-bit `strobe` (high during
    each record's cycle) in scope <monitor>.<trace>, timescale 1 ps, time =
    cycle x the LMIC clock period; a trace file with an unknown clock
    (clock_hz 0) counts 1 ns per cycle; several files merged in time order;
  - Perfetto: records as instant events on one thread per trace,
    program-monitor calls (with a symbol file) as complete ("X") slices,
    `jointer watch --output` CSV samples as counter ("C") tracks; ts in
    microseconds;
  - CSV / JSON: what `jointer trace --convert` prints (one file).
Cycles and durations follow the one rule of drivers/include/jointer_cycles.h
(every 32-bit wrap between consecutive records counts), the rule of
`jointer profile` and jointer.profile() too. The output is written as
jointer.safeio.Output writes: nothing half-written, a device in place, the
input never overwritten.
"""
import ctypes
import errno as E
import math
import os

from . import _conv, _lib, safeio
from .errors import JointerError
from .profile import read_symbols
from .tracefile import open_source, warning

FORMATS = ("vcd", "perfetto", "csv", "json", "spans")
EXT = {"vcd": ".vcd", "perfetto": ".json", "csv": ".csv", "json": ".records.json", "spans": ".spans.csv"}
STACK_DEPTH = 1024


def unwrap(ts):
    """32-bit timestamps of consecutive records, oldest first -> their
    64-bit cycles (jointer_cycles.h, computed by libjointer)."""
    import numpy as np
    t = np.ascontiguousarray(np.asarray(ts, dtype="<u4"))
    out = np.zeros(len(t), dtype="<u8")
    state = ctypes.create_string_buffer(_conv.lib().jointer_export_src_size())   # zeros: the rule's start
    if len(t):
        _conv.lib().jointer_export_cycles(state, t.ctypes.data, len(t), out.ctypes.data)
    return out.tolist()


def period_ps(clock_hz):
    """Clock period in ps (rounded); 1000 (1 ns per cycle) when unknown."""
    return (10 ** 12 + clock_hz // 2) // clock_hz if clock_hz else 1000


def read_watch_csv(path):
    """{metric: [(time_ms, value)]} of a `jointer watch --output` CSV."""
    import csv
    rows = list(csv.reader(safeio.read_text(path, "a `jointer watch --output` CSV").splitlines()))
    if not rows or not rows[0] or rows[0][0] != "time_ms" or len(rows[0]) < 2:
        raise JointerError(E.EINVAL, "%s:1: expected the header time_ms,METRIC... (jointer watch --output)" % path)
    names = rows[0][1:]
    out = {n: [] for n in names}
    for ln, row in enumerate(rows[1:], 2):
        if not row:
            continue
        if len(row) != len(names) + 1:
            raise JointerError(E.EINVAL, "%s:%d: %d fields, the header has %d" % (path, ln, len(row), len(names) + 1))
        try:
            t = float(row[0])
            vals = [int(v) for v in row[1:]]
        except ValueError:
            raise JointerError(E.EINVAL, "%s:%d: expected a time in ms and integer values" % (path, ln)) from None
        if not math.isfinite(t) or t < 0 or any(not -2 ** 63 <= v < 2 ** 63 for v in vals):
            raise JointerError(E.EINVAL, "%s:%d: a time >= 0 ms and 64-bit values expected" % (path, ln))
        for n, v in zip(names, vals):
            out[n].append((t, v))
    return out


def _version():
    from . import __version__
    return __version__


def _calls(symbols):
    """The program-monitor functions of a symbol file as jointer_export_calls."""
    syms = read_symbols(symbols)
    fn = (_lib.PmFunction * len(syms))()
    k = 0
    for i, (_, _, exit_) in enumerate(syms):
        fn[i].entry, k = k, k + 1
        fn[i].exit = _lib.PM_NO_INDEX
        if exit_ is not None:
            fn[i].exit, k = k, k + 1
    names = (ctypes.c_char_p * len(syms))(*[n.encode()[:200] for n, _, _ in syms])
    stack = (_conv.ExportFrame * STACK_DEPTH)()
    calls = _conv.ExportCalls(fn, names, len(syms), stack, STACK_DEPTH)
    calls._keep = (fn, names, stack)
    return calls


def _perfetto(L, f, srcs, calls, watch):
    p = _conv.Perfetto()
    r = L.jointer_perfetto_begin(ctypes.byref(p), f)
    pids = {}
    for tid, s in enumerate(srcs, 1):
        mon = s.header.monitor or b"monitor"
        if mon not in pids:
            pids[mon] = len(pids) + 1
            r = r or L.jointer_perfetto_process(ctypes.byref(p), pids[mon], mon)
        r = r or L.jointer_perfetto_thread(ctypes.byref(p), pids[mon], tid, s.header.trace or
                                           os.fsencode(os.path.basename(s.path))[:31])
    for tid, s in enumerate(srcs, 1):
        r = r or L.jointer_perfetto_records(ctypes.byref(p), s.ptr, pids[s.header.monitor or b"monitor"], tid,
                                            ctypes.byref(calls) if calls else None)
    if watch and r == 0:
        wpid = len(pids) + 1
        r = L.jointer_perfetto_process(ctypes.byref(p), wpid, b"watch")
        for metric, samples in watch.items():
            name = metric.encode()[:100]
            for t, v in samples:
                r = r or L.jointer_perfetto_counter(ctypes.byref(p), wpid, name, t * 1e3, v)
    names = [os.fsencode(os.path.basename(s.path))[:250] for s in srcs]
    return r or L.jointer_perfetto_end(ctypes.byref(p), ("jointer python %s" % _version()).encode(),
                                       (ctypes.c_char_p * len(names))(*names), len(names))


def _write(fmt, srcs, out, calls, watch):
    """The C converter of fmt over srcs into the binary file object out: 0 or -errno."""
    L = _conv.lib()
    f = _conv.CFile(out.fileno(), "wb", out.name)
    try:
        if fmt == "csv":
            r = L.jointer_export_csv(f.f, srcs[0].ptr)
        elif fmt == "json":
            r = L.jointer_export_json(f.f, srcs[0].ptr)
        elif fmt == "spans":
            r = L.jointer_export_spans_csv(f.f, srcs[0].ptr)
            if r == -E.ENOENT:
                raise JointerError(E.ENOENT, "%s: trace %s has no spans (YAML spans: of the trace; a file of version "
                                             "1 has none)" % (srcs[0].path, srcs[0].header.trace.decode()))
        elif fmt == "vcd":
            arr = (ctypes.c_void_p * len(srcs))(*[s.ptr for s in srcs])
            r = L.jointer_export_vcd(f.f, arr, len(srcs), ("python %s" % _version()).encode())
        else:
            r = _perfetto(L, f.f, srcs, calls, watch)
    finally:
        err = f.close()
    return r if r < 0 else -err


def _check(fmt, files, symbols, watch):
    if fmt not in FORMATS:
        raise JointerError(E.EINVAL, "unknown format \"%s\": one of %s" % (fmt, ", ".join(FORMATS)))
    if not files:
        raise JointerError(E.EINVAL, "no trace file given")
    if fmt != "perfetto" and (symbols or watch):
        raise JointerError(E.EINVAL, "--symbols and --watch are for --format perfetto")
    if fmt in ("csv", "json", "spans") and len(files) > 1:
        raise JointerError(E.EINVAL, "--format %s converts one file (%d given); vcd and perfetto merge several"
                           % (fmt, len(files)))
    if len(files) > 4096:
        raise JointerError(E.E2BIG, "%d trace files: 4096 at most" % len(files))


def parse_clock(arg):
    """--clock [NAME=]FREQ -> (NAME or None, Hz): FREQ 200000000, 200e6, 200MHz, 200 MHz (1 Hz .. 4.29 GHz)."""
    name, eq, num = arg.rpartition("=")
    text = num.strip().replace(" ", "")
    text = text[:-2] if text.endswith("Hz") else text
    scale = {"k": 1e3, "M": 1e6, "G": 1e9}.get(text[-1:], 1.0) if text else 1.0
    try:
        hz = float(text[:-1] if scale != 1.0 else text) * scale
    except ValueError:
        hz = 0.0
    if not (1.0 <= hz <= 4294967295.0) or (eq and not name):
        raise JointerError(E.EINVAL, "--clock %s: expected [NAME=]FREQ, FREQ in Hz (200000000, 200e6, 200MHz; at "
                                     "most 4.29 GHz), NAME the clock of the YAML (clocks:)" % arg)
    return (name or None), int(hz + 0.5)


def _set_clocks(srcs, clocks):
    """--clock options on the sources (libjointer's jointer_export_set_clock); a name no file has is an error."""
    for arg in clocks or ():
        name, hz = parse_clock(arg)
        hit = [s for s in srcs if name is None or s.header.clock.decode(errors="replace") == name]
        if not hit:
            have = ", ".join("%s: %s" % (s.path, s.header.clock.decode(errors="replace")
                                         or "unknown, a version 1 file: use --clock FREQ") for s in srcs)
            raise JointerError(E.EINVAL, "--clock %s: no file's timestamps are on clock \"%s\" (%s)"
                               % (arg, name, have))
        for s in hit:
            _conv.lib().jointer_export_set_clock(s.ptr, hz)


def convert(files, fmt, output=None, symbols=None, watch=None, expect_hash=None, warn=None, clocks=None):
    """Convert trace files to fmt (vcd, perfetto, csv, json or spans); returns
    the output path (default: the first file with .vcd / .json / .csv /
    .records.json / .spans.csv). clocks: ["NAME=FREQ" or "FREQ"], the real
    clock frequencies (times in seconds from them). warn(line) gets the
    warnings (a partial record ignored at the end of an incomplete file,
    units skipped before the first SYNC)."""
    _check(fmt, files, symbols, watch)
    for arg in clocks or ():
        parse_clock(arg)
    calls = _calls(symbols) if symbols else None
    samples = read_watch_csv(watch) if watch else None
    if output is None:
        output = os.path.splitext(files[0])[0] + EXT[fmt]
    srcs = []
    try:
        for p in files:
            srcs.append(open_source(p, expect_hash))
        _set_clocks(srcs, clocks)
        with safeio.Output(output, list(files) + [x for x in (symbols, watch) if x]) as out:
            r = _write(fmt, srcs, out, calls, samples)
            if r < 0:
                bad = [s for s in srcs if s.stopped()]
                if bad:
                    raise bad[0].error(r)
                raise JointerError(-r, "%s: cannot write: %s" % (output, os.strerror(-r)))
        for s in srcs:
            w = warning(s)
            if w and warn:
                warn(w)
    finally:
        for s in srcs:
            s.close()
    return output
