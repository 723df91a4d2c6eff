# SPDX-License-Identifier: MIT
"""The extra event sources of a sniffer (one tap per bus): another interfacer
on the same observed signals, with its own candidates, condition checkers
(when its data is the kind's) and emitter, for the lanes its kind's own
interfacer does not give (interfacers/base.py Source, LaneSource;
model/datapath.py sources). Source `k` of sniffer `s` is instance
u_interfacer_<k> / u_emitter_<k>, signals <k>_cand_* and <k>_ev_*, package
constants sn_<s>_<k>_*. Every lane of an extra source weighs one: its
emitter counts one per event. A sniffer whose event data is 64 bits wide (an
address above 4 GB) gives a narrower source's data zero-extended
(<k>_ev_data_x), so every DCAPF of the sniffer has the same ports and INIT
words.
"""

from __future__ import annotations

from typing import NamedTuple

from ..interfacers import InterfacerNet
from ..model import datapath
from ..model.monitor import Sniffer
from ..model.views import Assign, Const, Instance, Signal, slv_hex, slv_type, vhdl_bool
from .part import NetPart, join
from .vhdl_syntax import element

COND_ENTITY = {"mask": ("jointer_eig_check_mask", "mask", "value"),
               "range": ("jointer_eig_check_range", "low", "high")}
ONE_INC = 'x"0001"'            # the increment of a lane that weighs one


class EventActuals(NamedTuple):
    """What a DCAPF of the sniffer connects to, for its lane."""
    good: str                  # ev_good => (its lane's bit)
    data: str                  # ev_data =>
    inc: str                   # ev_inc =>
    data_w: str                # data_w_g => (a constant's name)
    inc_w: str                 # inc_w_g =>


def source_width(sn: Sniffer, key: str) -> int:
    """Width of a source's own event data ports: 32, or 64 for wider data."""
    return 32 if datapath.source_data_width(sn, key) <= 32 else 64


def event_actuals(sn: Sniffer, pre: str, ew: int, dc) -> EventActuals:
    """The ev_* actuals and the width generics of DCAPF dc (its lane's source)."""
    key, lane, one = datapath.lane_of(sn, dc)
    if not key:
        return EventActuals(element("ev_good", lane), "ev_data", ONE_INC if one else "ev_inc",
                            f"{pre}_ev_data_w_c", "1" if one else f"{pre}_ev_inc_w_c")
    extend = ew > source_width(sn, key)
    return EventActuals(element(f"{key}_ev_good", lane), f"{key}_ev_data" + ("_x" if extend else ""),
                        f"{key}_ev_inc", f"{pre}_{key}_ev_data_w_c", "1")


def extra_parts(sn: Sniffer, pre: str, ew: int) -> tuple[list, NetPart]:
    """(observed signals, netlist) of every extra source the sniffer instantiates."""
    observed, parts = [], []
    for key in datapath.sources(sn):
        if key:
            obs, part = _source(sn, pre, ew, key)
            observed += obs
            parts.append(part)
    return observed, join(parts)


def _source(sn: Sniffer, pre: str, ew: int, key: str) -> tuple[list, NetPart]:
    src, sp, kp = datapath.source(sn, key), f"{key}_", f"{pre}_{key}"
    sew = source_width(sn, key)
    net = InterfacerNet(kp)
    src.elaborate(sn, net)
    if sew > 32:
        net.generic("ev_w_g", "positive", str(sew),
                    f"event data ports: {datapath.source_data_width(sn, key)} bits that can be non-zero")
    pmap = tuple(net.port_map) + (("cand_valid", sp + "cand_valid"), ("cand_data", sp + "cand_data"),
                                  ("cand_bytes", sp + "cand_bytes"))
    inst = Instance(f"u_interfacer_{key}", src.entity, f"source {key}: {src.summary(sn.interfacer.params)}",
                    tuple(net.generics), pmap)
    lanes = src.lanes(sn.interfacer.params)
    conds = _conditions(sn, key, sew) if datapath.emitter_registered(sn, key) else NetPart()
    emit = _emitter(sn, kp, key, sew, ew, lanes)
    sigs = (Signal(sp + "cand_valid", slv_type(lanes), f"source {key}: candidate strobe per lane"),
            Signal(sp + "cand_data", slv_type(sew)), Signal(sp + "cand_bytes", slv_type(16)),
            Signal(sp + "ev_good", slv_type(lanes), f"source {key}: event instances"),
            Signal(sp + "ev_data", slv_type(sew)), Signal(sp + "ev_inc", slv_type(16)))
    ext = ()
    if ew > sew:                # the sniffer's DCAPFs take ew bits: zero-extended
        ext = (Signal(sp + "ev_data_x", slv_type(ew), f"source {key}: its data on {ew} bits"),)
        emit += NetPart(assigns=(Assign(sp + "ev_data_x", f"({ew - 1} downto {sew} => '0') & {sp}ev_data",
                                        f"source {key}: zero-extended"),))
    consts = tuple(Const(*c) for c in net.consts)
    return net.observed, NetPart(consts=consts, signals=sigs + ext, instances=(inst,)) + conds + emit


def _conditions(sn: Sniffer, key: str, sew: int) -> NetPart:
    """The sniffer's condition checkers on a source that carries its data."""
    sp, parts = f"{key}_", []
    for ci, c in enumerate(sn.conditions):
        entity, ga, gb = COND_ENTITY[c.kind]
        generics = ((("ev_w_g", str(sew)),) if sew > 32 else ()) + (
            (f"{ga}_g", slv_hex(c.a, sew)), (f"{gb}_g", slv_hex(c.b, sew)))
        parts.append(NetPart(instances=(Instance(
            f"u_cond{ci}_{key}", entity, f"condition {ci} on source {key}", generics,
            (("data", sp + "cand_data"), ("match", element(sp + "cond", ci)))),)))
    sig = Signal(sp + "cond", slv_type(len(sn.conditions)), f"source {key}: one match bit per condition")
    return NetPart(signals=(sig,)) + join(parts)


def _emitter(sn: Sniffer, kp: str, key: str, sew: int, ew: int, lanes: int) -> NetPart:
    """The emitter of a source: every event weighs one."""
    sp, registered = f"{key}_", datapath.emitter_registered(sn, key)
    data_w = datapath.source_data_width(sn, key)
    if ew > 32:
        data_w = max(data_w, 32)        # the sniffer's bounds are 64-bit: at least 32 bits kept
    consts = (Const(f"{kp}_lanes_c", "positive", str(lanes), f"source {key}: event lanes"),
              Const(f"{kp}_ev_data_w_c", "positive", str(data_w), f"source {key}: event data bits"),
              Const(f"{kp}_emit_registered_c", "boolean", vhdl_bool(registered),
                    "behind condition checkers" if registered else "its candidates are the event instances"))
    generics = (("lanes_g", consts[0].name), ("num_cond_g", str(len(sn.conditions) if registered else 0)),
                ("increment_g", "increment_one_c"), ("registered_g", consts[2].name)) \
        + ((("ev_w_g", str(sew)),) if sew > 32 else ())
    ports = (("clk", "clk"), ("rst", "rst"), ("cand_valid", sp + "cand_valid"), ("cand_data", sp + "cand_data"),
             ("cand_bytes", sp + "cand_bytes"), ("cond", sp + "cond" if registered else "\"1\""),
             ("ev_good", sp + "ev_good"), ("ev_data", sp + "ev_data"), ("ev_inc", sp + "ev_inc"))
    inst = Instance(f"u_emitter_{key}", "jointer_eig_emitter", f"source {key}: event instances, weight one",
                    generics, ports)
    return NetPart(consts=consts, instances=(inst,))
