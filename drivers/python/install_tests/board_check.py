# SPDX-License-Identifier: MIT
"""What a board does with an installed jointer package, run by that
installation only (a clean venv, or Debian's python3.11 for arm64/armhf
under qemu-user), never from the checkout: test_install.py copies this file
into a temporary folder and runs it there, then checks every value.

    python3 board_check.py SPEC.json   -> one JSON object on stdout

SPEC: {"device": "uio:/.../uio5" (a fake UIO device, $JOINTER_UIO_SYSFS set),
       "jdesc": the monitor's .jdesc, "desc_dir": a folder holding it,
       "trace_jdesc": a monitor with a relay trace, "trace": its name,
       "records": [[timestamp, data], ...], "lost": n, "out": a folder to write to}
Only the package and the standard library are imported (and numpy, the
package's dependency).
"""
import json
import os
import platform
import sys


def opened(jointer, spec, **kw):
    """metrics, identity and where the descriptor came from, of one Monitor.open."""
    with jointer.Monitor.open(spec["device"], **kw) as m:
        return {"metrics": m.metrics(), "identify": m.identify(), "source": m.descriptor.source,
                "name": m.name}


def trace_files(jointer, spec):
    """A trace file written and read back through libjointer, then converted
    to VCD and Perfetto JSON by the package's converter."""
    import numpy as np
    from jointer.export import convert
    desc = jointer.Descriptor.from_file(spec["trace_jdesc"])
    path = os.path.join(spec["out"], "run.jtr")
    recs = np.array([tuple(r) for r in spec["records"]], dtype=jointer.TRACE_DTYPE)
    jointer.write_trace_file(path, desc, spec["trace"], recs, spec["lost"])
    hdr, got = jointer.read_trace_file(path, expect_hash=desc.config_hash)
    vcd = convert([path], "vcd", os.path.join(spec["out"], "run.vcd"))
    perfetto = convert([path], "perfetto", os.path.join(spec["out"], "run.json"))
    return {"header": hdr, "records": [[int(t), int(d)] for t, d in zip(got["timestamp"], got["data"])],
            "vcd": vcd, "perfetto": perfetto, "file": path}


def main(spec_path):
    with open(spec_path) as f:
        spec = json.load(f)
    import numpy
    import jointer
    from jointer import _lib
    d = jointer.Descriptor.from_file(spec["jdesc"])
    out = {"python": platform.python_version(), "machine": platform.machine(), "numpy": numpy.__version__,
           "sys_path": sys.path, "package": os.path.dirname(os.path.abspath(jointer.__file__)),
           "lib": _lib.lib_path(),
           "descriptor": {"name": d.name, "config_hash": d.config_hash, "source": d.source,
                          "metrics": [m.name for m in d.metrics], "traces": [t.name for t in d.traces]}}
    out["explicit"] = opened(jointer, spec, desc=spec["jdesc"])           # Monitor.open(spec, desc=FILE)
    os.environ["JOINTER_DESC"] = spec["jdesc"]
    out["env"] = opened(jointer, spec)                                     # $JOINTER_DESC
    del os.environ["JOINTER_DESC"]
    os.environ["JOINTER_DESC_PATH"] = spec["desc_dir"]
    out["search"] = opened(jointer, spec)                                  # the search path, by config hash
    out["trace"] = trace_files(jointer, spec)
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
