#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""converter-bench (make bench): the trace-file converters on one synthetic
trace of N records (default 10 M: an 80 MB raw file), the C CLI (`jointer
trace --convert`) and the Python package (`python3 -m jointer convert`) side
by side in the same run: records per second and peak RSS of each process
(/proc VmHWM), for VCD, Perfetto JSON and CSV, written to a file and to
/dev/null (the converter's own rate, no disk); each
measured --repeat times interleaved, the best time kept.

    converter_bench.py [--build build] [--records N] [--repeat R] [--fragment FILE]

The trace: relay_t of the relay_mon fixture (100 MHz), timestamps rising by
1..40 cycles (wrapping 32 bits a few times per 100 M cycles), data a
program-monitor-like mix. Goals: RSS at most 100 MB for 10 M records; the
Python VCD and Perfetto exports at least 80 % of the C converter's rate.
"""
import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "drivers" / "python"))

RSS_GOAL_MB = 100
RATE_GOAL = 0.8


def make_trace(path, n, desc_so):
    import jointer
    rng = np.random.default_rng(1)
    rec = np.zeros(n, dtype=jointer.TRACE_DTYPE)
    steps = rng.integers(1, 41, n, dtype=np.uint64)
    rec["timestamp"] = (np.cumsum(steps) & 0xFFFFFFFF).astype(np.uint32)
    rec["data"] = rng.integers(0, 64, n, dtype=np.uint32)
    jointer.write_trace_file(str(path), jointer.Descriptor.load(str(desc_so)), "relay_t", rec, 0)


def hwm_kb(pid):
    """VmHWM (peak RSS of the program since its exec) of a running process, or 0."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(argv, stdout_path=None, env=None):
    """(wall s, peak RSS MB) of one process. The peak is /proc's VmHWM sampled
    every 5 ms (wait4's ru_maxrss would count the forking parent's pages)."""
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE, env=env)
    peak = 0
    while p.poll() is None:
        peak = max(peak, hwm_kb(p.pid))
        time.sleep(0.005)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode()
    if stdout_path:
        out.close()
    if p.returncode != 0:
        raise SystemExit("converter-bench: %s failed: %s" % (" ".join(argv), err.strip()))
    return wall, peak / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=str(REPO / "build"))
    ap.add_argument("--records", type=int, default=10_000_000)
    ap.add_argument("--fragment", default=None)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    build = Path(a.build).resolve()
    work = build / "bench" / "converter"
    work.mkdir(parents=True, exist_ok=True)
    cli = build / "drivers" / "cli-fixture" / "jointer-relay_mon"
    shared = build / "drivers" / "shared"
    trace = work / ("t%d.jtr" % a.records)
    if not trace.exists():
        print("converter-bench: writing %d records to %s" % (a.records, trace), flush=True)
        make_trace(trace, a.records, shared / "desc" / "librelay_mon.so")
    env = dict(os.environ, PYTHONPATH=str(REPO / "drivers" / "python"), JOINTER_LIB=str(shared / "libjointer.so"))
    rows, res = [], {}
    for fmt, ext in (("vcd", "vcd"), ("perfetto", "json"), ("csv", "csv")):
        for sink in ("file", "/dev/null"):
            out = work / ("out." + ext) if sink == "file" else Path("/dev/null")
            c = p = (float("inf"), 0.0)
            size = 0
            for k in range(a.repeat):      # interleaved, the best of each: the machine's load hits both alike
                w, m = measure([str(cli), "trace", "--convert", str(trace), "--format", fmt], out)
                c = (min(c[0], w), max(c[1], m))
                if sink == "file":
                    size = out.stat().st_size
                    out.unlink()
                w, m = measure([sys.executable, "-m", "jointer", "convert", str(trace), "--format", fmt, "-o",
                                str(out)], env=env)
                p = (min(p[0], w), max(p[1], m))
                if sink == "file":
                    out.unlink()
            res[(fmt, sink)] = (c, p)
            rows.append([fmt, sink, round(a.records / c[0] / 1e6, 2), round(c[1], 1), round(a.records / p[0] / 1e6, 2),
                         round(p[1], 1), round(c[0] / p[0], 2), round(size / 1e6) if size else ""])
            print("converter-bench: %-8s to %-9s C %.2f M records/s %.0f MB RSS | Python %.2f M records/s "
                  "%.0f MB RSS | Python/C %.2f" % (fmt, sink, a.records / c[0] / 1e6, c[1], a.records / p[0] / 1e6,
                                                   p[1], c[0] / p[0]), flush=True)
    if a.fragment:
        from bench_report import figure, write_fragment
        figs = []
        for (fmt, sink), (c, p) in res.items():
            where = "to a file" if sink == "file" else "to /dev/null (CPU only)"
            main = sink == "/dev/null" and fmt != "csv"
            figs.append(figure("%s %s: Python / C converter rate" % (fmt, where), round(c[0] / p[0], 3), "ratio",
                               RATE_GOAL if fmt != "csv" else None, "goal: Python at least 80 % of C",
                               "%d records, the same libjointer code" % a.records, summary=main))
            figs.append(figure("%s %s: C converter rate" % (fmt, where), round(a.records / c[0] / 1e6, 2),
                               "M records/s", note="jointer trace --convert", detail=sink != "file"))
            figs.append(figure("%s %s: Python converter peak RSS" % (fmt, where), round(p[1], 1), "MB", RSS_GOAL_MB,
                               "goal: at most 100 MB for 10 M records", "python3 -m jointer convert",
                               summary=main and fmt == "vcd", detail=sink != "file"))
            figs.append(figure("%s %s: C converter peak RSS" % (fmt, where), round(c[1], 1), "MB", RSS_GOAL_MB,
                               "goal: at most 100 MB for 10 M records", detail=True))
        write_fragment(a.fragment, "Trace-file converters: rate and memory (%d M records)" % (a.records // 10 ** 6),
                       figs, tables=[{"title": "C CLI vs Python package, same run",
                                      "columns": ["format", "output", "C M rec/s", "C RSS MB", "Python M rec/s",
                                                  "Python RSS MB", "Python/C rate", "output MB"], "rows": rows}],
                       text=["One trace file of %d records (relay_mon fixture, 100 MHz), converted by `jointer "
                             "trace --convert` and by `python3 -m jointer convert` (both call libjointer's "
                             "jointer_export.c), to a file and to /dev/null; best of %d interleaved runs; peak RSS "
                             "(VmHWM) of each process." % (a.records, a.repeat)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
