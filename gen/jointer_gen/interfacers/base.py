# SPDX-License-Identifier: MIT
"""What an interfacer kind is to the generator: the base class every kind
module (interfacers/<kind>.py) subclasses, with the behaviour most kinds share.

A kind states, in one place:
- `name` (the YAML `interfacer.type`), `entity` (its VHDL interfacer) and its
  parameters with their defaults: `params(raw)` reads them from its schema
  fragment `<kind>.schema.json` (the one source of the defaults);
- `emit_data` (the `emit.data` choices, first = default), `counts_bytes`
  (default `emit.increment: bytes`), `bus_tap` (the Vivado interface its
  ports form, or None: plain ports);
- its lanes: `lanes()`, and `lane_names()` when lanes have names; a lane may
  come from another interfacer on the same observed signals (`lane_source`,
  `extra_sources`: one tap per bus, the sniffer instantiates a source only
  when a DCAPF reads one of its lanes) and weigh one whatever the increment;
- its checks beyond the schema (`check_params`, `check_sniffer`,
  `check_monitor`), each reported at the YAML item (file:line:col);
- its elaboration: `summary()`, `elaborate()` (generics, observed signals,
  port map), the datapath widths it can emit (`data_width`, `inc_width`),
  INIT slots of its own (`init_slots`) and C descriptor fields (`c_fields`).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent

JSON_KIND = {"integer": int, "boolean": bool, "string": str, "array": list, "number": float}


class LaneSource(NamedTuple):
    """Where a lane of a kind comes from: an event source of the sniffer and its lane."""
    source: str                 # "": the kind's own interfacer; else a key of its extra_sources
    lane: int                   # the lane of that source's candidates
    weight_one: bool = False    # its events weigh one whatever the sniffer's increment


class Source:
    """An extra event source of a kind: another interfacer on the same observed
    signals (its own instance, candidates and emitter), instantiated only when a
    DCAPF of the sniffer reads one of its lanes."""
    key = ""                    # suffix of its instance, signals and constants
    entity = ""
    carries_data = False        # its event data is the kind's own (conditions apply to it)

    def summary(self, params: dict) -> str:
        raise NotImplementedError

    def elaborate(self, sn, net: "InterfacerNet") -> None:
        raise NotImplementedError

    def lanes(self, params: dict) -> int:
        return 1

    def data_width(self, sn) -> int:
        return 32

    def inc_width(self, sn) -> int:
        return 16


@dataclass
class Observed:
    """A signal of the observed IP: top-level port <sniffer>_<sig>."""
    sig: str
    width: int | None          # None: std_logic
    comment: str = ""


@dataclass
class InterfacerNet:
    """What `Kind.elaborate` fills: the interfacer instance of a sniffer."""
    prefix: str                                                  # sn_<sniffer>
    consts: list = field(default_factory=list)                   # (name, vhdl type, value, comment)
    generics: list[tuple[str, str]] = field(default_factory=list)  # (formal, constant)
    observed: list[Observed] = field(default_factory=list)
    port_map: list[tuple[str, str]] = field(default_factory=lambda: [("clk", "clk"), ("rst", "rst")])
    ports: list = field(default_factory=list)                    # extra sniffer ports (name, dir, width, comment)

    def generic(self, formal: str, vtype: str, value: str, comment: str = "") -> None:
        """A generic of the interfacer, fed by a package constant <prefix>_<formal>_c."""
        cname = f"{self.prefix}_{formal[:-2]}_c"
        self.consts.append((cname, vtype, value, comment))
        self.generics.append((formal, cname))

    def observe(self, sig: str, width: int | None, comment: str = "", formal: str | None = None) -> None:
        """An observed signal, mapped to `formal` (default mon_<sig>)."""
        self.observed.append(Observed(sig, width, comment))
        self.port_map.append((formal or f"mon_{sig}", f"mon_{sig}"))

    def tie(self, formal: str, value: str) -> None:
        self.port_map.append((formal, value))


class Kind:
    name = ""
    entity = ""
    emit_data: tuple[str, ...] = ()
    counts_bytes = False        # emit.increment defaults to bytes
    bus_tap: str | None = None  # Vivado bus definition of its ports (aximm, axis)
    is_mark = False             # fed by the global block's MARK register
    late_params: tuple[str, ...] = ()   # parameters added later: left out of the config hash at their default

    # -- parameters ---------------------------------------------------------------
    @cached_property
    def schema(self) -> dict:
        """The schema fragment: $defs/if_<name> of the monitor schema."""
        return json.loads((HERE / f"{self.name}.schema.json").read_text())

    @cached_property
    def defaults(self) -> dict:
        """{parameter: default} in schema order (None: required, no default)."""
        return {k: p.get("default") for k, p in self.schema["properties"].items() if k != "type"}

    def param_type(self, key: str) -> type:
        p = self.schema["properties"][key]
        if "type" in p:
            return JSON_KIND[p["type"]]
        return type(p["enum"][0])

    def params(self, raw: dict, get) -> dict:
        """Every parameter, from the YAML mapping or its default (get: validate._get)."""
        return {k: get(raw, k, self.param_type(k), copy.deepcopy(d)) for k, d in self.defaults.items()}

    # -- checks (b: validate.Builder; each reports at the YAML item) ---------------
    def check_params(self, b, raw: dict, path: tuple, params: dict) -> None:
        """Rules on the parameters beyond the schema."""

    def check_sniffer(self, b, path: tuple, params: dict) -> None:
        """Rules on the sniffer holding the interfacer (`path`: the sniffer)."""

    def check_emit(self, b, path: tuple, data: str, params: dict) -> None:
        """Rules on an allowed emit.data choice."""

    def check_monitor(self, b, clocks: list, lmics: list) -> None:
        """Rules across the monitor (e.g. at most one MARK sniffer)."""

    # -- lanes -----------------------------------------------------------------------
    extra_sources: dict = {}    # key -> Source: other interfacers a lane may come from

    def lanes(self, params: dict) -> int:
        return 1

    def main_lanes(self, params: dict) -> int:
        """Lanes of the kind's own interfacer (its emitter's lanes_g)."""
        return self.lanes(params)

    def lane_source(self, params: dict, lane: int) -> LaneSource:
        """The source, its lane and its weight of a lane of the kind (default: its own)."""
        return LaneSource("", lane)

    def main_lane_label(self, params: dict, lane: int) -> str | None:
        """The name a DCAPF comment gives a lane of the kind's own interfacer."""
        return self.lane_label(params, lane)

    def lane_names(self, params: dict) -> list[str] | None:
        """Names of the lanes (`event: <name>`), None when lanes are numbered."""
        return None

    def lanes_unknown(self, params: dict) -> bool:
        """The lanes cannot be computed (a parameter the schema reported)."""
        return False

    def unknown_lane(self, b, path: tuple, lane: str, params: dict) -> bool:
        """Report a lane name that is not one of lane_names() more precisely; True if done."""
        return False

    def lane_out_of_range(self, where: str, event: int, params: dict) -> str:
        """The message of `event: N` beyond the lanes."""
        names = self.lane_names(params)
        if names is not None:
            n = len(names)
            return (f"event {event} out of range in {where}: the {self.name} interfacer has {n} lanes "
                    f"(expected 0..{n - 1} or a lane name: {', '.join(names)})")
        return f"event {event} out of range in {where}: a {self.name} interfacer has one lane (expected 0)"

    def lane_label(self, params: dict, lane: int) -> str | None:
        """The name of a lane (docs, comments), None for numbered lanes."""
        names = self.lane_names(params)
        if names is None:
            return None
        return names[lane] if 0 <= lane < len(names) else str(lane)

    def time_filter_reset(self) -> tuple[int, int] | None:
        """Filter bounds after reset of a time DCAPF, when not the full range."""
        return None

    # -- elaboration -------------------------------------------------------------------
    def summary(self, params: dict) -> str:
        raise NotImplementedError

    def elaborate(self, sn, net: InterfacerNet) -> None:
        raise NotImplementedError

    def data_width(self, sn) -> int:
        """Bits of the event data that can be non-zero (datapath.py)."""
        return 32

    def wider_hint(self, params: dict, value: int) -> str:
        """What would make the event data wide enough for value (an error's hint), or ""."""
        return ""

    def inc_width(self, sn) -> int:
        """Bits of the increment when it counts bytes (datapath.py)."""
        return 16

    def captures(self, sn) -> bool:
        """The interfacer evaluates its DCAPFs' filters where it captures the data."""
        return False

    def init_slots(self, sn) -> int:
        """INIT slots (2 words each) the interfacer takes after the DCAPFs' bounds."""
        return 0

    def init_slots_comment(self, sn) -> str:
        return ""

    def c_fields(self, sn) -> str:
        """Extra designated initializers of its jointer_sniffer_desc."""
        return ""

    def pm_fields(self, sn) -> tuple[int, int]:
        """(pm_addresses, pm_pc_width) of its jointer_sniffer_desc: (0, 0) unless a program monitor."""
        return (0, 0)


def clog2(n: int) -> int:
    return max(1, (n - 1).bit_length())
