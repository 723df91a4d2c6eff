# SPDX-License-Identifier: MIT
"""Bad input to the host tools: `python3 -m jointer convert` and `plot`,
the C CLI's `trace --convert` and `profile --input`. Every case: exit 1, one
line on stderr naming the file and what is wrong (the byte offset for a
binary file), no traceback, no hang (a timeout), and no file touched that
should not be: the work directory holds the same files with the same bytes
afterwards, no temporary file left, /dev/full still a device.

Then the cases that must succeed with care: a trace name holding VCD
keywords, an output through a symbolic link, an incomplete file cut inside a
record (Python and C agree: whole records converted, a warning). The
seeded mutation smoke of the decoder is in test_fuzz_decoder.py."""
import os
import socket
import stat
import struct
import subprocess
import sys

import numpy as np
import pytest
import vcdvcd
from conftest import CLI_DIR, desc_path

import jointer

RECS = [(10 * k, k * 7) for k in range(20)]
PKG = os.path.dirname(os.path.dirname(jointer.__file__))
CLI = os.path.join(CLI_DIR, "jointer-relay_mon")
TIMEOUT = 60


def good(tmp_path, descs, name="good.jtr", recs=RECS, complete=True):
    p = str(tmp_path / name)
    jointer.write_trace_file(p, descs["relay_mon"], "relay_t", np.array(recs, dtype=jointer.TRACE_DTYPE), 2,
                             complete=complete)
    return p


def py(*args, env_extra=None):
    env = dict(os.environ, PYTHONPATH=PKG + (os.pathsep + env_extra if env_extra else ""))
    if env_extra:
        env["PYTHONPATH"] = env_extra + os.pathsep + PKG
    return subprocess.run([sys.executable, "-m", "jointer"] + list(args), capture_output=True, text=True, env=env,
                          timeout=TIMEOUT)


def cli(*args):
    return subprocess.run([CLI] + list(args), capture_output=True, text=True, timeout=TIMEOUT)


def snapshot(d):
    """{name: (kind, bytes)} of a directory (no following of links)."""
    out = {}
    for n in sorted(os.listdir(d)):
        p = os.path.join(d, n)
        st = os.lstat(p)
        if stat.S_ISREG(st.st_mode):
            with open(p, "rb") as f:
                out[n] = ("file", f.read())
        elif stat.S_ISLNK(st.st_mode):
            out[n] = ("link", os.readlink(p))
        else:
            out[n] = (stat.S_IFMT(st.st_mode), None)
    return out


@pytest.fixture
def ws(tmp_path, descs):
    """A work directory: a good trace file, symbols, watch CSV, profile CSV,
    histogram JSON, outputs that exist already, a FIFO, a socket, junk."""
    w = tmp_path / "ws"
    w.mkdir()
    good(w, descs, "good.jtr")
    (w / "syms.txt").write_text("main 0x1000 0x1100\nwork 0x2000 0x2100\n")
    (w / "watch.csv").write_text("time_ms,mac_fires\n0.0,1\n1.5,4\n")
    (w / "prof.csv").write_text("function,calls,total_cycles,min_cycles,max_cycles,unmatched_entries,"
                                "unmatched_exits\nmain,1,85,85,85,0,0\n")
    (w / "read.json").write_text('{"metrics": {"h": [{"low": 0, "high": 4, "count": 3}]}}')
    for n in ("out.vcd", "out.json", "out.png", "out.svg", "out.csv"):
        (w / n).write_text("previous\n")
    os.link(str(w / "good.jtr"), str(w / "hard.jtr"))       # the same inode as the input
    os.mkfifo(str(w / "fifo"))
    s = socket.socket(socket.AF_UNIX)
    here = os.getcwd()
    os.chdir(str(w))                  # a relative name: AF_UNIX paths are short
    try:
        s.bind("sock")
    finally:
        os.chdir(here)
    (w / "dir").mkdir()
    (w / "latin1.csv").write_bytes(b"time_ms,caf\xe9\n0.0,1\n")
    (w / "latin1.txt").write_bytes(b"main 0x1000 0x1100\n# caf\xe9\n")
    (w / "junk.bin").write_bytes(bytes(range(256)) * 4)
    b = open(str(w / "good.jtr"), "rb").read()
    d = 104 + struct.unpack_from("<I", b, 104)[0]      # the first record: after the timeline block
    assert d == DATA
    variants = {
        "short.jtr": b[:50], "magic_only.jtr": b[:8], "empty.jtr": b"",
        "v3.jtr": b[:8] + struct.pack("<H", 3) + b[10:], "enc7.jtr": b[:10] + struct.pack("<H", 7) + b[12:],
        "cut.jtr": b[:d + 8 * 5 + 3], "huge.jtr": b[:32] + struct.pack("<Q", 1 << 62) + b[40:],
        "trailing.jtr": b + b"\0" * 5,
        "compact_bad.jtr": b[:10] + struct.pack("<H", 1) + b[12:32] + struct.pack("<Q", 2) + b[40:d]
        + struct.pack("<QQ", 0, (3 << 62) | (1 << 60)),
        "timeline_bad.jtr": b[:108] + bytes([17]) + b[109:],      # 17 lanes
    }
    for n, data in variants.items():
        (w / n).write_bytes(data)
    before = snapshot(str(w))
    yield w
    s.close()
    assert snapshot(str(w)) == before, "a file was touched"
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def J(w, name):
    return str(w / name)


# the first record of good.jtr: the 104-byte header, then its timeline block (no lanes, no spans)
DATA = 104 + 112

# (id, argv(w) for py or cli, message part); {w} is the work directory
CASES = [
    # ---- the cases found on a clean clone ----
    ("fifo_vcd", "py", ["convert", "{w}/fifo", "--format", "vcd", "-o", "{w}/o.vcd"],
     "a FIFO (named pipe), not a regular file"),
    ("fifo_perfetto", "py", ["convert", "{w}/fifo", "--format", "perfetto", "-o", "{w}/o.json"], "a FIFO (named pipe)"),
    ("fifo_cli", "cli", ["trace", "--convert", "{w}/fifo"], "a FIFO or socket, not a regular file"),
    ("plot_watch_dev_zero", "py", ["plot", "watch", "/dev/zero", "-o", "{w}/o.png"], "/dev/zero: a character device"),
    ("out_dev_full", "py", ["convert", "{w}/good.jtr", "--format", "vcd", "-o", "/dev/full"],
     "/dev/full: cannot write: No space left on device"),
    ("out_is_input", "py", ["convert", "{w}/good.jtr", "--format", "csv", "-o", "{w}/good.jtr"],
     "the output is the input"),
    ("latin1_plot_watch", "py", ["plot", "watch", "{w}/latin1.csv", "-o", "{w}/o.png"],
     "latin1.csv:1: byte offset 11: not UTF-8"),
    ("latin1_plot_profile", "py", ["plot", "profile", "{w}/latin1.csv", "-o", "{w}/o.png"],
     "latin1.csv:1: byte offset 11: not UTF-8"),
    ("latin1_watch", "py", ["convert", "{w}/good.jtr", "--format", "perfetto", "--watch", "{w}/latin1.csv",
                            "-o", "{w}/o.json"], "latin1.csv:1: byte offset 11: not UTF-8"),
    ("latin1_symbols", "py", ["convert", "{w}/good.jtr", "--format", "perfetto", "--symbols", "{w}/latin1.txt",
                              "-o", "{w}/o.json"], "latin1.txt:2: byte offset 24: not UTF-8"),
    ("directory", "py", ["convert", "{w}/dir", "--format", "vcd", "-o", "{w}/o.vcd"],
     "dir: a directory, not a regular file"),
    ("dev_zero_trace", "py", ["convert", "/dev/zero", "--format", "vcd", "-o", "{w}/o.vcd"],
     "/dev/zero: a character device"),
    ("short_header", "py", ["convert", "{w}/short.jtr", "--format", "vcd", "-o", "{w}/out.vcd"],
     "truncated header: 50 bytes (a trace file starts with 104 header bytes)"),
    # ---- trace files ----
    ("magic_only", "py", ["convert", "{w}/magic_only.jtr", "--format", "vcd", "-o", "{w}/out.vcd"],
     "truncated header: 8 bytes"),
    ("empty", "py", ["convert", "{w}/empty.jtr", "--format", "vcd", "-o", "{w}/out.vcd"],
     "empty file, not a jointer trace file"),
    ("junk", "py", ["convert", "{w}/junk.bin", "--format", "perfetto", "-o", "{w}/out.json"],
     "not a jointer trace file of a known version: byte offset 0: no magic"),
    ("version_3", "py", ["convert", "{w}/v3.jtr", "--format", "vcd", "-o", "{w}/out.vcd"],
     "byte offset 8: version 3 (this reader: 1 and 2)"),
    ("timeline_block", "py", ["convert", "{w}/timeline_bad.jtr", "--format", "vcd", "-o", "{w}/out.vcd"],
     "byte offset 104: a malformed timeline block"),
    ("encoding_7", "py", ["convert", "{w}/enc7.jtr", "--format", "vcd", "-o", "{w}/out.vcd"],
     "byte offset 10: encoding 7"),
    ("cut_records", "py", ["convert", "{w}/cut.jtr", "--format", "vcd", "-o", "{w}/out.vcd"],
     "the header says 20 records, the file holds 5 (truncated at byte offset %d)" % (DATA + 40)),
    ("count_too_big", "py", ["convert", "{w}/huge.jtr", "--format", "csv", "-o", "{w}/out.csv"],
     "the header says 4611686018427387904 records"),
    ("trailing_bytes", "py", ["convert", "{w}/trailing.jtr", "--format", "vcd", "-o", "{w}/out.vcd"],
     "5 bytes after the 20 records the header counts (corrupted), from byte offset %d" % (DATA + 160)),
    ("malformed_unit", "py", ["convert", "{w}/compact_bad.jtr", "--format", "vcd", "-o", "{w}/out.vcd"],
     "unit 1: malformed compact unit at byte offset %d" % (DATA + 8)),
    ("missing", "py", ["convert", "{w}/none.jtr", "--format", "vcd", "-o", "{w}/o.vcd"],
     "none.jtr: cannot open: No such file"),
    ("socket", "py", ["convert", "{w}/sock", "--format", "vcd", "-o", "{w}/o.vcd"], "sock: a socket"),
    ("dev_null_trace", "py", ["convert", "/dev/null", "--format", "vcd", "-o", "{w}/o.vcd"],
     "/dev/null: a character device"),
    ("another_monitor", "py", ["convert", "{w}/good.jtr", "--format", "vcd", "--descriptor", "@accel_mon",
                               "-o", "{w}/o.vcd"], "(a trace file from another monitor)"),
    ("second_bad_file", "py", ["convert", "{w}/good.jtr", "{w}/cut.jtr", "--format", "vcd", "-o", "{w}/out.vcd"],
     "cut.jtr: the header says 20 records"),
    # ---- options and outputs ----
    ("unknown_format", "py", ["convert", "{w}/good.jtr", "--format", "fst", "-o", "{w}/o.x"], "unknown format \"fst\""),
    ("symbols_for_vcd", "py", ["convert", "{w}/good.jtr", "--format", "vcd", "--symbols", "{w}/syms.txt", "-o",
                               "{w}/o.vcd"], "--symbols and --watch are for --format perfetto"),
    ("csv_two_files", "py", ["convert", "{w}/good.jtr", "{w}/good.jtr", "--format", "csv", "-o", "{w}/o.csv"],
     "--format csv converts one file (2 given)"),
    ("out_no_dir", "py", ["convert", "{w}/good.jtr", "--format", "vcd", "-o", "{w}/no/o.vcd"], "cannot write"),
    ("out_is_dir", "py", ["convert", "{w}/good.jtr", "--format", "vcd", "-o", "{w}/dir"],
     "a directory, not an output file"),
    ("out_fifo_no_reader", "py", ["convert", "{w}/good.jtr", "--format", "vcd", "-o", "{w}/fifo"],
     "a FIFO without a reader"),
    ("out_hard_link_to_input", "py", ["convert", "{w}/good.jtr", "--format", "vcd", "-o", "{w}/hard.jtr"],
     "hard.jtr: the output is the input"),
    ("out_is_symbols", "py", ["convert", "{w}/good.jtr", "--format", "perfetto", "--symbols", "{w}/syms.txt",
                              "-o", "{w}/syms.txt"], "the output is the input"),
    ("plot_out_is_input", "py", ["plot", "watch", "{w}/watch.csv", "-o", "{w}/watch.csv.svg"], None),
    # ---- text inputs ----
    ("symbols_missing", "py", ["convert", "{w}/good.jtr", "--format", "perfetto", "--symbols", "{w}/none.txt",
                               "-o", "{w}/o.json"], "none.txt: cannot open"),
    ("symbols_dir", "py", ["convert", "{w}/good.jtr", "--format", "perfetto", "--symbols", "{w}/dir",
                           "-o", "{w}/o.json"], "dir: a directory"),
    ("symbols_fifo", "py", ["convert", "{w}/good.jtr", "--format", "perfetto", "--symbols", "{w}/fifo",
                            "-o", "{w}/o.json"], "fifo: a FIFO"),
    ("symbols_junk", "py", ["convert", "{w}/good.jtr", "--format", "perfetto", "--symbols", "{w}/junk.bin",
                            "-o", "{w}/o.json"], "junk.bin:2: byte offset 128"),
    ("watch_header", "py", ["convert", "{w}/good.jtr", "--format", "perfetto", "--watch", "{w}/prof.csv",
                            "-o", "{w}/o.json"], "prof.csv:1: expected the header time_ms,METRIC"),
    ("watch_dev_zero", "py", ["convert", "{w}/good.jtr", "--format", "perfetto", "--watch", "/dev/zero",
                              "-o", "{w}/o.json"], "/dev/zero: a character device"),
    ("plot_histogram_junk", "py", ["plot", "histogram", "{w}/junk.bin", "-o", "{w}/o.png"],
     "junk.bin:2: byte offset 128"),
    ("plot_histogram_not_json", "py", ["plot", "histogram", "{w}/watch.csv", "-o", "{w}/o.png"], "not JSON"),
    ("plot_histogram_metric", "py", ["plot", "histogram", "{w}/read.json", "nope", "-o", "{w}/o.png"],
     "no histogram \"nope\""),
    ("plot_pdf", "py", ["plot", "watch", "{w}/watch.csv", "-o", "{w}/o.pdf"], "must end in .png or .svg"),
    ("plot_profile_header", "py", ["plot", "profile", "{w}/watch.csv", "-o", "{w}/o.svg"],
     "expected the header function"),
    ("plot_fifo", "py", ["plot", "histogram", "{w}/fifo", "-o", "{w}/o.svg"], "a FIFO"),
    ("plot_out_no_dir", "py", ["plot", "watch", "{w}/watch.csv", "-o", "{w}/dir/no/o.png"], "o.png: cannot write"),
    # ---- the C CLI ----
    ("cli_directory", "cli", ["trace", "--convert", "{w}/dir"], "dir: cannot read: a directory"),
    ("cli_dev_zero", "cli", ["trace", "--convert", "/dev/zero", "--format", "vcd"], "/dev/zero: cannot read: a device"),
    ("cli_short_header", "cli", ["trace", "--convert", "{w}/short.jtr"], "truncated header: 50 bytes"),
    ("cli_junk", "cli", ["trace", "--convert", "{w}/junk.bin", "--format", "perfetto"], "byte offset 0: no magic"),
    ("cli_cut", "cli", ["trace", "--convert", "{w}/cut.jtr", "--format", "vcd"], "the header says 20 records"),
    ("cli_malformed", "cli", ["trace", "--convert", "{w}/compact_bad.jtr"],
     "malformed compact unit at byte offset %d" % (DATA + 8)),
    ("cli_profile_fifo", "cli", ["profile", "{w}/syms.txt", "--input", "{w}/fifo"], "a FIFO or socket"),
    ("cli_profile_bad_tfile", "cli", ["profile", "{w}/syms.txt", "--input", "{w}/trailing.jtr"], "5 bytes after"),
]


@pytest.mark.parametrize("case, tool, argv, message", CASES, ids=[c[0] for c in CASES])
def test_bad_input(ws, case, tool, argv, message):
    args = [a.replace("{w}", str(ws)) for a in argv]
    if "@accel_mon" in args:
        args[args.index("@accel_mon")] = desc_path("accel_mon")
    if case == "plot_out_is_input":   # the output a link to the input: the same inode
        os.symlink("watch.csv", str(ws / "watch.csv.svg"))
        message = "the output is the input"
    if case == "fifo_cli" or case.startswith("cli_"):
        r = cli(*args)
    else:
        r = py(*args)
    if case == "plot_out_is_input":
        os.unlink(str(ws / "watch.csv.svg"))
    if case.startswith("cli_profile"):
        assert r.returncode in (1, 2), (r.returncode, r.stderr)
    else:
        assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    err = r.stderr.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert message in err, err
    assert err.startswith("jointer: ") or err.startswith(str(ws)), err


@pytest.mark.parametrize("module, argv, extra", [
    ("matplotlib", ["plot", "watch", "{w}/watch.csv", "-o", "{w}/o.png"], "plot"),
    ("prometheus_client", ["exporter", "--listen", "127.0.0.1:0", "--monitor", "uio:/dev/none=x.so"], "exporter"),
])
def test_missing_optional_module(ws, tmp_path, module, argv, extra):
    fake = tmp_path / "fake"
    (fake / module).mkdir(parents=True)
    (fake / module / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named '%s'\", name='%s')\n"
                                               % (module, module))
    r = py(*[a.replace("{w}", str(ws)) for a in argv], env_extra=str(fake))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.strip() == "jointer: the Python module %s is missing: pip install 'jointer[%s]'" % (module, extra)


# ---- what must succeed, with care ----

def test_vcd_keywords_in_names_are_escaped(tmp_path, descs):
    """A trace and a monitor named with VCD keywords and spaces: identifiers
    of [A-Za-z0-9_] only, the comment too; the VCD parses back."""
    b = bytearray(open(good(tmp_path, descs, "n.jtr"), "rb").read())
    b[40:72] = b"mon $end x".ljust(32, b"\0")
    b[72:104] = b"t$end $var wire\n".ljust(32, b"\0")
    p = tmp_path / "n.jtr"
    p.write_bytes(bytes(b))
    out = str(tmp_path / "n.vcd")
    r = py("convert", str(p), "--format", "vcd", "-o", out)
    assert r.returncode == 0, r.stderr
    text = open(out).read()
    assert "$scope module mon__end_x $end" in text and "$scope module t_end__var_wire_ $end" in text
    for line in text.splitlines():
        assert line.split().count("$end") <= 1 and "$var" not in line[1:], line
    v = vcdvcd.VCDVCD(out)
    assert [int(x, 2) for _, x in v["mon__end_x.t_end__var_wire_.data"].tv[1:]] == [d for _, d in RECS]
    r = py("convert", str(p), "--format", "perfetto", "-o", str(tmp_path / "n.json"))
    import json
    doc = json.load(open(str(tmp_path / "n.json")))
    assert {e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M"} == {"mon $end x", "t$end $var wire\n"}


def test_output_through_a_symlink(tmp_path, descs):
    p = good(tmp_path, descs)
    real = tmp_path / "real.vcd"
    real.write_text("old\n")
    os.chmod(str(real), 0o640)
    link = tmp_path / "link.vcd"
    os.symlink("real.vcd", str(link))
    r = py("convert", p, "--format", "vcd", "-o", str(link))
    assert r.returncode == 0, r.stderr
    assert os.path.islink(str(link)) and os.readlink(str(link)) == "real.vcd"
    assert real.read_text().startswith("$date") and stat.S_IMODE(os.stat(str(real)).st_mode) == 0o640
    assert sorted(os.listdir(str(tmp_path))) == ["good.jtr", "link.vcd", "real.vcd"]


def test_output_to_a_device_is_written_in_place(tmp_path, descs):
    p = good(tmp_path, descs)
    r = py("convert", p, "--format", "perfetto", "-o", "/dev/null")
    assert r.returncode == 0, r.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and os.listdir("/dev").count("null") == 1


def test_output_fifo_with_a_reader(tmp_path, descs):
    p = good(tmp_path, descs)
    fifo = str(tmp_path / "pipe")
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
    try:
        import time
        time.sleep(0.3)
        r = py("convert", p, "--format", "csv", "-o", fifo)
        out = reader.communicate(timeout=TIMEOUT)[0].decode()
    finally:
        reader.kill()
    assert r.returncode == 0, r.stderr
    assert out.splitlines()[2:4] == ["index,timestamp,data,cycle,time_s", "0,0,0,0,0"] \
        and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_incomplete_file_cut_inside_a_record(tmp_path, descs):
    """No COMPLETE flag (the recording was cut short) and 3 bytes of a record:
    the 20 whole records convert (Python and C alike), a warning says what
    was ignored; exit 0. The documented rule (jointer_trace_file.h)."""
    p = good(tmp_path, descs, "cut.jtr", complete=False)
    with open(p, "ab") as f:
        f.write(b"\x01\x02\x03")
    h, rec = jointer.read_trace_file(p)
    assert not h["complete"] and h["records"] == 20 and h["tail_bytes"] == 3
    assert list(zip(rec["timestamp"].tolist(), rec["data"].tolist())) == RECS
    warn = ("incomplete file (the recording was cut short): the 3 bytes of a partial item at byte offset %d ignored"
            % (DATA + 160))
    out = str(tmp_path / "cut.csv")
    r = py("convert", p, "--format", "csv", "-o", out)
    assert r.returncode == 0 and r.stderr.strip() == "jointer: warning: %s: %s" % (p, warn), r.stderr
    c = cli("trace", "--convert", p)
    assert c.returncode == 0 and c.stderr.strip() == "jointer: %s: %s" % (p, warn), c.stderr
    assert c.stdout == open(out).read()
    assert "20 records, 0 lost (incomplete file)" in c.stdout.splitlines()[0]


def test_file_from_another_monitor_exact_message(tmp_path, descs):
    p = good(tmp_path, descs)
    r = py("convert", p, "--format", "perfetto", "--descriptor", desc_path("accel_mon"), "-o", str(tmp_path / "x.json"))
    assert r.returncode == 1 and not os.path.exists(str(tmp_path / "x.json"))
    assert r.stderr.strip() == ("jointer: %s: recorded from monitor relay_mon with config hash 0x%08X, not 0x%08X "
                                "(a trace file from another monitor)"
                                % (p, descs["relay_mon"].config_hash, descs["accel_mon"].config_hash))
    r = py("convert", p, "--format", "vcd", "--descriptor", desc_path("relay_mon"), "-o", str(tmp_path / "ok.vcd"))
    assert r.returncode == 0, r.stderr


def test_cli_output_error(tmp_path, descs):
    p = good(tmp_path, descs)
    with open("/dev/full", "w") as full:
        r = subprocess.run([CLI, "trace", "--convert", p, "--format", "vcd"], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=TIMEOUT)
    assert r.returncode == 1 and r.stderr.strip() == \
        "jointer: trace --convert: cannot write the output: No space left on device", r.stderr
