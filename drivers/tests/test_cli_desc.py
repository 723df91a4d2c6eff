#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The generic jointer CLI (built without -DJOINTER_CLI_CFG): one binary opens
three generated monitors by their descriptor files alone, on fake UIO devices
(a fake sysfs tree through JOINTER_UIO_SYSFS, a regular file for /dev/uioN).

    python3 drivers/tests/test_cli_desc.py BUILD_DIR

Monitors: Y9 (configs/selective_accumulations.yaml), configs/trace_sink.yaml
and configs/stress_15x4.yaml (four clocks, 105 metrics). For each: every
metric's RESULT words get a value, then `read --format json` through
--desc FILE, JOINTER_DESC and the search path JOINTER_DESC_PATH (a folder
holding all three files: the config hash the device reports chooses) must
give exactly those values and exactly the output of the per-monitor CLI
(descriptor compiled in) on the same device. Another monitor's file, a
damaged file, a non-descriptor and no match in the search path are refused
with one clear line.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "build")
GENERIC = os.path.join(BUILD, "drivers", "cli-generic", "jointer")
OUT = os.path.join(BUILD, "drivers", "cli-desc")
CONFIGS = ["selective_accumulations", "trace_sink", "stress_15x4"]
WARN = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror"]


def driver_sources():
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import driver_sources as ds
    return [str(p) for p in ds.sources("DRV_PORTABLE_SRCS") + ds.sources("DRV_HOSTED_SRCS")]


class Monitor:
    """A generated monitor: its descriptor file, its macros, its compiled-in CLI."""

    def __init__(self, name):
        self.name = name
        subprocess.run([sys.executable, "-m", "jointer_gen", os.path.join(REPO, "configs", name + ".yaml"),
                        "-o", os.path.join(OUT, "gen"), "-q"], check=True,
                       env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "gen")))
        self.dir = os.path.join(OUT, "gen", name)
        self.jdesc = os.path.join(self.dir, name + ".jdesc")
        with open(os.path.join(self.dir, "c", name + "_regs.h")) as f:
            self.regs = {m[0]: int(m[1], 0) for m in re.findall(r"#define (\w+)\s+(0x[0-9A-Fa-f]+|\d+)u\b",
                                                                  f.read())}
        self.N = name.upper()
        self.builtin = os.path.join(OUT, "jointer-" + name)
        c = os.path.join(self.dir, "c")
        subprocess.run(["gcc", *WARN, "-O1", "-I" + os.path.join(REPO, "drivers", "include"),
                        "-I" + os.path.join(REPO, "drivers", "src"), "-I" + c, "-DJOINTER_CLI_CFG=%s_cfg" % name,
                        *driver_sources(), *[os.path.join(REPO, "drivers", "cli", f) for f in
                                             sorted(os.listdir(os.path.join(REPO, "drivers", "cli")))
                                             if f.endswith(".c")],
                        os.path.join(c, name + ".c"), "-o", self.builtin], check=True, timeout=300)

    def r(self, key):
        return self.regs["%s_%s" % (self.N, key)]

    def metrics(self):
        """[(name, result offset, width)] in descriptor order."""
        pre = self.N + "_METRIC_"
        idx = sorted((v, k[len(pre):]) for k, v in self.regs.items() if k.startswith(pre))
        return [(m.lower(), self.r(m + "_RESULT"), self.r(m + "_WIDTH")) for _, m in idx]


class Device:
    """A fake UIO device holding the monitor's identity and chosen RESULT values."""

    def __init__(self, tmp, mon, info_extra=0):
        size = max(0x4000, (mon.r("SPAN") + 0xFFF) & ~0xFFF)
        self.sysfs = os.path.join(tmp, "sys")
        self.path = os.path.join(tmp, "uio3")
        mp = os.path.join(self.sysfs, "uio3", "maps", "map0")
        os.makedirs(mp)
        for k, v in (("size", "0x%x\n" % size), ("addr", "0x43c00000\n"), ("offset", "0x0\n")):
            with open(os.path.join(mp, k), "w") as f:
                f.write(v)
        mem = bytearray(size)
        for off, v in ((0x0, 0x4A4E5452), (0x4, 0x00020000), (0x8, mon.r("CONFIG_HASH")),
                       (0xC, mon.r("INFO") | info_extra)):
            mem[off:off + 4] = struct.pack("<I", v)
        self.values = {}
        for i, (name, off, width) in enumerate(mon.metrics()):
            v = (0x9E3779B97F4A7C15 * (i + 1) + 12345) & ((1 << width) - 1)
            mem[off:off + 4] = struct.pack("<I", v & 0xFFFFFFFF)
            if width > 32:
                mem[off + 4:off + 8] = struct.pack("<I", v >> 32)
            self.values[name] = v
        with open(self.path, "wb") as f:
            f.write(mem)


def run(exe, dev, *args, env=None):
    e = dict(os.environ, JOINTER_UIO_SYSFS=dev.sysfs)
    for k in ("JOINTER_DEVICE", "JOINTER_DESC", "JOINTER_DESC_PATH"):
        e.pop(k, None)
    e["JOINTER_DESC_PATH"] = os.path.join(OUT, "empty")     # never the system's folders
    e.update(env or {})
    p = subprocess.run([exe, "--device", "uio:" + dev.path, *args], env=e, capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


FAILED = []


def check(cond, what):
    if not cond:
        FAILED.append(what)
        print("FAIL " + what)


def reads_by_descriptor_alone(mon, search_dir, tmp):
    dev = Device(tmp, mon)
    rc, want, err = run(mon.builtin, dev, "read", "--format", "json")
    check(rc == 0 and json.loads(want)["metrics"] == dev.values, "%s: compiled-in read %r %r" % (mon.name, want, err))
    ways = {"--desc": (["--desc", mon.jdesc], {}, "file " + mon.jdesc),
            "JOINTER_DESC": ([], {"JOINTER_DESC": mon.jdesc}, "file " + mon.jdesc),
            "search path": ([], {"JOINTER_DESC_PATH": "/nonexistent:" + search_dir},
                            "search " + os.path.join(search_dir, mon.name + ".jdesc"))}
    for way, (opts, env, came_from) in ways.items():
        rc, out, err = run(GENERIC, dev, *opts, "read", "--format", "json", env=env)
        check(rc == 0 and out == want, "%s by %s: read %r %r (want %r)" % (mon.name, way, out, err, want))
        check(rc == 0 and json.loads(out)["metrics"] == dev.values, "%s by %s: values" % (mon.name, way))
        rc, out, err = run(GENERIC, dev, *opts, "info", env=env)
        check(rc == 0 and ("descriptor: %s\n" % came_from) in out, "%s by %s: info %r %r" % (mon.name, way, out, err))
        rc2, out2, _ = run(mon.builtin, dev, "info")
        strip = lambda s: [l for l in s.splitlines() if not l.startswith("descriptor: ")]  # noqa: E731
        check(rc2 == 0 and strip(out) == strip(out2), "%s by %s: info differs from the compiled-in one" % (mon.name, way))


def rom_bit_without_a_rom(mon, search_dir, tmp):
    """INFO bit 20 says a descriptor ROM, but it holds no descriptor: the search path answers."""
    dev = Device(tmp, mon, info_extra=0x00100000)
    rc, out, err = run(GENERIC, dev, "info", env={"JOINTER_DESC_PATH": search_dir})
    check(rc == 0 and "descriptor: search %s\n" % os.path.join(search_dir, mon.name + ".jdesc") in out,
          "ROM bit, no ROM: %r %r" % (out, err))


def refusals(mons, tmp):
    y9, ts = mons[0], mons[1]
    dev = Device(tmp, y9)
    rc, out, err = run(GENERIC, dev, "--desc", ts.jdesc, "read")
    check(rc != 0 and len(err.splitlines()) == 1 and "config hash mismatch" in err
          and "another monitor's descriptor" in err and "is monitor trace_sink, 0x%08X" % ts.r("CONFIG_HASH") in err
          and "reports 0x%08X" % y9.r("CONFIG_HASH") in err and out == "",
          "another monitor's file: %r %r" % (out, err))
    rc, out, err = run(GENERIC, dev, "--desc", ts.jdesc, "--force", "info")
    check(rc == 0 and "monitor trace_sink" in out, "--force accepts it: %r" % err)
    bad = os.path.join(tmp, "bad.jdesc")
    with open(y9.jdesc, "rb") as f:
        blob = bytearray(f.read())
    blob[40] ^= 1
    with open(bad, "wb") as f:
        f.write(blob)
    rc, out, err = run(GENERIC, dev, "--desc", bad, "read")
    check(rc == 1 and err == "jointer: --desc %s: damaged (CRC mismatch)\n" % bad, "damaged: %r" % err)
    with open(bad, "wb") as f:
        f.write(b"monitor: y9\n")
    rc, out, err = run(GENERIC, dev, "read", env={"JOINTER_DESC": bad})
    check(rc == 1 and err == "jointer: JOINTER_DESC=%s: not a jointer descriptor file (no JDSC magic)\n" % bad,
          "not a descriptor: %r" % err)
    blob[4] = 4
    with open(bad, "wb") as f:
        f.write(blob)
    rc, out, err = run(GENERIC, dev, "--desc", bad, "read")
    check(rc == 1 and "written for another jointer" in err and len(err.splitlines()) == 1, "format 4: %r" % err)
    rc, out, err = run(GENERIC, dev, "--desc", os.path.join(tmp, "none.jdesc"), "read")
    check(rc == 1 and err.endswith("none.jdesc: no such file\n"), "missing file: %r" % err)
    # a directory, a FIFO (refused at once: no writer, no hang), a device: what they are
    fifo = os.path.join(tmp, "fifo.jdesc")
    os.mkfifo(fifo)
    for path, what in ((tmp, "a directory, not a descriptor file (give the <name>.jdesc inside)"),
                       (fifo, "a FIFO or socket, not a descriptor file (a regular <name>.jdesc file)"),
                       ("/dev/zero", "a device, not a descriptor file (a regular <name>.jdesc file)")):
        rc, out, err = run(GENERIC, dev, "--desc", path, "read")
        check(rc == 1 and err == "jointer: --desc %s: %s\n" % (path, what), "%s: %r" % (path, err))
    rc, out, err = run(GENERIC, dev, "read")
    check(rc == 1 and err.startswith("jointer: no descriptor for the monitor at uio:%s (config hash 0x%08X)"
                                     % (dev.path, y9.r("CONFIG_HASH"))) and len(err.splitlines()) == 1,
          "nothing in the search path: %r" % err)


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(os.path.join(OUT, "empty"))
    mons = [Monitor(n) for n in CONFIGS]
    search_dir = os.path.join(OUT, "desc")
    os.makedirs(search_dir)
    for m in mons:
        shutil.copy(m.jdesc, search_dir)
    for m in mons:
        tmp = tempfile.mkdtemp(prefix="jointer-cli-desc-")
        try:
            reads_by_descriptor_alone(m, search_dir, tmp)
        finally:
            shutil.rmtree(tmp)
    for fn in (lambda t: rom_bit_without_a_rom(mons[0], search_dir, t), lambda t: refusals(mons, t)):
        tmp = tempfile.mkdtemp(prefix="jointer-cli-desc-")
        try:
            fn(tmp)
        finally:
            shutil.rmtree(tmp)
    print("test_cli_desc: %d monitors through one generic CLI, %d metrics compared, %d failed"
          % (len(mons), sum(len(m.metrics()) for m in mons), len(FAILED)))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
