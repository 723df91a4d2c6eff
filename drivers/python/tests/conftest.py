# SPDX-License-Identifier: MIT
"""Fixtures of the jointer package tests: the shared objects built by
`make py-driver-test`, the fake UIO device of drivers/tests/test_cli.py
(a fake sysfs tree and a regular file standing in for /dev/uioN), the C
mock (drivers/tests/mock) behind a jointer_io, and the fixture CLIs
(build/drivers/cli-fixture) whose output the Python values must equal."""
import ctypes
import importlib.util
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "drivers", "python"))
BUILD = os.environ.get("JOINTER_BUILD", os.path.join(REPO, "build"))
SHARED = os.path.join(BUILD, "drivers", "shared")
CLI_DIR = os.path.join(BUILD, "drivers", "cli-fixture")
os.environ.setdefault("JOINTER_LIB", os.path.join(SHARED, "libjointer.so"))

import jointer  # noqa: E402
from jointer import _lib  # noqa: E402

_spec = importlib.util.spec_from_file_location("jt_cli_tests", os.path.join(REPO, "drivers", "tests", "test_cli.py"))
cli_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cli_tests)
Device = cli_tests.Device
REGS = {n: cli_tests.regs(n) for n in ("accel_mon", "trace_mon", "relay_mon", "two_lmic", "sink_mon")}


def desc_path(name):
    return os.path.join(SHARED, "desc", "lib%s.so" % name)


@pytest.fixture(scope="session")
def descs():
    return {n: jointer.Descriptor.load(desc_path(n)) for n in REGS}


def y9_device(tmp):
    """The Y9 fixture device of test_cli.py with known results."""
    return cli_tests.y9(str(tmp))


def run_cli(name, dev, *args):
    """The fixture CLI for monitor `name` on device dev: (rc, stdout, stderr)."""
    env = dict(os.environ, JOINTER_UIO_SYSFS=dev.sysfs)
    env.pop("JOINTER_DEVICE", None)
    p = subprocess.run([os.path.join(CLI_DIR, "jointer-" + name), "--device", "uio:" + dev.path] + list(args),
                       env=env, capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout, p.stderr


def cli_json(name, dev, *args):
    rc, out, err = run_cli(name, dev, *args)
    assert rc == 0, err
    return json.loads(out)


class Mock:
    """The C mock register file (drivers/tests/mock/jointer_mock.c) for a descriptor."""

    def __init__(self, desc):
        so = ctypes.CDLL(os.path.join(SHARED, "libjointer_mock.so"))
        so.pymock_size.restype = ctypes.c_size_t
        so.mock_init.argtypes = [ctypes.c_void_p, ctypes.POINTER(_lib.Cfg)]
        so.pymock_io.argtypes = [ctypes.c_void_p, ctypes.POINTER(_lib.Io)]
        so.pymock_set_result.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint64]
        for fn in ("mock_event", "mock_time"):
            getattr(so, fn).argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint32, ctypes.c_uint32]
        so.mock_trace_event.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint32]
        so.mock_read.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint32)]
        so.mock_mode.argtypes = [ctypes.c_void_p, ctypes.c_uint]
        self.so = so
        self.desc = desc
        self.hw = ctypes.create_string_buffer(so.pymock_size())
        so.mock_init(self.hw, desc.cfg_ptr)
        self.io = _lib.Io()
        so.pymock_io(self.hw, ctypes.byref(self.io))

    def monitor(self):
        return jointer.Monitor.attach(self.desc, io=self.io, keep=self)

    def event(self, metric, data, inc=1):
        self.so.mock_event(self.hw, self.desc.metric(metric).index, data, inc)

    def time(self, metric, data, cycles):
        self.so.mock_time(self.hw, self.desc.metric(metric).index, data, cycles)

    def trace_event(self, trace, data):
        self.so.mock_trace_event(self.hw, self.desc.trace(trace).index, data)

    def set_result(self, metric, value):
        self.so.pymock_set_result(self.hw, self.desc.metric(metric).index, value)

    def set_mark_sniffer(self, sniffer):
        self.so.pymock_set_mark_sniffer(self.hw, self.desc.sniffer(sniffer).index)

    def reg(self, off):
        v = ctypes.c_uint32()
        assert self.so.mock_read(self.hw, off, ctypes.byref(v)) == 0
        return v.value

    def mode(self, sniffer):
        return self.so.mock_mode(self.hw, self.desc.sniffer(sniffer).index)


RD = [5, 0, 1, 2, 30, 7, 0, 0, 0, 0, 4000000000, 9]      # 12 pow2 buckets, 32 bits
WR = [1, 2, 3, 0, 0xFFFFFF, 6, 7]                         # 7 listed buckets, 24 bits


@pytest.fixture(scope="session")
def latency(tmp_path_factory):
    spec = importlib.util.spec_from_file_location(
        "jt_cli_hist", os.path.join(REPO, "drivers", "tests", "test_cli_histogram.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = os.path.join(BUILD, "drivers", "python-test", "axi_latency")
    os.makedirs(out, exist_ok=True)
    bindir, regs = mod.build(out)                         # the CLI for the generated descriptor
    c = os.path.join(out, "gen", "axi_latency", "c")
    so = os.path.join(out, "libaxi_latency.so")
    subprocess.run(["gcc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-fPIC", "-shared",
                    "-I" + os.path.join(REPO, "drivers", "include"), "-I" + c, os.path.join(c, "axi_latency.c"),
                    "-o", so], check=True)
    return bindir, regs, jointer.Descriptor.load(so)


def lat_device(tmp, r):
    d = Device(str(tmp), "lat", r, "AXI_LATENCY")
    for k, v in enumerate(RD):
        d.poke(r["AXI_LATENCY_RD_LAT_HIST_RESULT"] + k * r["AXI_LATENCY_RD_LAT_HIST_BUCKET_STRIDE"], v)
    for k, v in enumerate(WR):
        d.poke(r["AXI_LATENCY_WR_LAT_HIST_RESULT"] + k * r["AXI_LATENCY_WR_LAT_HIST_BUCKET_STRIDE"], v)
    d.poke(r["AXI_LATENCY_RD_COUNT_RESULT"], 4000000054)
    mean = r["AXI_LATENCY_RD_LAT_MEAN_RESULT"]
    d.poke(mean, 0x89ABCDEF)
    d.poke(mean + 4, 0x12)
    d.poke(mean + r["AXI_LATENCY_RD_LAT_MEAN_BUCKET_STRIDE"], 1000)
    return d
