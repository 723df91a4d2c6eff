# SPDX-License-Identifier: MIT
"""What the monitor saw, cycle by cycle, recorded at the cost of its changes.

One `Domain` per clock (a cocotb Clock of period P started at t = 0: its
rising edges at k x P). Cycle n is the n-th rising edge after `start()`;
the value of a signal in cycle n is the one that edge samples, the value
just before it. Every watched signal is recorded as a list of changes (a
ValueChange trigger per signal, not a read per cycle), each timed by the
simulator: a change at time t is first sampled by the first rising edge
strictly after t (a register updated at an edge, or a testbench write
right after it, is seen one edge later), whatever the order in which
cocotb wakes the coroutines of one time step, and whichever clock caused
it. `series(key)` rebuilds the value of each cycle 1..cycle;
`handshakes()` the cycles where VALID and READY were both high, with the
payload of that cycle.

The recorded values are what the reference model is fed with (the
observed ports as the top saw them, and each sniffer's control ports as
its LMIC drove them), so any stimulus, the random one or a user's own, is
checked the same way.
"""

from __future__ import annotations

import cocotb
from cocotb.simtime import get_sim_time


def _int(value) -> int | None:
    """The value as an int, None when not resolvable (X, U, Z)."""
    try:
        return int(value)
    except ValueError:
        return None


class Domain:
    """The recorder of one clock domain (clock period in ps, edges at k x period)."""

    def __init__(self, name: str, clk, period_ps: int):
        self.name, self.clk, self.period = name, clk, period_ps
        self.k0 = 0                      # the rising edge before start(): cycle n is edge k0 + n
        self.end = None                  # cycles when stopped
        self.handles: dict = {}          # key -> handle
        self.changes: dict = {}          # key -> [(first cycle, value)]
        self.unresolved: list = []       # (key, cycle): X/U/Z seen
        self.data_keys: set = set()
        self._tasks = []

    def watch(self, key: str, handle, data: bool = False) -> None:
        """Record `handle` as `key`; data=True: a data word whose X/U/Z (a register
        without reset, read only with its strobe) is no error."""
        if data:
            self.data_keys.add(key)
        if key in self.handles:
            raise ValueError(f"{self.name}: {key} watched twice")
        self.handles[key] = handle

    def _edge(self) -> int:
        """The index of the last rising edge at or before now."""
        return int(get_sim_time("ps") // self.period)

    @property
    def cycle(self) -> int:
        """Rising edges since start() (while recording), or the recorded cycles."""
        return self.end if self.end is not None else self._edge() - self.k0

    def start(self) -> None:
        self.k0 = self._edge()
        for key, h in self.handles.items():
            self.changes[key] = [(1, self._read(key, h, 1))]
            self._tasks.append(cocotb.start_soon(self._follow(key, h)))

    def stop(self) -> None:
        self.end = self.cycle
        for t in self._tasks:
            t.cancel()
        self._tasks = []

    def _read(self, key: str, h, cycle: int) -> int:
        v = _int(h.value)
        if v is None:
            if key not in self.data_keys:
                self.unresolved.append((key, cycle))
            return 0
        return v

    async def _follow(self, key: str, h):
        log = self.changes[key]
        while True:
            await h.value_change
            c = self._edge() + 1 - self.k0     # the first edge strictly after now
            v = self._read(key, h, c)
            if log[-1][0] == c:                # several changes before one edge: the last holds
                log[-1] = (c, v)
            else:
                log.append((c, v))

    # -- after the run ------------------------------------------------------------
    def series(self, key: str) -> list[int]:
        """Values of cycles 0..cycles (index = cycle; index 0 repeats cycle 1)."""
        out, log = [0] * (self.cycle + 1), self.changes[key]
        for i, (c, v) in enumerate(log):
            end = log[i + 1][0] if i + 1 < len(log) else self.cycle + 1
            for k in range(max(c, 0), min(end, self.cycle + 1)):
                out[k] = v
        out[0] = out[1] if self.cycle else log[0][1]
        return out

    def handshakes(self, valid: str, ready: str | None, fields: dict[str, str]) -> list:
        """[(cycle, {field: value})] of every cycle with VALID (and READY) high."""
        v = self.series(valid)
        r = self.series(ready) if ready else None
        hs = [c for c in range(1, self.cycle + 1) if v[c] and (r is None or r[c])]
        cols = {f: self.series(k) for f, k in fields.items()}
        return [(c, {f: col[c] for f, col in cols.items()}) for c in hs]
