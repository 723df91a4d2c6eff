# SPDX-License-Identifier: MIT
"""Prometheus exporter: every metric of every monitor of one board, read
through libjointer at each scrape (a prometheus_client custom collector).
One process per board; Prometheus servers (an HA pair too) scrape it.

    python3 -m jointer exporter --listen :9464 \
        --monitor uio:/dev/uio0=selective_accumulations.jdesc

Why it is built this way (drivers/python/EXPORTER.md: families, units, labels, reasons):
- one family per metric (DCAPF), named by the Prometheus conventions:
  jointer_<metric>[_<unit>], counters exposed with _total; the unit comes
  from the descriptor (a time extractor counts cycles) or from the metric's
  name (a `bytes` or `cycles` word): family_of() is the one rule;
- one reader at a time per device: a lock around every snapshot, so two
  concurrent scrapes never interleave their register reads;
- the identity (ID, VERSION, CONFIG_HASH, INFO) is read before and after
  every snapshot: a PL reloaded with another bitstream reports jointer_up 0
  and its reason (jointer_down_reason) until the identity matches again;
- sink traces report their hardware state (STATUS, WPTR, LOST registers):
  a ring that has not started is a state, not an error.
"""
import errno as E
import os
import re
import sys
import threading
import time
from collections import namedtuple

from . import _lib
from .descriptor import Descriptor
from .errors import JointerError
from .monitor import Monitor
from .uio import uio_find

METRIC_LABELS = ["monitor", "lmic", "sniffer"]
CLOCK_LABELS = ["monitor", "lmic", "clock"]
TRACE_LABELS = ["monitor", "lmic", "sniffer", "trace"]
UNIT_WORDS = ("bytes", "cycles")     # a word of the metric name that names its unit (event extractors)
KINDS = {"sum": "counter", "max": "gauge", "min": "gauge", "last": "gauge", "histogram": "histogram",
         "mean": "summary"}
REASONS = ("id", "version", "config_hash", "info", "changed", "read_error")
TRACE_STATES = ("full", "overflow")          # STATUS bits 0 and 1 of a trace buffer (JOINTER_TRACE_STATUS_*)
SINK_ERROR, SINK_CONFIG_ERROR, SINK_BUSY = 0x1, 0x2, 0x4   # a sink's STATUS (JOINTER_SINK_STATUS_*)
SINK_STATES = ("idle", "writing", "error", "config_error")
DEFAULT_DESC_PATH = "/usr/share/jointer/desc:/usr/local/share/jointer/desc"
CHECKOUT_DESC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), "build", "drivers", "shared", "desc")   # make py-lib, in a checkout
_INFO_MASK = 0xFFFF | _lib.INFO_TIMESTAMP | _lib.INFO_MARK | _lib.INFO_SCRATCH  # what jointer_selftest compares
_NAME = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")

Family = namedtuple("Family", "name type unit help")  # name: the OpenMetrics family name (no _total)

MON = ["monitor"]
# the exporter's own families, whatever the monitors: (Family, labels)
_OWN = [
    (Family("jointer_up", "gauge", "", "1 when the monitor was read with its identity matching its descriptor"),
     MON),
    (Family("jointer_down_reason", "stateset", "",
            "why jointer_up is 0: id (no JNTR ID: another bitstream or none), version, config_hash, info "
            "(another monitor configuration), changed (identity changed during the read), read_error"), MON),
    (Family("jointer_monitor", "info", "", "the descriptor a monitor is read with and the identity its device "
                                           "reports"), MON),
    (Family("jointer_scrape_duration_seconds", "gauge", "seconds", "time to read one monitor (lock wait "
                                                                   "included)"), MON),
    (Family("jointer_clock_hertz", "gauge", "hertz",
            "frequency of an LMIC's clock (the YAML's period_ns; 0: unknown): a metric counting its cycles "
            "divided by it is seconds, its rate a busy fraction"), CLOCK_LABELS),
    (Family("jointer_sniffer_overflow", "gauge", "", "OVERFLOW bit of a sniffer: one of its results saturated or "
                                                    "wrapped"), METRIC_LABELS),
    (Family("jointer_trace_fill_records", "gauge", "records", "records in a trace buffer (FILL)"), TRACE_LABELS),
    (Family("jointer_trace_lost_records", "counter", "records", "records a relay or sink trace dropped (LOST)"),
     TRACE_LABELS),
    (Family("jointer_trace_status", "stateset", "", "STATUS bits of a trace buffer: full, overflow"), TRACE_LABELS),
    (Family("jointer_sink_write_offset_bytes", "gauge", "bytes", "WPTR of a sink trace: ring offset of its next "
                                                                "write"), TRACE_LABELS),
    (Family("jointer_sink_state", "stateset", "",
            "a sink trace: idle (nothing written since it was cleared: its ring has not started, or has no record "
            "yet), writing, error (bus error, stopped), config_error (ring BASE/SIZE refused)"), TRACE_LABELS),
]
OWN = [f for f, _ in _OWN]
OWN_LABELS = {f.name: labels for f, labels in _OWN}


# ---- naming -----------------------------------------------------------------
def metric_unit(m):
    """The unit of a metric's values: a time extractor counts cycles of its
    LMIC's clock; an event extractor's unit is a word of its name (bytes,
    cycles), else none (a count, or sampled data the descriptor does not type)."""
    if m.extractor == "time":
        return "cycles"
    words = m.name.lower().split("_")
    for u in UNIT_WORDS:
        if u in words:
            return u
    return ""


def family_of(m):
    """The Family of one metric (a Metric of the descriptor)."""
    kind = KINDS.get(m.aggregator)
    if kind is None:
        raise JointerError(E.ENOTSUP, "metric %s: aggregator %s has no Prometheus type" % (m.name, m.aggregator))
    base = m.name[:-len("_total")] if m.name.endswith("_total") else m.name
    unit = metric_unit(m)
    name = "jointer_" + base
    if unit and not name.endswith("_" + unit):
        name += "_" + unit
    if not _NAME.match(name):
        raise JointerError(E.EINVAL, "metric %s: %s is not a Prometheus metric name" % (m.name, name))
    what = {"counter": "counter", "gauge": "gauge", "histogram": "histogram of the hardware's buckets "
            "(no _sum: the hardware counts none)", "summary": "sum and count of one snapshot"}[kind]
    wrap = ", wraps at 2^%d" % m.width if m.flags & _lib.METRIC_WRAP else ""
    return Family(name, kind, unit, "jointer %s: %s extractor, %s aggregator%s (%s%s)"
                  % (m.name, m.extractor, m.aggregator, wrap, what, ", " + unit if unit else ""))


def sample_names(f):
    """The names a family's samples are exposed under (text format and OpenMetrics)."""
    n = f.name
    return {"counter": [n + "_total", n + "_created"], "gauge": [n], "stateset": [n], "info": [n + "_info"],
            "histogram": [n + "_bucket", n + "_count", n + "_sum", n + "_created"],
            "summary": [n, n + "_count", n + "_sum", n + "_created"]}[f.type]


def plan(descriptors):
    """[Family] of the given descriptors' metrics plus the exporter's own, in
    order, checked: a family name used with two types or units, or a sample
    name two families would expose, is an error (one line)."""
    fams, owner, samples = {}, {}, {}

    def add(f, who):
        old = fams.get(f.name)
        if old is not None:
            if f.name in OWN_LABELS:
                raise JointerError(E.EINVAL, "%s: its family %s is one of the exporter's own: rename the metric"
                                   % (who, f.name))
            if (old.type, old.unit) != (f.type, f.unit):
                raise JointerError(E.EINVAL, "%s and %s both map to the family %s, as a %s and as a %s: rename "
                                   "one metric" % (owner[f.name], who, f.name, old.type, f.type))
            return
        for s in sample_names(f):
            if s in samples:
                raise JointerError(E.EINVAL, "%s: its series %s is also one of %s" % (who, s, samples[s]))
        for s in sample_names(f):
            samples[s] = who
        fams[f.name], owner[f.name] = f, who

    for f in OWN:
        add(f, "the exporter's own %s" % f.name)
    for d in descriptors:
        for m in d.metrics:
            add(family_of(m), "metric %s of %s" % (m.name, d.name))
    return list(fams.values())


# ---- one reader at a time per device -------------------------------------------
_LOCKS = {}
_LOCKS_GUARD = threading.Lock()


def device_key(mon):
    """What identifies the device behind a Monitor (two Monitors of one device share a lock)."""
    spec = mon.spec or ""
    if spec.startswith("uio:name="):   # the device the name found when the monitor was opened
        r, path, _ = uio_find(spec[len("uio:name="):], getattr(mon, "_sysfs_root", None))
        return ("uio", os.path.realpath(path) if r == 0 else spec)
    if spec.startswith("uio:"):
        return ("uio", os.path.realpath(spec[4:]))
    if spec == "devmem":
        return ("devmem", mon.descriptor.base_address)
    if spec.startswith("devmem:"):
        return ("devmem", int(spec[7:], 0))
    return ("object", id(mon))


def device_lock(mon):
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(device_key(mon), threading.Lock())


# ---- one monitor: identity and snapshot ------------------------------------------
Snapshot = namedtuple("Snapshot", "reason ident values overflow traces seconds error")
SinkRow = namedtuple("SinkRow", "trace status wptr lost")           # a sink trace's registers
BufferRow = namedtuple("BufferRow", "trace fill status lost")       # a trace buffer's (lost: relay only, else None)


def identity_mismatch(d, ident):
    """None when the identity read matches descriptor d, else the reason (REASONS)."""
    if ident["id"] != _lib.ID_VALUE:
        return "id"
    if ident["version"] >> 16 != d.version >> 16:
        return "version"
    if ident["config_hash"] != d.config_hash:
        return "config_hash"
    if ident["info"] & _INFO_MASK != d.info & _INFO_MASK:
        return "info"
    return None


def read_monitor(mon):
    """(values per metric, {(lmic, sniffer): overflow}, trace rows) of one monitor, no lock."""
    d = mon.descriptor
    first = mon.values()
    values = []
    for m in d.metrics:
        if m.aggregator == "histogram":
            values.append(mon.histogram(m.index))
        elif m.aggregator == "mean":
            values.append(mon.mean(m.index))
        else:
            values.append(first[m.index])
    traces = []
    for t in d.traces:
        if t.sink_bytes:      # its registers, not jointer_trace_status: that one needs a ring this process started
            traces.append(SinkRow(t, *mon.sink_status(t.index)))
        else:
            fill, st = mon.trace_status(t.index)
            traces.append(BufferRow(t, fill, st, mon.lost(t.index) if t.relay else None))
    return values, mon.overflow(), traces


class Target:
    """A monitor under its label: snapshots under the device's lock; logs
    (stderr) each change of state, not each failing scrape."""

    def __init__(self, label, mon):
        self.label, self.mon = label, mon
        self.lock = device_lock(mon)
        self._state = "up"
        self._state_lock = threading.Lock()

    def snapshot(self):
        t0 = time.monotonic()
        ident = values = ov = traces = err = None
        with self.lock:
            try:
                ident = self.mon.identify()
                reason = identity_mismatch(self.mon.descriptor, ident)
                if reason is None:
                    values, ov, traces = read_monitor(self.mon)
                    after = self.mon.identify()
                    if after != ident:
                        reason, ident = identity_mismatch(self.mon.descriptor, after) or "changed", after
            except (JointerError, OSError) as e:     # one monitor failing leaves the others served
                reason, err = "read_error", (str(e).splitlines() or [repr(e)])[0]
        if reason is not None:
            values = ov = traces = None
        snap = Snapshot(reason, ident, values, ov, traces, time.monotonic() - t0, err)
        self._log(snap)
        return snap

    def _log(self, s):
        state = "up" if s.reason is None else s.reason
        with self._state_lock:
            if state == self._state:
                return
            self._state = state
        d = self.mon.descriptor
        if s.reason is None:
            msg = "up again (identity matches %s, config hash 0x%08X)" % (d.name, d.config_hash)
        elif s.reason == "read_error":
            msg = "down: %s" % s.error
        else:
            i = s.ident
            msg = ("down (%s): the device reports ID 0x%08X, VERSION 0x%08X, CONFIG_HASH 0x%08X, INFO 0x%08X; the "
                   "descriptor %s is 0x%08X (was the PL reloaded with another bitstream?)"
                   % (s.reason, i["id"], i["version"], i["config_hash"], i["info"], d.name, d.config_hash))
        print("jointer exporter: %s: %s" % (self.label, msg), file=sys.stderr, flush=True)


# ---- the collector ------------------------------------------------------------------
def _new_family(f, labels):
    from prometheus_client.core import (CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily,
                                        InfoMetricFamily, StateSetMetricFamily, SummaryMetricFamily)
    cls = {"counter": CounterMetricFamily, "gauge": GaugeMetricFamily, "histogram": HistogramMetricFamily,
           "summary": SummaryMetricFamily}.get(f.type)
    if cls is not None:
        return cls(f.name, f.help, labels=labels, unit=f.unit)
    return (StateSetMetricFamily if f.type == "stateset" else InfoMetricFamily)(f.name, f.help, labels=labels)


def histogram_buckets(rows):
    """[(le, cumulative count)] of [(low, high, count)]: integer samples, so
    bucket [low, high) holds the samples <= high - 1; the last le is +Inf."""
    acc, out = 0, []
    for lo, hi, c in rows:
        acc += c
        out.append(("+Inf" if hi is None else repr(float(hi - 1)), acc))
    return out


class JointerCollector:
    """A prometheus_client collector over [(label, Monitor)]."""

    def __init__(self, monitors):
        labels = [label for label, _ in monitors]
        if len(set(labels)) != len(labels):
            raise JointerError(E.EINVAL, "monitor labels must differ: %s" % ", ".join(labels))
        self.targets = [Target(label, mon) for label, mon in monitors]
        self.families = plan([t.mon.descriptor for t in self.targets])
        self.family_of = {(t.label, m.index): family_of(m) for t in self.targets for m in t.mon.descriptor.metrics}

    def describe(self):
        return []

    def collect(self):
        fams = {f.name: _new_family(f, OWN_LABELS.get(f.name, METRIC_LABELS)) for f in self.families}
        for t in self.targets:
            self._add(fams, t, t.snapshot())
        return list(fams.values())

    def _add(self, fams, t, s):
        d, lab = t.mon.descriptor, t.label
        fams["jointer_up"].add_metric([lab], 1 if s.reason is None else 0)
        fams["jointer_down_reason"].add_metric([lab], {r: r == s.reason for r in REASONS})
        found = {"device_id": "", "device_config_hash": ""} if s.ident is None else {
            "device_id": "0x%08X" % s.ident["id"], "device_config_hash": "0x%08X" % s.ident["config_hash"]}
        fams["jointer_monitor"].add_metric([lab], dict(found, device=t.mon.spec or "", descriptor=d.name,
                                                       config_hash="0x%08X" % d.config_hash))
        fams["jointer_scrape_duration_seconds"].add_metric([lab], s.seconds)
        for lm in d.lmics:        # a fact of the descriptor: served whether the device answers or not
            fams["jointer_clock_hertz"].add_metric([lab, lm.name, lm.clock or "unknown"], lm.clock_hz)
        if s.reason is None:
            self._add_metrics(fams, lab, d, s)
            self._add_traces(fams, lab, s.traces)

    def _add_metrics(self, fams, lab, d, s):
        for m, v in zip(d.metrics, s.values):
            f = self.family_of[(lab, m.index)]
            fam, ml = fams[f.name], [lab, m.lmic_name, m.sniffer_name]
            if f.type == "histogram":
                fam.add_metric(ml, histogram_buckets(v), None)
            elif f.type == "summary":
                fam.add_metric(ml, v[1], v[0])
            else:
                fam.add_metric(ml, v)
        for (lmic, sniffer), bit in s.overflow.items():
            fams["jointer_sniffer_overflow"].add_metric([lab, lmic, sniffer], int(bit))

    @staticmethod
    def _add_traces(fams, lab, rows):
        for r in rows:
            tl = [lab, r.trace.lmic_name, r.trace.sniffer_name, r.trace.name]
            if isinstance(r, SinkRow):
                fams["jointer_sink_write_offset_bytes"].add_metric(tl, r.wptr)
                fams["jointer_sink_state"].add_metric(tl, sink_state(r.status, r.wptr, r.lost))
            else:
                fams["jointer_trace_fill_records"].add_metric(tl, r.fill)
                fams["jointer_trace_status"].add_metric(tl, {x: bool(r.status >> k & 1)
                                                             for k, x in enumerate(TRACE_STATES)})
            if r.lost is not None:
                fams["jointer_trace_lost_records"].add_metric(tl, r.lost)


def sink_state(status, wptr, lost):
    """One of SINK_STATES from a sink's STATUS, WPTR and LOST registers."""
    if status & SINK_CONFIG_ERROR:
        s = "config_error"
    elif status & SINK_ERROR:
        s = "error"
    elif wptr == 0 and lost == 0 and not status & SINK_BUSY:
        s = "idle"
    else:
        s = "writing"
    return {x: x == s for x in SINK_STATES}


# ---- command line: descriptors, devices, listening -------------------------------------
def desc_dirs():
    """Where a bare descriptor name is looked up: $JOINTER_DESC_PATH (':'-separated,
    default DEFAULT_DESC_PATH), then, in a checkout, its build/drivers/shared/desc (make py-lib)."""
    dirs = [p for p in os.environ.get("JOINTER_DESC_PATH", DEFAULT_DESC_PATH).split(":") if p]
    return dirs + ([CHECKOUT_DESC] if os.path.isdir(CHECKOUT_DESC) else [])


def resolve_descriptor(arg):
    """A path when arg has a slash; a bare name (libX.so, X.jdesc, X.yaml, or a
    monitor name X) is looked up in desc_dirs(), never in the current directory."""
    if "/" in arg:
        if not os.path.exists(arg):
            raise JointerError(E.ENOENT, "descriptor %s: no such file" % arg)
        from .descriptor import _file_kind
        _file_kind(arg)       # a directory, a FIFO, a device: what it is, said at once
        return arg
    names = [arg] if arg.endswith((".so", ".jdesc", ".yaml", ".yml")) else ["lib%s.so" % arg, "%s.jdesc" % arg]
    dirs = desc_dirs()
    for d in dirs:
        for n in names:
            p = os.path.join(d, n)
            if os.path.isfile(p):
                return p
    raise JointerError(E.ENOENT, "descriptor %s: not found in %s (a bare name is looked up there: "
                                 "$JOINTER_DESC_PATH, then the checkout's build; for a file in the current "
                                 "directory write ./%s)" % (arg, ":".join(dirs), names[0]))


def load_descriptor(arg):
    """A Descriptor from a --descriptor / --monitor argument (resolve_descriptor's rule)."""
    path = resolve_descriptor(arg)
    if path.endswith(".jdesc"):
        loader = getattr(Descriptor, "from_file", None)
        if loader is None:
            raise JointerError(E.ENOTSUP, "%s: this jointer package does not read .jdesc files; give lib<name>.so"
                               % path)
        return loader(path)
    if path.endswith((".yaml", ".yml")):
        return Descriptor.from_yaml(path)
    return Descriptor.load(path)


def parse_listen(listen):
    host, sep, port = listen.rpartition(":")
    try:
        p = int(port)
        if not sep or not 0 <= p <= 65535:
            raise ValueError
    except ValueError:
        raise JointerError(E.EINVAL, "--listen takes [HOST]:PORT, not \"%s\"" % listen) from None
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    return (host or "0.0.0.0"), p


def open_monitors(specs, sysfs_root=None):
    """[(label, Monitor)] from SPEC=DESCRIPTOR strings (labels made unique);
    the monitors opened so far are closed when one fails."""
    out, seen = [], {}
    try:
        for item in specs:
            spec, sep, desc = item.partition("=")
            if not sep or not spec or not desc:
                raise JointerError(E.EINVAL, "--monitor takes SPEC=DESCRIPTOR (e.g. uio:/dev/uio0=libname.so), "
                                             "not \"%s\"" % item)
            m = Monitor.open(spec, load_descriptor(desc), sysfs_root=sysfs_root)
            n = seen.get(m.name, 0)
            seen[m.name] = n + 1
            out.append((m.name if n == 0 else "%s_%d" % (m.name, n), m))
    except BaseException:
        for _, m in out:
            m.close()
        raise
    return out


def start(listen, monitors):
    """Serve /metrics for [(label, Monitor)]; returns (server, thread, port)."""
    from prometheus_client import CollectorRegistry, start_http_server
    host, port = parse_listen(listen)
    reg = CollectorRegistry()
    reg.register(JointerCollector(monitors))
    try:
        server, thread = start_http_server(port, addr=host, registry=reg)
    except OSError as e:
        raise JointerError(e.errno or E.EADDRINUSE, "cannot listen on %s:%d: %s" % (host, port, e.strerror or e)) \
            from None
    return server, thread, server.server_address[1]


def serve(listen, specs, sysfs_root=None, once=False):
    parse_listen(listen)        # a bad --listen before any device is opened
    mons = open_monitors(specs, sysfs_root)
    try:
        server, thread, port = start(listen, mons)
    except BaseException:
        for _, m in mons:
            m.close()
        raise
    print("jointer exporter: %d monitor(s) on http://%s:%d/metrics" % (len(mons), parse_listen(listen)[0], port),
          flush=True)
    try:
        while not once:
            time.sleep(3600)
    finally:
        server.shutdown()
