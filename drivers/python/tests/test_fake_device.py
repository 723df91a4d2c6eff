# SPDX-License-Identifier: MIT
"""python3 -m jointer fake-device: a monitor's register file and sysfs tree
that the CLI and the Python package open as uio:, unchanged (the environment
of its env.sh), with every value of the values file: plain metrics, a
64-bit one, a mean, pow2 and listed histograms (configs/axi_latency.yaml,
the `latency` fixture), from a values file and from a co-simulation's
report.json; bad values files are one-line errors; the message of a CLI
whose device is not there names the paths it read."""
import json
import os
import subprocess
import sys

import pytest
from conftest import BUILD, RD, REPO, WR

import jointer

VALUES = {"rd_count": 4000000054, "rd_lat_sum": (1 << 47) + 5, "rd_lat_min": 3, "rd_lat_max": 900,
          "rd_lat_mean": {"sum": 0x89ABCDEF01, "count": 77}, "rd_lat_hist": RD, "wr_lat_max": 12,
          "wr_lat_hist": WR}


def _env(path):
    """The variables env.sh exports."""
    out = {}
    for line in open(path):
        if line.startswith("export "):
            k, v = line[len("export "):].strip().split("=", 1)
            out[k] = v
    return out


def _make(tmp_path, latency, values):
    jdesc = os.path.join(latency[0], "gen", "axi_latency", "axi_latency.jdesc")
    vf = tmp_path / "v.json"
    vf.write_text(json.dumps(values))
    r = subprocess.run([sys.executable, "-m", "jointer", "fake-device", str(tmp_path / "dev"), "--desc", jdesc,
                        "--values", str(vf)], capture_output=True, text=True, timeout=120)
    return r, jdesc


def test_cli_and_package_read_the_values(tmp_path, latency, monkeypatch):
    r, jdesc = _make(tmp_path, latency, VALUES)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("fake device of monitor axi_latency: %s (8 metrics set)" % (tmp_path / "dev"))
    env = _env(tmp_path / "dev" / "env.sh")
    assert env["JOINTER_DEVICE"] == "uio:%s" % (tmp_path / "dev" / "uio0") and env["JOINTER_DESC"] == jdesc
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    m = jointer.Monitor.open(env["JOINTER_DEVICE"], desc=jdesc)       # identity checked on open
    got = m.metrics()
    assert {k: got[k] for k in ("rd_count", "rd_lat_sum", "rd_lat_min", "rd_lat_max", "wr_lat_max")} == \
        {k: VALUES[k] for k in ("rd_count", "rd_lat_sum", "rd_lat_min", "rd_lat_max", "wr_lat_max")}
    assert [c for _, _, c in m.histogram("rd_lat_hist")] == RD and [c for _, _, c in m.histogram("wr_lat_hist")] == WR
    assert m.mean("rd_lat_mean")[:2] == (0x89ABCDEF01, 77)
    m.close()
    by_name = jointer.Monitor.open("uio:name=axi_latency", desc=jdesc)   # the sysfs name, JOINTER_UIO_DEV
    assert by_name.read("rd_count") == VALUES["rd_count"]
    by_name.close()
    cli = os.path.join(latency[0], "jointer-axi_latency")
    p = subprocess.run([cli, "read", "--format", "json"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    j = json.loads(p.stdout)["metrics"]
    assert j["rd_count"] == VALUES["rd_count"] and [b["count"] for b in j["wr_lat_hist"]] == WR
    assert j["rd_lat_mean"]["sum"] == 0x89ABCDEF01


def test_values_from_a_cosimulation_report(tmp_path, latency):
    """A report.json as run.py writes it: metrics, buckets as <metric>.bucket<k>, other names ignored."""
    rep = {"metrics": {"rd_count": 7, "status.mem": 3, "mem.m_axi_x.beats": 9,
                       **{"rd_lat_hist.bucket%d" % k: v for k, v in enumerate(RD)}}}
    r, jdesc = _make(tmp_path, latency, rep)
    assert r.returncode == 0 and "(2 metrics set)" in r.stdout, r.stderr
    m = jointer.Monitor.open("uio:%s" % (tmp_path / "dev" / "uio0"), desc=jdesc,
                             sysfs_root=str(tmp_path / "dev" / "sysfs"))
    assert m.read("rd_count") == 7 and [c for _, _, c in m.histogram("rd_lat_hist")] == RD
    m.close()


@pytest.mark.parametrize("values, msg", [
    ({"rd_cnt": 1}, 'no metric "rd_cnt" in axi_latency (it has: rd_count, rd_lat_sum, '),
    ({"rd_lat_min": 1 << 16}, "metric rd_lat_min: 65536 does not fit its 16 bits"),
    ({"rd_lat_hist": [1, 2]}, "metric rd_lat_hist: expected 12 integers (its buckets), not [1, 2]"),
    ({"rd_lat_mean": 5}, "metric rd_lat_mean: expected 2 integers (its sum, count), not 5"),
    ([1, 2], "expected a JSON object {metric: value}"),
])
def test_bad_values_are_one_line_errors(tmp_path, latency, values, msg):
    r, _ = _make(tmp_path, latency, values)
    assert r.returncode == 1 and msg in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    assert not (tmp_path / "dev" / "uio0").exists()


def test_a_missing_device_names_the_paths_read(tmp_path, latency):
    """The generic CLI cannot read a device's identity: it says which files it read."""
    cli = os.path.join(BUILD, "drivers", "cli", "jointer")
    subprocess.run(["make", "-s", "cli", "JOINTER_SKIP_DEPS=1"], cwd=REPO, check=True, capture_output=True,
                   timeout=300)
    env = dict(os.environ, JOINTER_UIO_SYSFS=str(tmp_path / "sysfs"))
    env.pop("JOINTER_DESC", None)
    p = subprocess.run([cli, "--device", "uio:/dev/uio7", "read"], capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 1, p.stderr
    assert p.stderr.strip() == ("jointer: cannot read the identity of uio:/dev/uio7 to find its descriptor: no such "
                                "file (it reads %s/uio7/maps/map0/{addr,size,offset} and maps /dev/uio7; "
                                "JOINTER_UIO_SYSFS moves the first: doc/integration.md, \"A fake device\"); pass "
                                "--desc FILE.jdesc" % (tmp_path / "sysfs")), p.stderr
