# SPDX-License-Identifier: MIT
"""Relay traces (`mode: relay`, the host drains them while they run): the
extra ports and port maps of the sniffers and the LMIC that hold one.
"""

from __future__ import annotations

from ..model.monitor import Lmic
from ..model.views import Const, Port, Signal, int_vector, rng, slv_type
from .part import NetPart
from .vhdl_syntax import element, field_of, fields_of, vector


# -- relay traces (mode: relay): the host drains them while they run ----------
# An LMIC with a relay trace wires, for every trace of it, the release pulse
# and count (LMIC -> extractor) and the read pointer and lost counter
# (extractor -> LMIC); a stop/ring extractor there ignores the pulse and
# drives 0. Other LMICs are generated exactly as before.
def relay_lmic(lm: Lmic) -> bool:
    return any(d.is_trace and d.mode == "relay" for s in lm.sniffers for d in s.dcapfs)


def relay_sniffer_ports(n: int) -> list:
    return [Port("tr_ack", "in", slv_type(n), "per trace: release pulse (relay: ACK written)"),
            Port("tr_ack_n", "in", slv_type(32), "records released (the ACK value)"),
            Port("tr_rptr", "out", slv_type(32 * n), "per trace: oldest unread record slot (relay)"),
            Port("tr_lost", "out", slv_type(32 * n), "per trace: records dropped when full (relay)")]


def relay_extractor_map(ti: int) -> list:
    return [("tr_ack", element("tr_ack", ti)), ("tr_ack_n", "tr_ack_n"),
            ("tr_rptr", field_of("tr_rptr", ti, 32)), ("tr_lost", field_of("tr_lost", ti, 32))]


def relay_sniffer_map(a: int, n: int) -> list:
    return [("tr_ack", fields_of("tr_ack", a, n)), ("tr_ack_n", "tr_ack_n"),
            ("tr_rptr", fields_of("tr_rptr", a, n, 32)), ("tr_lost", fields_of("tr_lost", a, n, 32))]


def relay_lmic_hook(pre: str, ll, nt: int) -> NetPart:
    """What an LMIC with a relay trace adds: the trace_relay_g constant, the
    relay signals of its nt trace items and their port map on u_lmic."""
    c = Const(f"{pre}_trace_relay_c", "integer_vector", int_vector([int(t.relay) for t in ll.traces if not t.sink]),
              "1: relay trace (+ RPTR, ACK, LOST registers)")
    signals = (Signal("tr_ack", vector(nt), "relay: release pulse per trace"),
               Signal("tr_ack_n", slv_type(32), "relay: records released"),
               Signal("tr_rptr", vector(nt, 32), "relay: read pointer per trace"),
               Signal("tr_lost", vector(nt, 32), "relay: records dropped per trace"))
    return NetPart(consts=(c,), signals=signals, generics=(("trace_relay_g", c.name),),
                   port_map=tuple((s.name, s.name) for s in signals))
