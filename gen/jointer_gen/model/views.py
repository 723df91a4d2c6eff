# SPDX-License-Identifier: MIT
"""The design view: what the backends and templates see of an elaborated
monitor (typed named tuples, no logic), the VHDL literal helpers every netlist module
uses, and the config hash.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass, field

from . import layout as layout_mod
from ..interfacers import Observed
from .monitor import Lmic, Monitor, Sniffer
from types import MappingProxyType
from typing import Mapping, NamedTuple

MIN_ADDR_WIDTH, MAX_ADDR_WIDTH = 8, 32   # jointer_collect_dci addr_w_g
TIMESTAMP_W = 32                          # trace record timestamp bits

# ---------------------------------------------------------------------------
# VHDL literals
# ---------------------------------------------------------------------------


def slv_hex(value: int, width: int = 32) -> str:
    if width % 4 == 0:
        return f'x"{value:0{width // 4}X}"'
    return f'"{value:0{width}b}"'


def vhdl_bool(b: bool) -> str:
    return "true" if b else "false"


def int_vector(items: list[int]) -> str:
    """integer_vector aggregate; one dummy item when empty (doc/internals/README.md, conventions)."""
    items = items or [0]
    if len(items) == 1:
        return f"(0 => {items[0]})"
    rows = [", ".join(str(i) for i in items[k:k + 16]) for k in range(0, len(items), 16)]
    return "(" + (",\n" + " " * 6).join(rows) + ")"


def slv_type(width: int | None) -> str:
    """std_logic for None, else a descending vector."""
    if width is None:
        return "std_logic"
    return f"std_logic_vector({width - 1} downto 0)"


def rng(hi: int, lo: int) -> str:
    return f"{hi} downto {lo}"


# ---------------------------------------------------------------------------
# view objects (what the templates see)
# ---------------------------------------------------------------------------


# The records of the design view are typed named tuples: immutable, cheap to
# build by the thousand (a stress design has ~5000 leaves) and to define.
class Const(NamedTuple):
    """A package constant that feeds one generic."""
    name: str
    vtype: str
    value: str
    comment: str = ""


class Instance(NamedTuple):
    label: str
    entity: str
    comment: str
    generics: tuple[tuple[str, str], ...] = ()   # (formal, actual)
    ports: tuple[tuple[str, str], ...] = ()      # (formal, actual)


class Port(NamedTuple):
    name: str
    direction: str        # in | out
    vtype: str
    comment: str = ""
    group: str = ""       # a comment line before this port: the start of a group


class Signal(NamedTuple):
    name: str
    vtype: str
    comment: str = ""


class Assign(NamedTuple):
    target: str
    expr: str
    comment: str = ""


# an observed signal of a sniffer (top-level port <sniffer>_<sig>): interfacers.Observed
ObservedSignal = Observed


class BusInterface(NamedTuple):
    """A group of top-level ports Vivado sees as one interface (IP-XACT busInterface)."""
    name: str
    kind: str                       # aximm | axis | clock | reset | interrupt
    mode: str                       # slave | master | monitor
    port_maps: list[tuple[str, str]]        # (logical port of the bus definition, top-level port)
    params: list[tuple[str, str]]           # bus parameters (name, value)
    description: str
    owner: str                      # who gives the name (name checks)
    path: tuple
    monitored: str = ""             # monitor: the mode of the interfaces it may watch
    memory_map: str = ""            # slave: the memory map it decodes
    address_space: str = ""         # master: the address space it drives (a sink's m_axi_<trace>)


class ConstGroup(NamedTuple):
    title: str
    consts: tuple[Const, ...]


class SnifferView(NamedTuple):
    model: Sniffer
    lmic: int
    index: int                      # inside its LMIC
    number: int                     # in the monitor
    entity: str
    file: str
    summary: str
    observed: tuple[ObservedSignal, ...]  # top-level port group (<name>_<sig>)
    ports: tuple[Port, ...]
    signals: tuple[Signal, ...]
    instances: tuple[Instance, ...]
    assigns: tuple[Assign, ...]
    const_groups: tuple[ConstGroup, ...]
    num_results: int
    num_traces: int
    first_result: int               # index of its first result DCAPF in its LMIC
    first_trace: int
    needs_timestamp: bool
    is_mark: bool
    num_slots: int = 0              # 64-bit result slots (a histogram: one per bucket)
    first_slot: int = 0             # its first slot in its LMIC's dc_result


class LmicView(NamedTuple):
    model: Lmic
    index: int
    entity: str
    file: str
    clock: str
    on_bus_clock: bool
    layout: layout_mod.LmicLayout
    sniffers: tuple[SnifferView, ...]
    ports: tuple[Port, ...]
    signals: tuple[Signal, ...]
    instances: tuple[Instance, ...]
    assigns: tuple[Assign, ...]
    const_group: ConstGroup
    num_results: int
    num_traces: int
    local_timestamp: bool           # a jointer_collect_timestamp of its own
    global_timestamp: bool          # uses the global block's timestamp
    has_mark: bool


class TopView(NamedTuple):
    """The top (<name>_monitor.vhd)."""
    ports: tuple
    signals: tuple
    instances: tuple
    assigns: tuple
    entity: str
    file: str

    def __getitem__(self, key):
        """top["ports"]: the fields read as a mapping too, as backends read the top
        (an integer still indexes the tuple)."""
        return getattr(self, key) if isinstance(key, str) else tuple.__getitem__(self, key)


class Design(NamedTuple):
    monitor: Monitor
    source_name: str
    version: str
    config_hash: int
    layout: layout_mod.Layout
    addr_width: int
    info: int
    lmics: tuple[LmicView, ...]
    sniffers: tuple[SnifferView, ...]
    metrics: tuple[Mapping, ...]    # C/doc rows of result DCAPFs, monitor order (read-only)
    traces: tuple[Mapping, ...]     # C/doc rows of trace DCAPFs
    monitor_consts: ConstGroup
    top: TopView
    c_macros: tuple[Mapping, ...]   # {title, owner, path, rows: ((name, value, comment), ...)}
    register_map: tuple[Mapping, ...]   # doc rows, by offset
    bus_interfaces: tuple[BusInterface, ...] = ()   # Vivado IP (component.xml)
    desc_rom_consts: ConstGroup | None = None   # the descriptor ROM's words (descriptor: rom)

    @property
    def name(self) -> str:
        return self.monitor.name

    @property
    def NAME(self) -> str:
        return self.monitor.name.upper()

    @property
    def hash_hex(self) -> str:
        return f"0x{self.config_hash:08X}"

    @property
    def bus_clock_hz(self) -> int:
        p = self.monitor.bus_clock.period_ns
        return round(1e9 / p) if p else 0

    def metric(self, name: str) -> dict:
        return next(m for m in self.metrics if m["name"] == name)

    def trace(self, name: str) -> dict:
        return next(t for t in self.traces if t["name"] == name)


def frozen_row(row: dict) -> Mapping:
    """A read-only view of a row of the Design (metrics, traces, C macro
    sections, register map): read as a dict, never written."""
    return MappingProxyType(row)


# ---------------------------------------------------------------------------
# config hash
# ---------------------------------------------------------------------------


def config_hash(monitor: Monitor) -> int:
    """CRC-32 of the canonical JSON of the validated model (no descriptions)."""
    text = json.dumps(monitor.canonical(), sort_keys=True, separators=(",", ":"))
    return zlib.crc32(text.encode()) & 0xFFFFFFFF
