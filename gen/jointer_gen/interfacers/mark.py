# SPDX-License-Identifier: MIT
"""`interfacer: {type: mark}`: events written by the host to the global
block's MARK register (jointer_eig_events with one lane, the written value
as data). At most one per monitor, in an LMIC on the bus clock."""

from __future__ import annotations

from .base import InterfacerNet, Kind


class Mark(Kind):
    name = "mark"
    entity = "jointer_eig_events"
    emit_data = ("value",)
    is_mark = True

    def check_monitor(self, b, clocks: list, lmics: list) -> None:
        marks = [(lm, s) for lm in lmics for s in lm.sniffers if s.is_mark]
        for lm, s in marks[1:]:
            first = b.src.loc(marks[0][1].path)
            b.err(s.path + ("interfacer",), f"second mark sniffer '{s.name}' (the first is "
                  f"'{marks[0][1].name}' at line {first.line}; expected at most one: the "
                  "global block has one MARK register)")
        for lm, s in marks:
            if clocks and lm.clock is not None and lm.clock != clocks[0].name:
                b.err(s.path + ("interfacer",), f"mark sniffer '{s.name}' is in LMIC "
                      f"'{lm.name}' on clock '{lm.clock}' (expected an LMIC on the bus "
                      f"clock '{clocks[0].name}': MARK writes arrive on the bus clock)")

    def summary(self, p: dict) -> str:
        return "host MARK writes (global block)"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        net.generic("width_g", "positive", "1", "one lane: a MARK write")
        net.generic("data_w_g", "natural", "32", "event data = the value written to MARK")
        net.generic("edge_g", "boolean", "false", "mark_valid is a one-cycle pulse per write")
        net.tie("ev_strobe", "mark_strobe")
        net.tie("ev_value", "mark_data")
        net.ports += [("mark_valid", "in", None, "one pulse per host write to MARK"),
                      ("mark_data", "in", 32, "the value written")]


KIND = Mark()
