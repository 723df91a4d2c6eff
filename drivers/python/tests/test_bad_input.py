"""Bad input to `python3 -m jointer convert`: truncated and corrupted trace
files, a file from another monitor, unknown formats, missing files. Each is
one clear line naming the file and what is wrong, exit 1, no traceback, no
output written (an existing output stays as it was). Then a seeded fuzz
smoke of the trace-file decoding (libjointer's reader through the binding)."""
import os
import random
import struct
import subprocess
import sys

import numpy as np
import pytest
from conftest import desc_path

import jointer

RECS = [(10 * k, k * 7) for k in range(20)]


def good(tmp_path, descs, name="good.jtr"):
    p = str(tmp_path / name)
    jointer.write_trace_file(p, descs["relay_mon"], "relay_t", np.array(RECS, dtype=jointer.TRACE_DTYPE), 2)
    return p


def convert(*args):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(jointer.__file__)))
    return subprocess.run([sys.executable, "-m", "jointer", "convert"] + list(args), capture_output=True, text=True,
                          env=env, timeout=60)


def mutate(path, out, fn):
    data = bytearray(open(path, "rb").read())
    data = fn(data)
    with open(out, "wb") as f:
        f.write(data)
    return out


@pytest.mark.parametrize("case, fn, message", [
    ("short_header", lambda b: b[:50], "truncated header"),
    ("empty", lambda b: b[:0], "empty file, not a jointer trace file"),
    ("bad_magic", lambda b: b"XXXXXXXX" + b[8:], "not a jointer trace file of a known version"),
    ("version_2", lambda b: b[:8] + struct.pack("<H", 2) + b[10:], "not a jointer trace file of a known version"),
    ("encoding_2", lambda b: b[:10] + struct.pack("<H", 2) + b[12:], "not a jointer trace file of a known version"),
    ("cut_records", lambda b: b[:104 + 8 * 5 + 3], "the header says 20 records, the file holds 5 (truncated)"),
    ("count_too_big", lambda b: b[:32] + struct.pack("<Q", 1 << 62) + b[40:], "the header says 4611686018427387904"),
    ("trailing_bytes", lambda b: b + b"\x00" * 5, "5 bytes after the 20 records the header counts (corrupted)"),
])
def test_corrupted_files(tmp_path, descs, case, fn, message):
    src = good(tmp_path, descs)
    bad = mutate(src, str(tmp_path / (case + ".jtr")), fn)
    out = tmp_path / "out.vcd"
    out.write_text("previous\n")
    r = convert(bad, "--format", "vcd", "-o", str(out))
    assert r.returncode == 1, r.stdout
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert r.stderr.startswith("jointer: %s: " % bad) and message in r.stderr, r.stderr
    assert out.read_text() == "previous\n" and not os.path.exists(str(out) + ".tmp")


def test_incomplete_file_keeps_its_records(tmp_path, descs):
    p = str(tmp_path / "cut.jtr")
    jointer.write_trace_file(p, descs["relay_mon"], "relay_t", np.array(RECS, dtype=jointer.TRACE_DTYPE),
                             complete=False)
    with open(p, "ab") as f:
        f.write(b"\x01\x02\x03")                    # the relay stopped inside a record
    h, rec = jointer.read_trace_file(p)
    assert not h["complete"] and h["records"] == 20
    assert list(zip(rec["timestamp"].tolist(), rec["data"].tolist())) == RECS


def test_file_from_another_monitor(tmp_path, descs):
    p = good(tmp_path, descs)
    r = convert(p, "--format", "perfetto", "--descriptor", desc_path("accel_mon"), "-o", str(tmp_path / "x.json"))
    assert r.returncode == 1 and not os.path.exists(str(tmp_path / "x.json"))
    assert r.stderr.strip() == ("jointer: %s: recorded from monitor relay_mon with config hash 0x%08X, not 0x%08X "
                                "(a trace file from another monitor)"
                                % (p, descs["relay_mon"].config_hash, descs["accel_mon"].config_hash))
    r = convert(p, "--format", "vcd", "--descriptor", desc_path("relay_mon"), "-o", str(tmp_path / "ok.vcd"))
    assert r.returncode == 0, r.stderr


def test_unknown_format_and_missing_file(tmp_path, descs):
    p = good(tmp_path, descs)
    r = convert(p, "--format", "fst")
    assert r.returncode == 1 and r.stderr.strip() == "jointer: unknown format \"fst\": one of vcd, perfetto"
    r = convert(str(tmp_path / "none.jtr"), "--format", "vcd")
    assert r.returncode == 1 and r.stderr.strip() == "jointer: %s: cannot open: No such file or directory" % (
        tmp_path / "none.jtr")
    r = convert(p, "--format", "vcd", "-o", str(tmp_path / "no" / "dir.vcd"))
    assert r.returncode == 1 and "cannot write" in r.stderr and "Traceback" not in r.stderr
    r = convert(p, "--format", "vcd", "--symbols", "x")
    assert r.returncode == 1 and "--symbols and --watch are for --format perfetto" in r.stderr


def test_fuzz_smoke_trace_file_decoding(tmp_path, descs):
    """Seeded mutations (byte flips, cuts, extensions, header fields): every
    file decodes or raises JointerError; decoded files are self-consistent."""
    seed = int(os.environ.get("JOINTER_FUZZ_SEED", "16"))
    n = int(os.environ.get("JOINTER_FUZZ_RUNS", "600"))
    rnd = random.Random(seed)
    base = bytearray(open(good(tmp_path, descs), "rb").read())
    path = str(tmp_path / "fz.jtr")
    outcomes = {"ok": 0, "error": 0}
    for i in range(n):
        b = bytearray(base)
        for _ in range(rnd.randint(1, 4)):
            op = rnd.randrange(5)
            if op == 0 and b:
                b[rnd.randrange(len(b))] = rnd.randrange(256)
            elif op == 1:
                del b[rnd.randrange(len(b) + 1):]
            elif op == 2:
                b += bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 20)))
            elif op == 3 and len(b) >= 40:
                b[24:28] = struct.pack("<I", rnd.getrandbits(32))       # flags (COMPLETE)
            elif op == 4 and len(b) >= 40:
                b[32:40] = struct.pack("<Q", rnd.choice([0, 1, 19, 20, 21, rnd.getrandbits(64)]))
        with open(path, "wb") as f:
            f.write(b)
        try:
            h, rec = jointer.read_trace_file(path)
        except jointer.JointerError as e:
            assert str(e).startswith(path + ": "), (seed, i, str(e))
            outcomes["error"] += 1
            continue
        assert len(rec) == h["records"] and 104 + 8 * len(rec) <= len(b), (seed, i)
        assert rec.tobytes() == bytes(b[104:104 + 8 * len(rec)]), (seed, i)
        outcomes["ok"] += 1
    print("fuzz smoke: seed %d, %d files: %s" % (seed, n, outcomes))
    assert outcomes["ok"] > 0 and outcomes["error"] > 0
