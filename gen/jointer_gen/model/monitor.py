# SPDX-License-Identifier: MIT
"""Stage 3: the typed model of a monitor, defaults applied.

Built by validate.py from data that passed the JSON Schema and the semantic
checks. `path` is the item's path in the YAML document, for messages of
later stages. `canonical()` is the normalised form the config hash covers.
The records are frozen and hold tuples (lists given are kept as tuples),
but Dcapf, which validate.py completes field by field as it reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Mapping

MASK32 = 0xFFFFFFFF
MASK64 = (1 << 64) - 1


def _as_tuples(record, *names: str) -> None:
    """The given list fields of a frozen record, as tuples."""
    for n in names:
        object.__setattr__(record, n, tuple(getattr(record, n)))


@dataclass(frozen=True)
class Clock:
    name: str
    period_ns: float | None = None   # None: not given (co-simulation uses 10 ns)
    path: tuple = ()
    timing: str | None = None        # auto | fast | small; None: the monitor's (model/timing.py)

    @property
    def sim_period_ns(self) -> float:
        return self.period_ns if self.period_ns is not None else 10.0

    def canonical(self) -> dict:
        out = {"name": self.name, "period_ns": self.period_ns}
        if self.timing is not None:   # only when given: other hashes unchanged
            out["timing"] = self.timing
        return out


@dataclass(frozen=True)
class Bus:
    addr_width: int | None = None    # None: the smallest that fits
    base_address: int = 0
    strict: bool = False
    path: tuple = ()

    def canonical(self) -> dict:
        return {"addr_width": self.addr_width, "base_address": self.base_address,
                "strict": self.strict}


@dataclass(frozen=True)
class Condition:
    kind: str                        # "mask" | "range"
    a: int                           # mask | low
    b: int                           # value | high
    path: tuple = ()

    def canonical(self) -> dict:
        return {"kind": self.kind, "a": self.a, "b": self.b}


@dataclass(frozen=True)
class Interfacer:
    type: str
    params: dict = field(default_factory=dict)   # every parameter of the type, defaults applied
    path: tuple = ()

    @cached_property
    def kind(self):
        """Its interfacers.Kind: everything particular to the type (looked up once)."""
        from ..interfacers import kind
        return kind(self.type)

    @property
    def lanes(self) -> int:
        return self.kind.lanes(self.params)

    def canonical(self) -> dict:
        """Every parameter, but those added after the schema's first release while at
        their default (Kind.late_params): a description that does not use them keeps its hash."""
        late = self.kind.late_params
        return {"type": self.type, **{k: self.params[k] for k in sorted(self.params)
                                      if not (k in late and self.params[k] == self.kind.defaults[k])}}


@dataclass(frozen=True)
class Sink:
    """A sink trace (mode: sink): written into a ring in memory through an
    AXI4 master (hdl/trace/jointer_trace_sink_axi), with no RAM of its own."""
    data_width: int = 64             # 32 | 64 | 128 bits
    max_burst: int = 16              # beats per burst, 2..256
    fifo_depth: int = 32             # records, a power of two >= the records of a burst
    flush_timeout: int = 64          # idle cycles before a partial burst
    encoding: str = "raw"            # raw | compact (doc/trace-encoding.md)
    ring_bytes: int = 1 << 20        # the .dtsi's reserved-memory region
    sync_period: int = 256           # compact: a SYNC at least every this many records
    idle_flush: int = 16             # compact: idle cycles before a partial unit leaves

    @property
    def ring_log2(self) -> int:
        """log2 of the largest ring the sink addresses: ring_bytes rounded up to
        a power of two (jointer_trace_sink_axi's ring_log2_g, 12..32)"""
        return max(12, (self.ring_bytes - 1).bit_length())

    @property
    def burst_records(self) -> int:
        """records a full burst carries"""
        return self.max_burst * self.data_width // 64 if self.data_width >= 64 else self.max_burst // 2

    def canonical(self) -> dict:
        return {"data_width": self.data_width, "max_burst": self.max_burst,
                "fifo_depth": self.fifo_depth, "flush_timeout": self.flush_timeout,
                "encoding": self.encoding, "ring_bytes": self.ring_bytes,
                **({"sync_period": self.sync_period, "idle_flush": self.idle_flush}
                   if self.encoding == "compact" else {})}


@dataclass(frozen=True)
class Span:
    """What opens and closes a span of a trace (YAML `spans:`): the converters
    turn the records into slices (Perfetto), rows with start, end and duration
    (CSV). begin/end are tag bits of the trace's lanes; -1 both: the level of
    the event value (non-zero opens, zero closes: a start/done sniffer)."""
    name: str
    begin: int = -1
    end: int = -1
    by_id: bool = True               # id: value (an end closes the span of the same value)
    track_value: bool = False        # track: value (one track per value)

    def canonical(self) -> dict:
        return {"name": self.name, "begin": self.begin, "end": self.end, "by_id": self.by_id,
                "track_value": self.track_value}


@dataclass
class Dcapf:
    name: str
    extractor: str                   # event | time | trace
    width: int | None = 32           # None for trace
    aggregator: str | None = "sum"   # None for trace
    sample: str | None = None        # event extractor only
    event: int = 0                   # lane
    low: int = 0                     # filter bounds after reset (0..MASK32 without a filter)
    high: int = MASK32
    has_filter: bool = True          # False: `filter: none`, no filter hardware
    filter_runtime: bool = True      # False: `filter: {..., runtime: false}`, constant bounds
    wrap: bool = False
    threshold_irq: bool = False
    depth: int | None = None         # trace only (records)
    mode: str | None = None          # trace only: stop | ring | relay | sink
    sink: Sink | None = None         # mode: sink only
    buckets: int = 1                 # histogram buckets (1: a single result)
    boundaries: str | list | None = None   # histogram: "pow2" or b(1)..b(N-1)
    lanes: tuple = ()                # trace: the sniffer lanes it records (tag bit i = lanes[i])
    lane_names: tuple = ()           # trace: their names (converters, VCD wires, Perfetto)
    sync: bool = False               # trace: host synchronisation records (tag bit len(lanes))
    spans: tuple = ()                # trace: Span
    description: str = ""
    path: tuple = ()

    @property
    def tag_bits(self) -> int:
        """Low bits of a record's data word that tag its lanes and sync (0: one lane)."""
        return len(self.lanes) + int(self.sync) if self.lanes else 0

    @property
    def is_trace(self) -> bool:
        return self.extractor == "trace"

    @property
    def is_sink(self) -> bool:
        """A sink trace: written to memory through an AXI4 master (no RAM)"""
        return self.extractor == "trace" and self.mode == "sink"

    @property
    def is_histogram(self) -> bool:
        return self.aggregator == "histogram"

    @property
    def is_mean(self) -> bool:
        """Aggregator mean: a sum (slot 0) and a count (slot 1) read as one snapshot"""
        return self.aggregator == "mean"

    def histogram_buckets(self) -> list[tuple[int, int | None]]:
        """[(low, high)] per bucket: low inclusive, high exclusive, None = unbounded."""
        b = ([1 << (k - 1) for k in range(1, self.buckets)] if self.boundaries == "pow2"
             else list(self.boundaries))
        edges = [0] + b + [None]
        return [(edges[k], edges[k + 1]) for k in range(self.buckets)]

    def canonical(self) -> dict:
        out = {"name": self.name, "extractor": self.extractor, "width": self.width,
               "aggregator": self.aggregator, "sample": self.sample, "event": self.event,
               "low": self.low, "high": self.high, "wrap": self.wrap,
               "threshold_irq": self.threshold_irq, "depth": self.depth, "mode": self.mode}
        if self.aggregator == "histogram":
            out["buckets"] = self.buckets
            out["boundaries"] = self.boundaries
        if self.sink is not None:
            out["sink"] = self.sink.canonical()   # only for sinks: other hashes unchanged
        if self.lanes:                            # likewise: only for traces with lanes or spans
            out["lanes"] = {"lanes": list(self.lanes), "names": list(self.lane_names), "sync": self.sync}
        if self.spans:
            out["spans"] = [sp.canonical() for sp in self.spans]
        if not self.has_filter:
            # only when there is no filter: the hashes of descriptions without
            # `filter: none` stay what they were before the option existed
            out["filter"] = "none"
        elif not self.filter_runtime:
            out["filter_runtime"] = False   # likewise: only when given
        return out


@dataclass(frozen=True)
class Sniffer:
    name: str
    interfacer: Interfacer
    dcapfs: tuple[Dcapf, ...]
    conditions: tuple[Condition, ...] = ()
    increment: str = "one"           # one | bytes
    data: str = ""                   # what the event data is (emit.data)
    description: str = ""
    path: tuple = ()

    def __post_init__(self):
        _as_tuples(self, "dcapfs", "conditions")

    @property
    def is_mark(self) -> bool:
        return self.interfacer.kind.is_mark

    def canonical(self) -> dict:
        return {"name": self.name, "interfacer": self.interfacer.canonical(),
                "conditions": [c.canonical() for c in self.conditions],
                "increment": self.increment, "data": self.data,
                "dcapfs": [d.canonical() for d in self.dcapfs]}


@dataclass(frozen=True)
class Lmic:
    name: str
    clock: str
    sniffers: tuple[Sniffer, ...]
    description: str = ""
    path: tuple = ()

    def __post_init__(self):
        _as_tuples(self, "sniffers")

    def canonical(self) -> dict:
        return {"name": self.name, "clock": self.clock,
                "sniffers": [s.canonical() for s in self.sniffers]}


@dataclass(frozen=True)
class Monitor:
    name: str
    clocks: tuple[Clock, ...]
    bus: Bus
    lmics: tuple[Lmic, ...]
    description: str = ""
    path: tuple = ()
    timestamp: bool | None = None    # monitor.global.timestamp; None: the default (has_timestamp)
    scratch: bool = False            # monitor.global.scratch
    descriptor: str = "none"         # monitor.global.descriptor: "none" | "rom"
    platform: str = "zynq7000"       # monitor.platform (platforms/): integration outputs only, not hashed
    timing: str = "auto"             # monitor.timing: auto | fast | small (model/timing.py)

    def __post_init__(self):
        _as_tuples(self, "clocks", "lmics")

    @property
    def bus_clock(self) -> Clock:
        """The first clock listed: s_axi_aclk, the DCI and the global block's."""
        return self.clocks[0]

    @property
    def domain_clocks(self) -> tuple[Clock, ...]:
        """The clocks but the bus clock: each a clock domain with its ports, reset bridge and crossings."""
        return tuple(c for c in self.clocks if c is not self.bus_clock)

    def sniffers(self):
        for lm in self.lmics:
            yield from lm.sniffers

    @cached_property
    def dcapf_by_name(self) -> Mapping[str, Dcapf]:
        """Every DCAPF of the monitor by its name (names are unique in a monitor)."""
        out: dict[str, Dcapf] = {}
        for d in self.dcapfs():
            out.setdefault(d.name, d)
        return MappingProxyType(out)

    def dcapfs(self):
        for sn in self.sniffers():
            yield from sn.dcapfs

    # -- optional global registers -------------------------------
    @property
    def has_mark(self) -> bool:
        return any(s.is_mark for s in self.sniffers())

    @property
    def has_timestamp(self) -> bool:
        """TIMESTAMP_LO/HI: as asked, else when a MARK sniffer or a trace on the
        bus clock needs it (their records then carry bus-clock time)."""
        if self.timestamp is not None:
            return self.timestamp
        bus = self.bus_clock.name
        return self.has_mark or any(d.is_trace for lm in self.lmics if lm.clock == bus
                                    for s in lm.sniffers for d in s.dcapfs)

    def canonical(self) -> dict:
        """What the config hash covers: everything but descriptions and the
        platform (which changes the integration files, not the hardware)."""
        out = {"jointer": 1, "name": self.name, "bus": self.bus.canonical(),
               "clocks": [c.canonical() for c in self.clocks],
               "lmics": [lm.canonical() for lm in self.lmics]}
        if self.timestamp is not None or self.scratch or self.descriptor != "none":
            # only when given: the hashes of descriptions without `global:` stay
            out["global"] = {"timestamp": self.timestamp, "scratch": self.scratch}
            if self.descriptor != "none":  # a ROM is hardware: it enters the hash
                out["global"]["descriptor"] = self.descriptor
        if self.timing != "auto":      # only when given: other hashes unchanged
            out["timing"] = self.timing
        return out
