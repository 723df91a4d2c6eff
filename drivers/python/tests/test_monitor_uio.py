# SPDX-License-Identifier: MIT
"""jointer.Monitor over the fake UIO device (drivers/tests/test_cli.py's
Device: a fake sysfs tree and a file standing in for /dev/uioN) and over
/dev/mem (a file): values equal the C CLI's on the same device; identity,
permission and spec errors are JointerErrors with errno and the message."""
import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest
from conftest import REGS, SHARED, cli_json, desc_path, run_cli, y9_device

import jointer

Y9 = REGS["accel_mon"]
Y9_VALUES = {"bytes_written": 4096, "compute_cycles": (2 << 32) + 5, "forward_fires": 7, "mac_fires": 1023}


def open_y9(d, **kw):
    return jointer.Monitor.open("uio:" + d.path, desc_path("accel_mon"), sysfs_root=d.sysfs, **kw)


def test_metrics_equal_the_cli(tmp_path):
    d = y9_device(tmp_path)
    with open_y9(d) as m:
        got = m.metrics()
        assert got == Y9_VALUES
        assert got == cli_json("accel_mon", d, "read", "--format", "json")["metrics"]
        assert m.read("compute_cycles") == (2 << 32) + 5
        assert m.values() == [4096, (2 << 32) + 5, 7, 1023]
        ident = m.identify()
        assert ident == {"id": 0x4A4E5452, "version": 0x00020000, "config_hash": Y9["ACCEL_MON_CONFIG_HASH"],
                         "info": Y9["ACCEL_MON_INFO"]}
        m.selftest()            # SCRATCH of a file holds
    assert d.peek(0x24) == 0    # restored


def test_control_writes_reach_the_device(tmp_path):
    d = y9_device(tmp_path)
    with open_y9(d) as m:
        m.initialize("bytes_written", 0x10, 0x20)
        m.run()
        with pytest.raises(jointer.JointerError) as e:      # Y9 has no mark sniffer: no MARK register
            m.mark(0xABCD)
        assert e.value.errno == errno.ENOTSUP
        m.set_threshold("mac_fires", 700)
        assert m.mode("transaction") == "filtering"
    assert d.peek(Y9["ACCEL_MON_ACCEL_CONTROL"]) == 1 | (2 << 2)
    assert d.peek(Y9["ACCEL_MON_TRANSACTION_INIT"]) == 0x20
    assert d.peek(0x20) == 0                                # nothing written at MARK
    assert d.peek(Y9["ACCEL_MON_MAC_FIRES_THRESHOLD"]) == 700
    with open_y9(d) as m:       # a running monitor keeps running: the shadow is read back
        m.stop()
    assert d.peek(Y9["ACCEL_MON_ACCEL_CONTROL"]) == 2 << 2
    rc, out, err = run_cli("accel_mon", d, "read", "bytes_written", "--format", "csv")
    assert rc == 0 and out.splitlines()[1] == "accel,transaction,bytes_written,23,4096", (out, err)


def test_watch_csv_has_the_cli_columns(tmp_path):
    d = y9_device(tmp_path)
    out = str(tmp_path / "w.csv")
    with open_y9(d) as m:
        m.watch_csv(out, 1, 3, ["mac_fires", "bytes_written"])
        samples = list(m.watch(1, 2))
    lines = open(out).read().splitlines()
    assert lines[0] == "time_ms,mac_fires,bytes_written"
    assert [ln.split(",")[1:] for ln in lines[1:]] == [["1023", "4096"]] * 3
    assert [s[1] for s in samples] == [Y9_VALUES] * 2
    rc, o, e = run_cli("accel_mon", d, "watch", "--interval", "1", "--count", "1", "--output",
                       str(tmp_path / "c.csv"), "mac_fires", "bytes_written")
    assert rc == 0, e
    assert open(str(tmp_path / "c.csv")).read().splitlines()[0] == lines[0]


def test_devmem_reads_the_same(tmp_path):
    d = y9_device(tmp_path)
    with jointer.Monitor.open("devmem:0x0", desc_path("accel_mon"), mem_path=d.path) as m:
        assert m.metrics() == Y9_VALUES
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.open("devmem:0xZZ", desc_path("accel_mon"), mem_path=d.path)
    assert e.value.errno == errno.EINVAL and "bad address in device devmem:0xZZ" in str(e.value)


def test_config_hash_mismatch(tmp_path):
    d = y9_device(tmp_path)
    d.poke(0x8, 0x12345678)
    with pytest.raises(jointer.JointerError) as e:
        open_y9(d)
    assert e.value.errno == errno.ESTALE
    msg = str(e.value)
    assert "config hash mismatch" in msg and "0x12345678" in msg and "accel_mon, 0x%08X" % Y9["ACCEL_MON_CONFIG_HASH"] in msg
    rc, out, err = run_cli("accel_mon", d, "read")
    assert rc != 0 and "config hash mismatch" in err     # the CLI says the same
    with open_y9(d, force=True) as m:
        assert m.read("mac_fires") == 1023


def test_wrong_device_and_bad_specs(tmp_path):
    d = y9_device(tmp_path)
    d.poke(0x0, 0)
    with pytest.raises(jointer.JointerError) as e:
        open_y9(d)
    assert e.value.errno == errno.ENODEV and "no jointer monitor at uio:" in str(e.value)
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.open("pci:0", desc_path("accel_mon"))
    assert e.value.errno == errno.EINVAL and "uio:/dev/uioN, devmem:ADDR or devmem" in str(e.value)
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.open("uio:/dev/uio9", desc_path("accel_mon"), sysfs_root=d.sysfs)
    assert e.value.errno == errno.ENOENT and "uio_pdrv_genirq.of_id=jointer,monitor-1.0" in str(e.value)
    with pytest.raises(jointer.JointerError) as e:
        jointer.Descriptor.load(desc_path("accel_mon"), name="trace_mon")
    assert e.value.errno == errno.EINVAL and "no symbol trace_mon_cfg" in str(e.value)
    m = open_y9(y9_device(tmp_path / "b"))
    with pytest.raises(jointer.JointerError) as e:
        m.read("nope")
    assert e.value.errno == errno.ENOENT and "no metric \"nope\" in accel_mon" in str(e.value)
    m.close()
    with pytest.raises(jointer.JointerError) as e:
        m.read("mac_fires")
    assert e.value.errno == errno.EBADF


def test_permission_denied_has_the_udev_hint(tmp_path):
    d = y9_device(tmp_path)
    os.chmod(d.path, 0o600)
    for p in (tmp_path, os.path.dirname(d.path)):
        os.chmod(p, 0o755)
    code = ("import sys, jointer\n"
            "try:\n jointer.Monitor.open(sys.argv[1], sys.argv[2], sysfs_root=sys.argv[3])\n"
            "except jointer.JointerError as e:\n print(e.errno); print(e)\n")
    # the unprivileged user reads the package and the libraries from a copy
    # anyone can read: the checkout itself may sit in a 0700 directory
    stage = tempfile.mkdtemp(prefix="jointer-nobody-")
    try:
        shutil.copytree(os.path.dirname(jointer.__file__), os.path.join(stage, "jointer"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        lib = shutil.copy(os.path.join(SHARED, "libjointer.so"), stage)
        desc = shutil.copy(desc_path("accel_mon"), stage)
        for root, dirs, files in os.walk(stage):
            os.chmod(root, 0o755)
            for f in files:
                os.chmod(os.path.join(root, f), 0o644)
        env = dict(os.environ, PYTHONPATH=stage, JOINTER_LIB=lib)
        p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c",
                            code, "uio:" + d.path, desc, d.sysfs], capture_output=True, text=True, env=env,
                           timeout=60, cwd=stage)
    finally:
        shutil.rmtree(stage)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == str(errno.EACCES), p.stdout
    assert "permission denied: uio:" in lines[1] and any("99-jointer.rules" in ln for ln in lines), p.stdout
    assert any('ATTR{name}=="accel_mon"' in ln for ln in lines), p.stdout


def test_uio_by_name(tmp_path, monkeypatch):
    """uio:name=<node-name> through libjointer's jointer_uio_find: the monitor
    among other UIO devices; a missing or ambiguous name names what was found."""
    from jointer.exporter import device_key
    d = y9_device(tmp_path)
    for n, name in {5: "accel_mon", 0: "axi_dma", 2: "ring", 11: "ring"}.items():
        os.makedirs(os.path.join(d.sysfs, "uio%d" % n), exist_ok=True)
        with open(os.path.join(d.sysfs, "uio%d" % n, "name"), "w") as f:
            f.write(name + "\n")
    monkeypatch.setenv("JOINTER_UIO_DEV", d.root)
    m = jointer.Monitor.open("uio:name=accel_mon", desc_path("accel_mon"), sysfs_root=d.sysfs)
    try:
        assert m.metrics() == Y9_VALUES
        assert device_key(m) == ("uio", os.path.realpath(d.path))   # shares the lock of uio:<path>
    finally:
        m.close()
    found = "uio0 (axi_dma), uio2 (ring), uio5 (accel_mon), uio11 (ring)"
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.open("uio:name=accel", desc_path("accel_mon"), sysfs_root=d.sysfs)
    assert e.value.errno == errno.ENOENT
    assert str(e.value).splitlines()[0] == 'uio:name=accel: no UIO device is named "accel"; found: ' + found
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.open("uio:name=ring", desc_path("accel_mon"), sysfs_root=d.sysfs)
    assert e.value.errno == errno.ENOTUNIQ
    assert str(e.value).splitlines()[0] == 'uio:name=ring: more than one UIO device is named "ring"; found: ' + found
    # without a descriptor: libjointer's resolve opens the device by name too
    with pytest.raises(jointer.JointerError) as e:
        jointer.Monitor.open("uio:name=ring", sysfs_root=d.sysfs)
    assert e.value.errno == errno.ENOTUNIQ and "found: " + found in str(e.value)
