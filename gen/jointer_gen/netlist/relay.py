"""Relay traces (`mode: relay`, the host drains them while they run): the
extra ports and port maps of the sniffers and the LMIC that hold one.
"""

from __future__ import annotations

from ..model.monitor import Lmic
from ..model.views import Const, Port, Signal, int_vector, rng, slv_type


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
    hi, lo = 32 * ti + 31, 32 * ti
    return [("tr_ack", f"tr_ack({ti})"), ("tr_ack_n", "tr_ack_n"),
            ("tr_rptr", f"tr_rptr({rng(hi, lo)})"), ("tr_lost", f"tr_lost({rng(hi, lo)})")]


def relay_sniffer_map(a: int, n: int) -> list:
    return [("tr_ack", f"tr_ack({rng(a + n - 1, a)})"), ("tr_ack_n", "tr_ack_n"),
            ("tr_rptr", f"tr_rptr({rng(32 * (a + n) - 1, 32 * a)})"),
            ("tr_lost", f"tr_lost({rng(32 * (a + n) - 1, 32 * a)})")]


def relay_lmic_hook(pre: str, ll, nt: int, consts: list, gmap: list, signals: list, u_lmic) -> None:
    c = Const(f"{pre}_trace_relay_c", "integer_vector", int_vector([int(t.relay) for t in ll.traces if not t.sink]),
              "1: relay trace (+ RPTR, ACK, LOST registers)")
    consts.insert(len(consts) - 1, c)
    gmap.append(("trace_relay_g", c.name))
    vec = lambda w: f"std_logic_vector({w * nt - 1} downto 0)"  # noqa: E731
    signals += [Signal("tr_ack", vec(1), "relay: release pulse per trace"),
                Signal("tr_ack_n", slv_type(32), "relay: records released"),
                Signal("tr_rptr", vec(32), "relay: read pointer per trace"),
                Signal("tr_lost", vec(32), "relay: records dropped per trace")]
    u_lmic.ports[-1:-1] = [("tr_ack", "tr_ack"), ("tr_ack_n", "tr_ack_n"),
                              ("tr_rptr", "tr_rptr"), ("tr_lost", "tr_lost")]
