# SPDX-License-Identifier: MIT
"""The platforms: the processing system a monitor is built for
(`monitor.platform`), one module per platform, registered in PLATFORMS (the
only table of platforms; its order is the order of the schema's enum, the
first is the default).

A platform decides what the integration outputs assume of the PS: the
example block design (its PS IP, clocks, resets, interrupt, master and HP
ports: templates/vivado/ps/<name>.tcl.j2), the device tree (interrupt
controller, PL clocks, address cells) and the base addresses a YAML may use
(the PS's PL apertures). It changes no hardware and no register: the VHDL,
the C and the config hash are the same for every platform.

To add a platform (gen/README.md "Platforms"): write `<name>.py` (a
`Platform` and `PLATFORM = ...`) and `templates/vivado/ps/<name>.tcl.j2`,
add the module's name to MODULES below (one line), and its tests.
"""

from __future__ import annotations

from importlib import import_module

from .base import PAGE, Aperture, Platform

# one line per platform, in the order of the schema's enum (the first is the default)
MODULES = (
    "zynq7000",
    "zynqmp",
)

PLATFORMS: dict[str, Platform] = {p.name: p for p in (import_module(f"{__name__}.{m}").PLATFORM for m in MODULES)}
DEFAULT = next(iter(PLATFORMS))

__all__ = ["PLATFORMS", "DEFAULT", "PAGE", "Platform", "Aperture", "platform", "schema"]


def platform(name: str) -> Platform:
    """The platform of a YAML value (KeyError for an unknown one: the schema reported it)."""
    return PLATFORMS[name]


def schema() -> dict:
    """The schema of `monitor.platform`."""
    return {"enum": list(PLATFORMS), "default": DEFAULT,
            "description": "the processing system the integration outputs are for: "
                           + ", ".join(f"{p.name} ({p.title})" for p in PLATFORMS.values())}
