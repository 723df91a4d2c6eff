# SPDX-License-Identifier: MIT
"""The Prometheus exporter: scraped over HTTP in both formats (the text
format parsed by prometheus_client, checked by `promtool check metrics`;
OpenMetrics parsed by prometheus_client's strict OpenMetrics parser); every
metric of every monitor (Y9, the axi_latency histograms and mean, a relay
trace, a sink trace whose ring has not started) as one family per metric
with the expected names, units, labels and values; the naming rule; the
command line (descriptor look-up, listen errors)."""
import os
import shutil
import socket
import subprocess
import sys
import urllib.request

import pytest
from conftest import RD, REGS, SHARED, WR, Device, desc_path, lat_device, y9_device
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_families
from prometheus_client.parser import text_string_to_metric_families

import jointer
from jointer import exporter
from jointer.descriptor import Metric

OM = "application/openmetrics-text; version=1.0.0; charset=utf-8"


def fetch(port, accept=None):
    req = urllib.request.Request("http://127.0.0.1:%d/metrics" % port, headers={"Accept": accept} if accept else {})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.headers.get("Content-Type"), r.read().decode()


def scrape(port):
    return {f.name: f for f in text_string_to_metric_families(fetch(port)[1])}


def samples(fam, name=None, **want):
    return [(s.labels, s.value) for s in fam.samples if (name is None or s.name == name)
            and all(s.labels.get(k) == v for k, v in want.items())]


def value(fams, family, **want):
    got = samples(fams[family], **want)
    assert len(got) == 1, (family, want, got)
    return got[0][1]


@pytest.fixture
def board(tmp_path, latency):
    """Four monitors on fake UIO devices, served on a free port: (port, devices)."""
    bindir, regs, desc = latency
    y9 = y9_device(tmp_path / "y9")
    lat = lat_device(tmp_path / "lat", regs)
    rm = Device(str(tmp_path), "relay", REGS["relay_mon"], "RELAY_MON")
    rm.poke(REGS["relay_mon"]["RELAY_MON_RELAY_T_REGS"] + 0x1C, 5)       # LOST
    rm.poke(REGS["relay_mon"]["RELAY_MON_RELAY_T_REGS"] + 0x04, 3)       # FILL
    rm.poke(REGS["relay_mon"]["RELAY_MON_RELAY_T_REGS"] + 0x08, 1)       # STATUS: full
    sm = Device(str(tmp_path), "sink", REGS["sink_mon"], "SINK_MON")
    sm.poke(REGS["sink_mon"]["SINK_MON_COMPACT_LOG_REGS"] + 0x00, 0x40)  # WPTR: compact_log wrote 8 units
    sm.poke(REGS["sink_mon"]["SINK_MON_COMPACT_LOG_REGS"] + 0x1C, 2)     # LOST
    y9.poke(REGS["accel_mon"]["ACCEL_MON_ACCEL_STATUS"], 1 << 18)        # OVERFLOW of sniffer 2 (operation)
    mons = [("accel_mon", jointer.Monitor.open("uio:" + y9.path, desc_path("accel_mon"), sysfs_root=y9.sysfs)),
            ("axi_latency", jointer.Monitor.open("uio:" + lat.path, desc, sysfs_root=lat.sysfs)),
            ("relay_mon", jointer.Monitor.open("uio:" + rm.path, desc_path("relay_mon"), sysfs_root=rm.sysfs)),
            ("sink_mon", jointer.Monitor.open("uio:" + sm.path, desc_path("sink_mon"), sysfs_root=sm.sysfs))]
    server, thread, port = exporter.start("127.0.0.1:0", mons)
    try:
        yield port, {"y9": y9, "lat": lat, "relay": rm, "sink": sm}
    finally:
        server.shutdown()
        server.server_close()
        for _, m in mons:
            m.close()


def test_scrape_every_metric(board):
    port, devs = board
    f = scrape(port)
    assert f["jointer_bytes_written_bytes"].type == "counter"
    assert samples(f["jointer_bytes_written_bytes"]) == [
        ({"monitor": "accel_mon", "lmic": "accel", "sniffer": "transaction"}, 4096)]
    assert value(f, "jointer_compute_cycles", monitor="accel_mon") == float((2 << 32) + 5)
    assert f["jointer_compute_cycles"].type == "counter"
    assert value(f, "jointer_forward_fires", monitor="accel_mon") == 7
    assert value(f, "jointer_mac_fires", monitor="accel_mon") == 1023
    assert value(f, "jointer_rd_count", monitor="axi_latency") == 4000000054
    assert f["jointer_rd_lat_max"].type == "gauge"
    h = f["jointer_rd_lat_hist"]
    assert h.type == "histogram"
    les = ["0.0", "1.0", "3.0", "7.0", "15.0", "31.0", "63.0", "127.0", "255.0", "511.0", "1023.0", "+Inf"]
    cum = [sum(RD[:k + 1]) for k in range(len(RD))]
    assert [(lb["le"], v) for lb, v in samples(h, "jointer_rd_lat_hist_bucket")] == list(zip(les, cum))
    assert samples(h, "jointer_rd_lat_hist_sum") == [] and samples(h, "jointer_rd_lat_hist_count") == []
    wr = samples(f["jointer_wr_lat_hist"], "jointer_wr_lat_hist_bucket")
    assert [(lb["le"], v) for lb, v in wr] == list(zip(["1.0", "3.0", "7.0", "15.0", "63.0", "255.0", "+Inf"],
                                                       [sum(WR[:k + 1]) for k in range(len(WR))]))
    m = f["jointer_rd_lat_mean"]
    assert m.type == "summary"
    assert samples(m, "jointer_rd_lat_mean_sum")[0][1] == 0x1289ABCDEF
    assert samples(m, "jointer_rd_lat_mean_count")[0][1] == 1000
    ov = dict((s[0]["sniffer"], s[1]) for s in samples(f["jointer_sniffer_overflow"], monitor="accel_mon"))
    assert ov == {"transaction": 0, "task": 0, "operation": 1}
    assert value(f, "jointer_trace_lost_records", trace="relay_t") == 5
    assert value(f, "jointer_trace_fill_records", trace="relay_t") == 3
    assert value(f, "jointer_trace_status", trace="relay_t", jointer_trace_status="full") == 1
    assert value(f, "jointer_trace_status", trace="relay_t", jointer_trace_status="overflow") == 0
    assert {s[0]["monitor"]: s[1] for s in samples(f["jointer_up"])} == {
        "accel_mon": 1, "axi_latency": 1, "relay_mon": 1, "sink_mon": 1}
    assert all(v == 0 for _, v in samples(f["jointer_down_reason"]))


def test_clock_frequencies_are_served(board):
    """jointer_clock_hertz per LMIC, from each fixture's YAML (1e9 / period_ns): what turns a
    metric in cycles into seconds, its rate into a busy fraction."""
    import yaml
    port, _ = board
    f = scrape(port)
    assert f["jointer_clock_hertz"].type == "gauge"
    got = {(lb["monitor"], lb["lmic"], lb["clock"]): v for lb, v in samples(f["jointer_clock_hertz"])}
    want = {}
    for name in ("accel_mon", "relay_mon", "sink_mon"):
        y = yaml.safe_load(open(os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(__file__))), "tests",
                                             "fixtures", name + ".yaml")))
        clocks = [c if isinstance(c, dict) else {"name": c} for c in y["monitor"]["clocks"]]
        for lm in y["lmics"]:
            c = next(c for c in clocks if c["name"] == lm.get("clock", clocks[0]["name"]))
            want[(name, lm["name"], c["name"])] = round(1e9 / c["period_ns"]) if c.get("period_ns") else 0
    assert {k: v for k, v in got.items() if k[0] != "axi_latency"} == want
    assert got[("axi_latency", "mem", "axi")] == 100_000_000 and want[("accel_mon", "accel", "accel")] == 125_000_000


def test_sink_without_ring_is_up_with_its_state(board):
    port, devs = board
    f = scrape(port)
    assert value(f, "jointer_up", monitor="sink_mon") == 1
    state = {(lb["trace"], lb["jointer_sink_state"]): v for lb, v in samples(f["jointer_sink_state"])}
    assert state == {("raw_log", "idle"): 1, ("raw_log", "writing"): 0, ("raw_log", "error"): 0,
                     ("raw_log", "config_error"): 0, ("compact_log", "idle"): 0, ("compact_log", "writing"): 1,
                     ("compact_log", "error"): 0, ("compact_log", "config_error"): 0}
    assert value(f, "jointer_sink_write_offset_bytes", trace="compact_log") == 0x40
    assert value(f, "jointer_sink_write_offset_bytes", trace="raw_log") == 0
    assert value(f, "jointer_trace_lost_records", trace="compact_log") == 2
    assert value(f, "jointer_trace_fill_records", trace="plain") == 0       # the sink monitor's buffer trace
    devs["sink"].poke(REGS["sink_mon"]["SINK_MON_RAW_LOG_REGS"] + 0x08, 2)  # STATUS: CONFIG_ERROR
    f = scrape(port)
    assert value(f, "jointer_sink_state", trace="raw_log", jointer_sink_state="config_error") == 1
    assert value(f, "jointer_sink_state", trace="raw_log", jointer_sink_state="idle") == 0


@pytest.mark.skipif(not shutil.which("promtool"), reason="promtool (Debian package prometheus) not installed")
def test_promtool_check_metrics(board):
    port, _ = board
    ctype, text = fetch(port)
    assert ctype.startswith("text/plain; version=0.0.4")
    r = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.strip() == "" and r.stderr.strip() == "", (r.stdout, r.stderr)


def test_openmetrics_parses(board):
    port, _ = board
    ctype, text = fetch(port, OM)
    assert ctype.startswith("application/openmetrics-text")
    fams = {f.name: f for f in om_families(text)}       # raises on anything OpenMetrics refuses
    c = fams["jointer_bytes_written_bytes"]
    assert (c.type, c.unit) == ("counter", "bytes")
    assert [s.name for s in c.samples] == ["jointer_bytes_written_bytes_total"]
    assert (fams["jointer_compute_cycles"].type, fams["jointer_compute_cycles"].unit) == ("counter", "cycles")
    h = fams["jointer_rd_lat_hist"]
    assert h.type == "histogram" and {s.name for s in h.samples} == {"jointer_rd_lat_hist_bucket"}
    assert fams["jointer_down_reason"].type == "stateset" and fams["jointer_monitor"].type == "info"
    assert fams["jointer_sink_state"].type == "stateset"


def _m(name, extractor="event", aggregator="sum", flags=0):
    return Metric(0, name, 0, "l", 0, "s", 0, 32, extractor, aggregator, 0, flags)


def test_naming_rule():
    f = exporter.family_of
    assert f(_m("bytes_written")) == ("jointer_bytes_written_bytes", "counter", "bytes", f(_m("bytes_written")).help)
    assert f(_m("dma_read_bytes"))[:3] == ("jointer_dma_read_bytes", "counter", "bytes")
    assert f(_m("compute_cycles", "time"))[:3] == ("jointer_compute_cycles", "counter", "cycles")
    assert f(_m("busy", "time", "max"))[:3] == ("jointer_busy_cycles", "gauge", "cycles")
    assert f(_m("arb_cycles"))[:3] == ("jointer_arb_cycles", "counter", "cycles")     # event: cycles
    assert f(_m("mac_fires"))[:3] == ("jointer_mac_fires", "counter", "")
    assert f(_m("gpio_last_addr", aggregator="last"))[:3] == ("jointer_gpio_last_addr", "gauge", "")
    assert f(_m("rd_lat_min", aggregator="min"))[:3] == ("jointer_rd_lat_min", "gauge", "")
    assert f(_m("hits_total"))[:3] == ("jointer_hits", "counter", "")
    assert f(_m("rd_lat_hist", aggregator="histogram"))[:3] == ("jointer_rd_lat_hist", "histogram", "")
    assert f(_m("rd_lat_mean", aggregator="mean"))[:3] == ("jointer_rd_lat_mean", "summary", "")
    assert "wraps at 2^32" in f(_m("ops", flags=1)).help


def test_family_collisions_are_refused(descs):
    class D:
        name = "bad"
        metrics = [_m("up", aggregator="last")]
    with pytest.raises(jointer.JointerError, match="jointer_up"):
        exporter.plan([D])

    class D2:
        name = "bad2"
        metrics = [_m("x", "time", "max"), Metric(1, "x_cycles", 0, "l", 0, "s", 0, 32, "event", "sum", 0, 0)]
    with pytest.raises(jointer.JointerError, match="both map to the family jointer_x_cycles, as a gauge and as a "
                                                   "counter"):
        exporter.plan([D2])
    exporter.plan(list(descs.values()))   # the fixtures are fine together


def test_descriptor_lookup(tmp_path, monkeypatch):
    monkeypatch.setenv("JOINTER_DESC_PATH", str(tmp_path / "a") + ":" + str(tmp_path / "b"))
    os.makedirs(tmp_path / "b")
    shutil.copy(desc_path("accel_mon"), tmp_path / "b" / "libaccel_mon.so")
    assert exporter.resolve_descriptor("libaccel_mon.so") == str(tmp_path / "b" / "libaccel_mon.so")
    assert exporter.resolve_descriptor("accel_mon") == str(tmp_path / "b" / "libaccel_mon.so")
    assert exporter.resolve_descriptor("trace_mon") == os.path.join(SHARED, "desc", "libtrace_mon.so")  # the build
    monkeypatch.chdir(tmp_path / "b")
    with pytest.raises(jointer.JointerError) as e:
        exporter.resolve_descriptor("libnone.so")
    assert str(e.value) == ("descriptor libnone.so: not found in %s:%s:%s (a bare name is looked up there: "
                            "$JOINTER_DESC_PATH, then the checkout's build; for a file in the current directory "
                            "write ./libnone.so)" % (tmp_path / "a", tmp_path / "b", os.path.join(SHARED, "desc")))
    assert exporter.resolve_descriptor("./libaccel_mon.so") == "./libaccel_mon.so"   # a slash: a path
    with pytest.raises(jointer.JointerError, match="descriptor ./nope.so: no such file"):
        exporter.resolve_descriptor("./nope.so")


def _env(dev=None):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(jointer.__file__)),
               JOINTER_LIB=os.path.join(SHARED, "libjointer.so"))
    if dev is not None:
        env["JOINTER_UIO_SYSFS"] = dev.sysfs
    return env


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_command_line_serves(tmp_path):
    y9 = y9_device(tmp_path)
    port = _free_port()
    p = subprocess.Popen([sys.executable, "-m", "jointer", "exporter", "--listen", "127.0.0.1:%d" % port,
                          "--monitor", "uio:%s=%s" % (y9.path, desc_path("accel_mon"))], env=_env(y9),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        assert "1 monitor(s) on http://127.0.0.1:%d/metrics" % port in line, (line, p.stderr.read() if p.poll() else "")
        f = scrape(port)
        assert value(f, "jointer_mac_fires") == 1023
        r = subprocess.run([sys.executable, "-m", "jointer", "exporter", "--listen", "127.0.0.1:%d" % port,
                            "--monitor", "uio:%s=%s" % (y9.path, desc_path("accel_mon"))], env=_env(y9),
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 1 and r.stderr == "jointer: cannot listen on 127.0.0.1:%d: Address already in use\n" \
            % port, r.stderr
    finally:
        p.terminate()
        p.wait(timeout=10)


def test_bad_arguments(tmp_path):
    r = subprocess.run([sys.executable, "-m", "jointer", "exporter", "--listen", "x:y", "--monitor", "a=b"],
                       capture_output=True, text=True, env=_env())
    assert r.returncode == 1 and r.stderr == "jointer: --listen takes [HOST]:PORT, not \"x:y\"\n", r.stderr
    r = subprocess.run([sys.executable, "-m", "jointer", "exporter", "--listen", "127.0.0.1:0", "--monitor",
                        "uio:/dev/uio0=libselective_accumulations_nowhere.so"], capture_output=True, text=True,
                       env=dict(_env(), JOINTER_DESC_PATH=str(tmp_path)), cwd=str(tmp_path))
    assert r.returncode == 1 and r.stderr.startswith("jointer: descriptor libselective_accumulations_nowhere.so: "
                                                     "not found in %s:" % tmp_path), r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.splitlines()) == 1
