# SPDX-License-Identifier: MIT
"""The identity of the Vivado IP of a monitor, jointer:jointer:<name>:1.0
(vendor:library:name:version), which the device-tree node, the Vitis driver
and the example block design name too, and the compatible string AMD's
generators derive from it."""

from __future__ import annotations

from ... import __version__
from ...model.views import Design

IP_VENDOR = "jointer"
IP_LIBRARY = "jointer"
IP_VERSION = ".".join(__version__.split(".")[:2])   # jointer's release, <major>.<minor> as Vivado's IPs


def vlnv(d: Design) -> str:
    return f"{IP_VENDOR}:{IP_LIBRARY}:{d.name}:{IP_VERSION}"


def compatible(d: Design) -> str:
    """The compatible string AMD's device-tree generators (sdtgen, DTG) write for
    an instance of this IP: xlnx,<name>-<version>, every "_" turned into "-"."""
    return f"xlnx,{d.name}-{IP_VERSION}".replace("_", "-")
