# SPDX-License-Identifier: MIT
"""The testbench drivers, one module per interfacer kind, registered here by
the kind's name (the YAML `interfacer.type`, the generator's
gen/jointer_gen/interfacers/ KINDS): a driver holds the kind's stimulus and
its interfacer reference model side by side (base.py).

To give a new kind a driver: write kinds/<kind>.py (a `Driver` subclass with
`kind = "<kind>"`, `DRIVER = <class>`) and add its module name to MODULES.
"""

from __future__ import annotations

from importlib import import_module

MODULES = (
    "axi4",
    "axi4lite",
    "axis",
    "start_done",
    "events",
    "mark",
    "axi_util",
    "contention",
    "pc",
    "axi4_latency",
    "axis_util",
)

DRIVERS = {d.kind: d for d in (import_module(f"{__name__}.{m}").DRIVER for m in MODULES)}


def driver_for(kind: str):
    """The driver class of an interfacer kind."""
    try:
        return DRIVERS[kind]
    except KeyError:
        raise KeyError(f"interfacer kind '{kind}' has no testbench driver (expected one of "
                       f"{', '.join(DRIVERS)}; add sim/jointer_tb/kinds/{kind}.py and its line in "
                       "sim/jointer_tb/kinds/__init__.py)") from None
