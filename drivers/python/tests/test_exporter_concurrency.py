# SPDX-License-Identifier: MIT
"""The exporter under concurrent scrapes and PL reloads, on the fake device
of test_exporter_fake.py (axi_latency: histograms read as a sequence):
- 4 threads, 10^4 scrapes: the device's read log is a sequence of whole
  snapshots, each one thread's and each the exact register sequence of a
  lone snapshot (one reader at a time); the same check on the same load
  without the lock finds interleaved reads (it can fail);
- scrapes over HTTP from 4 threads go through the same lock;
- a PL reload (CONFIG_HASH, then ID, changes) flips jointer_up to 0 with its
  reason, and back to 1 with the values once the identity is restored; a
  reload during a snapshot discards that snapshot."""
import contextlib
import threading
import urllib.request

import pytest
from conftest import RD, lat_device
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families
from test_exporter_fake import HASH, ID, VERSION, FakeRegs

from jointer import exporter

THREADS, SCRAPES = 4, 10000


@pytest.fixture
def fake_lat(tmp_path, latency):
    bindir, regs, desc = latency
    fake = FakeRegs(lat_device(tmp_path, regs).path)
    mon = fake.monitor(desc)
    yield fake, mon, regs
    mon.close()


def registry(mon):
    reg = CollectorRegistry()
    col = exporter.JointerCollector([("axi_latency", mon)])
    reg.register(col)
    return reg, col


def families(text):
    return {f.name: f for f in text_string_to_metric_families(text)}


def lone_snapshot(fake, reg):
    fake.log = []
    generate_latest(reg)
    seq = [off for _, off in fake.log]
    fake.log = None
    return seq


def hammer(fake, reg, total, threads=THREADS):
    """total scrapes from `threads` threads; returns the read log."""
    fake.log = []
    errors = []

    def run(n):
        try:
            for _ in range(n):
                generate_latest(reg)
        except Exception as e:  # reported by the main thread
            errors.append(e)
    ts = [threading.Thread(target=run, args=(total // threads,)) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(timeout=600)
    assert not errors and not any(t.is_alive() for t in ts), errors
    log, fake.log = fake.log, None
    return log


def torn_snapshots(log, seq):
    """How many len(seq)-long chunks of the log are not one thread reading exactly seq."""
    assert len(log) % len(seq) == 0
    bad = 0
    for k in range(0, len(log), len(seq)):
        chunk = log[k:k + len(seq)]
        if len({tid for tid, _ in chunk}) != 1 or [off for _, off in chunk] != seq:
            bad += 1
    return bad


def test_one_reader_at_a_time(fake_lat):
    fake, mon, regs = fake_lat
    reg, _ = registry(mon)
    seq = lone_snapshot(fake, reg)
    hist = regs["AXI_LATENCY_RD_LAT_HIST_RESULT"]
    assert seq[:4] == [0x0, 0x4, 0x8, 0xC] and seq[-4:] == [0x0, 0x4, 0x8, 0xC]   # identity before and after
    assert hist in seq and len(seq) > 40
    log = hammer(fake, reg, SCRAPES)
    assert len(log) == SCRAPES * len(seq)
    assert len({tid for tid, _ in log}) == THREADS
    assert torn_snapshots(log, seq) == 0


def test_without_the_lock_reads_interleave(fake_lat, monkeypatch):
    """The check above can fail: the same load with the lock taken away."""
    fake, mon, regs = fake_lat
    reg, col = registry(mon)
    seq = lone_snapshot(fake, reg)
    col.targets[0].lock = contextlib.nullcontext()
    log = hammer(fake, reg, 2000)
    assert torn_snapshots(log, seq) > 0


def test_http_scrapes_share_the_lock(fake_lat):
    fake, mon, regs = fake_lat
    reg, _ = registry(mon)
    seq = lone_snapshot(fake, reg)
    server, thread, port = exporter.start("127.0.0.1:0", [("axi_latency", mon)])
    fake.log = []
    errors = []

    def run():
        try:
            for _ in range(50):
                with urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=30) as r:
                    assert b'jointer_up{monitor="axi_latency"} 1.0' in r.read()
        except Exception as e:
            errors.append(e)
    try:
        ts = [threading.Thread(target=run) for _ in range(THREADS)]
        for t in ts:
            t.start()
        for t in ts:
            t.join(timeout=300)
    finally:
        server.shutdown()
        server.server_close()
    log, fake.log = fake.log, None
    assert not errors, errors
    assert len(log) == 200 * len(seq) and torn_snapshots(log, seq) == 0


def up_and_reason(reg):
    f = families(generate_latest(reg).decode())
    up = [s.value for s in f["jointer_up"].samples]
    reasons = [s.labels["jointer_down_reason"] for s in f["jointer_down_reason"].samples if s.value == 1]
    return up, reasons, f


def test_pl_reload_flips_up_and_back(fake_lat, capfd):
    fake, mon, regs = fake_lat
    reg, _ = registry(mon)
    up, reasons, f = up_and_reason(reg)
    assert (up, reasons) == ([1.0], [])
    hash_ok = regs["AXI_LATENCY_CONFIG_HASH"]
    fake.over[HASH] = hash_ok ^ 1                      # the PL now holds another monitor
    for _ in range(2):
        up, reasons, f = up_and_reason(reg)
        assert (up, reasons) == ([0.0], ["config_hash"])
        assert "jointer_rd_count" not in f or f["jointer_rd_count"].samples == []   # no value of another bitstream
        info = f["jointer_monitor_info"].samples[0].labels
        assert (info["config_hash"], info["device_config_hash"]) == ("0x%08X" % hash_ok, "0x%08X" % (hash_ok ^ 1))
    fake.over[ID] = 0                                   # no jointer monitor at all
    assert up_and_reason(reg)[:2] == ([0.0], ["id"])
    del fake.over[ID], fake.over[HASH]                  # the bitstream is back
    up, reasons, f = up_and_reason(reg)
    assert (up, reasons) == ([1.0], [])
    assert f["jointer_rd_count"].samples[0].value == 4000000054
    hist = [s.value for s in f["jointer_rd_lat_hist"].samples]
    assert hist == [float(sum(RD[:k + 1])) for k in range(len(RD))]
    err = capfd.readouterr().err.splitlines()
    assert err == [
        "jointer exporter: axi_latency: down (config_hash): the device reports ID 0x4A4E5452, VERSION 0x00020000, "
        "CONFIG_HASH 0x%08X, INFO 0x%08X; the descriptor axi_latency is 0x%08X (was the PL reloaded with another "
        "bitstream?)" % (hash_ok ^ 1, regs["AXI_LATENCY_INFO"], hash_ok),
        "jointer exporter: axi_latency: down (id): the device reports ID 0x00000000, VERSION 0x00020000, "
        "CONFIG_HASH 0x%08X, INFO 0x%08X; the descriptor axi_latency is 0x%08X (was the PL reloaded with another "
        "bitstream?)" % (hash_ok ^ 1, regs["AXI_LATENCY_INFO"], hash_ok),
        "jointer exporter: axi_latency: up again (identity matches axi_latency, config hash 0x%08X)" % hash_ok]


def test_reload_during_a_snapshot_discards_it(fake_lat):
    fake, mon, regs = fake_lat
    reg, _ = registry(mon)
    hist = regs["AXI_LATENCY_RD_LAT_HIST_RESULT"]

    def reload_at_hist(off):
        if off == hist:
            fake.over[HASH] = 0xDEADBEEF
    fake.on_read = reload_at_hist
    up, reasons, f = up_and_reason(reg)
    assert (up, reasons) == ([0.0], ["config_hash"])
    assert f["jointer_rd_lat_hist"].samples == []
    fake.on_read = None
    del fake.over[HASH]
    assert up_and_reason(reg)[:2] == ([1.0], [])


def test_identity_changed_during_a_snapshot(fake_lat):
    """Another VERSION minor (another build of the same configuration) appearing mid-read: that read is dropped."""
    fake, mon, regs = fake_lat
    reg, _ = registry(mon)
    hist = regs["AXI_LATENCY_RD_LAT_HIST_RESULT"]
    fake.on_read = lambda off: fake.over.__setitem__(VERSION, 0x00020001) if off == hist else None
    assert up_and_reason(reg)[:2] == ([0.0], ["changed"])
    fake.on_read = None
    assert up_and_reason(reg)[:2] == ([1.0], [])       # the new build matches the descriptor: up again


def test_read_error_then_recovery(fake_lat, capfd):
    fake, mon, regs = fake_lat
    reg, _ = registry(mon)

    def bus_error(off):
        if off == regs["AXI_LATENCY_RD_COUNT_RESULT"]:
            raise OSError(5, "bus error")
    fake.on_read = bus_error
    up, reasons, f = up_and_reason(reg)
    assert (up, reasons) == ([0.0], ["read_error"]) and f["jointer_rd_count"].samples == []
    fake.on_read = None
    assert up_and_reason(reg)[:2] == ([1.0], [])
    err = capfd.readouterr().err.splitlines()
    assert len(err) == 2 and err[0].startswith("jointer exporter: axi_latency: down: axi_latency: read_all: ")
    assert err[1].startswith("jointer exporter: axi_latency: up again")
