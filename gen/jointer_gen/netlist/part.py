# SPDX-License-Identifier: MIT
"""A piece of a VHDL netlist: what one block (a condition checker, a DCAPF,
a sink, a crossing) adds to the architecture that holds it, and to the
generic and port maps of its central instance (an LMIC's u_lmic). Netlist
functions return parts; the caller joins them in the order the file lists
them, so nothing is appended to a shared list by calls that must run in turn.
"""

from __future__ import annotations

from typing import NamedTuple


class NetPart(NamedTuple):
    consts: tuple = ()        # views.Const, package constants
    ports: tuple = ()         # views.Port
    signals: tuple = ()       # views.Signal
    instances: tuple = ()     # views.Instance
    assigns: tuple = ()       # views.Assign
    generics: tuple = ()      # (formal, actual) it adds to the holder's central instance
    port_map: tuple = ()      # (formal, actual) it adds to the holder's central instance

    def __add__(self, other: "NetPart") -> "NetPart":
        return join((self, other))


FIELDS = ("consts", "ports", "signals", "instances", "assigns", "generics", "port_map")


def join(parts) -> NetPart:
    """The parts one after the other."""
    parts = tuple(parts)
    return NetPart(*(tuple(x for p in parts for x in getattr(p, f)) for f in FIELDS))
