# SPDX-License-Identifier: MIT
"""py_scenario.py - the generic co-simulation application (scenario.c) in
Python, through the jointer package: run.py/cosim.py call
app_main(lib, argv) in place of the C app_main when COSIM_PY_APP names this
file (GHDL). `lib` is the scenario's app library: the monitor's descriptor
(cosim_cfg) and platform_ghdl.c, whose platform_monitor_io gives the same
register seam the C applications use.

Same sequence and reports as scenario.c: open (self-test with SCRATCH),
modes / bounds / thresholds from argv, run every LMIC, stimulus, settle,
stop, report every metric, every LMIC's STATUS, every trace's FILL/STATUS.
"""
import ctypes

import jointer
from jointer import _lib


def _arg(argv, key, default):
    for a in argv[1:]:
        if a.startswith(key + "="):
            return int(a.split("=", 1)[1], 0)
    return default


def app_main(lib, argv):
    lib.platform_monitor_io.argtypes = [ctypes.POINTER(_lib.Io)]
    lib.platform_wait_ns.argtypes = [ctypes.c_uint64]
    lib.platform_report.argtypes = [ctypes.c_char_p, ctypes.c_uint64]
    io = _lib.Io()
    assert lib.platform_monitor_io(ctypes.byref(io)) == 0
    cfg = ctypes.POINTER(_lib.Cfg).in_dll(lib, "cosim_cfg")
    desc = jointer.Descriptor(cfg, keep=lib)
    m = jointer.Monitor.attach(desc, io=io)
    m.selftest(write=True)
    modes = {}
    for a in argv[1:]:
        if a.startswith("mode:"):
            name, mode = a[5:].split("=", 1)
            modes[desc.sniffer(name).index] = mode
    for s in desc.sniffers:
        m.set_mode(s.index, modes.get(s.index, "no_filtering"))
    for a in argv[1:]:
        if a.startswith("bounds:"):
            name, rest = a[7:].split("=", 1)
            lo, hi = rest.split(":")
            m.initialize(name, int(lo, 0), int(hi, 0))
        elif a.startswith("threshold:"):
            name, v = a[10:].split("=", 1)
            m.set_threshold(name, int(v, 0))
    m.run()
    lib.platform_stimulus_start()
    lib.platform_stimulus_wait()
    lib.platform_wait_ns(_arg(argv, "settle_ns", 500))
    m.stop()
    for x, v in zip(desc.metrics, m.values()):
        lib.platform_report(x.name.encode(), v)
        if x.aggregator == "histogram":         # its buckets, one snapshot (scenario.c's report_buckets)
            for k, (_, _, c) in enumerate(m.histogram(x.index)):
                lib.platform_report(("%s.bucket%d" % (x.name, k)).encode(), c)
    for lm in desc.lmics:
        lib.platform_report(("status.%s" % lm.name).encode(), m.status(lm.index))
    for t in desc.traces:
        fill, st = m.trace_status(t.index)
        lib.platform_report(("%s.fill" % t.name).encode(), fill)
        lib.platform_report(("%s.status" % t.name).encode(), st)
    lib.platform_report(b"py_app", 1)   # which application ran (test_cosim.py checks it)
    return 0
