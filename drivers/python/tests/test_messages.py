# SPDX-License-Identifier: MIT
"""Messages of the Python host tools that once misled: each says what is
wrong now (exact text), and a .jdesc is a descriptor everywhere one is taken."""
import errno
import os
import subprocess
import sys

import pytest
from conftest import BUILD, desc_path

import jointer
from jointer import exporter

ENV = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(jointer.__file__)))


def py(*args, env=None):
    return subprocess.run([sys.executable, "-m", "jointer", *args], capture_output=True, text=True, timeout=120,
                          env=env or ENV)


def jdesc(name):
    return os.path.join(BUILD, "drivers", "fixtures", name, name + ".jdesc")


@pytest.mark.parametrize("cmd", ["exporter", "dashboard"])
def test_help_speaks_of_jdesc_files(cmd):
    r = py(cmd, "--help")
    assert r.returncode == 0 and ".jdesc" in r.stdout, r.stdout
    assert "=libselective_accumulations.so" not in r.stdout and "help: lib<name>.so" not in r.stdout


def test_convert_descriptor_takes_a_jdesc(tmp_path, descs):
    """--descriptor X.jdesc: the trace file's monitor is checked by config hash, as with lib<name>.so."""
    import numpy as np
    t = str(tmp_path / "r.jtr")
    jointer.write_trace_file(t, descs["relay_mon"], "relay_t", np.zeros(3, jointer.TRACE_DTYPE))
    r = py("convert", t, "--format", "csv", "--descriptor", jdesc("relay_mon"), "-o", str(tmp_path / "r.csv"))
    assert r.returncode == 0, r.stderr
    r = py("convert", t, "--format", "csv", "--descriptor", jdesc("accel_mon"), "-o", str(tmp_path / "x.csv"))
    assert r.returncode == 1 and "(a trace file from another monitor)" in r.stderr, r.stderr


@pytest.mark.parametrize("path, err, what", [
    ("/dev/zero", errno.ENODEV, "a device, not a descriptor file (a regular <name>.jdesc file)"),
    ("/", errno.EISDIR, "a directory, not a descriptor file (give the <name>.jdesc inside)"),
    ("/nonexistent/x.jdesc", errno.ENOENT, None)])
def test_exporter_descriptor_path_says_what_it_is(path, err, what):
    with pytest.raises(jointer.JointerError) as e:
        exporter.load_descriptor(path)
    assert e.value.errno == err
    assert str(e.value) == ("%s: %s" % (path, what) if what else "descriptor %s: no such file" % path)


def test_exporter_reads_a_jdesc(descs):
    d = exporter.load_descriptor(jdesc("accel_mon"))
    assert d.name == "accel_mon" and d.config_hash == descs["accel_mon"].config_hash


def test_convert_clock_and_spans_errors(tmp_path, descs):
    import numpy as np
    t = str(tmp_path / "r.jtr")
    jointer.write_trace_file(t, descs["relay_mon"], "relay_t", np.zeros(3, jointer.TRACE_DTYPE))
    r = py("convert", t, "--format", "spans")
    assert r.returncode == 1 and r.stderr == ("jointer: %s: trace relay_t has no spans (YAML spans: of the trace; "
                                              "a file of version 1 has none)\n" % t), r.stderr
    r = py("convert", t, "--format", "csv", "--clock", "pl=200MHz", "-o", str(tmp_path / "c.csv"))
    assert r.returncode == 1 and r.stderr == ("jointer: --clock pl=200MHz: no file's timestamps are on clock "
                                              "\"pl\" (%s: axi)\n" % t), r.stderr
    r = py("convert", t, "--format", "csv", "--clock", "fast", "-o", str(tmp_path / "c.csv"))
    assert r.returncode == 1 and "--clock fast: expected [NAME=]FREQ" in r.stderr
    r = py("convert", t, "--format", "csv", "--clock", "axi=50MHz", "-o", str(tmp_path / "c.csv"))
    assert r.returncode == 0 and (tmp_path / "c.csv").read_text().splitlines()[3] == "0,0,0,0,0", r.stderr
    assert not (tmp_path / "x.csv").exists()


def test_lib_so_still_loads():
    d = jointer.Descriptor.load(desc_path("accel_mon"))
    assert d.name == "accel_mon" and d.lmics[0].clock and d.lmics[0].clock_hz > 0
