# SPDX-License-Identifier: MIT
"""The identity of the Vivado IP of a monitor, jointer:jointer:<name>:1.0
(vendor:library:name:version), which the device-tree node, the Vitis driver
and the example block design name too; the compatible string AMD's
device-tree generators write for it; the name Vivado gives its first
instance in a block design (the device tree's label of that node)."""

from __future__ import annotations

from ... import __version__
from ...model.views import Design

IP_VENDOR = "jointer"
IP_LIBRARY = "jointer"
IP_VERSION = ".".join(__version__.split(".")[:2])   # jointer's release, <major>.<minor> as Vivado's IPs


def vlnv(d: Design) -> str:
    return f"{IP_VENDOR}:{IP_LIBRARY}:{d.name}:{IP_VERSION}"


def compatible(d: Design) -> str:
    """"xlnx,<IP name>-<version>" with '_' as '-': what PetaLinux's device-tree
    generator and the Vitis system device tree write for any IP, whatever its
    vendor (device-tree-xlnx, get_comp_str)."""
    return f"xlnx,{d.name}-{IP_VERSION}".replace("_", "-")


def instance(d: Design) -> str:
    """The monitor's cell in a block design as Vivado names a first instance
    (<IP name>_0); the generators label its device-tree node with it."""
    return f"{d.name}_0"
