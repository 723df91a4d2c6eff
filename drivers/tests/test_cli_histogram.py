#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The jointer CLI's `read` of histogram metrics, against a
fake UIO device (test_cli.Device), with the CLI built for the generated
descriptor of configs/axi_latency.yaml (two histograms: 12 pow2 buckets of
32 bits, 7 listed buckets of 24 bits, plus plain metrics).

    python3 drivers/tests/test_cli_histogram.py BUILD_DIR

Checks the exact table, CSV and JSON (an array of {low, high, count} per
histogram, high null for the last bucket; CSV rows name[low..high)) and a
histogram selected by name. (The snapshot itself is the RTL's job: the LMIC
test and test_histogram.c check it.)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import test_cli  # noqa: E402  (Device, run)

BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "build")
CONFIG = os.path.join(REPO, "configs", "axi_latency.yaml")


def build(out):
    gen = os.path.join(out, "gen")
    subprocess.run([sys.executable, "-m", "jointer_gen", CONFIG, "-o", gen, "-q"], check=True,
                   env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "gen")))
    c = os.path.join(gen, "axi_latency", "c")
    d = os.path.join(REPO, "drivers")
    # the whole library (as DRV_LIB of drivers.mk), the CLI, the generated descriptor
    srcs = sorted(os.path.join(d, "src", f) for f in os.listdir(os.path.join(d, "src")) if f.endswith(".c")) \
        + sorted(os.path.join(d, "cli", f) for f in os.listdir(os.path.join(d, "cli")) if f.endswith(".c")) \
        + [os.path.join(c, "axi_latency.c")]
    exe = os.path.join(out, "jointer-axi_latency")
    subprocess.run(["gcc", "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O1",
                    "-I" + os.path.join(d, "include"), "-I" + os.path.join(d, "src"), "-I" + c,
                    "-DJOINTER_CLI_CFG=axi_latency_cfg", *srcs, "-o", exe], check=True, timeout=120)
    regs = {}
    with open(os.path.join(c, "axi_latency_regs.h")) as f:
        for m in re.finditer(r"#define (\w+)\s+(0x[0-9A-Fa-f]+|\d+)u", f.read()):
            regs[m.group(1)] = int(m.group(2), 0)
    return out, regs


def main():
    out = os.path.join(BUILD, "drivers", "cli-histogram")
    os.makedirs(out, exist_ok=True)
    bindir, r = build(out)
    test_cli.BIN = bindir
    tmp = tempfile.mkdtemp(prefix="jointer-cli-hist-")
    d = test_cli.Device(tmp, "lat", r, "AXI_LATENCY")
    rd = [5, 0, 1, 2, 30, 7, 0, 0, 0, 0, 4000000000, 9]          # 12 pow2 buckets, 32 bits
    wr = [1, 2, 3, 0, 0xFFFFFF, 6, 7]                           # 7 listed buckets, 24 bits
    stride_rd, stride_wr = r["AXI_LATENCY_RD_LAT_HIST_BUCKET_STRIDE"], r["AXI_LATENCY_WR_LAT_HIST_BUCKET_STRIDE"]
    assert r["AXI_LATENCY_RD_LAT_HIST_BUCKETS"] == 12 and r["AXI_LATENCY_WR_LAT_HIST_BUCKETS"] == 7
    for k, v in enumerate(rd):
        d.poke(r["AXI_LATENCY_RD_LAT_HIST_RESULT"] + k * stride_rd, v)
    for k, v in enumerate(wr):
        d.poke(r["AXI_LATENCY_WR_LAT_HIST_RESULT"] + k * stride_wr, v)
    d.poke(r["AXI_LATENCY_RD_COUNT_RESULT"], 4000000054)
    d.poke(r["AXI_LATENCY_RD_LAT_MAX_RESULT"], 1500)
    mean = r["AXI_LATENCY_RD_LAT_MEAN_RESULT"]             # sum (40 bits), then count (40 bits)
    d.poke(mean, 0x89ABCDEF)
    d.poke(mean + 4, 0x12)
    d.poke(mean + r["AXI_LATENCY_RD_LAT_MEAN_BUCKET_STRIDE"], 1000)
    failed = 0

    def check(name, cond, msg):
        nonlocal failed
        if not cond:
            failed += 1
            print("FAIL %s: %s" % (name, msg))

    rd_ranges = [(0, 1)] + [(1 << (k - 1), 1 << k) for k in range(1, 11)] + [(1024, None)]
    wr_ranges = list(zip([0, 2, 4, 8, 16, 64, 256], [2, 4, 8, 16, 64, 256, None]))

    rc, o, e = test_cli.run("jointer-axi_latency", d, "read", "--format", "json")
    j = json.loads(o) if rc == 0 else {}
    m = j.get("metrics", {})
    check("json", rc == 0 and m.get("rd_count") == 4000000054 and m.get("rd_lat_max") == 1500, (rc, o, e))
    check("json_rd_hist", m.get("rd_lat_hist") == [{"low": lo, "high": hi, "count": c}
                                                   for (lo, hi), c in zip(rd_ranges, rd)], o)
    check("json_wr_hist", m.get("wr_lat_hist") == [{"low": lo, "high": hi, "count": c}
                                                   for (lo, hi), c in zip(wr_ranges, wr)], o)
    check("json_mean", m.get("rd_lat_mean") == {"sum": 0x1289ABCDEF, "count": 1000}, o)
    rc, o, e = test_cli.run("jointer-axi_latency", d, "read", "rd_lat_mean", "--format", "csv")
    check("csv_mean", rc == 0 and o.splitlines()[1:] == [
        "mem,rd_lat,rd_lat_mean[sum],40,%d" % 0x1289ABCDEF, "mem,rd_lat,rd_lat_mean[count],40,1000"], o)
    rc, o, e = test_cli.run("jointer-axi_latency", d, "read", "rd_lat_mean")
    check("table_mean", rc == 0 and [ln.split() for ln in o.splitlines()[1:]] == [
        ["mem", "rd_lat", "rd_lat_mean", "mean"], ["sum", "40", str(0x1289ABCDEF)],
        ["count", "40", "1000"], ["mean", "%.3f" % (0x1289ABCDEF / 1000)]], o)

    rc, o, e = test_cli.run("jointer-axi_latency", d, "read", "wr_lat_hist", "rd_count", "--format", "csv")
    want = ["lmic,sniffer,metric,width,value"] + [
        "mem,wr_lat,wr_lat_hist[%d..%s),24,%d" % (lo, "inf" if hi is None else hi, c)
        for (lo, hi), c in zip(wr_ranges, wr)] + ["mem,rd_lat,rd_count,32,4000000054"]
    check("csv", rc == 0 and o.splitlines() == want, (rc, o, e))

    rc, o, e = test_cli.run("jointer-axi_latency", d, "read", "rd_lat_hist")
    lines = o.splitlines()
    check("table_title", rc == 0 and lines[1].split() == ["mem", "rd_lat", "rd_lat_hist", "histogram"], o)
    rows = [ln.split() for ln in lines[2:]]
    want = [["[%d," % lo, "%s)" % ("inf" if hi is None else hi), "32", str(c)] for (lo, hi), c in zip(rd_ranges, rd)]
    check("table_rows", rows == want, (rows, want))

    # print: every bucket with its range (jointer_print_reg), a mean's sum, count and mean
    rc, o, e = test_cli.run("jointer-axi_latency", d, "print")
    lines = [ln.split() for ln in o.splitlines()]
    at = next((k for k, ln in enumerate(lines) if ln[:1] == ["rd_lat_hist"]), None)
    check("print_hist", rc == 0 and at is not None and lines[at] == ["rd_lat_hist", "histogram,", "12", "buckets"]
          and lines[at + 1:at + 13] == [["[%d," % lo, "%s)" % ("inf" if hi is None else hi), "=", str(c)]
                                        for (lo, hi), c in zip(rd_ranges, rd)], (rc, o, e))
    check("print_mean", "rd_lat_mean = sum %d, count 1000, mean %.3f" % (0x1289ABCDEF, 0x1289ABCDEF / 1000)
          in " ".join(o.split()), o)
    # info: each histogram's buckets
    rc, o, e = test_cli.run("jointer-axi_latency", d, "info")
    want = "7 buckets: " + " ".join("[%d, %s)" % (lo, "inf" if hi is None else hi) for lo, hi in wr_ranges)
    check("info_buckets", rc == 0 and want in o, (rc, o, e))
    print("test_cli_histogram: 11 checks, %d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
