"""Plots from the CLI's own outputs (read --format json of the axi_latency
histograms, watch CSV, profile CSV): PNG files that decode, SVG files that
parse as XML and hold one jointer_bar_<n> element per bucket / function."""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from PIL import Image
from conftest import RD, WR, lat_device

import jointer
from jointer import plot


def svg_bars(path):
    root = ET.parse(path).getroot()
    return sorted(e.get("id") for e in root.iter() if (e.get("id") or "").startswith("jointer_bar_"))


def run_plot(*args):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(jointer.__file__)))
    return subprocess.run([sys.executable, "-m", "jointer", "plot"] + list(args), capture_output=True, text=True,
                          env=env, timeout=120)


def test_histograms_from_the_cli_json(tmp_path, latency):
    bindir, regs, desc = latency
    d = lat_device(tmp_path, regs)
    env = dict(os.environ, JOINTER_UIO_SYSFS=d.sysfs)
    js = tmp_path / "read.json"
    js.write_text(subprocess.run([os.path.join(bindir, "jointer-axi_latency"), "--device", "uio:" + d.path,
                                  "read", "--format", "json"], capture_output=True, text=True, env=env,
                                 check=True).stdout)
    svg, png = str(tmp_path / "h.svg"), str(tmp_path / "h.png")
    r = run_plot("histogram", str(js), "-o", svg)
    assert r.returncode == 0 and r.stdout.strip() == "wrote " + svg, r.stderr
    assert len(svg_bars(svg)) == len(RD) + len(WR)
    text = open(svg).read()
    assert "[1024, inf)" in text and "[256, inf)" in text and "[0, 1)" in text
    r = run_plot("histogram", str(js), "wr_lat_hist", "-o", png)
    assert r.returncode == 0, r.stderr
    with Image.open(png) as im:
        im.verify()
        assert im.format == "PNG" and im.size[0] > 100
    r = run_plot("histogram", str(js), "nope", "-o", png)
    assert r.returncode == 1 and "no histogram \"nope\"" in r.stderr and "Traceback" not in r.stderr


def test_watch_and_profile(tmp_path):
    w = tmp_path / "w.csv"
    w.write_text("time_ms,mac_fires,bytes_written\n0.0,1,10\n100.2,5,20\n200.1,9,40\n")
    out = str(tmp_path / "w.svg")
    assert plot.plot("watch", str(w), out) == out
    root = ET.parse(out).getroot()
    ids = {e.get("id") for e in root.iter()}
    assert {"jointer_series_mac_fires", "jointer_series_bytes_written"} <= ids
    p = tmp_path / "p.csv"
    p.write_text("function,calls,total_cycles,min_cycles,max_cycles,unmatched_entries,unmatched_exits\n"
                 "main,1,85,85,85,1,0\nwork,2,60,30,30,0,1\nleaf,2,0,0,0,0,0\n")
    out = str(tmp_path / "p.svg")
    r = run_plot("profile", str(p), "-o", out)
    assert r.returncode == 0, r.stderr
    assert svg_bars(out) == ["jointer_bar_0", "jointer_bar_1", "jointer_bar_2"]
    png = str(tmp_path / "p.png")
    plot.plot_profile(jointer.profile([(1, 0), (5, 1)], [("f", 0x10, 0x20)]), png)
    with Image.open(png) as im:
        im.verify()


def test_bad_plot_inputs(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("time_ms,a\n1.0,x\n")
    r = run_plot("watch", str(bad), "-o", str(tmp_path / "o.png"))
    assert r.returncode == 1 and r.stderr.strip() == "jointer: %s:2: expected a time in ms and integer values" % bad
    assert not os.path.exists(str(tmp_path / "o.png")) and not os.path.exists(str(tmp_path / "o.png.tmp"))
    r = run_plot("watch", str(bad), "-o", str(tmp_path / "o.pdf"))
    assert r.returncode == 1 and "must end in .png or .svg" in r.stderr
    with pytest.raises(jointer.JointerError):
        plot.plot_histograms({}, str(tmp_path / "x.png"))
