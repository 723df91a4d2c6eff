"""Plots (matplotlib, Agg backend), PNG or SVG by the output's extension:
  - histograms as bar charts, one bar per hardware bucket labelled [low, high)
    (from `jointer read --format json`, or Monitor.histogram());
  - `jointer watch --output` CSV as time series;
  - a program-monitor profile (`jointer profile --format csv`, or
    jointer.profile()) as horizontal bars of total cycles per function.
Each bar carries an SVG id jointer_bar_<n>. Files are written to a temporary
name and renamed: nothing half-written.
"""
import csv
import errno as E
import json
import os

from .errors import JointerError

FORMATS = (".png", ".svg")


def _plt():
    import matplotlib
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


def _save(fig, out):
    fmt = _check_out(out)
    plt = _plt()
    tmp = out + ".tmp"
    try:
        fig.savefig(tmp, format=fmt, bbox_inches="tight")
        os.replace(tmp, out)
    except OSError as e:
        raise JointerError(e.errno or E.EIO, "cannot write %s: %s" % (out, e.strerror)) from None
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)
    return out


def _label(lo, hi):
    return "[%d, %s)" % (lo, "inf" if hi is None else "%d" % hi)


def plot_histograms(hists, out, title=None):
    """hists: {metric: [(low, high, count)]} -> one bar chart per histogram."""
    if not hists:
        raise JointerError(E.EINVAL, "no histogram to plot")
    _check_out(out)
    plt = _plt()
    fig, axes = plt.subplots(len(hists), 1, figsize=(8, 3.2 * len(hists)), squeeze=False)
    n = 0
    for ax, (name, buckets) in zip(axes[:, 0], hists.items()):
        bars = ax.bar(range(len(buckets)), [c for _, _, c in buckets], color="#4C72B0")
        for b in bars:
            b.set_gid("jointer_bar_%d" % n)
            n += 1
        ax.set_xticks(range(len(buckets)))
        ax.set_xticklabels([_label(lo, hi) for lo, hi, _ in buckets], rotation=45, ha="right", fontsize=8)
        ax.set_ylabel("count")
        ax.set_title(name)
    if title:
        fig.suptitle(title)
    return _save(fig, out)


def plot_watch(series, out, title=None):
    """series: {metric: [(time_ms, value)]} -> one line per metric."""
    if not series:
        raise JointerError(E.EINVAL, "no series to plot")
    _check_out(out)
    plt = _plt()
    fig, ax = plt.subplots(figsize=(8, 4))
    for name, pts in series.items():
        line, = ax.plot([t for t, _ in pts], [v for _, v in pts], marker=".", label=name)
        line.set_gid("jointer_series_" + name)
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("value")
    ax.legend()
    if title:
        ax.set_title(title)
    return _save(fig, out)


def plot_profile(stats, out, title=None):
    """stats: {function: {calls, total, ...}} -> horizontal bars of total cycles."""
    if not stats:
        raise JointerError(E.EINVAL, "no function to plot")
    _check_out(out)
    plt = _plt()
    names = list(stats)
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(names) + 1.5))
    bars = ax.barh(range(len(names)), [stats[n]["total"] for n in names], color="#55A868")
    for k, b in enumerate(bars):
        b.set_gid("jointer_bar_%d" % k)
        ax.annotate("%d calls" % stats[names[k]]["calls"], (b.get_width(), b.get_y() + b.get_height() / 2),
                    xytext=(3, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.invert_yaxis()
    ax.set_xlabel("total cycles")
    ax.set_title(title or "program monitor profile")
    return _save(fig, out)


def _load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError as e:
        raise JointerError(e.errno or E.EIO, "cannot open %s: %s" % (path, e.strerror)) from None
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
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise JointerError(e.errno or E.EIO, "cannot open %s: %s" % (path, e.strerror)) from None
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
        return plot_histograms(histograms_from_json(path, metric), out, os.path.basename(path))
    if kind == "watch":
        from .export import read_watch_csv
        return plot_watch(read_watch_csv(path), out, os.path.basename(path))
    if kind == "profile":
        return plot_profile(profile_from_csv(path), out)
    raise JointerError(E.EINVAL, "unknown plot \"%s\": histogram, watch or profile" % kind)
