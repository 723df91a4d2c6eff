# SPDX-License-Identifier: MIT
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


# ---- plots a person reads: titles, units, axes per magnitude, no text on text ----

WATCH = {"compute_cycles": [(t * 100.0, 860000000 * t) for t in range(11)],
         "mac_fires": [(t * 100.0, 1000 * t) for t in range(11)],
         "bytes_written": [(t * 100.0, 4000 * t) for t in range(11)],
         "errors": [(t * 100.0, t % 2) for t in range(11)]}
PROFILE = {"main": {"total": 2 ** 32 + 300, "calls": 1}, "work_with_a_long_name": {"total": 30, "calls": 2},
           "leaf": {"total": 0, "calls": 5}}
HISTS = {"rd_lat_hist": [(0 if k == 0 else 2 ** k, 2 ** (k + 1) if k < 11 else None, c) for k, c in enumerate(RD)],
         "wr_lat_hist": [(k, k + 1, c) for k, c in enumerate(WR)]}


def drawn_texts(fig):
    """(text, window bbox) of every text the renderer draws: titles, axis
    labels, tick labels of drawn ticks, legends, annotations."""
    import matplotlib.text
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    ticks = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            drawn = axis._update_ticks()
            for tk in axis.get_major_ticks() + axis.get_minor_ticks():
                if tk not in drawn:
                    ticks.update((tk.label1, tk.label2))
    return [(t.get_text(), t.get_window_extent(r)) for t in fig.findobj(matplotlib.text.Text)
            if t.get_visible() and t.get_text().strip() and t not in ticks]


def overlapping(fig):
    import itertools
    box = drawn_texts(fig)
    assert len(box) > 5
    return [(a, b) for (a, x), (b, y) in itertools.combinations(box, 2)
            if x.x0 < y.x1 - 0.5 and y.x0 < x.x1 - 0.5 and x.y0 < y.y1 - 0.5 and y.y0 < x.y1 - 0.5]


@pytest.mark.parametrize("kind", ["watch", "profile", "histogram", "histogram_one"])
def test_no_text_overlaps_another(kind):
    fig = {"watch": lambda: plot.watch_figure(WATCH),
           "profile": lambda: plot.profile_figure(PROFILE),
           "histogram": lambda: plot.histogram_figure(HISTS),
           "histogram_one": lambda: plot.histogram_figure({"h": [(k, k + 1, k * 3) for k in range(40)]})}[kind]()
    try:
        assert overlapping(fig) == []
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)


def test_the_overlap_check_can_fail():
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    ax.set_title("title")
    ax.text(0.5, 1.0, "title again", transform=ax.transAxes)
    ax.set_xlabel("x")
    assert overlapping(fig)
    plt.close(fig)


def test_titles_units_and_split_axes():
    import matplotlib.pyplot as plt
    fig = plot.watch_figure(WATCH)
    axes = fig.axes
    # compute_cycles (8.6e9) alone; mac_fires and bytes_written (4x apart) together; errors (0/1) alone
    assert [sorted(line.get_label() for line in ax.get_lines()) for ax in axes] == \
        [["compute_cycles"], ["bytes_written", "mac_fires"], ["errors"]]
    assert [ax.get_ylabel() for ax in axes] == ["value (cycles)", "value (events, cycles, bytes)", "value (events)"]
    assert axes[-1].get_xlabel() == "time since the first sample (ms)"
    assert fig._suptitle.get_text() == "Monitor metrics over time (jointer watch)"
    plt.close(fig)
    fig = plot.profile_figure(PROFILE)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_xlabel() == "total cycles per function (inclusive, log scale)"
    assert ax.get_title() == "Program monitor profile"
    plt.close(fig)
    fig = plot.profile_figure({"a": {"total": 50, "calls": 1}, "b": {"total": 30, "calls": 1}})
    assert fig.axes[0].get_xscale() == "linear"
    plt.close(fig)
    fig = plot.histogram_figure(HISTS)
    a0, a1 = fig.axes
    assert a0.get_yscale() == "log" and a0.get_ylabel() == "count (events, log scale)"
    assert a1.get_yscale() == "log" and a1.get_title() == "Histogram wr_lat_hist"   # 1 .. 0xFFFFFF
    plt.close(fig)
    fig = plot.histogram_figure({"h": [(0, 1, 5), (1, 2, 400), (2, None, 0)]})
    assert fig.axes[0].get_yscale() == "linear" and fig.axes[0].get_ylabel() == "count (events)"
    assert fig.axes[0].get_xlabel() == "bucket [low, high) of h (the metric's unit: cycles or events)"
    plt.close(fig)


def test_groups():
    assert plot.groups({"a": [(0, 1)], "b": [(0, 100)], "c": [(0, 101)], "d": [(0, 0)]}) == [["c", "b"], ["a", "d"]]
