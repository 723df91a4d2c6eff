# SPDX-License-Identifier: MIT
"""The generated Grafana dashboards (python3 -m jointer dashboard): JSON
model structure, one panel per metric with its Grafana unit, and every
query naming only series a real scrape of the exporter serves for that
monitor (accel_mon, axi_latency with histograms and a mean, the relay and
sink monitors with traces)."""
import json
import os
import re
import subprocess
import sys

import pytest
from conftest import REGS, SHARED, Device, desc_path, lat_device, y9_device
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

import jointer
from jointer import dashboard, exporter

UNITS = {"Bps", "percentunit", "cps", "bytes", "s", "none", "short"}
PER_CLOCK = ' / on (instance, monitor, lmic) group_left() jointer_clock_hertz{monitor="$monitor", instance=~"$instance"}'
SERIES = re.compile(r"\b(jointer_[a-z0-9_]+)\s*\{")


def served(mon, label):
    """{series name: set of monitor labels} of one scrape."""
    reg = CollectorRegistry()
    reg.register(exporter.JointerCollector([(label, mon)]))
    out = {}
    for f in text_string_to_metric_families(generate_latest(reg).decode()):
        for s in f.samples:
            out.setdefault(s.name, set()).add(s.labels.get("monitor"))
    return out


def monitors(tmp_path, latency):
    bindir, regs, desc = latency
    y9 = y9_device(tmp_path / "y9")
    lat = lat_device(tmp_path / "lat", regs)
    rm = Device(str(tmp_path), "relay", REGS["relay_mon"], "RELAY_MON")
    sm = Device(str(tmp_path), "sink", REGS["sink_mon"], "SINK_MON")
    return [(jointer.Monitor.open("uio:" + y9.path, desc_path("accel_mon"), sysfs_root=y9.sysfs), None),
            (jointer.Monitor.open("uio:" + lat.path, desc, sysfs_root=lat.sysfs), "lat_board3"),
            (jointer.Monitor.open("uio:" + rm.path, desc_path("relay_mon"), sysfs_root=rm.sysfs), None),
            (jointer.Monitor.open("uio:" + sm.path, desc_path("sink_mon"), sysfs_root=sm.sysfs), None)]


def test_every_query_names_a_served_series(tmp_path, latency):
    for mon, label in monitors(tmp_path, latency):
        d = mon.descriptor
        db = dashboard.dashboard(d, label)
        label = label or d.name
        json.loads(json.dumps(db))
        assert db["title"] == "jointer %s" % label and db["uid"].startswith("jointer-")
        var = {v["name"]: v for v in db["templating"]["list"]}
        assert set(var) == {"datasource", "monitor", "instance"} and var["monitor"]["query"] == label
        panels = db["panels"]
        assert [p["id"] for p in panels] == list(range(1, len(panels) + 1))
        assert len({(p["gridPos"]["x"], p["gridPos"]["y"]) for p in panels}) == len(panels)
        titles = [p["title"].split(" (")[0] for p in panels]
        assert [t for t in titles if t in {m.name for m in d.metrics}] == [m.name for m in d.metrics]
        have = served(mon, label)
        for p in panels:
            assert p["fieldConfig"]["defaults"]["unit"] in UNITS, p["title"]
            assert p["targets"], p["title"]
            for t in p["targets"]:
                assert 'monitor="$monitor"' in t["expr"], t["expr"]
                names = SERIES.findall(t["expr"])
                assert names, t["expr"]
                for n in names:
                    assert label in have.get(n, ()), (d.name, p["title"], n, sorted(have))
        mon.close()


def test_units_follow_the_families(descs, latency):
    by = {p["title"]: p for p in dashboard.dashboard(descs["accel_mon"])["panels"]}
    unit = {t: p["fieldConfig"]["defaults"]["unit"] for t, p in by.items()}
    assert unit["bytes_written (rate)"] == "Bps"
    assert unit["compute_cycles (busy fraction)"] == "percentunit"       # time extractor, sum: over the clock
    assert by["compute_cycles (busy fraction)"]["targets"][0]["expr"] == (
        'rate(jointer_compute_cycles_total{monitor="$monitor", instance=~"$instance"}[$__rate_interval])' + PER_CLOCK)
    assert unit["mac_fires (rate)"] == "cps"
    assert by["bytes_written (rate)"]["targets"][0]["expr"] == \
        'rate(jointer_bytes_written_bytes_total{monitor="$monitor", instance=~"$instance"}[$__rate_interval])'
    lat = {p["title"]: p for p in dashboard.dashboard(latency[2])["panels"]}
    q = [t["expr"] for t in lat["rd_lat_hist (quantiles)"]["targets"]]
    assert q[1] == ('histogram_quantile(0.9, sum by (instance, monitor, lmic, sniffer, le) (rate('
                    'jointer_rd_lat_hist_bucket{monitor="$monitor", instance=~"$instance"}[$__rate_interval])))')
    assert lat["rd_lat_max"]["fieldConfig"]["defaults"]["unit"] == "none"
    assert lat["rd_lat_mean (mean)"]["targets"][0]["expr"].startswith("(rate(jointer_rd_lat_mean_sum{")
    tm = {p["title"]: p for p in dashboard.dashboard(descs["trace_mon"])["panels"]}
    assert tm["busy"]["fieldConfig"]["defaults"]["unit"] == "s"                  # time extractor, max: seconds
    assert tm["busy"]["targets"][0]["expr"] == 'jointer_busy_cycles{monitor="$monitor", instance=~"$instance"}' \
        + PER_CLOCK


def test_command_line_writes_the_json(tmp_path):
    out = tmp_path / "accel.json"
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(jointer.__file__)),
               JOINTER_LIB=os.path.join(SHARED, "libjointer.so"))
    r = subprocess.run([sys.executable, "-m", "jointer", "dashboard", "--descriptor", desc_path("accel_mon"),
                        "--monitor", "board_a", "-o", str(out)], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout == "wrote %s\n" % out, r.stderr
    db = json.loads(out.read_text())
    assert db["title"] == "jointer board_a" and len(db["panels"]) == 3 + 4
    r = subprocess.run([sys.executable, "-m", "jointer", "dashboard", "--descriptor", "libnothing.so", "-o",
                        str(tmp_path / "x.json")], env=dict(env, JOINTER_DESC_PATH=str(tmp_path)),
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stderr.startswith("jointer: descriptor libnothing.so: not found in ")
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "x.json.tmp").exists()


@pytest.mark.parametrize("name", ["accel_mon", "trace_mon", "relay_mon", "two_lmic", "sink_mon"])
def test_fixture_dashboards_build(descs, name):
    db = dashboard.dashboard(descs[name])
    assert sum(1 for p in db["panels"] if p["title"].split(" (")[0] in {m.name for m in descs[name].metrics}) == \
        len(descs[name].metrics)
