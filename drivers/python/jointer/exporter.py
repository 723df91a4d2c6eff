"""Prometheus exporter: every metric of every monitor of one board, read
through libjointer at each scrape (prometheus_client custom collector).

    python3 -m jointer exporter --listen :9464 \
        --monitor uio:/dev/uio0=build/drivers/shared/desc/libselective_accumulations.so

Series (labels monitor, lmic, sniffer, metric):
  jointer_metric                 gauge: each plain metric's value (sum, max, min, last)
  jointer_histogram              histogram: the hardware's buckets, cumulative; bucket
                                 [low, high) has le = high - 1 (integer samples), the
                                 last le = +Inf; _count = samples; no _sum (not counted)
  jointer_mean                   summary: _sum and _count of a mean metric (one snapshot)
  jointer_overflow               gauge 0/1: the sniffer's OVERFLOW bit (labels without metric)
  jointer_trace_lost             gauge: LOST of each relay or sink trace (label trace)
  jointer_trace_fill             gauge: FILL of each trace (label trace)
  jointer_up                     gauge 0/1 per monitor: 0 when its last read failed
Prometheus is the distributed part: one exporter per board, scraped by one server.
"""
import errno as E
import sys
import time

from .errors import JointerError
from .monitor import Monitor


def _labels(m):
    return [m.lmic_name, m.sniffer_name, m.name]


class JointerCollector:
    """A prometheus_client collector over [(label, Monitor)]."""

    def __init__(self, monitors):
        self.monitors = monitors

    def describe(self):
        return []

    def collect(self):
        from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, SummaryMetricFamily
        from prometheus_client.samples import Sample
        lab = ["monitor", "lmic", "sniffer", "metric"]
        g = GaugeMetricFamily("jointer_metric", "value of a jointer metric (sum, max, min or last aggregator)",
                              labels=lab)
        h = HistogramMetricFamily("jointer_histogram", "a jointer histogram metric, hardware bucket bounds",
                                  labels=lab)
        s = SummaryMetricFamily("jointer_mean", "sum and count of a jointer mean metric", labels=lab)
        ov = GaugeMetricFamily("jointer_overflow", "OVERFLOW bit of a sniffer (a result saturated or wrapped)",
                               labels=["monitor", "lmic", "sniffer"])
        lost = GaugeMetricFamily("jointer_trace_lost", "records a relay or sink trace dropped (its LOST register)",
                                 labels=["monitor", "lmic", "sniffer", "trace"])
        fill = GaugeMetricFamily("jointer_trace_fill", "records in a trace buffer (FILL)",
                                 labels=["monitor", "lmic", "sniffer", "trace"])
        up = GaugeMetricFamily("jointer_up", "1 when the monitor was read, 0 when the read failed",
                               labels=["monitor"])
        for label, mon in self.monitors:
            try:
                rows = self._read(mon)
            except JointerError as e:
                print("jointer exporter: %s: %s" % (label, e), file=sys.stderr)
                up.add_metric([label], 0)
                continue
            up.add_metric([label], 1)
            for kind, m, val in rows:
                if kind == "value":
                    g.add_metric([label] + _labels(m), val)
                elif kind == "hist":
                    acc, buckets = 0, []
                    for lo, hi, c in val:
                        acc += c
                        buckets.append(("+Inf" if hi is None else str(float(hi - 1)), acc))
                    h.add_metric([label] + _labels(m), buckets, None)
                    # _count (= the +Inf bucket) without _sum: the hardware counts no sum
                    h.samples.append(Sample("jointer_histogram_count", dict(zip(lab, [label] + _labels(m))),
                                            acc))
                elif kind == "mean":
                    s.add_metric([label] + _labels(m), val[1], val[0])
                elif kind == "overflow":
                    ov.add_metric([label, m[0], m[1]], val)
                elif kind in ("lost", "fill"):
                    (lost if kind == "lost" else fill).add_metric([label, m.lmic_name, m.sniffer_name, m.name], val)
        return [g, h, s, ov, lost, fill, up]

    @staticmethod
    def _read(mon):
        rows = []
        vals = mon.values()
        for m in mon.descriptor.metrics:
            if m.aggregator == "histogram":
                rows.append(("hist", m, mon.histogram(m.index)))
            elif m.aggregator == "mean":
                rows.append(("mean", m, mon.mean(m.index)))
            else:
                rows.append(("value", m, vals[m.index]))
        for key, bit in mon.overflow().items():
            rows.append(("overflow", key, int(bit)))
        for t in mon.descriptor.traces:
            rows.append(("fill", t, mon.trace_status(t.index)[0]))
            if t.relay or t.sink_bytes:
                rows.append(("lost", t, mon.lost(t.index)))
        return rows


def parse_listen(listen):
    host, sep, port = listen.rpartition(":")
    try:
        p = int(port)
        if not 0 <= p <= 65535:
            raise ValueError
    except ValueError:
        raise JointerError(E.EINVAL, "--listen takes [HOST]:PORT, not \"%s\"" % listen) from None
    return (host or "0.0.0.0"), p


def open_monitors(specs, sysfs_root=None):
    """[(label, Monitor)] from SPEC=DESCRIPTOR strings (labels made unique)."""
    out, seen = [], {}
    for item in specs:
        spec, sep, desc = item.partition("=")
        if not sep or not spec or not desc:
            raise JointerError(E.EINVAL, "--monitor takes SPEC=DESCRIPTOR (e.g. uio:/dev/uio0=libname.so), "
                                         "not \"%s\"" % item)
        m = Monitor.open(spec, desc, sysfs_root=sysfs_root)
        n = seen.get(m.name, 0)
        seen[m.name] = n + 1
        out.append((m.name if n == 0 else "%s_%d" % (m.name, n), m))
    return out


def start(listen, monitors):
    """Serve /metrics for [(label, Monitor)]; returns (server, thread, port)."""
    from prometheus_client import CollectorRegistry, start_http_server
    host, port = parse_listen(listen)
    reg = CollectorRegistry()
    reg.register(JointerCollector(monitors))
    server, thread = start_http_server(port, addr=host, registry=reg)
    return server, thread, server.server_address[1]


def serve(listen, specs, sysfs_root=None, once=False):
    mons = open_monitors(specs, sysfs_root)
    server, thread, port = start(listen, mons)
    print("jointer exporter: %d monitor(s) on http://%s:%d/metrics" % (len(mons), parse_listen(listen)[0], port),
          flush=True)
    try:
        while not once:
            time.sleep(3600)
    finally:
        server.shutdown()
