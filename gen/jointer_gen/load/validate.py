# SPDX-License-Identifier: MIT
"""Stage 2: validate the loaded data and build the typed model.

1. The JSON Schema (schema_check.py: shapes, types, ranges, enums, unknown
   keys, with one-line messages).
2. Semantic checks the schema cannot express: unique names, reserved words,
   clocks declared and used, event lanes, filter and condition bounds ('none'
   or a mapping), interrupt sources per LMIC, and each interfacer kind's own
   rules (interfacers/<kind>.py: check_params, check_sniffer, check_emit,
   check_monitor).

Both run on every input, so one run reports every error it can find; the
model builder reads the data defensively (a value of the wrong type is
skipped, the schema has already reported it). Checks that need the address
layout (register space vs addr_width) are in netlist/elaborate.py.
"""

from __future__ import annotations

from .. import interfacers, platforms
from . import sniffer_checks
from .getters import _get, _list
from .trace_checks import TraceChecks
from .diag import Diagnostics, InputError
from .loader import Source
from ..model.monitor import (MASK32, MASK64, Bus, Clock, Condition, Dcapf, Interfacer, Lmic, Monitor,
                             Sniffer)
from ..model.identifiers import PROJECT_RESERVED, reserved_in
from .schema_check import (_identifier_ok, _lane_name_ok, check_schema, did_you_mean, item_path, show,
                           show_pair)

HISTOGRAM_BUCKETS = 8              # default number of histogram buckets
MAX_IRQ = 32


# ---------------------------------------------------------------------------
# 2. model builder + semantic checks
# ---------------------------------------------------------------------------

class _Builder(TraceChecks):
    def __init__(self, src: Source, diags: Diagnostics):
        self.src, self.diags = src, diags
        self.names: dict[str, list] = {}   # kind -> [(name, path)] of every valid name

    def err(self, path, message: str) -> None:
        self.diags.error(self.src.loc(path), message)

    def where(self, path) -> str:
        return item_path(self.src, path)

    # -- names ----------------------------------------------------------------
    def name(self, d, path, what: str) -> str | None:
        n = _get(d, "name", str)
        if n is None or not _identifier_ok(n):
            return None  # the schema reported it
        self.names.setdefault(what, []).append((n, path))
        langs = reserved_in(n)
        if langs:
            self.err(path + ("name",), f"{what} name '{n}' is a reserved word in "
                     f"{' and '.join(langs)} (expected a name reserved in neither VHDL nor C)")
        return n

    def unique(self, items, what: str, scope: str) -> None:
        seen = {}
        for name, path in items:
            if name is None:
                continue
            if name in seen:
                first = self.src.loc(seen[name] + ("name",) if seen[name] + ("name",)
                                     in self.src.values else seen[name])
                here = path + ("name",) if path + ("name",) in self.src.values else path
                self.err(here, f"duplicate {what} name '{name}' (first at line "
                         f"{first.line}; expected {what} names unique in {scope})")
            else:
                seen[name] = path

    # -- the document -----------------------------------------------------------
    def monitor(self) -> Monitor | None:
        data = self.src.data if isinstance(self.src.data, dict) else {}
        mp = ("monitor",)
        m = _get(data, "monitor", dict, {})
        name = self.name(m, mp, "monitor")
        if name is not None and (name in PROJECT_RESERVED or name.startswith("jointer_")):
            self.err(mp + ("name",), f"monitor name '{name}' uses the library prefix 'jointer' "
                     "(expected a name that cannot clash with jointer_* library entities)")
        clocks = self.clocks(m, mp)
        bus = self.bus(m, mp)
        lmics = [self.lmic(x, ("lmics", i), clocks)
                 for i, x in enumerate(_list(data, "lmics")) if isinstance(x, dict)]
        self.unique([(c.name, c.path) for c in clocks], "clock", "the monitor")
        self.unique(self.names.get("LMIC", []), "LMIC", "the monitor")
        self.unique(self.names.get("sniffer", []), "sniffer",
                    "the monitor: they prefix the top-level ports")
        self.unique(self.names.get("DCAPF", []), "DCAPF",
                    "the monitor: they name the C functions <monitor>_read_<dcapf>")
        self.check_clocks(clocks, lmics)
        for k in interfacers.KINDS.values():
            k.check_monitor(self, clocks, lmics)
        if name is None or not clocks:
            return None
        g = _get(m, "global", dict, {})
        platform = self.platform(m, mp, bus)
        return Monitor(name=name, clocks=clocks, bus=bus, lmics=lmics,
                       description=_get(m, "description", str, ""), path=mp,
                       timestamp=_get(g, "timestamp", bool), scratch=_get(g, "scratch", bool, False),
                       descriptor=_get(g, "descriptor", str, "none"), platform=platform,
                       timing=_get(m, "timing", str, "auto"))

    def platform(self, m, mp, bus: Bus) -> str:
        """monitor.platform (default the first platform), and the base
        address it allows: one the PS reaches (when the YAML gives one)."""
        name = _get(m, "platform", str, platforms.DEFAULT)
        if name not in platforms.PLATFORMS:
            return platforms.DEFAULT            # the schema reported it
        b = _get(m, "bus", dict, {})
        if "base_address" not in b or _get(b, "base_address", int) is None:
            return name                         # none given (0: simulation), or the schema reported it
        where, base = bus.path + ("base_address",), bus.base_address
        if base % platforms.PAGE and (bus.addr_width or 0) < 12:   # else: elaborate's alignment check
            self.err(where, f"bus.base_address 0x{base:X} is not a multiple of 0x{platforms.PAGE:X} "
                     "(Vivado's smallest address segment, and a page: UIO maps pages)")
            return name
        why = platforms.platform(name).check_reach(base, max(1 << (bus.addr_width or 8), platforms.PAGE))
        if why:
            choices = ", ".join(f"{p.name} ({p.address_bits}-bit)" for p in platforms.PLATFORMS.values())
            self.err(where, f"{why}; monitor.platform names the PS: {choices}")
        return name

    def clocks(self, m, mp) -> list[Clock]:
        out = []
        for i, c in enumerate(_list(m, "clocks")):
            p = mp + ("clocks", i)
            if isinstance(c, str):
                if _identifier_ok(c):
                    self._clock_reserved(c, p)
                    out.append(Clock(c, None, p))
            elif isinstance(c, dict):
                n = self.name(c, p, "clock")
                if n is not None:
                    out.append(Clock(n, _get(c, "period_ns", float), p, _get(c, "timing", str)))
                    self._clock_timing(out[-1])
        return out

    def _clock_timing(self, c: Clock) -> None:
        if c.timing == "auto" and c.period_ns is None:
            self.err(c.path + ("timing",), f"clock '{c.name}' has timing: auto but no period_ns "
                     "(expected period_ns, from which the generator chooses the blocks' variants, "
                     "or timing: fast | small)")

    def _clock_reserved(self, name, path):
        langs = reserved_in(name)
        if langs:
            self.err(path, f"clock name '{name}' is a reserved word in {' and '.join(langs)} "
                     "(expected a name reserved in neither VHDL nor C)")

    def bus(self, m, mp) -> Bus:
        b = _get(m, "bus", dict, {})
        p = mp + ("bus",)
        return Bus(addr_width=_get(b, "addr_width", int),
                   base_address=_get(b, "base_address", int, 0),
                   strict=_get(b, "strict", bool, False), path=p)

    def lmic(self, d, path, clocks) -> Lmic:
        name = self.name(d, path, "LMIC")
        clock = _get(d, "clock", str)
        if clock is None and clocks and "clock" not in d:
            clock = clocks[0].name
        sniffers = [self.sniffer(x, path + ("sniffers", i))
                    for i, x in enumerate(_list(d, "sniffers")) if isinstance(x, dict)]
        sniffers = [s for s in sniffers if s is not None]
        lm = Lmic(name=name, clock=clock, sniffers=sniffers,
                  description=_get(d, "description", str, ""), path=path)
        irq = sum(1 for s in sniffers for dc in s.dcapfs if dc.threshold_irq and not dc.is_trace) \
            + 2 * sum(1 for s in sniffers for dc in s.dcapfs if dc.is_trace)
        if irq > MAX_IRQ:
            self.err(path + ("name",), f"LMIC '{name}' needs {irq} interrupt sources (expected at "
                     f"most {MAX_IRQ}: one per threshold_irq DCAPF, two per trace)")
        return lm

    def sniffer(self, d, path) -> Sniffer | None:
        name = self.name(d, path, "sniffer")
        itf = self.interfacer(_get(d, "interfacer", dict), path + ("interfacer",))
        emit = _get(d, "emit", dict, {})
        kind = interfacers.kind(itf.type) if itf else None
        increment = _get(emit, "increment", str) or ("bytes" if kind and kind.counts_bytes else "one")
        if kind:
            kind.check_sniffer(self, path, itf.params)
        data = _get(emit, "data", str)
        if kind is not None:
            allowed = kind.emit_data
            if data is None:
                data = allowed[0]
            elif data not in allowed:
                self.err(path + ("emit", "data"), f"emit data '{data}' is not available from a "
                         f"{itf.type} interfacer in {self.where(path)} (expected "
                         f"{' or '.join(allowed)})")
            else:
                kind.check_emit(self, path, data, itf.params)
        bits = sniffer_checks.value_bits(itf, increment, data)
        conditions = [c for c in (self.condition(x, path + ("conditions", i))
                                  for i, x in enumerate(_list(d, "conditions"))) if c]
        dcapfs = [x for x in (self.dcapf(x, path + ("dcapfs", i), itf, bits)
                              for i, x in enumerate(_list(d, "dcapfs")) if isinstance(x, dict)) if x]
        if name is None or itf is None:
            return None
        sn = Sniffer(name=name, interfacer=itf, dcapfs=dcapfs, conditions=conditions,
                     increment=increment, data=data or "", path=path,
                     description=_get(d, "description", str, ""))
        sniffer_checks.values_fit(self, sn, bits)
        sniffer_checks.lanes_take_conditions(self, sn)
        sniffer_checks.trace_lanes_own_tap(self, sn)
        return sn

    def interfacer(self, d, path) -> Interfacer | None:
        t = _get(d, "type", str)
        if t not in interfacers.KINDS:
            return None
        kind = interfacers.kind(t)
        params = kind.params(d, _get)
        kind.check_params(self, d, path, params)
        return Interfacer(type=t, params=params, path=path)

    def lane_by_name(self, d, path, itf: Interfacer | None) -> int:
        """`event: <lane name>` of a DCAPF: the lane number (0 when unknown: reported)."""
        lane = d["event"]
        kind = interfacers.kind(itf.type) if itf is not None else None
        if itf is None or not _lane_name_ok(lane) or kind.lanes_unknown(itf.params):
            return 0                        # the schema (or the parameters) reported it
        names = kind.lane_names(itf.params)
        if names is None:
            n = itf.lanes
            numbers = "0" if n == 1 else f"0..{n - 1}"
            self.err(path + ("event",), f"event '{lane}' in {self.where(path)} is a lane name, but "
                     f"a{'n' if itf.type[0] in 'aeiou' else ''} {itf.type} interfacer has numbered "
                     f"lanes (expected {numbers})")
            return 0
        if lane not in names and kind.unknown_lane(self, path, lane, itf.params):
            return 0
        if lane not in names:
            self.err(path + ("event",), f"unknown lane '{lane}' in {self.where(path)} "
                     f"({did_you_mean(lane, names)}expected a lane of the {itf.type} interfacer: "
                     f"{', '.join(names)}; or its number "
                     f"{'0' if len(names) == 1 else f'0..{len(names) - 1}'})")
            return 0
        return names.index(lane)

    def condition(self, d, path) -> Condition | None:
        if not isinstance(d, dict) or not d:
            return None
        has_range, has_mask = "range" in d, ("mask" in d or "value" in d)
        if has_range and has_mask:
            self.err(path, f"condition {self.where(path)} mixes 'range' with 'mask'/'value' "
                     "(expected {mask: M, value: V} or {range: [LOW, HIGH]})")
            return None
        if has_range:
            r = _get(d, "range", list)
            if not r or len(r) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                               and 0 <= x <= MASK64 for x in r):
                return None
            if r[0] > r[1]:
                self.err(path + ("range",), "condition range [{}, {}] in ".format(*show_pair(*r)) +
                         f"{self.where(path)} is empty (expected low <= high)")
            return Condition("range", r[0], r[1], path)
        mask, value = _get(d, "mask", int), _get(d, "value", int)
        if set(d) - {"mask", "value", "range"}:
            return None   # unknown keys: the schema reported them
        if "mask" not in d or "value" not in d:
            missing = "value" if "mask" in d else "mask"
            self.err(path, f"missing key '{missing}' in {self.where(path)} (expected "
                     "{mask: M, value: V} or {range: [LOW, HIGH]})")
            return None
        if mask is None or value is None or not (0 <= mask <= MASK64 and 0 <= value <= MASK64):
            return None
        if value & ~mask:
            self.err(path + ("value",), f"condition in {self.where(path)} never matches: value "
                     f"0x{value:08X} has bits outside mask 0x{mask:08X} (expected value & ~mask = 0)")
        return Condition("mask", mask, value, path)

    def dcapf(self, d, path, itf: Interfacer | None, bits: int = 32) -> Dcapf | None:
        name = self.name(d, path, "DCAPF")
        ext = _get(d, "extractor", str)
        if ext not in ("event", "time", "trace"):
            return None
        event = _get(d, "event", int, 0)
        if isinstance(d.get("event"), str):
            event = self.lane_by_name(d, path, itf)
        elif itf is not None and "event" in d and isinstance(d["event"], int) \
                and 0 <= event <= 31 and event >= itf.lanes \
                and not interfacers.kind(itf.type).lanes_unknown(itf.params):
            self.err(path + ("event",), interfacers.kind(itf.type).lane_out_of_range(
                self.where(path), event, itf.params))
        # filter: a mapping of reset bounds (default), or 'none': no filter hardware
        has_filter = d.get("filter") != "none"
        f = _get(d, "filter", dict, {})
        default_low, default_high = 0, (1 << bits) - 1      # the whole event data
        if ext == "time" and itf is not None and has_filter:
            default_low, default_high = interfacers.kind(itf.type).time_filter_reset() or (0, default_high)
        low = _get(f, "low", int, default_low)
        high = _get(f, "high", int, default_high)
        if 0 <= low <= MASK64 and 0 <= high <= MASK64 and low > high:
            self.err(path + ("filter",), f"filter of {self.where(path)} is empty: low "
                     "{} > high {} (expected low <= high)".format(*show_pair(low, high)))
        runtime = _get(f, "runtime", bool, True)
        if not runtime and ext == "trace":
            self.err(path + ("filter", "runtime"), f"runtime: false in {self.where(path)}: a trace "
                     "DCAPF's bounds are always loaded at run time (expected runtime: true, or "
                     "filter: none)")
        if name is None:
            return None
        dc = Dcapf(name=name, extractor=ext, event=event, low=low, high=high, path=path,
                   has_filter=has_filter, filter_runtime=runtime,
                   description=_get(d, "description", str, ""))
        if ext == "trace":
            dc.width = dc.aggregator = None
            dc.depth = _get(d, "depth", int, 256)
            dc.mode = _get(d, "mode", str, "stop")
            self.sink(d, path, dc)
            self.trace_lanes(d, path, dc, itf)
            self.spans(d, path, dc)
        else:
            dc.width = _get(d, "width", int, 32)
            dc.aggregator = _get(d, "aggregator", str, "sum")
            dc.sample = _get(d, "sample", str, "increment") if ext == "event" else None
            dc.wrap = _get(d, "on_overflow", str, "saturate") == "wrap"
            dc.threshold_irq = _get(d, "threshold_irq", bool, False)
            self.histogram(d, path, dc)
        return dc

    # -- the histogram aggregator ----------------------------------
    def histogram(self, d, path, dc: Dcapf) -> None:
        """buckets / boundaries of a histogram DCAPF (errors for other aggregators)."""
        if dc.aggregator != "histogram":
            for key in ("buckets", "boundaries"):
                if key in d:
                    self.err(path + (key,), f"'{key}' in {self.where(path)} is only for "
                             f"aggregator histogram (this DCAPF's aggregator is {dc.aggregator})")
            if dc.aggregator == "mean":         # sum and count: two result slots, one snapshot
                dc.buckets = 2
                if dc.threshold_irq:
                    self.err(path + ("threshold_irq",), f"threshold_irq in {self.where(path)}: a "
                             "mean has no single result to compare (expected threshold_irq: false)")
            return
        if dc.threshold_irq:
            self.err(path + ("threshold_irq",), f"threshold_irq in {self.where(path)}: a histogram "
                     "has no single result to compare (expected threshold_irq: false)")
        bounds = d.get("boundaries", "pow2")
        buckets = _get(d, "buckets", int)
        expected = "expected pow2 or a list of strictly increasing boundaries 1..0x7FFFFFFF"
        if isinstance(bounds, str) and bounds != "pow2":
            self.err(path + ("boundaries",), f"boundaries '{bounds}' in {self.where(path)} is "
                     f"neither pow2 nor a list ({did_you_mean(bounds, ['pow2'])}{expected})")
            return
        if isinstance(bounds, list):
            bad = [k for k, x in enumerate(bounds) if not (isinstance(x, int) and not isinstance(x, bool)
                                                         and 1 <= x <= 0x7FFFFFFF)]
            if bad or not 1 <= len(bounds) <= 63:
                where = path + ("boundaries",) + ((bad[0],) if bad else ())
                what = (f"boundary {show(bounds[bad[0]])}" if bad
                        else f"{len(bounds)} boundaries")
                self.err(where, f"{what} in {self.where(path)} out of range ({expected}, "
                         "at most 63 of them)")
                return
            if buckets is None:
                buckets = len(bounds) + 1
            elif len(bounds) != buckets - 1:
                self.err(path + ("boundaries",), f"{len(bounds)} boundaries in {self.where(path)} "
                         f"for {buckets} buckets (expected buckets - 1 = {buckets - 1})")
            for k in range(1, len(bounds)):
                if bounds[k] <= bounds[k - 1]:
                    self.err(path + ("boundaries", k), f"boundary {show(bounds[k])} in "
                             f"{self.where(path)} is not above the one before it "
                             f"({show(bounds[k - 1])}; expected strictly increasing boundaries)")
                    break
            dc.boundaries = list(bounds)
        else:
            dc.boundaries = "pow2"
        dc.buckets = buckets if buckets is not None else HISTOGRAM_BUCKETS

    # -- cross checks -------------------------------------------------------------
    def check_clocks(self, clocks, lmics) -> None:
        names = [c.name for c in clocks]
        used = set()
        for lm in lmics:
            if lm.clock is None:
                continue
            used.add(lm.clock)
            if names and lm.clock not in names and _identifier_ok(lm.clock):
                self.err(lm.path + ("clock",), f"unknown clock '{lm.clock}' for "
                         f"{self.where(lm.path)} ({did_you_mean(lm.clock, names)}expected a "
                         f"clock of monitor.clocks: {', '.join(names)})")
        for c in clocks[1:]:
            if c.name not in used:
                self.err(c.path, f"clock '{c.name}' is declared but no LMIC uses it (expected "
                         "every clock after the first, the bus clock, to drive an LMIC)")



def validate(src: Source) -> Monitor:
    """Schema + semantic checks; the model, or InputError with every problem."""
    diags = Diagnostics()
    check_schema(src, diags)
    monitor = _Builder(src, diags).monitor()
    if diags or monitor is None:
        if not diags:  # pragma: no cover - the schema requires a name and clocks
            diags.error(src.loc(()), "incomplete monitor description (expected monitor.name "
                        "and monitor.clocks)")
        raise InputError(diags)
    return monitor
