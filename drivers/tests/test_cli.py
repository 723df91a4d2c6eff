#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tests of the jointer CLI against a fake UIO device: a fake sysfs tree
(JOINTER_UIO_SYSFS) and a regular file standing in for /dev/uioN.

    python3 drivers/tests/test_cli.py build/drivers/cli-fixture

Register offsets come from the fixtures' generated <name>_regs.h (drivers/tests/fixtures/<name>.yaml).
"""
import json
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = sys.argv[1] if __name__ == "__main__" and len(sys.argv) > 1 else "build/drivers/cli-fixture"
ID, VERSION, HASH, INFO, IRQ_STATUS, IRQ_ENABLE, MARK, SCRATCH = 0x0, 0x4, 0x8, 0xC, 0x10, 0x14, 0x20, 0x24


def regs_path(name):
    """A fixture's generated <name>_regs.h: where make puts it (build/drivers/fixtures/), else
    generated now from drivers/tests/fixtures/<name>.yaml into a temporary folder."""
    p = os.path.join(BIN, "..", "fixtures", name, "c", name + "_regs.h")
    if not os.path.exists(p):
        out = tempfile.mkdtemp(prefix="jointer-fixture-")
        repo = os.path.dirname(os.path.dirname(HERE))
        subprocess.run([sys.executable, "-m", "jointer_gen", os.path.join(HERE, "fixtures", name + ".yaml"),
                        "-o", out, "-q"], check=True, env=dict(os.environ, PYTHONPATH=os.path.join(repo, "gen")))
        p = os.path.join(out, name, "c", name + "_regs.h")
    return p


def regs(name):
    """The macros of a fixture's generated <name>_regs.h."""
    out = {}
    with open(regs_path(name)) as f:
        for m in re.finditer(r"#define (\w+)\s+(0x[0-9A-Fa-f]+|\d+)u", f.read()):
            out[m.group(1)] = int(m.group(2), 0)
    return out


Y9 = regs("accel_mon")
TM = regs("trace_mon")
RM = regs("relay_mon")
SM = regs("sink_mon")


class Device:
    def __init__(self, tmp, name, r, prefix):
        self.root = os.path.join(tmp, name)
        self.sysfs = os.path.join(self.root, "sys")
        self.path = os.path.join(self.root, "uio5")
        mp = os.path.join(self.sysfs, "uio5", "maps", "map0")
        os.makedirs(mp)
        for k, v in (("size", "0x4000\n"), ("addr", "0x43c00000\n"), ("offset", "0x0\n")):
            with open(os.path.join(mp, k), "w") as f:
                f.write(v)
        with open(self.path, "wb") as f:
            f.write(bytes(0x4000))
        self.poke(ID, 0x4A4E5452)
        self.poke(VERSION, 0x00020000)
        self.poke(HASH, r[prefix + "_CONFIG_HASH"])
        self.poke(INFO, r[prefix + "_INFO"])       # what the generated monitor states

    def poke(self, off, v):
        with open(self.path, "r+b") as f:
            f.seek(off)
            f.write(struct.pack("<I", v))

    def peek(self, off):
        with open(self.path, "rb") as f:
            f.seek(off)
            return struct.unpack("<I", f.read(4))[0]


def run(exe, dev, *args, env_extra=None, user=None):
    env = dict(os.environ, JOINTER_UIO_SYSFS=dev.sysfs if dev else "/nonexistent")
    env.pop("JOINTER_DEVICE", None)
    env.update(env_extra or {})
    cmd = [os.path.join(BIN, exe)]
    if dev is not None:
        cmd += ["--device", "uio:" + dev.path]
    cmd += list(args)
    if user:
        cmd = ["setpriv", "--reuid=%d" % user, "--regid=%d" % user, "--clear-groups"] + cmd
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout, p.stderr


CASES = []


def case(fn):
    CASES.append(fn)
    return fn


def run_cases():
    failed = []
    for fn in CASES:
        tmp = tempfile.mkdtemp(prefix="jointer-cli-")
        os.chmod(tmp, 0o755)
        try:
            fn(tmp)
        except AssertionError as e:
            failed.append(fn.__name__)
            print("FAIL %s: %s" % (fn.__name__, e))
        finally:
            shutil.rmtree(tmp)
    print("test_cli: %d test cases, %d failed" % (len(CASES), len(failed)))
    return 1 if failed else 0


def y9(tmp):
    d = Device(tmp, "y9", Y9, "ACCEL_MON")
    d.poke(Y9["ACCEL_MON_BYTES_WRITTEN_RESULT"], 4096)
    d.poke(Y9["ACCEL_MON_COMPUTE_CYCLES_RESULT"], 5)
    d.poke(Y9["ACCEL_MON_COMPUTE_CYCLES_RESULT"] + 4, 2)
    d.poke(Y9["ACCEL_MON_FORWARD_FIRES_RESULT"], 7)
    d.poke(Y9["ACCEL_MON_MAC_FIRES_RESULT"], 1023)
    return d


@case
def info_and_selftest(tmp):
    d = y9(tmp)
    rc, out, err = run("jointer-accel_mon", d, "info")
    assert rc == 0, err
    assert "bytes_written" in out and "compute_cycles" in out and "(matches)" in out, out
    rc, out, err = run("jointer-accel_mon", d, "selftest")
    assert rc == 0 and "selftest: ok" in out, (out, err)
    assert d.peek(SCRATCH) == 0  # restored


@case
def read_formats(tmp):
    d = y9(tmp)
    rc, out, err = run("jointer-accel_mon", d, "read", "--format", "json")
    assert rc == 0, err
    j = json.loads(out)
    assert j["monitor"] == "accel_mon"
    assert j["metrics"] == {"bytes_written": 4096, "compute_cycles": (2 << 32) + 5,
                            "forward_fires": 7, "mac_fires": 1023}, j
    rc, out, err = run("jointer-accel_mon", d, "read", "mac_fires", "--format", "csv")
    assert rc == 0, err
    assert out.splitlines() == ["lmic,sniffer,metric,width,value", "accel,operation,mac_fires,10,1023"], out
    rc, out, err = run("jointer-accel_mon", d, "read")
    assert rc == 0 and "compute_cycles" in out and str((2 << 32) + 5) in out, out
    rc, out, err = run("jointer-accel_mon", d, "read", "nope")
    assert rc == 2 and "no metric" in err, err
    rc, out, err = run("jointer-accel_mon", d, "read", "--format", "xml")
    assert rc == 2, err


@case
def control_commands(tmp):
    d = y9(tmp)
    ctl = Y9["ACCEL_MON_ACCEL_CONTROL"]
    rc, out, err = run("jointer-accel_mon", d, "mode", "operation", "no_filtering")
    assert rc == 0, err
    assert d.peek(ctl) == 3 << Y9["ACCEL_MON_OPERATION_PROG_SHIFT"], hex(d.peek(ctl))
    rc, out, err = run("jointer-accel_mon", d, "run")
    assert rc == 0, err
    assert d.peek(ctl) == 1 | 3 << 6, hex(d.peek(ctl))
    rc, out, err = run("jointer-accel_mon", d, "init", "bytes_written", "0x10", "0x20")
    assert rc == 0, err
    assert d.peek(Y9["ACCEL_MON_TRANSACTION_INIT"]) == 0x20  # the last INIT write: high
    assert d.peek(ctl) == 1 | 3 << 6 | 2 << 2, hex(d.peek(ctl))  # FILTERING committed, RUN kept
    rc, out, err = run("jointer-accel_mon", d, "reset", "accel")
    assert rc == 0, err
    assert d.peek(ctl) == 1 | 2 | 3 << 6 | 2 << 2, hex(d.peek(ctl))  # SOFT_RESET pulse written
    rc, out, err = run("jointer-accel_mon", d, "stop")
    assert rc == 0, err
    assert d.peek(ctl) == 3 << 6 | 2 << 2, hex(d.peek(ctl))
    rc, out, err = run("jointer-accel_mon", d, "mark", "0x1234")   # Y9 has no mark sniffer
    assert rc == 1 and "has no MARK register" in err and d.peek(MARK) == 0, err
    t = Device(tmp, "tm_mark", TM, "TRACE_MON")
    rc, out, err = run("jointer-trace_mon", t, "mark", "0x1234")
    assert rc == 0 and t.peek(MARK) == 0x1234, err
    rc, out, err = run("jointer-accel_mon", d, "print")
    assert rc == 0 and "lmic accel" in out and "NO_FILTERING" in out, out
    for bad in (["mode", "operation", "fast"], ["mode", "nosuch", "idle"], ["init", "bytes_written", "1"],
                ["init", "nosuch", "1", "2"], ["mark", "-1"], ["run", "nosuch"], ["frobnicate"]):
        rc, out, err = run("jointer-accel_mon", d, *bad)
        assert rc == 2, (bad, rc, err)
    rc, out, err = run("jointer-accel_mon", d, "init", "bytes_written", "9", "1")  # low > high
    assert rc == 2 and "LOW 0x9 > HIGH 0x1" in err, err
    # checked before the device is opened: no device needed to be told
    rc, out, err = run("jointer-accel_mon", None, "init", "bytes_written", "5", "3")
    assert rc == 2 and "LOW 0x5 > HIGH 0x3" in err and "no such device" not in err, err


@case
def watch_csv_and_table(tmp):
    d = y9(tmp)
    csv = os.path.join(tmp, "w.csv")
    rc, out, err = run("jointer-accel_mon", d, "watch", "--interval", "5", "--count", "3", "--output", csv)
    assert rc == 0, err
    lines = open(csv).read().splitlines()
    assert lines[0] == "time_ms,bytes_written,compute_cycles,forward_fires,mac_fires", lines
    assert len(lines) == 4 and lines[3].endswith(",4096,%d,7,1023" % ((2 << 32) + 5)), lines
    rc, out, err = run("jointer-accel_mon", d, "watch", "--interval", "5", "--count", "2", "mac_fires")
    assert rc == 0 and out.count("mac_fires") == 2, out
    rc, out, err = run("jointer-accel_mon", d, "watch")
    assert rc == 2, err


@case
def device_errors_with_hints(tmp):
    d = y9(tmp)
    rc, out, err = run("jointer-accel_mon", None, "--device", "uio:/nonexistent/uio9", "read")
    assert rc == 1 and "no such device" in err and "hint" in err, err
    rc, out, err = run("jointer-accel_mon", None, "--device", "pci:1", "read")
    assert rc == 1 and "--device must be" in err, err
    rc, out, err = run("jointer-accel_mon", None, "--device", "devmem:0x43C00002", "read")
    assert rc == 1 and "must be 4-byte aligned" in err and "0x43C00000" in err, err
    rc, out, err = run("jointer-accel_mon", None, "--device", "devmem:-1", "read")
    assert rc == 1 and '"-1" is not an address' in err, err
    rc, out, err = run("jointer-accel_mon", None, "--device")
    assert rc == 2 and "option --device needs a value" in err, err
    d.poke(HASH, 0xBAD0BAD0)
    rc, out, err = run("jointer-accel_mon", d, "read")
    assert rc == 1 and "config hash mismatch" in err and "0xBAD0BAD0" in err and "--force" in err, err
    rc, out, err = run("jointer-accel_mon", d, "--force", "read")
    assert rc == 0, err
    rc, out, err = run("jointer-accel_mon", d, "info")  # info still describes both sides
    assert rc == 0 and "MISMATCH" in out, out
    rc, out, err = run("jointer-accel_mon", d, "selftest")
    assert rc == 1 and "FAILED" in err, err
    d.poke(ID, 0)
    rc, out, err = run("jointer-accel_mon", d, "--force", "read")
    assert rc == 1 and "no jointer monitor" in err, err


@case
def permission_denied_hint(tmp):
    d = y9(tmp)
    os.chmod(d.path, 0o600)
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            print("  (permission test skipped: root without setpriv)")
            return
        rc, out, err = run("jointer-accel_mon", d, "read", user=65534)
    else:
        os.chmod(d.path, 0)
        rc, out, err = run("jointer-accel_mon", d, "read")
    assert rc == 1 and "permission denied" in err and "udev" in err, err


@case
def devmem_device(tmp):
    d = y9(tmp)
    rc, out, err = run("jointer-accel_mon", None, "--device", "devmem:0x0", "read", "--format", "json",
                       env_extra={"JOINTER_DEVMEM_PATH": d.path})
    assert rc == 0 and json.loads(out)["metrics"]["mac_fires"] == 1023, (out, err)
    rc, out, err = run("jointer-accel_mon", None, "--device", "devmem:zz", "read")
    assert rc == 1 and "is not an address" in err, err


@case
def trace_command(tmp):
    d = Device(tmp, "tm", TM, "TRACE_MON")
    reg, ram = TM["TRACE_MON_BUS_TRACE_REGS"], TM["TRACE_MON_BUS_TRACE_RAM"]
    d.poke(reg + 4, 2)  # FILL
    d.poke(reg + 8, 0)  # STATUS
    d.poke(ram, 100)
    d.poke(ram + 4, 0x1001)
    d.poke(ram + 8, 150)
    d.poke(ram + 12, 0x1002)
    rc, out, err = run("jointer-trace_mon", d, "trace", "bus_trace", "--format", "json")
    assert rc == 0, err
    j = json.loads(out)
    assert j["traces"] == {"bus_trace": [{"timestamp": 100, "data": 0x1001},
                                         {"timestamp": 150, "data": 0x1002}]}, j
    rc, out, err = run("jointer-trace_mon", d, "trace", "--format", "csv")
    assert rc == 0 and "bus_trace,1,150,4098" in out and out.startswith("trace,index"), out
    rc, out, err = run("jointer-trace_mon", d, "trace")
    assert rc == 0 and "trace mark_trace: 0 records" in out, out
    rc, out, err = run("jointer-trace_mon", d, "init", "bus_trace", "0x1000", "0x1fff")
    assert rc == 0, err
    init = TM["TRACE_MON_XBAR_INIT"]
    assert d.peek(init) == 0x1FFF  # the last INIT write: bus_trace's high (after beats' 2 words)
    # filter: none (beats, busy, mark_trace): refused before the device is touched
    d.poke(init, 0)
    for name in ("beats", "busy", "mark_trace"):
        rc, out, err = run("jointer-trace_mon", d, "init", name, "1", "2")
        assert rc == 2 and "has no filter" in err, (name, rc, err)
    assert d.peek(init) == 0
    rc, out, err = run("jointer-trace_mon", d, "info")
    assert rc == 0, err
    lines = {ln.split()[1]: ln for ln in out.splitlines() if ln.startswith(("    metric", "    trace"))}
    assert lines["beats"].endswith("filter none") and lines["busy"].endswith("filter none"), out
    assert lines["mark_trace"].endswith("filter none"), out
    assert lines["marks"].endswith("filter 0x0..0xFFFFFFFF"), out
    assert lines["bus_trace"].endswith("filter 0x1000..0x1FFF"), out
    rc, out, err = run("jointer-accel_mon", None, "--device", "uio:/x/uio1", "trace")
    assert rc == 2 and "no trace buffer" in err, err



def _seconds(cycle, hz):
    """cycle / hz in seconds, exact, as the converters print it (trailing zeros dropped)."""
    from fractions import Fraction
    ps = round(Fraction(cycle, hz) * 10**12)
    whole, frac = divmod(ps, 10**12)
    return str(whole) + ("." + ("%012d" % frac).rstrip("0") if frac else "")


@case
def sinks_say_what_they_are(tmp):
    """info shows a sink as a sink (not "0 records (stop)"), a relay as a relay, the LMIC's clock;
    `trace` of a sink says how to get its records (not "no jointer monitor there"); `trace` of
    every trace leaves the sinks out."""
    d = Device(tmp, "sm", SM, "SINK_MON")
    rc, out, err = run("jointer-sink_mon", d, "info")
    assert rc == 0, err
    lines = {ln.split()[1]: ln for ln in out.splitlines() if ln.startswith("    trace")}
    assert ("sink (raw, 64-bit AXI4 master, ring in memory up to 2^12 bytes)  regs 0x%03X"
            % SM["SINK_MON_RAW_LOG_REGS"]) in lines["raw_log"], out
    assert "sink (compact, 64-bit AXI4 master" in lines["compact_log"] and "records (stop)" in lines["plain"], out
    assert ("lmic 0 stream at 0x%03X, 6 IRQ sources, clock ps (100000000 Hz)" % SM["SINK_MON_STREAM_BASE"]) in out \
        and "records (sink)" not in out, out
    rc, out, err = run("jointer-sink_mon", d, "trace", "raw_log")
    assert rc == 2 and out == "" and err == (
        "jointer: trace raw_log is a sink (mode: sink): its records go to a ring in memory, not to a buffer of "
        "the monitor\n  use: jointer trace raw_log --follow -o FILE (then jointer trace --convert FILE)\n"), err
    rc, out, err = run("jointer-sink_mon", d, "trace")
    assert rc == 0 and out == "trace plain: 0 records\n", (out, err)
    rm = Device(tmp, "rm", RM, "RELAY_MON")
    rc, out, err = run("jointer-relay_mon", rm, "info")
    assert rc == 0 and "8 records (relay)" in out, out


@case
def convert_errors_say_what_is_wrong(tmp):
    """trace --convert: each refusal says why in a line (then the usage), exit 2."""
    f = os.path.join(tmp, "a.jtr")
    with open(f, "wb") as o:
        o.write(b"JNTRTRC\0" + bytes(96))
    usage = ("usage: jointer trace --convert FILE [FILE...] [--format csv|json|spans|vcd|perfetto] "
             "[--clock [NAME=]FREQ]...\n")
    for args, msg in (
            (["--format", "csv", f, f], "jointer: trace --convert: --format csv converts one file (2 given); vcd "
                                        "and perfetto merge several\n"),
            (["--format", "fst", f], "jointer: trace --convert: unknown --format \"fst\" (expected csv, json, spans, "
                                     "vcd or perfetto)\n"),
            ([], "jointer: trace --convert: no trace file given\n" + usage),
            ([f, "--frobnicate"], "jointer: trace --convert: unknown option \"--frobnicate\"\n" + usage),
            ([f, "--format"], "jointer: trace --convert: a value is missing after \"--format\"\n" + usage),
            ([f, "--clock", "fast"], "jointer: --clock fast: expected [NAME=]FREQ, FREQ in Hz (200000000, 200e6, "
                                     "200MHz; at most 4.29 GHz), NAME the clock of the YAML (clocks:)\n")):
        rc, out, err = run("jointer-relay_mon", None, "trace", "--convert", *args)
        assert rc == 2 and out == "" and err == msg, (args, rc, err)


def tfile(path):
    """Independent reader of the relay trace file (jointer_trace_file.h)."""
    with open(path, "rb") as f:
        b = f.read()
    magic, ver, enc, chash, hz, depth, flags, lost, nrec = struct.unpack_from("<8sHHIIIIIQ", b, 0)
    mon, tr = (b[o:o + 32].split(b"\0")[0].decode() for o in (40, 72))
    start = 104 + (struct.unpack_from("<I", b, 104)[0] if ver >= 2 else 0)   # after the timeline block
    recs = [struct.unpack_from("<II", b, start + 8 * k) for k in range((len(b) - start) // 8)]
    return dict(magic=magic, version=ver, encoding=enc, hash=chash, clock_hz=hz, depth=depth,
                flags=flags, lost=lost, records=nrec, monitor=mon, trace=tr), recs


@case
def trace_follow_and_convert(tmp):
    """trace --follow over a fake UIO device, then --convert. A file does not
    count down on ACK like the hardware: every drain sees the same FILL = 3
    records (slots 6, 7, 0 from RPTR 6: the wrap), so the relay step drains
    them until its budget of 4 x depth = 32 records: 11 drains, 33 records,
    each drain in order from RPTR; ACK holds 3."""
    d = Device(tmp, "rm", RM, "RELAY_MON")
    reg, ram = RM["RELAY_MON_RELAY_T_REGS"], RM["RELAY_MON_RELAY_T_RAM"]
    d.poke(reg + 4, 3)          # FILL
    d.poke(reg + 0x14, 6)       # RPTR
    d.poke(reg + 0x1C, 5)       # LOST
    slots = {6: (1000, 0xA), 7: (1003, 0xB), 0: (1010, 0xC), 1: (1, 1)}
    for slot, (ts, data) in slots.items():
        d.poke(ram + 8 * slot, ts)
        d.poke(ram + 8 * slot + 4, data)
    out_file = os.path.join(tmp, "relay.jtr")
    rc, out, err = run("jointer-relay_mon", d, "trace", "relay_t", "--follow", "-o", out_file,
                       "--records", "3", "--timeout-ms", "0")
    assert rc == 0, (out, err)
    assert out == "trace relay_t: 33 records to %s, 5 lost\n" % out_file, out
    assert d.peek(reg + 0x18) == 3                 # ACK: the records of the last drain
    assert d.peek(reg + 0xC) == 4                  # WATERMARK: depth / 2 by default
    assert d.peek(RM["RELAY_MON_PL_IRQ_ENABLE"]) == 0  # disabled again at the end
    h, recs = tfile(out_file)
    assert h == dict(magic=b"JNTRTRC\0", version=2, encoding=0, hash=RM["RELAY_MON_CONFIG_HASH"],
                     clock_hz=100000000, depth=8, flags=1, lost=5, records=33,
                     monitor="relay_mon", trace="relay_t"), h
    assert recs == [(1000, 0xA), (1003, 0xB), (1010, 0xC)] * 11, recs
    rc, out, err = run("jointer-relay_mon", None, "trace", "--convert", out_file)
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == ("# monitor relay_mon, trace relay_t, config hash 0x%08X, clock 100000000 Hz, "
                        "33 records, 5 lost" % RM["RELAY_MON_CONFIG_HASH"]), lines[0]
    assert lines[1] == ("# time_s: seconds since cycle 0 (the first edge of clock axi 100000000 Hz after its "
                        "LMIC's reset)"), lines[1]
    assert lines[2] == "index,timestamp,data,cycle,time_s"
    cycles = [1000 + sum((recs[k][0] - recs[k - 1][0]) % 2**32 for k in range(1, i + 1)) for i in range(33)]
    assert lines[3:] == ["%d,%d,%d,%d,%s" % (i, *recs[i], cycles[i], _seconds(cycles[i], 100000000))
                         for i in range(33)], lines[3:6]
    rc, out, err = run("jointer-relay_mon", None, "trace", "--convert", out_file, "--format", "json")
    j = json.loads(out)
    assert rc == 0 and j["lost"] == 5 and j["complete"] is True and j["depth"] == 8, j
    assert [(r["timestamp"], r["data"]) for r in j["records"]] == recs
    # a file cut short mid-record; a file cut short before the header's final rewrite
    with open(out_file, "rb") as f:
        b = f.read()
    cut = os.path.join(tmp, "cut.jtr")
    with open(cut, "wb") as f:
        f.write(b[:-4])
    rc, out, err = run("jointer-relay_mon", None, "trace", "--convert", cut)
    end = len(b) - 4 - (len(b) - 4 - (len(b) - 8 * 33)) % 8       # the last whole record
    assert rc == 1 and ("the header says 33 records, the file holds 32 (truncated at byte offset %d)" % end) in err, err
    with open(cut, "wb") as f:
        f.write(b[:24] + struct.pack("<I", 0) + b[28:-8])   # flags 0: not COMPLETE, 32 records
    rc, out, err = run("jointer-relay_mon", None, "trace", "--convert", cut)
    assert rc == 0 and "32 records, 5 lost (incomplete file)" in out and out.count("\n") == 35, out
    with open(cut, "wb") as f:
        f.write(b"not a trace file at all" * 8)
    rc, out, err = run("jointer-relay_mon", None, "trace", "--convert", cut)
    assert rc == 1 and "not a jointer trace file" in err, err
    rc, out, err = run("jointer-relay_mon", None, "trace", "--convert", os.path.join(tmp, "none"))
    assert rc == 1 and "cannot read" in err, err
    # --clock: the real frequency of the file's clock (axi) halves every time_s; no spans: said
    rc, out, err = run("jointer-relay_mon", None, "trace", "--convert", out_file, "--clock", "axi=200MHz")
    assert rc == 0 and out.splitlines()[3] == "0,%d,%d,%d,%s" % (*recs[0], cycles[0], _seconds(cycles[0], 200000000)), out
    rc, out, err = run("jointer-relay_mon", None, "trace", "--convert", out_file, "--clock", "pl=200e6")
    assert rc == 2 and err == ("jointer: --clock pl=...: no file's timestamps are on clock \"pl\" (%s: axi)\n"
                               % out_file), err
    rc, out, err = run("jointer-relay_mon", None, "trace", "--convert", out_file, "--format", "spans")
    assert rc == 1 and err == ("jointer: %s: trace relay_t has no spans (YAML spans: of the trace; a file of "
                               "version 1 has none)\n" % out_file), err
    rc, out, err = run("jointer-relay_mon", d, "trace", "ev_trace", "--follow", "-o", out_file)
    assert rc == 2 and "not a relay or sink trace" in err, err
    rc, out, err = run("jointer-relay_mon", d, "trace", "relay_t", "--follow")
    assert rc == 2 and "usage" in err, err
    rc, out, err = run("jointer-relay_mon", d, "trace", "relay_t", "--follow", "-o", out_file,
                       "--watermark", "9")
    assert rc == 2 and "beyond the depth 8" in err, err



# ---- trace --follow on a sink: the ring is map1 / map2 of the fake UIO device ----

def sink_device(tmp, rings):
    """sink_mon's fake UIO device; rings: {map index: (bus address, list of 64-bit units)}. A map
    is mmap'ed at map x pagesize of the device file, so ring k is at that offset of the file."""
    d = Device(tmp, "sm", SM, "SINK_MON")
    page = os.sysconf("SC_PAGE_SIZE")
    for k, (addr, units) in rings.items():
        mp = os.path.join(d.sysfs, "uio5", "maps", "map%d" % k)
        os.makedirs(mp)
        for name, v in (("size", "0x1000\n"), ("addr", "0x%x\n" % addr), ("offset", "0x0\n")):
            with open(os.path.join(mp, name), "w") as f:
                f.write(v)
        with open(d.path, "r+b") as f:
            f.seek(k * page)
            f.write(b"".join(struct.pack("<Q", u) for u in units).ljust(0x1000, b"\xA5"))
    return d


def sink_records():
    """400 records (cycle, timestamp, data): mostly bursts of small steps (TRIPLE, PAIR units),
    a few gaps and wide data changes (LONG, SYNC), the 32-bit timestamp wrap (gaps of 2^29). The
    first timestamp is below 2^30: the first SYNC carries the timestamp modulo 2^30."""
    import random
    rnd, out, c, ts, d = random.Random(21), [], 0, 0x3FFFF000, 0x12340000
    for _ in range(400):
        g = rnd.choice([1] * 30 + [2, 700, 40000, 1 << 29])
        c, ts = c + g, (ts + g) & 0xFFFFFFFF
        d = (d & ~0xFF | rnd.getrandbits(8)) if rnd.random() < 0.97 else rnd.getrandbits(32)
        out.append((c, ts, d))
    return out


def compact_units(recs):
    """The units the hardware writes for recs: the Python model of the encoder (sim/jointer_sim)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "sim"))
    from jointer_sim.compact import decode, encode_records
    units = [u.word for u in encode_records(recs)[0]]
    assert decode(units) == [(ts, data) for _, ts, data in recs]   # the model is lossless here
    return units


def follow_sink(d, trace, out_file, n_units, lost, *extra):
    reg = SM["SINK_MON_%s_REGS" % trace.upper()]
    d.poke(ID, 0x4A4E5452)            # a run arms the IRQ: write(1) lands at offset 0 of a regular file
    d.poke(reg + 0x00, 8 * n_units)   # WPTR: the units the sink wrote (a file does not move it)
    d.poke(reg + 0x1C, lost)          # LOST
    return run("jointer-sink_mon", d, "trace", trace, "--follow", "-o", out_file, "--timeout-ms", "0", *extra)


def converted(out_file):
    rc, out, err = run("jointer-sink_mon", None, "trace", "--convert", out_file)
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[2] == "index,timestamp,data,cycle,time_s", lines[:3]
    return lines[0], [tuple(int(x) for x in ln.split(",")[1:3]) for ln in lines[3:]]


@case
def sink_follow_compact_stores_the_units(tmp):
    """A compact sink: the file holds the ring's units as they are (encoding 1, the header
    counts units), and --convert gives exactly the records the model encoded."""
    recs = sink_records()
    units = compact_units(recs)
    assert 130 < len(units) < 200, len(units)       # compression: 2 to 3 records per unit
    d = sink_device(tmp, {1: (0x30000000, []), 2: (0x30001000, units)})
    out_file = os.path.join(tmp, "c.jtr")
    rc, out, err = follow_sink(d, "compact_log", out_file, len(units), 7, "--records", "400")
    assert rc == 0, (out, err)
    assert out == "trace compact_log: 400 records in %d compact units to %s, 7 lost\n" % (len(units), out_file), out
    reg = SM["SINK_MON_COMPACT_LOG_REGS"]
    assert d.peek(reg + 0x10) == 0x30001000 and d.peek(reg + 0x14) == 0x1000   # BASE, SIZE: map2
    assert d.peek(reg + 0x04) == 8 * len(units)      # RPTR: every unit given back
    assert d.peek(reg + 0x18) == 0                   # CONTROL: stopped at the end
    h, items = tfile(out_file)
    assert h == dict(magic=b"JNTRTRC\0", version=2, encoding=1, hash=SM["SINK_MON_CONFIG_HASH"],
                     clock_hz=100000000, depth=0, flags=1, lost=7, records=len(units),
                     monitor="sink_mon", trace="compact_log"), h
    assert [lo | hi << 32 for lo, hi in items] == units
    head, got = converted(out_file)
    assert got == [(ts, data) for _, ts, data in recs], got[:4]
    assert "7 lost" in head, head
    # --decode: the same records, decoded on the way (encoding 0)
    d2 = sink_device(os.path.join(tmp, "2"), {1: (0x30000000, []), 2: (0x30001000, units)})
    raw_file = os.path.join(tmp, "d.jtr")
    rc, out, err = follow_sink(d2, "compact_log", raw_file, len(units), 0, "--decode", "--records", "400")
    assert rc == 0 and out == "trace compact_log: 400 records to %s, 0 lost\n" % raw_file, (out, err)
    h, items = tfile(raw_file)
    assert h["encoding"] == 0 and h["records"] == 400 and items == [(ts, data) for _, ts, data in recs], h
    block = 104 + 112                          # the header and its timeline block (no lanes, no spans)
    assert os.path.getsize(out_file) - block == 8 * len(units) < (os.path.getsize(raw_file) - block) / 2


@case
def sink_follow_raw_stays_encoding_0(tmp):
    recs = [(1000 + 3 * i, 0xD0000000 ^ i) for i in range(300)]
    d = sink_device(tmp, {1: (0x30000000, [ts | data << 32 for ts, data in recs])})
    out_file = os.path.join(tmp, "r.jtr")
    rc, out, err = follow_sink(d, "raw_log", out_file, 300, 0, "--records", "300")
    assert rc == 0 and out == "trace raw_log: 300 records to %s, 0 lost\n" % out_file, (out, err)
    reg = SM["SINK_MON_RAW_LOG_REGS"]
    assert d.peek(reg + 0x10) == 0x30000000 and d.peek(reg + 0x04) == 2400   # map1; RPTR
    h, items = tfile(out_file)
    assert h["encoding"] == 0 and h["records"] == 300 and h["flags"] == 1 and items == recs, h
    assert converted(out_file)[1] == recs
    # no map2 on this device: the compact sink says which reg entry it needs
    rc, out, err = follow_sink(d, "compact_log", out_file, 0, 0, "--records", "1")
    assert rc == 1 and "has no map2" in err and "reg entry 3" in err, err


def named_uio(d, names):
    """More UIO devices beside the monitor's uio5 (each /sys/class/uio/uioN/name), the monitor's named too."""
    for n, name in names.items():
        os.makedirs(os.path.join(d.sysfs, "uio%d" % n), exist_ok=True)
        with open(os.path.join(d.sysfs, "uio%d" % n, "name"), "w") as f:
            f.write(name + "\n")


@case
def uio_by_name(tmp):
    d = y9(tmp)
    named_uio(d, {5: "accel_mon", 0: "axi_dma", 2: "ring", 11: "ring"})
    env = {"JOINTER_UIO_DEV": d.root}
    rc, out, err = run("jointer-accel_mon", None, "--device", "uio:name=accel_mon", "read", "mac_fires",
                       "--format", "csv", env_extra=dict(env, JOINTER_UIO_SYSFS=d.sysfs))
    assert rc == 0 and out.splitlines()[-1] == "accel,operation,mac_fires,10,1023", (rc, out, err)
    found = "uio0 (axi_dma), uio2 (ring), uio5 (accel_mon), uio11 (ring)"
    rc, out, err = run("jointer-accel_mon", None, "--device", "uio:name=accel", "info",
                       env_extra=dict(env, JOINTER_UIO_SYSFS=d.sysfs))
    assert rc == 1 and err.splitlines()[0] == ('jointer: uio:name=accel: no UIO device is named "accel"; '
                                               "found: " + found), err
    rc, out, err = run("jointer-accel_mon", None, "--device", "uio:name=ring", "info",
                       env_extra=dict(env, JOINTER_UIO_SYSFS=d.sysfs))
    assert rc == 1 and err.splitlines()[0] == ('jointer: uio:name=ring: more than one UIO device is named "ring"; '
                                               "found: " + found), err
    rc, out, err = run("jointer-accel_mon", None, "--device", "uio:name=accel_mon", "info",
                       env_extra=dict(env, JOINTER_UIO_SYSFS=os.path.join(tmp, "nothing")))
    assert rc == 1 and "found: no UIO device at all" in err.splitlines()[0], err


if __name__ == "__main__":
    sys.exit(run_cases())
