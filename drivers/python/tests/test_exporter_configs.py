# SPDX-License-Identifier: MIT
"""Every shipped configuration (configs/*.yaml) through the exporter at
once: its descriptor generated and built, a device that states the right
identity (and reads 0 elsewhere); the scrape is `promtool check metrics`
clean, parses as OpenMetrics, reports every monitor up (trace_sink too:
a sink whose ring has not started), and each monitor's dashboard queries
only series that scrape serves."""
import glob
import os
import re
import shutil
import subprocess

import pytest
from conftest import REPO
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.openmetrics.exposition import generate_latest as generate_om
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_families
from prometheus_client.parser import text_string_to_metric_families

from jointer import Descriptor, Monitor, _lib, dashboard, exporter

CONFIGS = sorted(glob.glob(os.path.join(REPO, "configs", "*.yaml")))


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    mons = []
    for y in CONFIGS:
        d = Descriptor.from_yaml(y, cache_dir=str(tmp_path_factory.mktemp("desc")))
        regs = {0x0: _lib.ID_VALUE, 0x4: d.version, 0x8: d.config_hash, 0xC: d.info}
        mons.append((d.name, Monitor.attach(d, read32=lambda off, r=regs: r.get(off, 0),
                                            write32=lambda off, v: None)))
    reg = CollectorRegistry()
    reg.register(exporter.JointerCollector(mons))
    yield mons, reg
    for _, m in mons:
        m.close()


def test_every_config_is_served(board):
    mons, reg = board
    assert len(mons) == len(CONFIGS) >= 8
    text = generate_latest(reg).decode()
    up = {s.labels["monitor"]: s.value for f in text_string_to_metric_families(text) for s in f.samples
          if s.name == "jointer_up"}
    assert up == {name: 1.0 for name, _ in mons}
    om = {f.name: f for f in om_families(generate_om(reg).decode())}
    assert om["jointer_sink_state"].samples and om["jointer_rd_lat_hist"].type == "histogram"
    if shutil.which("promtool"):
        r = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and (r.stdout + r.stderr).strip() == "", r.stdout + r.stderr


def test_every_dashboard_queries_served_series(board):
    mons, reg = board
    served = {}
    for f in text_string_to_metric_families(generate_latest(reg).decode()):
        for s in f.samples:
            served.setdefault(s.name, set()).add(s.labels.get("monitor"))
    for name, m in mons:
        db = dashboard.dashboard(m.descriptor)
        for p in db["panels"]:
            for t in p["targets"]:
                for series in re.findall(r"\b(jointer_[a-z0-9_]+)\s*\{", t["expr"]):
                    assert name in served.get(series, ()), (name, p["title"], series)
