# SPDX-License-Identifier: MIT
"""jointer: the Python host side of jointer hardware monitors.

A ctypes binding of libjointer and of the monitor's descriptor (its .jdesc
file, its descriptor ROM, or its generated C as a shared object;
drivers/python/README.md):

    import jointer
    m = jointer.Monitor.open("uio:/dev/uio0")   # or desc="selective_accumulations.jdesc"
    m.run(); ...; m.stop()
    m.metrics()          # {name: value}, histograms as [(low, high, count)]
    m.trace("events")    # numpy array (timestamp, data)

On PYNQ, jointer.pynq_driver.register(descriptor) makes overlay.<ip> a Monitor.
"""
from .descriptor import Descriptor, build_descriptor
from .errors import JointerError
from .profile import profile, read_symbols
from .profile import table as pm_table
from .tracefile import read_trace_file, write_trace_file

def _release():
    """jointer's release (drivers/include/jointer_version.h, its one place): the
    header's in a checkout, else the installed distribution's."""
    import os
    import re
    h = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include", "jointer_version.h")
    try:
        with open(h) as f:
            text = f.read()
        return ".".join(re.search(r"#define JOINTER_VERSION_%s\s+(\d+)" % k, text).group(1)
                        for k in ("MAJOR", "MINOR", "PATCH"))
    except (OSError, AttributeError):   # not a checkout
        from importlib.metadata import version
        return version("jointer")


__version__ = _release()
_MONITOR = ("MODES", "TRACE_DTYPE", "Monitor")


def __getattr__(name):
    """Monitor, MODES, TRACE_DTYPE on first use: the host tools (convert,
    plot) start without importing numpy for them."""
    if name in _MONITOR:
        from . import monitor
        for n in _MONITOR:
            globals()[n] = getattr(monitor, n)
        return globals()[name]
    raise AttributeError("module 'jointer' has no attribute '%s'" % name)
__all__ = ["Descriptor", "JointerError", "MODES", "Monitor", "TRACE_DTYPE", "build_descriptor", "pm_table", "profile",
           "read_symbols", "read_trace_file", "write_trace_file"]
