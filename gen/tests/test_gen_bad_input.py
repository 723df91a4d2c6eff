# SPDX-License-Identifier: MIT
"""Bad input: every error reported as FILE:LINE:COL: error: ..., exit status 1,
nothing written (no output folder, no temporary folder, an existing output
left as it was), never a traceback.

The cases live in bad_cases.py (114 YAML inputs with their exact expected
diagnostics); the file-level cases (missing file, a folder, 10 MB) are here.
"""
import os
import subprocess
import sys

import pytest

from bad_cases import CASES
from gentest_util import REPO, run_cli

SUMMARY = "jointer-gen: {n} error{s}; nothing written"


def _summary(n: int) -> str:
    return SUMMARY.format(n=n, s="" if n == 1 else "s")


@pytest.mark.parametrize("text,expected", [(c[1], c[2]) for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input(tmp_path, monkeypatch, text, expected):
    monkeypatch.chdir(tmp_path)
    data = text if isinstance(text, bytes) else text.lstrip("\n").encode()
    (tmp_path / "bad.yaml").write_bytes(data)
    rc, out, err = run_cli(["bad.yaml", "-o", "out"])
    assert rc == 1
    assert out == ""
    assert err.splitlines() == expected + [_summary(len(expected))]
    assert sorted(os.listdir(tmp_path)) == ["bad.yaml"]      # nothing written, no temp folder


def test_at_least_40_cases():
    assert len(CASES) >= 40
    assert len({c[0] for c in CASES}) == len(CASES)


def test_every_error_of_a_run_is_reported(tmp_path, monkeypatch):
    """Errors of different stages and items in one file all appear, in file order."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text("""jointer: 1
monitor:
  name: mon
  clocks: [axi, fast]
  bus: {addr_width: 12, base_adress: 0}
lmics:
  - name: lm
    clock: fast
    sniffers:
      - name: s1
        interfacer: {type: events, width: 2}
        dcapfs:
          - {name: c1, extractor: event, event: 2}
          - {name: c1, extractor: trace, depth: 3}
      - name: signal
        interfacer: {type: start_done}
        dcapfs:
          - {name: t, extractor: time, width: 99}
""")
    rc, _, err = run_cli(["bad.yaml", "-o", "out"])
    assert rc == 1
    lines = err.splitlines()
    assert [l.split(": error: ")[0] for l in lines[:-1]] == [
        "bad.yaml:5:25", "bad.yaml:13:49", "bad.yaml:14:20", "bad.yaml:14:49", "bad.yaml:15:15",
        "bad.yaml:18:47"]
    assert lines[-1] == _summary(6)
    assert not (tmp_path / "out").exists()


def test_existing_output_untouched(tmp_path, monkeypatch):
    """A bad input does not touch a previous good output of the same monitor."""
    monkeypatch.chdir(tmp_path)
    good = (REPO / "configs" / "arm_timestamps.yaml").read_text()
    (tmp_path / "m.yaml").write_text(good)
    assert run_cli(["m.yaml", "-o", "out"])[0] == 0
    before = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()}
    (tmp_path / "m.yaml").write_text(good.replace("depth: 256", "depth: 255"))
    rc, _, err = run_cli(["m.yaml", "-o", "out"])
    assert rc == 1 and "invalid value 255" in err
    after = {p: p.read_bytes() for p in (tmp_path / "out").rglob("*") if p.is_file()}
    assert after == before
    assert sorted(os.listdir(tmp_path / "out")) == ["arm_timestamps", "libjointer"]


def test_missing_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_cli(["nope.yaml", "-o", "out"])
    assert rc == 1
    assert err.splitlines() == [
        "nope.yaml: error: cannot read the file: no such file (expected a YAML monitor description)",
        _summary(1)]
    assert os.listdir(tmp_path) == []


def test_folder_instead_of_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d.yaml").mkdir()
    rc, _, err = run_cli(["d.yaml"])
    assert rc == 1
    assert err.splitlines()[0] == "d.yaml: error: cannot read the file: it is a directory (expected a YAML file)"


def test_ten_megabyte_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = b"# " + b"x" * 1021 + b"\n"
    (tmp_path / "big.yaml").write_bytes(b"jointer: 1\n" + line * (10 * 1024))
    size = (tmp_path / "big.yaml").stat().st_size
    rc, _, err = run_cli(["big.yaml", "-o", "out"])
    assert rc == 1
    assert err.splitlines() == [
        f"big.yaml: error: file too large: {size} bytes (expected at most 1048576 bytes for a "
        "monitor description)", _summary(1)]
    assert sorted(os.listdir(tmp_path)) == ["big.yaml"]


def test_alias_bomb(tmp_path, monkeypatch):
    """A small file whose aliases expand to millions of values stops cleanly."""
    monkeypatch.chdir(tmp_path)
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 8):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    rc, _, err = run_cli(["bomb.yaml", "-o", "out"])
    assert rc == 1
    first = err.splitlines()[0]
    assert first.startswith("bomb.yaml:") and "document too large: more than 200000 values" in first
    assert not (tmp_path / "out").exists()


def test_process_exit_status_and_no_traceback(tmp_path):
    """The real command line (python -m jointer_gen): status 1, no traceback."""
    (tmp_path / "bad.yaml").write_text("jointer: 1\nmonitor: [\n")
    env = dict(os.environ, PYTHONPATH=str(REPO / "gen"))
    r = subprocess.run([sys.executable, "-m", "jointer_gen", "bad.yaml", "-o", "out"], cwd=tmp_path,
                       env=env, capture_output=True, text=True)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    assert r.stderr.splitlines()[0].startswith("bad.yaml:3:1: error: invalid YAML: ")
    assert not (tmp_path / "out").exists()


def test_endless_stream_is_capped(tmp_path, monkeypatch):
    """/dev/zero (st_size 0, endless): at most 1 MiB + 1 byte is read, then a clean error."""
    monkeypatch.chdir(tmp_path)
    rc, _, err = run_cli(["/dev/zero", "-o", "out"])
    assert rc == 1
    assert err.splitlines() == [
        "/dev/zero: error: file too large: more than 1048576 bytes (expected at most 1048576 "
        "bytes for a monitor description)", _summary(1)]
    assert os.listdir(tmp_path) == []


def test_pipe_within_the_cap_is_read(tmp_path):
    """A stream under the cap is a normal input (the cap does not refuse pipes)."""
    text = (REPO / "sim" / "bench" / "budget" / "one_counter.yaml").read_bytes()
    env = dict(os.environ, PYTHONPATH=str(REPO / "gen"))
    r = subprocess.run([sys.executable, "-m", "jointer_gen", "/dev/stdin", "-o", "out", "-q"],
                       cwd=tmp_path, env=env, input=text, capture_output=True)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "one_counter" / "manifest.json").is_file()


@pytest.mark.parametrize("out", ["afile", "afile/sub/dir"])
def test_output_under_a_regular_file(tmp_path, monkeypatch, out):
    """-o naming an existing regular file (or a folder under one): say it is not a directory."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("keep\n")
    rc, _, err = run_cli([REPO / "sim" / "bench" / "budget" / "one_counter.yaml", "-o", out])
    assert rc == 1
    assert err.splitlines() == [f"jointer-gen: cannot write {out}/one_counter: afile is not a directory"]
    assert (tmp_path / "afile").read_text() == "keep\n"
    assert sorted(os.listdir(tmp_path)) == ["afile"]
