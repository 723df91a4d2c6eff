# SPDX-License-Identifier: MIT
"""The trace-file decoder on bytes nobody wrote on purpose: the atheris fuzz
target fuzz_decoder.py run as a short smoke (JOINTER_FUZZ_RUNS inputs,
seeded), from seeds of both encodings; and a seeded random mutation smoke
(byte flips, cuts, extensions, header fields) that needs no fuzzer."""
import os
import random
import struct
import subprocess
import sys

import numpy as np
import pytest

import jointer

HERE = os.path.dirname(os.path.abspath(__file__))
RECS = [(10 * k, k * 7) for k in range(20)]


def good(tmp_path, descs, name="good.jtr", complete=True):
    p = str(tmp_path / name)
    jointer.write_trace_file(p, descs["relay_mon"], "relay_t", np.array(RECS, dtype=jointer.TRACE_DTYPE), 2,
                             complete=complete)
    return p


def seeds(tmp_path, descs):
    d = tmp_path / "corpus"
    d.mkdir()
    raw = open(good(tmp_path, descs), "rb").read()
    (d / "raw").write_bytes(raw)
    (d / "incomplete").write_bytes(open(good(tmp_path, descs, "inc.jtr", False), "rb").read() + b"\1\2\3")
    units = [0x10, (1 << 62) | 0x0000000500000007, (2 << 62) | 0x0102030405]
    start = 104 + struct.unpack_from("<I", raw, 104)[0]      # after the timeline block
    (d / "compact").write_bytes(raw[:10] + struct.pack("<H", 1) + raw[12:32] + struct.pack("<Q", len(units))
                                + raw[40:start] + b"".join(struct.pack("<Q", u) for u in units))
    return str(d)


def test_atheris_smoke(tmp_path, descs):
    pytest.importorskip("atheris", reason="atheris (requirements.txt) is not installed for this Python")
    runs = os.environ.get("JOINTER_FUZZ_RUNS", "600")
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(jointer.__file__)))
    r = subprocess.run([sys.executable, os.path.join(HERE, "fuzz_decoder.py"), "-runs=" + runs, "-seed=1",
                        "-max_len=400", seeds(tmp_path, descs)], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Done %s runs" % runs in r.stderr, r.stderr[-2000:]


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
        d = h["data_offset"]
        assert len(rec) == h["records"] and d >= 104 and d + 8 * len(rec) <= len(b), (seed, i)
        assert rec.tobytes() == bytes(b[d:d + 8 * len(rec)]), (seed, i)
        outcomes["ok"] += 1
    print("fuzz smoke: seed %d, %d files: %s" % (seed, n, outcomes))
    assert outcomes["ok"] > 0 and outcomes["error"] > 0
