# SPDX-License-Identifier: MIT
"""Histograms (configs/axi_latency.yaml, generated descriptor) and the
program-monitor profile: the Python values equal the C CLI's for the same
device / the same records (drivers/tests/test_cli_histogram.py's device)."""
import os
import subprocess

import numpy as np
import pytest
from conftest import RD, WR, Device, lat_device, run_cli

import jointer

def test_histograms_equal_the_cli(tmp_path, latency):
    bindir, regs, desc = latency
    d = lat_device(tmp_path, regs)
    with jointer.Monitor.open("uio:" + d.path, desc, sysfs_root=d.sysfs) as m:
        rd = m.histogram("rd_lat_hist")
        wr = m.histogram("wr_lat_hist")
        got = m.metrics()
        mean = m.mean("rd_lat_mean")
    rd_ranges = [(0, 1)] + [(1 << (k - 1), 1 << k) for k in range(1, 11)] + [(1024, None)]
    wr_ranges = list(zip([0, 2, 4, 8, 16, 64, 256], [2, 4, 8, 16, 64, 256, None]))
    assert rd == [(lo, hi, c) for (lo, hi), c in zip(rd_ranges, RD)]
    assert wr == [(lo, hi, c) for (lo, hi), c in zip(wr_ranges, WR)]
    assert mean == (0x1289ABCDEF, 1000)
    env = dict(os.environ, JOINTER_UIO_SYSFS=d.sysfs)
    p = subprocess.run([os.path.join(bindir, "jointer-axi_latency"), "--device", "uio:" + d.path, "read",
                        "--format", "json"], capture_output=True, text=True, env=env, check=True)
    cli = __import__("json").loads(p.stdout)["metrics"]
    py = {k: ([{"low": lo, "high": hi, "count": c} for lo, hi, c in v] if isinstance(v, list) else v)
          for k, v in got.items()}
    assert py == cli


SYMS = "# name entry exit\nmain 0x1000 0x1100\nwork 0x2000 0x2100\nleaf 0x3000\n"
# indices: main 0/1, work 2/3, leaf 4
RECORDS = [(10, 0), (20, 2), (25, 4), (30, 4), (50, 3), (60, 2), (90, 3), (95, 1), (100, 3), (120, 0)]


def test_profile_equals_the_cli(tmp_path):
    sym = tmp_path / "syms.txt"
    sym.write_text(SYMS)
    csv = tmp_path / "t.csv"
    csv.write_text("trace,index,timestamp,data\n" + "".join("pm_trace,%d,%d,%d\n" % (i, t, x)
                                                            for i, (t, x) in enumerate(RECORDS)))
    rec = np.array(RECORDS, dtype=jointer.TRACE_DTYPE)
    got = jointer.profile(rec, str(sym))
    # by hand: main 10..95 (85); work 20..50 (30) and 60..90 (30); exit of work at 100 unmatched; main at 120 open
    assert got["main"] == {"calls": 1, "total": 85, "min": 85, "max": 85, "unmatched_entries": 1,
                           "unmatched_exits": 0}
    assert got["work"] == {"calls": 2, "total": 60, "min": 30, "max": 30, "unmatched_entries": 0,
                           "unmatched_exits": 1}
    assert got["leaf"]["calls"] == 2
    dev = Device(str(tmp_path), "y9", __import__("conftest").REGS["accel_mon"], "ACCEL_MON")
    rc, out, err = run_cli("accel_mon", dev, "profile", str(sym), "--input", str(csv), "--format", "csv")
    assert rc == 0, err
    rows = [ln.split(",") for ln in out.splitlines()[1:]]
    cli = {r[0]: {"calls": int(r[1]), "total": int(r[2]), "min": int(r[3]), "max": int(r[4]),
                  "unmatched_entries": int(r[5]), "unmatched_exits": int(r[6])} for r in rows}
    assert got == cli
    assert jointer.profile([], str(sym))["main"]["calls"] == 0


def test_symbol_file_errors(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("main 0x1000\nwork zz\n")
    with pytest.raises(jointer.JointerError) as e:
        jointer.read_symbols(str(bad))
    assert str(e.value) == "%s:2: bad address (expected 0x... or decimal, 32 bits)" % bad
    nm = tmp_path / "nm.txt"
    nm.write_text("00001000 T main\n00002000 t work\n")
    assert jointer.read_symbols(str(nm)) == [("main", 0x1000, None), ("work", 0x2000, None)]
