# SPDX-License-Identifier: MIT
"""A real Prometheus server (Debian's package: /usr/bin/prometheus) scrapes
the exporter every second; PromQL answers through its HTTP API are checked
against what the fake device served:
- rate() of a counter equals Prometheus' extrapolated rate recomputed here
  from the raw samples it stored (and is near the device's 10^4 / s);
- histogram_quantile() of the rate of the hardware's buckets equals the
  quantile computed here from the bucket shape the device grows with;
- the mean of a summary (rate of _sum / rate of _count) equals the ratio
  the device grows its sum and count with.
The fake device (test_exporter_fake.py) grows every value in proportion
to a tick (100 Hz) latched at each snapshot. Bounded in time; the server is
always killed."""
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.parse
import urllib.request

import pytest
from conftest import lat_device
from test_exporter_fake import FakeRegs

from jointer import exporter

PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"
pytestmark = pytest.mark.skipif(not os.access(PROMETHEUS, os.X_OK),
                                reason="prometheus (Debian package prometheus) not installed")
SHAPE = [1, 2, 3, 4, 10, 20, 30, 15, 8, 4, 2, 1]     # rd_lat_hist buckets grow as SHAPE[k] per tick
UPPER = [0, 1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, float("inf")]   # their le (pow2 buckets, integer samples)
COUNT_PER_TICK, MEAN_SUM_PER_TICK = 100, 37
RANGE_S = 5
DEADLINE_S = 120


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def query(base, expr, at=None):
    q = {"query": expr}
    if at is not None:
        q["time"] = "%.3f" % at
    with urllib.request.urlopen("%s/api/v1/query?%s" % (base, urllib.parse.urlencode(q)), timeout=10) as r:
        body = json.load(r)
    assert body["status"] == "success", body
    return body["data"]["result"]


def extrapolated_rate(points, range_start, range_end, range_s):
    """Prometheus' rate() of a counter (promql extrapolatedRate, 2.x) from its samples [(t_ms, v)];
    times in integer milliseconds, as Prometheus holds them."""
    first_t, first_v = points[0]
    last_t, last_v = points[-1]
    to_s = 1e-3
    result = last_v - first_v
    prev = 0.0
    for _, v in points:
        if v < prev:
            result += prev
        prev = v
    to_start, to_end = (first_t - range_start) * to_s, (range_end - last_t) * to_s
    sampled = (last_t - first_t) * to_s
    avg = sampled / (len(points) - 1)
    if result > 0 and first_v >= 0:
        to_start = min(to_start, sampled * (first_v / result))
    threshold = avg * 1.1
    interval = sampled + (to_start if to_start < threshold else avg / 2) + (to_end if to_end < threshold else avg / 2)
    return result * (interval / sampled) / range_s


def bucket_quantile(q, cumulative, upper):
    """Prometheus' histogram_quantile on cumulative bucket counts."""
    total = cumulative[-1]
    rank = q * total
    b = next(k for k, c in enumerate(cumulative[:-1] + [total]) if c >= rank)
    if b == len(cumulative) - 1:
        return upper[-2]
    if b == 0 and upper[0] <= 0:
        return upper[0]
    start, count = (upper[b - 1], cumulative[b] - cumulative[b - 1]) if b > 0 else (0.0, cumulative[0])
    rank -= cumulative[b - 1] if b > 0 else 0
    return start + (upper[b] - start) * (rank / count)


@pytest.fixture
def growing_device(tmp_path, latency):
    bindir, r, desc = latency
    fake = FakeRegs(lat_device(tmp_path, r).path)
    fake.dyn[r["AXI_LATENCY_RD_COUNT_RESULT"]] = lambda n: COUNT_PER_TICK * n
    for k, c in enumerate(SHAPE):
        fake.dyn[r["AXI_LATENCY_RD_LAT_HIST_RESULT"] + k * r["AXI_LATENCY_RD_LAT_HIST_BUCKET_STRIDE"]] = \
            lambda n, c=c: c * n
    mean = r["AXI_LATENCY_RD_LAT_MEAN_RESULT"]
    fake.dyn[mean] = lambda n: MEAN_SUM_PER_TICK * n
    fake.dyn[mean + 4] = lambda n: 0
    fake.dyn[mean + r["AXI_LATENCY_RD_LAT_MEAN_BUCKET_STRIDE"]] = lambda n: n
    mon = fake.monitor(desc)
    yield mon
    mon.close()


@pytest.fixture
def prometheus(tmp_path, growing_device):
    """The exporter on a free port, a Prometheus scraping it each second: its API base URL."""
    server, thread, port = exporter.start("127.0.0.1:0", [("axi_latency", growing_device)])
    pport = free_port()
    cfg = tmp_path / "prometheus.yml"
    cfg.write_text("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n"
                   "scrape_configs:\n  - job_name: jointer\n    static_configs:\n"
                   "      - targets: ['127.0.0.1:%d']\n" % port)
    log = open(tmp_path / "prometheus.log", "w")
    p = subprocess.Popen([PROMETHEUS, "--config.file=%s" % cfg, "--storage.tsdb.path=%s" % (tmp_path / "data"),
                          "--web.listen-address=127.0.0.1:%d" % pport, "--log.level=warn"],
                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield "http://127.0.0.1:%d" % pport, p, tmp_path / "prometheus.log"
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=15)
        log.close()
        server.shutdown()
        server.server_close()


def wait_for_samples(base, p, logpath, n):
    """Until Prometheus holds n samples of the counter (at least n - 1 scrape intervals)."""
    end = time.monotonic() + DEADLINE_S
    while time.monotonic() < end:
        assert p.poll() is None, "prometheus exited: %s" % logpath.read_text()[-2000:]
        try:
            r = query(base, "count_over_time(jointer_rd_count_total[1m])")
            if r and float(r[0]["value"][1]) >= n:
                return
        except OSError:
            pass             # not listening yet
        time.sleep(0.5)
    raise AssertionError("no %d samples within %d s: %s" % (n, DEADLINE_S, logpath.read_text()[-2000:]))


def test_promql_over_a_real_scrape(prometheus):
    base, p, logpath = prometheus
    wait_for_samples(base, p, logpath, RANGE_S + 3)      # the range full of samples
    target = query(base, 'up{job="jointer"}')
    assert [float(x["value"][1]) for x in target] == [1.0]          # the exposition Prometheus negotiated parses
    assert [float(x["value"][1]) for x in query(base, "jointer_up")] == [1.0]
    last = query(base, "jointer_rd_count_total[%ds]" % RANGE_S)[0]["values"][-1][0]   # the last sample's time
    at_ms = round(float(last) * 1000) + 500      # evaluated just after it: the next scrape is 1 s after it
    at = at_ms / 1000
    raw = query(base, "jointer_rd_count_total[%ds]" % RANGE_S, at)[0]["values"]
    points = [(round(float(t) * 1000), float(v)) for t, v in raw]
    assert len(points) >= RANGE_S - 1 and all(v % COUNT_PER_TICK == 0 for _, v in points)  # values served
    got = float(query(base, "rate(jointer_rd_count_total[%ds])" % RANGE_S, at)[0]["value"][1])
    want = extrapolated_rate(points, at_ms - RANGE_S * 1000, at_ms, RANGE_S)
    assert got == pytest.approx(want, rel=1e-9), (points, got, want)
    assert 0.8 * COUNT_PER_TICK * 100 < got < 1.2 * COUNT_PER_TICK * 100      # 100 ticks per second
    cum = [sum(SHAPE[:k + 1]) for k in range(len(SHAPE))]
    for q in (0.5, 0.9, 0.99):
        got = float(query(base, "histogram_quantile(%s, rate(jointer_rd_lat_hist_bucket[%ds]))" % (q, RANGE_S),
                          at)[0]["value"][1])
        assert got == pytest.approx(bucket_quantile(q, cum, UPPER), rel=1e-9), q
    assert bucket_quantile(0.9, cum, UPPER) == 127 + 128 * 5 / 8
    mean = float(query(base, "rate(jointer_rd_lat_mean_sum[%ds]) / rate(jointer_rd_lat_mean_count[%ds])"
                       % (RANGE_S, RANGE_S), at)[0]["value"][1])
    assert mean == pytest.approx(MEAN_SUM_PER_TICK, rel=1e-9)
