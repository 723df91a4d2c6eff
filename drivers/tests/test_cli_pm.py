#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The program monitor commands of the jointer CLI (drivers/cli/jointer_cli_pm.c):
`jointer profile` on a trace given as CSV (exact call counts, cycles, times,
unmatched entries/exits, checked against hand-computed values and the Python
reference jointer_sim.pm_model.profile), symbol-file errors with their exact
messages, and `jointer pm` refusing a sniffer that is not a program monitor.
With the CLI of the generated program monitor example (second argument):
`pm` and `profile` against a fake UIO device (a regular file: what the last
writes left in CONTROL and INIT, a trace poked into the RAM window).

    python3 drivers/tests/test_cli_pm.py build/drivers/cli-fixture [build/drivers/cli-pm]
"""
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "sim"))
from jointer_sim.pm_model import profile  # noqa: E402

BIN = sys.argv[1] if len(sys.argv) > 1 else "build/drivers/cli-fixture"
EXE = os.path.join(BIN, "jointer-trace_mon")
PM_DIR = sys.argv[2] if len(sys.argv) > 2 else None

SYMBOLS = """# name entry [exit]
main  0x1000 0x10FC
work  0x1100 0x1180   # nested in main
fact  4608 4700       # recursive (0x1200)
00001300 T tick       # nm line: entry only
"""
FUNCS = [("main", 0, 1), ("work", 2, 3), ("fact", 4, 5), ("tick", 6, None)]
# the records of test_pm.c's profile_nesting_recursion_unmatched
RECORDS = [(5, 3), (100, 0), (110, 2), (150, 3), (160, 6), (200, 4), (210, 4), (215, 4),
           (220, 5), (228, 5), (240, 5), (250, 9), (300, 2), (310, 6), (330, 2), (345, 3),
           (400, 1), (500, 2)]


def run(*args, exe=None, sysfs="/nonexistent"):
    env = dict(os.environ, JOINTER_UIO_SYSFS=sysfs)
    env.pop("JOINTER_DEVICE", None)
    p = subprocess.run([exe or EXE] + list(args), capture_output=True, text=True, timeout=30, env=env)
    return p.returncode, p.stdout, p.stderr


class Device:
    """A fake UIO device of the program monitor example: sysfs + a file."""

    def __init__(self, d, regs):
        self.sysfs = os.path.join(d, "sys")
        self.path = os.path.join(d, "uio3")
        mp = os.path.join(self.sysfs, "uio3", "maps", "map0")
        os.makedirs(mp)
        for k, v in (("size", "0x8000\n"), ("addr", "0x44a00000\n"), ("offset", "0x0\n")):
            with open(os.path.join(mp, k), "w") as f:
                f.write(v)
        with open(self.path, "wb") as f:
            f.write(bytes(0x8000))
        self.poke(0x0, 0x4A4E5452)
        self.poke(0x4, 0x00020000)
        self.poke(0x8, regs["PROGRAM_MONITOR_CONFIG_HASH"])
        self.poke(0xC, regs["PROGRAM_MONITOR_INFO"])

    def poke(self, off, v):
        with open(self.path, "r+b") as f:
            f.seek(off)
            f.write(struct.pack("<I", v))

    def peek(self, off):
        with open(self.path, "rb") as f:
            f.seek(off)
            return struct.unpack("<I", f.read(4))[0]


def device_cases(check, d):
    """pm and profile of the generated program monitor CLI on a fake device."""
    exe = os.path.join(PM_DIR, "jointer-program_monitor")
    with open(os.path.join(PM_DIR, "program_monitor", "c", "program_monitor_regs.h")) as f:
        regs = {m.group(1): int(m.group(2), 0)
                for m in re.finditer(r"#define (\w+)\s+(0x[0-9A-Fa-f]+|\d+)u", f.read())}
    dev = Device(d, regs)
    ctl, init = regs["PROGRAM_MONITOR_CPU_BASE"], regs["PROGRAM_MONITOR_MB_PC_INIT"]
    dev.poke(ctl, 0x1 | 3 << regs["PROGRAM_MONITOR_MB_PC_PROG_SHIFT"])  # running, NO_FILTERING
    sym = write(d, "dev.sym", SYMBOLS)
    rc, out, err = run("--device", "uio:" + dev.path, "info", exe=exe, sysfs=dev.sysfs)
    check(rc == 0 and "  sniffer 0 mb_pc (2 DCAPFs)\n    program monitor: 32 addresses, 32-bit PC "
          "(jointer pm, jointer profile)\n" in out, f"info: {out!r} {err!r}")
    rc, out, err = run("--device", "uio:" + dev.path, "pm", "mb_pc", sym, exe=exe, sysfs=dev.sysfs)
    want = ("pm mb_pc: 7 addresses of 32 programmed and enabled\n"
            "   0  0x00001000  main entry\n   1  0x000010FC  main exit\n"
            "   2  0x00001100  work entry\n   3  0x00001180  work exit\n"
            "   4  0x00001200  fact entry\n   5  0x0000125C  fact exit\n"
            "   6  0x00001300  tick entry\n")
    check((rc, out, err) == (0, want, ""), f"pm: {rc} {out!r} {err!r}")
    check(dev.peek(init) == 0x1300, f"last INIT word 0x{dev.peek(init):X}")      # the last address
    check(dev.peek(ctl) == 0xD, f"CONTROL 0x{dev.peek(ctl):X}")                  # mode and RUN restored
    rc, out, err = run("--device", "uio:" + dev.path, "pm", "mb_pc", "--off", exe=exe, sysfs=dev.sysfs)
    check((rc, out, err) == (0, "pm mb_pc: every address disabled\n", ""), f"pm --off: {out!r} {err!r}")
    check(dev.peek(init) == 0, f"mask 0x{dev.peek(init):X}")
    full = write(d, "full.sym", "".join(f"f{i} {2 * i} {2 * i + 1}\n" for i in range(16)))
    rc, out, err = run("--device", "uio:" + dev.path, "pm", "mb_pc", full, exe=exe, sysfs=dev.sysfs)
    check(rc == 0 and out.startswith("pm mb_pc: 32 addresses of 32 programmed and enabled\n")
          and dev.peek(init) == 31, f"32 addresses: {rc} {out!r} {err!r}")
    big = write(d, "big.sym", "".join(f"f{i} {2 * i} {2 * i + 1}\n" for i in range(16)) + "last 0x100\n")
    rc, out, err = run("--device", "uio:" + dev.path, "pm", "mb_pc", big, exe=exe, sysfs=dev.sysfs)
    check((rc, out, err) == (2, "", f"{big}:17: too many addresses (the table holds 32)\n"), f"33: {err!r}")
    # profile from the device: the records of RECORDS in the trace RAM
    tregs, ram = regs["PROGRAM_MONITOR_PC_TRACE_REGS"], regs["PROGRAM_MONITOR_PC_TRACE_RAM"]
    dev.poke(tregs + 4, len(RECORDS))                       # FILL
    dev.poke(tregs + 16, regs["PROGRAM_MONITOR_PC_TRACE_DEPTH"])
    for i, (ts, data) in enumerate(RECORDS):
        dev.poke(ram + 8 * i, ts)
        dev.poke(ram + 8 * i + 4, data)
    rc, out, err = run("--device", "uio:" + dev.path, "profile", sym, "--format", "csv", exe=exe, sysfs=dev.sysfs)
    want = ("function,calls,total_cycles,min_cycles,max_cycles,unmatched_entries,unmatched_exits\n"
            "main,1,300,300,300,0,0\nwork,2,55,15,40,2,1\nfact,3,63,5,40,0,0\ntick,2,0,0,0,0,0\n")
    check((rc, out, err) == (0, want, ""), f"profile from the device: {rc} {out!r} {err!r}")
    rc, out, err = run("--device", "uio:" + dev.path, "profile", sym, exe=exe, sysfs=dev.sysfs)
    check(rc == 0 and out.splitlines()[0] == "profile of pc_trace: 18 records, 4 functions "
          "(cycles; --period-ns P adds times)", out)


def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def csv(records, name="pc_trace"):
    return "trace,index,timestamp,data\n" + "".join(
        f"{name},{i},{ts},{data}\n" for i, (ts, data) in enumerate(records))


def main():
    failures = 0

    def check(cond, what):
        nonlocal failures
        if not cond:
            failures += 1
            print("FAIL:", what)

    with tempfile.TemporaryDirectory() as d:
        sym = write(d, "f.sym", SYMBOLS)
        tr = write(d, "t.csv", csv(RECORDS) + csv([(1, 0), (2, 1)], "other").split("\n", 1)[1])
        # CSV: exact values (hand-computed, see test_pm.c), times at 2.5 ns
        rc, out, err = run("profile", sym, "pc_trace", "--input", tr, "--format", "csv", "--period-ns", "2.5")
        want = ("function,calls,total_cycles,min_cycles,max_cycles,unmatched_entries,unmatched_exits,"
                "total_ns,min_ns,max_ns\n"
                "main,1,300,300,300,0,0,750.0,750.0,750.0\n"
                "work,2,55,15,40,2,1,137.5,37.5,100.0\n"
                "fact,3,63,5,40,0,0,157.5,12.5,100.0\n"
                "tick,2,0,0,0,0,0,0.0,0.0,0.0\n")
        check((rc, out, err) == (0, want, ""), f"profile csv: {rc} {out!r} {err!r}")
        # the same from the Python reference
        ref = profile(RECORDS, FUNCS)
        rows = {r.split(",")[0]: r.split(",") for r in out.splitlines()[1:]}
        for name, s in ref.items():
            got = rows.get(name, [])
            check(got[1:7] == [str(s["calls"]), str(s["total"]), str(s["min"] or 0), str(s["max"] or 0),
                               str(s["unmatched_entries"]), str(s["unmatched_exits"])],
                  f"reference {name}: {got} vs {s}")
        # table
        rc, out, err = run("profile", sym, "pc_trace", "--input", tr, "--period-ns", "10")
        lines = out.splitlines()
        check(rc == 0 and err == "", f"profile table rc {rc} {err!r}")
        check(lines[0] == "profile of pc_trace: 18 records, 4 functions", lines[0])
        check(lines[2].split() == ["main", "1", "300", "300", "300", "300.0", "0/0"], lines[2])
        check(lines[3].split() == ["3.000", "us", "3.000", "us", "3.000", "us", "3.000", "us"], lines[3])
        check(lines[4].split() == ["work", "2", "55", "15", "40", "27.5", "2/1"], lines[4])
        check(lines[5].split() == ["0.550", "us", "0.150", "us", "0.400", "us", "0.275", "us"], lines[5])
        check(lines[6].split() == ["fact", "3", "63", "5", "40", "21.0", "0/0"], lines[6])
        check(lines[8].split() == ["tick", "2", "0", "0", "0", "0.0", "0/0", "(entry", "only:", "calls)"],
              lines[8])
        check(len(lines) == 9, f"{len(lines)} lines")
        # every trace of the CSV when none is named: the other trace's 2 records come after
        rc, out, err = run("profile", sym, "--input", tr, "--format", "csv")
        check(rc == 0 and out.splitlines()[1] == "main,2,301,1,300,0,0", out)
        # random traces: the CLI agrees with the reference model
        rnd = random.Random(7)
        for k in range(20):
            recs, ts = [], rnd.getrandbits(32)
            for _ in range(rnd.randrange(0, 300)):
                ts = (ts + rnd.randrange(1, 5000)) & 0xFFFFFFFF
                recs.append((ts, rnd.choice([0, 1, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5])))
            rc, out, err = run("profile", sym, "--input", write(d, "r.csv", csv(recs)), "--format", "csv")
            ref = profile(recs, FUNCS)
            got = [r.split(",")[1:7] for r in out.splitlines()[1:]]
            exp = [[str(s["calls"]), str(s["total"]), str(s["min"] or 0), str(s["max"] or 0),
                    str(s["unmatched_entries"]), str(s["unmatched_exits"])] for s in ref.values()]
            check(rc == 0 and got == exp, f"random trace {k}: {got} vs {exp}")
        # errors, exact messages
        cases = [
            ("main 0x10 0x20 0x30 extra\n", f"{d}/bad.sym:1: expected NAME ENTRY [EXIT] or nm's ADDR TYPE NAME\n"),
            ("main\n", f"{d}/bad.sym:1: expected NAME ENTRY [EXIT] or nm's ADDR TYPE NAME\n"),
            ("# c\nmain 0x1g\n", f"{d}/bad.sym:2: bad address (expected 0x... or decimal, 32 bits)\n"),
            ("main 0x100000000 1\n", f"{d}/bad.sym:1: bad address (expected 0x... or decimal, 32 bits)\n"),
            ("main -1 2\n", f"{d}/bad.sym:1: bad address (expected 0x... or decimal, 32 bits)\n"),
            ("".join(f"f{i} {2 * i} {2 * i + 1}\n" for i in range(17)),
             f"{d}/bad.sym:17: too many addresses (the table holds 32)\n"),
            ("# nothing\n\n", f"{d}/bad.sym: no function (expected lines NAME ENTRY [EXIT])\n"),
        ]
        for text, msg in cases:
            rc, out, err = run("profile", write(d, "bad.sym", text), "--input", tr)
            check((rc, out, err) == (2, "", msg), f"{text!r}: {rc} {err!r}")
        rc, out, err = run("profile", sym, "--input", write(d, "b.csv", "trace,index,timestamp,data\nx,0,1\n"))
        check((rc, err) == (2, f"{d}/b.csv:2: expected trace,index,timestamp,data (jointer trace --format csv) "
                               "or index,timestamp,data,cycle,time_s (jointer trace --convert)\n"), err)
        rc, out, err = run("profile", sym, "--input", tr, "--period-ns", "0")
        check((rc, err) == (2, "jointer: --period-ns takes a clock period in ns (> 0)\n"), err)
        rc, out, err = run("profile", sym)
        check((rc, err) == (2, "jointer: no trace of a program monitor in trace_mon (see jointer info)\n"), err)
        rc, out, err = run("pm", "bus", sym)
        check((rc, err) == (2, "jointer: no program monitor sniffer \"bus\" in trace_mon (see jointer info)\n"),
              err)
        rc, out, err = run("pm", "bus")
        check((rc, err) == (2, "usage: jointer pm SNIFFER SYMFILE | jointer pm SNIFFER --off\n"), err)
        if PM_DIR:
            device_cases(check, d)
    print(f"test_cli_pm: {'FAIL' if failures else 'ok'} ({failures} failures)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
