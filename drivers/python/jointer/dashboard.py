# SPDX-License-Identifier: MIT
"""A Grafana dashboard (JSON model) for one monitor, generated from its
descriptor with the exporter's own naming (exporter.family_of), so every
query names a family the exporter serves for that monitor:

    python3 -m jointer dashboard --descriptor axi_latency.jdesc -o axi_latency.json

One panel per metric, in descriptor order, with its Grafana unit:
  counter    rate(<family>_total[$__rate_interval]): bytes -> Bps, a count -> cps;
             cycles -> the busy fraction (percentunit): the rate divided by
             the LMIC's clock, jointer_clock_hertz (the exporter serves it)
  gauge      the value: bytes -> bytes, cycles -> seconds (divided by the
             clock), a count -> none
  histogram  histogram_quantile 0.5 / 0.9 / 0.99 of rate(<family>_bucket), unit of a
             value (cycles: seconds)
  summary    (mean) rate(<family>_sum) / rate(<family>_count), unit of a value
then the monitor's state: jointer_up, jointer_down_reason, jointer_sniffer_overflow,
and, when it has traces, their fill, lost records and sink state.
Variables: datasource (Prometheus), instance (the boards: label_values of
jointer_up for this monitor), monitor (the exporter's label, default the
monitor's name). Import it in Grafana (Dashboards > New > Import).
"""
import json
import os

from .exporter import family_of, load_descriptor

SEL = 'monitor="$monitor", instance=~"$instance"'
DS = {"type": "prometheus", "uid": "${datasource}"}
RATE_UNITS = {"bytes": "Bps", "cycles": "percentunit", "": "cps"}   # cycles: a fraction of the clock
VALUE_UNITS = {"bytes": "bytes", "cycles": "s", "": "none"}             # cycles: seconds (over the clock)
# a value in cycles of an LMIC's clock over that clock's frequency (the exporter's jointer_clock_hertz)
PER_CLOCK = ' / on (instance, monitor, lmic) group_left() jointer_clock_hertz{%s}' % SEL
LEGEND = "{{instance}} {{lmic}}/{{sniffer}}"


def _target(ref, expr, legend=LEGEND):
    return {"refId": ref, "datasource": DS, "expr": expr, "legendFormat": legend}


def _panel(title, description, unit, targets, kind="timeseries"):
    return {"type": kind, "title": title, "description": description, "datasource": DS,
            "fieldConfig": {"defaults": {"unit": unit}, "overrides": []}, "targets": targets, "options": {}}


def metric_panel(m):
    """The panel of one metric (a descriptor Metric)."""
    f = family_of(m)
    rate = "[$__rate_interval]"
    per = PER_CLOCK if f.unit == "cycles" else ""      # cycles -> seconds, or a fraction of the clock
    if f.type == "counter":
        return _panel("%s (%s)" % (m.name, "busy fraction" if per else "rate"), f.help, RATE_UNITS[f.unit],
                      [_target("A", "rate(%s_total{%s}%s)%s" % (f.name, SEL, rate, per))])
    if f.type == "gauge":
        return _panel(m.name, f.help, VALUE_UNITS[f.unit], [_target("A", "%s{%s}%s" % (f.name, SEL, per))])
    if f.type == "histogram":
        return _panel("%s (quantiles)" % m.name, f.help, VALUE_UNITS[f.unit], [
            _target(chr(ord("A") + k), "histogram_quantile(%s, sum by (instance, monitor, lmic, sniffer, le) "
                                       "(rate(%s_bucket{%s}%s)))%s" % (q, f.name, SEL, rate, per),
                    "%s %s" % (name, LEGEND))
            for k, (q, name) in enumerate((("0.5", "p50"), ("0.9", "p90"), ("0.99", "p99")))])
    return _panel("%s (mean)" % m.name, f.help, VALUE_UNITS[f.unit],
                  [_target("A", "(rate(%s_sum{%s}%s) / rate(%s_count{%s}%s))%s"
                           % (f.name, SEL, rate, f.name, SEL, rate, per))])


def state_panels(d):
    """jointer_up, why it is down, overflow bits, and the traces' state."""
    p = [_panel("up", "1: read with its identity matching the descriptor", "none",
                [_target("A", "jointer_up{%s}" % SEL, "{{instance}}")], "stat"),
         _panel("down reason", "id, version, config_hash, info: the PL holds another bitstream; changed: it "
                "changed during a read; read_error", "none",
                [_target("A", "jointer_down_reason{%s} == 1" % SEL, "{{instance}} {{jointer_down_reason}}")],
                "stat"),
         _panel("overflow", "a result of the sniffer saturated or wrapped", "none",
                [_target("A", "jointer_sniffer_overflow{%s}" % SEL)])]
    tl = "{{instance}} {{trace}}"
    if any(not t.sink_bytes for t in d.traces):
        p.append(_panel("trace fill", "records in each trace buffer", "short",
                        [_target("A", "jointer_trace_fill_records{%s}" % SEL, tl)]))
    if any(t.relay or t.sink_bytes for t in d.traces):
        p.append(_panel("trace lost (rate)", "records dropped by relay and sink traces", "cps",
                        [_target("A", "rate(jointer_trace_lost_records_total{%s}[$__rate_interval])" % SEL, tl)]))
    if any(t.sink_bytes for t in d.traces):
        p.append(_panel("sink state", "idle: nothing written since the sink was cleared (ring not started)", "none",
                        [_target("A", "jointer_sink_state{%s} == 1" % SEL, tl + " {{jointer_sink_state}}")], "stat"))
        p.append(_panel("sink write offset", "WPTR: ring offset of the next write", "bytes",
                        [_target("A", "jointer_sink_write_offset_bytes{%s}" % SEL, tl)]))
    return p


def dashboard(d, monitor=None):
    """The dashboard (a dict, Grafana's JSON model) of descriptor d."""
    label = monitor or d.name
    panels = state_panels(d) + [metric_panel(m) for m in d.metrics]
    for k, p in enumerate(panels):
        p["id"] = k + 1
        p["gridPos"] = {"x": 12 * (k % 2), "y": 8 * (k // 2), "w": 12, "h": 8}
    variables = [
        {"name": "datasource", "type": "datasource", "query": "prometheus", "label": "Prometheus"},
        {"name": "monitor", "type": "custom", "query": label, "label": "monitor",
         "current": {"text": label, "value": label}, "options": [{"text": label, "value": label, "selected": True}]},
        {"name": "instance", "type": "query", "datasource": DS, "label": "board",
         "query": {"query": 'label_values(jointer_up{monitor="$monitor"}, instance)', "refId": "instance"},
         "definition": 'label_values(jointer_up{monitor="$monitor"}, instance)', "refresh": 2, "multi": True,
         "includeAll": True, "current": {"text": "All", "value": "$__all"}},
    ]
    return {"title": "jointer %s" % label, "uid": ("jointer-" + label)[:40], "tags": ["jointer"],
            "description": "generated by python3 -m jointer dashboard from the descriptor of %s (config hash "
                           "0x%08X)" % (d.name, d.config_hash),
            "editable": True, "schemaVersion": 39, "time": {"from": "now-1h", "to": "now"}, "refresh": "10s",
            "templating": {"list": variables}, "panels": panels}


def write_dashboard(descriptor, out, monitor=None):
    """Write the dashboard of a descriptor (path or bare name) to out; returns out."""
    text = json.dumps(dashboard(load_descriptor(descriptor), monitor), indent=1) + "\n"
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, out)
    return out
