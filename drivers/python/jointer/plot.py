# SPDX-License-Identifier: MIT
"""Plots (matplotlib, Agg backend), PNG or SVG by the output's extension:
  - histograms as bar charts, one bar per hardware bucket labelled [low, high)
    (from `jointer read --format json`, or Monitor.histogram());
  - `jointer watch --output` CSV as time series;
  - a program-monitor profile (`jointer profile --format csv`, or
    jointer.profile()) as horizontal bars of total cycles per function.
Each bar carries an SVG id jointer_bar_<n>. Titles say what is plotted, axes
their unit; series more than 100x apart get their own axis (watch) or a log
axis (histogram counts, profile totals); the layout is matplotlib's
constrained layout (no text overlaps another: tests/test_plot.py measures
it). Files are written by jointer.safeio.Output: nothing half-written.
"""
import csv
import errno as E
import json
import os

from . import safeio
from .errors import JointerError

FORMATS = (".png", ".svg")
RATIO = 100          # series further apart than this get their own axis (or a log axis)


def _plt():
    try:
        import matplotlib
    except ModuleNotFoundError:
        raise JointerError(E.ENOENT, "the Python module matplotlib is missing: pip install 'jointer[plot]'") from None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"   # labels stay text in SVG (searchable)
    matplotlib.rcParams["svg.hashsalt"] = "jointer"  # stable ids: same data, same file
    import matplotlib.pyplot as plt
    return plt


def _check_out(out):
    ext = os.path.splitext(out)[1].lower()
    if ext not in FORMATS:
        raise JointerError(E.EINVAL, "%s: the output must end in .png or .svg" % out)
    return ext[1:]


def _save(fig, out, inputs=()):
    fmt = _check_out(out)
    plt = _plt()
    try:
        with safeio.Output(out, inputs) as f:
            fig.savefig(f, format=fmt)
    finally:
        plt.close(fig)
    return out


def _label(lo, hi):
    return "[%d, %s)" % (lo, "inf" if hi is None else "%d" % hi)


def _eng(ax, axis="y"):
    """Integer ticks labelled 8.6 G, 120 k: no offset text ("1e9") away from the axis."""
    from matplotlib.ticker import EngFormatter, MaxNLocator
    a = ax.yaxis if axis == "y" else ax.xaxis
    a.set_major_locator(MaxNLocator(integer=True))
    a.set_major_formatter(EngFormatter(sep=" "))


def unit(names):
    """The unit of metrics by their names: cycles, bytes, else events."""
    for word in ("cycles", "bytes"):
        if all(word in n.lower() or word[:-1] in n.lower() for n in names):
            return word
    return "events" if not any(w in n.lower() for n in names for w in ("cycle", "byte")) else "events, cycles, bytes"


def groups(series, ratio=RATIO):
    """Series names grouped so that within a group the largest magnitude is at
    most ratio x the smallest (each group gets its own axis); largest first."""
    mag = {n: max((abs(v) for _, v in pts), default=0) or 1 for n, pts in series.items()}
    out = []
    for n in sorted(series, key=lambda k: -mag[k]):
        if out and mag[out[-1][0]] <= ratio * mag[n]:
            out[-1].append(n)
        else:
            out.append([n])
    return out


def plot_histograms(hists, out, title=None, inputs=()):
    """hists: {metric: [(low, high, count)]} -> one bar chart per histogram
    (log counts when the buckets differ by more than 100x)."""
    _check_out(out)
    return _save(histogram_figure(hists, title), out, inputs)


def histogram_figure(hists, title=None):
    if not hists:
        raise JointerError(E.EINVAL, "no histogram to plot")
    plt = _plt()
    nb = max(len(b) for b in hists.values())
    fig, axes = plt.subplots(len(hists), 1, figsize=(max(8.0, 0.35 * nb + 2), 3.6 * len(hists)), squeeze=False,
                             layout="constrained")
    n = 0
    for ax, (name, buckets) in zip(axes[:, 0], hists.items()):
        counts = [c for _, _, c in buckets]
        bars = ax.bar(range(len(buckets)), counts, color="#4C72B0")
        for b in bars:
            b.set_gid("jointer_bar_%d" % n)
            n += 1
        ax.set_xticks(range(len(buckets)))
        ax.set_xticklabels([_label(lo, hi) for lo, hi, _ in buckets], rotation=90, fontsize=8)
        pos = [c for c in counts if c > 0]
        if pos and max(pos) > RATIO * min(pos):
            ax.set_yscale("log")
            ax.set_ylabel("count (events, log scale)")
        else:
            _eng(ax)
            ax.set_ylabel("count (events)")
        ax.set_xlabel("bucket [low, high) of %s (the metric's unit: cycles or events)" % name)
        ax.set_title("Histogram %s" % name)
    if title:
        fig.suptitle(title)
    return fig


def plot_watch(series, out, title=None, inputs=()):
    """series: {metric: [(time_ms, value)]} -> one line per metric; metrics
    more than 100x apart on separate axes (sharing the time axis)."""
    _check_out(out)
    return _save(watch_figure(series, title), out, inputs)


def watch_figure(series, title=None):
    if not series:
        raise JointerError(E.EINVAL, "no series to plot")
    plt = _plt()
    gs = groups(series)
    fig, axes = plt.subplots(len(gs), 1, figsize=(9, 2.4 * len(gs) + 1.2), sharex=True, squeeze=False,
                             layout="constrained")
    for ax, names in zip(axes[:, 0], gs):
        for name in names:
            pts = series[name]
            line, = ax.plot([t for t, _ in pts], [v for _, v in pts], marker=".", label=name)
            line.set_gid("jointer_series_" + name)
        _eng(ax)
        ax.set_ylabel("value (%s)" % unit(names))
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
        ax.grid(True, alpha=0.3)
    axes[-1, 0].set_xlabel("time since the first sample (ms)")
    fig.suptitle(title or "Monitor metrics over time (jointer watch)")
    return fig


def plot_profile(stats, out, title=None, inputs=()):
    """stats: {function: {calls, total, ...}} -> horizontal bars of total
    cycles (a log axis when totals differ by more than 100x)."""
    _check_out(out)
    return _save(profile_figure(stats, title), out, inputs)


def profile_figure(stats, title=None):
    if not stats:
        raise JointerError(E.EINVAL, "no function to plot")
    plt = _plt()
    names = list(stats)
    fig, ax = plt.subplots(figsize=(9, 0.5 * len(names) + 1.8), layout="constrained")
    totals = [stats[n]["total"] for n in names]
    bars = ax.barh(range(len(names)), totals, color="#55A868")
    pos = [t for t in totals if t > 0]
    log = bool(pos) and max(pos) > RATIO * min(pos)
    for k, b in enumerate(bars):
        b.set_gid("jointer_bar_%d" % k)
        calls = stats[names[k]]["calls"]
        ax.annotate("%d call%s" % (calls, "" if calls == 1 else "s"), (max(b.get_width(), 1 if log else 0),
                                                           b.get_y() + b.get_height() / 2),
                    xytext=(3, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.invert_yaxis()
    if log:
        ax.set_xscale("log")
        ax.set_xlim(left=0.8)
    else:
        _eng(ax, "x")
    ax.set_xlim(right=(max(pos) if pos else 1) * (8 if log else 1.25))   # room for the annotations
    ax.set_xlabel("total cycles per function (inclusive%s)" % (", log scale" if log else ""))
    ax.set_ylabel("function")
    ax.set_title(title or "Program monitor profile")
    return fig


def _load_json(path):
    text = safeio.read_text(path, "`jointer read --format json` output")
    try:
        return json.loads(text)
    except ValueError as e:
        raise JointerError(E.EINVAL, "%s: not JSON (expected `jointer read --format json`): %s" % (path, e)) from None


def histograms_from_json(path, metric=None):
    """{metric: [(low, high, count)]} of a `jointer read --format json` file."""
    doc = _load_json(path)
    ms = doc.get("metrics") if isinstance(doc, dict) else None
    if not isinstance(ms, dict):
        raise JointerError(E.EINVAL, "%s: no \"metrics\" object (expected `jointer read --format json`)" % path)
    out = {}
    for name, v in ms.items():
        if isinstance(v, list):
            try:
                out[name] = [(int(b["low"]), None if b["high"] is None else int(b["high"]), int(b["count"]))
                             for b in v]
            except (KeyError, TypeError, ValueError):
                raise JointerError(E.EINVAL, "%s: metric %s: buckets must be {low, high, count}" % (path, name)) \
                    from None
    if metric is not None:
        if metric not in out:
            raise JointerError(E.ENOENT, "%s: no histogram \"%s\" (histograms: %s)"
                               % (path, metric, ", ".join(out) or "none"))
        out = {metric: out[metric]}
    if not out:
        raise JointerError(E.EINVAL, "%s: no histogram metric in it" % path)
    return out


def profile_from_csv(path):
    """{function: {calls, total, min, max, ...}} of `jointer profile --format csv`."""
    rows = list(csv.reader(safeio.read_text(path, "`jointer profile --format csv` output").splitlines()))
    head = "function,calls,total_cycles,min_cycles,max_cycles,unmatched_entries,unmatched_exits".split(",")
    if not rows or rows[0][:7] != head:
        raise JointerError(E.EINVAL, "%s:1: expected the header %s (jointer profile --format csv)"
                           % (path, ",".join(head)))
    out = {}
    for ln, r in enumerate(rows[1:], 2):
        if not r:
            continue
        try:
            out[r[0]] = {"calls": int(r[1]), "total": int(r[2]), "min": int(r[3]), "max": int(r[4]),
                         "unmatched_entries": int(r[5]), "unmatched_exits": int(r[6])}
        except (IndexError, ValueError):
            raise JointerError(E.EINVAL, "%s:%d: expected %d integer fields after the name" % (path, ln, 6)) from None
    return out


def plot(kind, path, out, metric=None):
    """The `python3 -m jointer plot` command: kind histogram | watch | profile."""
    _check_out(out)
    if kind == "histogram":
        return plot_histograms(histograms_from_json(path, metric), out, inputs=[path])
    if kind == "watch":
        from .export import read_watch_csv
        return plot_watch(read_watch_csv(path), out, inputs=[path])
    if kind == "profile":
        return plot_profile(profile_from_csv(path), out, inputs=[path])
    raise JointerError(E.EINVAL, "unknown plot \"%s\": histogram, watch or profile" % kind)
