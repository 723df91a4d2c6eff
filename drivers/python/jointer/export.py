"""Export trace files (read by libjointer's reader, jointer.tracefile) as
  - VCD: per trace a 32-bit `data` signal and a 1-bit `strobe` (one cycle
    high at each record) in scope <monitor>.<trace>, on the LMIC clock's time
    base (timescale 1 ps, time = cycle x clock period; 32-bit timestamps are
    unwrapped into a monotonic cycle count). A trace file with an unknown
    clock (clock_hz 0) counts 1 ns per cycle;
  - Chrome/Perfetto JSON trace events (the "Trace Event Format"): records as
    instant events on one thread per trace, program-monitor calls (with a
    symbol file) as complete ("X") slices, `watch` CSV samples as counter
    ("C") tracks; ts in microseconds from the start of each source.
Every output is written to NAME.tmp and renamed: nothing half-written.
"""
import csv
import errno as E
import json
import os

from .errors import JointerError
from .profile import read_symbols
from .tracefile import read_trace_file

_VCD_ID_CHARS = "".join(chr(c) for c in range(33, 127))


def _vcd_id(n):
    s = ""
    n += 1
    while n:
        n, r = divmod(n - 1, len(_VCD_ID_CHARS))
        s = _VCD_ID_CHARS[r] + s
    return s


def unwrap(ts):
    """32-bit timestamps, oldest first -> monotonic 64-bit cycle counts."""
    out, base, prev = [], 0, None
    for t in ts:
        t = int(t)
        if prev is not None and t < prev:
            base += 1 << 32
        prev = t
        out.append(base + t)
    return out


def period_ps(clock_hz):
    """Clock period in ps (rounded); 1000 (1 ns per cycle) when unknown."""
    return int(round(1e12 / clock_hz)) if clock_hz else 1000


def load(files, expect_hash=None):
    """[(path, header, records)] of the trace files."""
    out = []
    for p in files:
        h, rec = read_trace_file(p, expect_hash)
        out.append((p, h, rec))
    return out


def _atomic_write(path, text):
    tmp = path + ".tmp"
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise JointerError(e.errno or E.EIO, "cannot write %s: %s" % (path, e.strerror)) from None


def _ident(s):
    s = "".join(c if c.isalnum() or c == "_" else "_" for c in s)
    return s or "trace"


def to_vcd(sources):
    """VCD text of [(path, header, records)]."""
    lines = ["$date jointer trace export $end", "$version jointer python %s $end" % _version(),
             "$comment time = LMIC clock cycle x period; %s $end" % "; ".join(
                 "%s: %s" % (h["trace"] or os.path.basename(p),
                             "%d Hz, %d ps" % (h["clock_hz"], period_ps(h["clock_hz"])) if h["clock_hz"]
                             else "clock unknown, 1 ns per cycle") for p, h, _ in sources),
             "$timescale 1ps $end"]
    events = {}   # time -> list of (id, value)
    ids = []
    seen_scope = {}
    for k, (p, h, rec) in enumerate(sources):
        mon = _ident(h["monitor"] or "monitor")
        name = _ident(h["trace"] or os.path.splitext(os.path.basename(p))[0])
        if (mon, name) in seen_scope:
            seen_scope[(mon, name)] += 1
            name = "%s_%d" % (name, seen_scope[(mon, name)])
        else:
            seen_scope[(mon, name)] = 0
        did, sid = _vcd_id(2 * k), _vcd_id(2 * k + 1)
        ids.append((mon, name, did, sid))
        per = period_ps(h["clock_hz"])
        cyc = unwrap(rec["timestamp"])
        times = set(cyc)
        for c, data in zip(cyc, rec["data"].tolist()):
            events.setdefault(c * per, []).append(("b{:032b} {}".format(data, did)))
            events[c * per].append("1" + sid)
            if c + 1 not in times:
                events.setdefault((c + 1) * per, []).append("0" + sid)
    by_mon = {}
    for mon, name, did, sid in ids:
        by_mon.setdefault(mon, []).append((name, did, sid))
    for mon, traces in by_mon.items():
        lines.append("$scope module %s $end" % mon)
        for name, did, sid in traces:
            lines += ["$scope module %s $end" % name, "$var wire 32 %s data $end" % did,
                      "$var wire 1 %s strobe $end" % sid, "$upscope $end"]
        lines.append("$upscope $end")
    lines += ["$enddefinitions $end", "#0", "$dumpvars"]
    for _, _, did, sid in ids:
        lines += ["bx " + did, "0" + sid]
    lines.append("$end")
    for t in sorted(events):
        ev = events[t]
        # a strobe set and cleared at the same time (a record of another trace): set wins
        sets = {e[1:] for e in ev if e[0] == "1"}
        ev = [e for e in ev if not (e[0] == "0" and e[1:] in sets)]
        lines.append("#%d" % t)
        lines += ev
    return "\n".join(lines) + "\n"


def read_watch_csv(path):
    """{metric: [(time_ms, value)]} of a `jointer watch --output` CSV."""
    try:
        f = open(path, newline="")
    except OSError as e:
        raise JointerError(e.errno or E.EIO, "cannot open %s: %s" % (path, e.strerror)) from None
    with f:
        rows = list(csv.reader(f))
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
        for n, v in zip(names, vals):
            out[n].append((t, v))
    return out


def to_perfetto(sources, symbols=None, watch=None):
    """Chrome JSON trace-event object of [(path, header, records)], an
    optional symbol file (program monitor calls as slices) and watch CSV."""
    ev = []
    pid = 1
    syms = read_symbols(symbols) if symbols else None
    index = {}
    if syms:
        k = 0
        for fi, (name, entry, exit_) in enumerate(syms):
            index[k] = (fi, "entry")
            k += 1
            if exit_ is not None:
                index[k] = (fi, "exit")
                k += 1
    mons = {}
    for tid, (p, h, rec) in enumerate(sources, 1):
        mon = h["monitor"] or "monitor"
        if mon not in mons:
            mons[mon] = len(mons) + 1
            ev.append({"name": "process_name", "ph": "M", "pid": mons[mon], "tid": 0, "args": {"name": mon}})
        pid = mons[mon]
        tname = h["trace"] or os.path.basename(p)
        ev.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid, "args": {"name": tname}})
        us = 1e6 / h["clock_hz"] if h["clock_hz"] else 1e-3   # microseconds per cycle
        cyc = unwrap(rec["timestamp"])
        stack = []
        for c, data in zip(cyc, rec["data"].tolist()):
            ts = c * us
            ev.append({"name": tname, "cat": "record", "ph": "i", "s": "t", "ts": ts, "pid": pid, "tid": tid,
                       "args": {"data": data, "cycle": c}})
            if data not in index:
                continue
            fi, role = index[data]
            name = syms[fi][0]
            if role == "entry" and syms[fi][2] is None:
                continue                               # entry-only function: the instant event says it
            if role == "entry":
                stack.append((fi, c))
                continue
            opened = [i for i, (f, _) in enumerate(stack) if f == fi]
            if not opened:
                ev.append({"name": "unmatched exit " + name, "cat": "pm", "ph": "i", "s": "t", "ts": ts,
                           "pid": pid, "tid": tid})
                continue
            i = opened[-1]
            _, c0 = stack[i]
            del stack[i:]                               # calls opened inside and never closed: dropped
            ev.append({"name": name, "cat": "pm", "ph": "X", "ts": c0 * us, "dur": (c - c0) * us,
                       "pid": pid, "tid": tid, "args": {"cycles": c - c0}})
    if watch:
        wpid = len(mons) + 1
        ev.append({"name": "process_name", "ph": "M", "pid": wpid, "tid": 0, "args": {"name": "watch"}})
        for metric, samples in read_watch_csv(watch).items():
            for t, v in samples:
                ev.append({"name": metric, "cat": "watch", "ph": "C", "ts": t * 1e3, "pid": wpid, "tid": 0,
                           "args": {"value": v}})
    # complete events ordered by start then longest first: nesting is explicit for readers
    ev.sort(key=lambda e: (e["ph"] != "M", e.get("ts", 0), -e.get("dur", 0)))
    return {"traceEvents": ev, "displayTimeUnit": "ns",
            "otherData": {"generator": "jointer python %s" % _version(),
                          "sources": [os.path.basename(p) for p, _, _ in sources]}}


def _version():
    from . import __version__
    return __version__


FORMATS = ("vcd", "perfetto")


def convert(files, fmt, output=None, symbols=None, watch=None, expect_hash=None):
    """Convert trace files to fmt ("vcd" or "perfetto"); returns the output path."""
    if fmt not in FORMATS:
        raise JointerError(E.EINVAL, "unknown format \"%s\": one of %s" % (fmt, ", ".join(FORMATS)))
    if not files:
        raise JointerError(E.EINVAL, "no trace file given")
    sources = load(files, expect_hash)
    if output is None:
        output = os.path.splitext(files[0])[0] + (".vcd" if fmt == "vcd" else ".json")
    if fmt == "vcd":
        if symbols or watch:
            raise JointerError(E.EINVAL, "--symbols and --watch are for --format perfetto")
        text = to_vcd(sources)
    else:
        text = json.dumps(to_perfetto(sources, symbols, watch), allow_nan=False)
    _atomic_write(output, text)
    return output
