"""The Prometheus exporter: scraped over HTTP, parsed with prometheus_client's
own text parser; every metric of every monitor (Y9, the axi_latency
histograms and mean, a relay trace's LOST) with the expected labels and values."""
import os
import subprocess
import sys
import time
import urllib.request

import pytest
from conftest import RD, REGS, SHARED, desc_path, lat_device, y9_device, Device
from prometheus_client.parser import text_string_to_metric_families

import jointer
from jointer import exporter


def scrape(port):
    with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10) as r:
        text = r.read().decode()
    return {f.name: f for f in text_string_to_metric_families(text)}


def samples(fam, name=None, **want):
    return [(s.labels, s.value) for s in fam.samples if (name is None or s.name == name)
            and all(s.labels.get(k) == v for k, v in want.items())]


def test_scrape_every_metric(tmp_path, latency):
    bindir, regs, desc = latency
    y9 = y9_device(tmp_path / "y9")
    lat = lat_device(tmp_path / "lat", regs)
    rm = Device(str(tmp_path), "relay", REGS["relay_mon"], "RELAY_MON")
    rm.poke(REGS["relay_mon"]["RELAY_MON_RELAY_T_REGS"] + 0x1C, 5)       # LOST
    rm.poke(REGS["relay_mon"]["RELAY_MON_RELAY_T_REGS"] + 0x04, 3)       # FILL
    y9.poke(REGS["accel_mon"]["ACCEL_MON_ACCEL_STATUS"], 1 << 18)        # OVERFLOW of sniffer 2 (operation)
    mons = [("accel_mon", jointer.Monitor.open("uio:" + y9.path, desc_path("accel_mon"), sysfs_root=y9.sysfs)),
            ("axi_latency", jointer.Monitor.open("uio:" + lat.path, desc, sysfs_root=lat.sysfs)),
            ("relay_mon", jointer.Monitor.open("uio:" + rm.path, desc_path("relay_mon"), sysfs_root=rm.sysfs))]
    server, thread, port = exporter.start("127.0.0.1:0", mons)
    try:
        f = scrape(port)
    finally:
        server.shutdown()
    g = f["jointer_metric"]
    assert f["jointer_metric"].type == "gauge"
    assert dict(((s[0]["metric"]), s[1]) for s in samples(g, monitor="accel_mon")) == {
        "bytes_written": 4096, "compute_cycles": float((2 << 32) + 5), "forward_fires": 7, "mac_fires": 1023}
    lab = samples(g, monitor="accel_mon", metric="mac_fires")[0][0]
    assert lab == {"monitor": "accel_mon", "lmic": "accel", "sniffer": "operation", "metric": "mac_fires"}
    assert samples(g, monitor="axi_latency", metric="rd_count")[0][1] == 4000000054
    h = f["jointer_histogram"]
    assert h.type == "histogram"
    b = samples(h, "jointer_histogram_bucket", metric="rd_lat_hist")
    les = ["0.0", "1.0", "3.0", "7.0", "15.0", "31.0", "63.0", "127.0", "255.0", "511.0", "1023.0", "+Inf"]
    cum = [sum(RD[:k + 1]) for k in range(len(RD))]
    assert [(lb["le"], v) for lb, v in b] == list(zip(les, cum))
    assert samples(h, "jointer_histogram_count", metric="rd_lat_hist")[0][1] == sum(RD)
    wr = samples(h, "jointer_histogram_bucket", metric="wr_lat_hist")
    assert [lb["le"] for lb, _ in wr] == ["1.0", "3.0", "7.0", "15.0", "63.0", "255.0", "+Inf"]
    m = f["jointer_mean"]
    assert samples(m, "jointer_mean_sum", metric="rd_lat_mean")[0][1] == 0x1289ABCDEF
    assert samples(m, "jointer_mean_count", metric="rd_lat_mean")[0][1] == 1000
    ov = dict((s[0]["sniffer"], s[1]) for s in samples(f["jointer_overflow"], monitor="accel_mon"))
    assert ov == {"transaction": 0, "task": 0, "operation": 1}
    assert samples(f["jointer_trace_lost"], trace="relay_t")[0][1] == 5
    assert samples(f["jointer_trace_fill"], trace="relay_t")[0][1] == 3
    assert {s[0]["monitor"]: s[1] for s in samples(f["jointer_up"])} == {n: 1.0 for n, _ in mons}


def test_command_line_serves(tmp_path):
    y9 = y9_device(tmp_path)
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(jointer.__file__)),
               JOINTER_LIB=os.path.join(SHARED, "libjointer.so"), JOINTER_UIO_SYSFS=y9.sysfs)
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = subprocess.Popen([sys.executable, "-m", "jointer", "exporter", "--listen", "127.0.0.1:%d" % port,
                          "--monitor", "uio:%s=%s" % (y9.path, desc_path("accel_mon"))], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        assert "1 monitor(s) on http://127.0.0.1:%d/metrics" % port in line, (line, p.stderr.read() if p.poll() else "")
        f = scrape(port)
        assert samples(f["jointer_metric"], metric="mac_fires")[0][1] == 1023
    finally:
        p.terminate()
        p.wait(timeout=10)


def test_bad_arguments():
    r = subprocess.run([sys.executable, "-m", "jointer", "exporter", "--listen", "x:y", "--monitor", "a=b"],
                       capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(jointer.__file__))))
    assert r.returncode == 1 and r.stderr.strip().startswith("jointer: ") and "Traceback" not in r.stderr
