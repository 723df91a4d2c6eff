# SPDX-License-Identifier: MIT
"""Compact trace files: the same records written raw and compact
(units from the Python model of the encoder, sim/jointer_sim/compact.py)
read back identical through libjointer (jointer.read_trace_file) and
convert to identical outputs (`jointer trace --convert` CSV and JSON,
`python3 -m jointer convert` VCD and Perfetto JSON); a malformed unit, a
partial unit and units before the first SYNC are reported."""
import os
import random
import struct
import subprocess
import sys

import numpy as np
import pytest
from conftest import CLI_DIR, REPO

import jointer

sys.path.insert(0, os.path.join(REPO, "sim"))
from jointer_sim.compact import encode_records  # noqa: E402


def records(n=3000, seed=5):
    """Bursts on consecutive cycles with small data steps, idle gaps, a few
    large data changes, the 32-bit timestamp wrap; first timestamp < 2^30
    (a reader gets the first SYNC's 30 bits, the rest exactly)."""
    rnd = random.Random(seed)
    out, ts, d = [], 0x3FFF0000, 0x00420000
    while len(out) < n:
        for _ in range(rnd.randint(1, 30)):
            ts = (ts + rnd.choice([1, 1, 2, 5])) & 0xFFFFFFFF
            d = (d & ~0x3FF) | rnd.getrandbits(10) if rnd.random() < 0.9 else rnd.getrandbits(32)
            out.append((ts, d))
        ts = (ts + rnd.choice([50, 3000, 1 << 20, 1 << 29])) & 0xFFFFFFFF
    return out[:n]


def write_pair(tmp_path, descs, recs, units=None):
    """(raw path, compact path): the compact file is the raw file's header with
    encoding 1 and the unit count, then the units (little-endian u64)."""
    raw = str(tmp_path / "raw.jtr")
    jointer.write_trace_file(raw, descs["relay_mon"], "relay_t", np.array(recs, dtype=jointer.TRACE_DTYPE), 3)
    if units is None:
        units, enc = encode_records([(i, t, d) for i, (t, d) in enumerate(recs)])
        assert enc.lost == 0
        units = [u.word for u in units]
    b = open(raw, "rb").read()
    d = 104 + struct.unpack_from("<I", b, 104)[0]      # the records: after the timeline block
    hdr = b[:10] + struct.pack("<H", 1) + b[12:32] + struct.pack("<Q", len(units)) + b[40:d]
    comp = str(tmp_path / "compact.jtr")
    with open(comp, "wb") as f:
        f.write(hdr + b"".join(struct.pack("<Q", u) for u in units))
    return raw, comp


def cli(*args):
    return subprocess.run([os.path.join(CLI_DIR, "jointer-relay_mon"), "trace", "--convert"] + list(args),
                          capture_output=True, text=True, timeout=60)


def test_read_trace_file_same_records(tmp_path, descs):
    recs = records()
    raw, comp = write_pair(tmp_path, descs, recs)
    hr, rr = jointer.read_trace_file(raw)
    hc, rc = jointer.read_trace_file(comp)
    assert os.path.getsize(comp) < os.path.getsize(raw) / 2, "the stream should compress 2x"
    assert [tuple(x) for x in rc.tolist()] == recs
    assert np.array_equal(rr, rc)
    assert hc["encoding"] == 1 and hc["records"] == len(recs) and hc["skipped_units"] == 0
    assert hc["units"] == (os.path.getsize(comp) - hc["data_offset"]) // 8
    assert {k: v for k, v in hc.items() if k not in ("encoding", "records", "units", "skipped_units")} == \
        {k: v for k, v in hr.items() if k not in ("encoding", "records")}


def test_cli_convert_identical_outputs(tmp_path, descs):
    raw, comp = write_pair(tmp_path, descs, records())
    for fmt in ("csv", "json"):
        a, b = cli(raw, "--format", fmt), cli(comp, "--format", fmt)
        assert a.returncode == 0 and b.returncode == 0, (a.stderr, b.stderr)
        assert a.stdout == b.stdout and len(a.stdout) > 3000 * 10
        assert b.stderr == ""


def test_python_convert_identical_outputs(tmp_path, descs):
    raw, comp = write_pair(tmp_path, descs, records(800))
    paths = []
    for sub, src in (("raw", raw), ("compact", comp)):  # the same file name: outputs may name it
        os.mkdir(str(tmp_path / sub))
        paths.append(str(tmp_path / sub / "t.jtr"))
        os.replace(src, paths[-1])
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(jointer.__file__)))
    for fmt in ("vcd", "perfetto"):
        outs = []
        for p in paths:
            o = p + "." + fmt
            r = subprocess.run([sys.executable, "-m", "jointer", "convert", p, "--format", fmt, "-o", o],
                               capture_output=True, text=True, env=env, timeout=120)
            assert r.returncode == 0, r.stderr
            outs.append(open(o, "rb").read())
        assert outs[0] == outs[1] and len(outs[0]) > 1000


def test_units_before_sync_malformed_and_partial(tmp_path, descs):
    recs = records(200)
    units, _ = encode_records([(i, t, d) for i, (t, d) in enumerate(recs)], sync_period=16)
    words = [u.word for u in units]
    # a reader of the middle: units before the first SYNC are skipped and said so
    start = next(i for i, w in enumerate(words) if i > 3 and w >> 62 != 0)
    first_sync = next(i for i in range(start, len(words)) if words[i] >> 62 == 0)
    _, comp = write_pair(tmp_path, descs, recs, words[start:])
    h, rc = jointer.read_trace_file(comp)
    assert h["skipped_units"] == first_sync - start
    assert h["records"] == len(rc) == sum(u.n for u in units[first_sync:])
    assert [d for _, d in rc.tolist()] == [d for _, d in recs[len(recs) - len(rc):]]
    r = cli(comp)
    assert r.returncode == 0 and "%d units before the first SYNC skipped" % (first_sync - start) in r.stderr
    # a TRIPLE with bits 61..60 set
    bad = list(words)
    bad[10] = (3 << 62) | (1 << 60)
    _, comp = write_pair(tmp_path, descs, recs, bad)
    with pytest.raises(jointer.JointerError, match="unit 10: malformed compact unit"):
        jointer.read_trace_file(comp)
    r = cli(comp)
    assert r.returncode == 1 and "malformed compact unit" in r.stderr
    # cut in the middle of a unit
    _, comp = write_pair(tmp_path, descs, recs, words)
    data = open(comp, "rb").read()
    with open(comp, "wb") as f:
        f.write(data[:-3])
    with pytest.raises(jointer.JointerError, match="truncated"):
        jointer.read_trace_file(comp)
    r = cli(comp)
    assert r.returncode == 1 and "truncated" in r.stderr
