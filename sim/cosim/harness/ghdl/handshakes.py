# SPDX-License-Identifier: MIT
"""The per-cycle log of the AXI handshakes of the GHDL harness's bus models
(the AXI4-Lite masters, the memories): the same lines as
harness/verilator/handshake_log.cpp writes,

    <time ps> <clock> <cycle> <bus> <channel> <fields>

kept in memory and written when the run ends (COSIM_HANDSHAKES)."""

from __future__ import annotations

from cocotb.utils import get_sim_time


class HandshakeLog:
    def __init__(self, path: str | None):
        self.path = path
        self.lines: list[str] = []

    @property
    def on(self) -> bool:
        return bool(self.path)

    def line(self, clock: str, period: int, bus: str, channel: str, fields: str) -> None:
        """One handshake at the current rising edge of the clock (cycle = time / period)."""
        if self.path:
            t = int(get_sim_time("ps"))
            self.lines.append(f"{t} {clock} {t // period} {bus} {channel} {fields}\n")

    def write(self) -> None:
        if self.path:
            with open(self.path, "w") as f:
                f.writelines(self.lines)
