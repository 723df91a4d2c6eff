# SPDX-License-Identifier: MIT
"""The cycle-timing contract of the co-simulation (harness/bus_timing.yaml),
read at run time by the GHDL harness: the same file, the same checks and the
same derived numbers as harness/verilator/bus_timing.cpp. A bad file is a
ValueError naming the file and the key."""

from __future__ import annotations

import math
from dataclasses import dataclass

import yaml

KINDS = ("pulses", "task", "axi4lite", "reset", "axi4", "axis")


def to_int(v) -> int:
    """A YAML integer as the harnesses accept it: int, bool, or a string in
    any base Python's int(x, 0) reads (0x..)."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        return int(v, 0)
    raise ValueError(f"not an integer: {v!r}")


@dataclass
class BusTiming:
    raw: dict
    path: str

    @classmethod
    def load(cls, path: str) -> "BusTiming":
        with open(path) as f:
            raw = yaml.safe_load(f)
        t = cls(raw if isinstance(raw, dict) else {}, str(path))
        if not isinstance(raw, dict):
            raise ValueError(f"{path}: not a mapping")
        for sec, keys in (("clock", ("grain_ps", "offset_ps")), ("reset", ("release_periods", "app_start_periods")),
                          ("scenario", ("run_ns", "irq_ms_ns")),
                          ("master", ("wstrb", "bready", "rready", "error_resp", "irq_min_edges")),
                          ("stimulus", ("axi4lite_resp_edges",)),
                          ("memory", ("aw_queue", "slverr", "boundary", "max_stall"))):
            for k in keys:
                t.get(sec, k)
        for k in ("mul", "inc", "mask", "shift", "percent"):
            t.get("memory", "lcg", k)
        if t.grain_ps < 2 or t.grain_ps % 2 or t.offset_ps % 2 == 0:
            raise ValueError(f"{path}: clock: grain_ps must be even, offset_ps odd")
        if not t.get("memory", "boundary") or not t.get("memory", "aw_queue") \
                or not t.get("memory", "lcg", "percent") or t.get("memory", "lcg", "mask") > 0xFFFFFFFF:
            raise ValueError(f"{path}: memory: boundary, aw_queue and lcg.percent must be > 0, lcg.mask 32 bits")
        draws = raw["memory"].get("draws")
        if not isinstance(draws, list) or sorted(draws) != ["aw", "w"]:
            raise ValueError(f"{path}: memory.draws: expected aw and w, once each")
        for kind in KINDS:
            if not isinstance(((raw.get("stimulus") or {}).get("defaults") or {}).get(kind), dict):
                raise ValueError(f"{path}: stimulus.defaults.{kind}: missing (a mapping)")
        if not isinstance(raw["memory"].get("defaults"), dict):
            raise ValueError(f"{path}: memory.defaults: missing (a mapping)")
        return t

    def get(self, *keys) -> int:
        """The integer at keys (e.g. "memory", "lcg", "mul")."""
        node = self.raw
        for k in keys:
            node = node.get(k) if isinstance(node, dict) else None
            if node is None:
                raise ValueError(f"{self.path}: {'.'.join(keys)}: missing")
        try:
            return to_int(node)
        except ValueError:
            raise ValueError(f"{self.path}: {'.'.join(keys)}: {node!r} is not an integer") from None

    @property
    def grain_ps(self) -> int:
        return self.get("clock", "grain_ps")

    @property
    def offset_ps(self) -> int:
        return self.get("clock", "offset_ps")

    def period_ps(self, ns: float) -> int:
        """A period in ns -> whole ps, a multiple of grain_ps (bus_timing.cpp)."""
        g = self.grain_ps
        return g * int(math.floor(ns * 1000.0 / g + 0.5))

    def stim(self, spec: dict, kind: str, key: str) -> int:
        """A stimulus key: the scenario's value, else the contract's default."""
        v = spec.get(key)
        return self.get("stimulus", "defaults", kind, key) if v is None else to_int(v)

    def mem(self, spec: dict, key: str) -> int:
        """A memory key: the scenario's value, else the contract's default."""
        v = spec.get(key)
        return self.get("memory", "defaults", key) if v is None else to_int(v)

    @property
    def draws(self) -> list[str]:
        return list(self.raw["memory"]["draws"])
