# SPDX-License-Identifier: MIT
"""`interfacer: {type: start_done}`: a task seen as start and done pulses or
as a busy level (jointer_eig_start_done); the event data is the state (1 at
start, 0 at done), so a time DCAPF's filter defaults to [1, 1]: busy time."""

from __future__ import annotations

from .base import InterfacerNet, Kind


class StartDone(Kind):
    name = "start_done"
    entity = "jointer_eig_start_done"
    emit_data = ("state",)

    def time_filter_reset(self) -> tuple[int, int]:
        return 1, 1

    def summary(self, p: dict) -> str:
        return "start/done " + ("pulses" if p["mode"] == "pulses" else "busy level")

    def elaborate(self, sn, net: InterfacerNet) -> None:
        busy = sn.interfacer.params["mode"] == "busy"
        net.generic("mode_g", "natural", "start_done_busy_c" if busy else "start_done_pulses_c",
                    "a busy level" if busy else "start and done pulses")
        if busy:
            net.observe("busy", None, "high while the task runs", formal="sd_busy")
            net.port_map[-1:] = [("sd_start", "'0'"), ("sd_done", "'0'"), ("sd_busy", "mon_busy")]
        else:
            net.observe("start", None, "one-cycle pulse: the task starts", formal="sd_start")
            net.observe("done", None, "one-cycle pulse: the task ends", formal="sd_done")
            net.tie("sd_busy", "'0'")

    def data_width(self, sn) -> int:
        return 1                                        # 1 at start, 0 at done


KIND = StartDone()
