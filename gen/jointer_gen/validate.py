"""Stage 2: validate the loaded data and build the typed model.

1. JSON Schema (schema/jointer-1.schema.json): shapes, types, ranges, enums,
   unknown keys. jsonschema's errors are rewritten into one-line messages
   with the item path and the valid choices ("did you mean" for keys and
   values, through difflib).
2. Semantic checks the schema cannot express: unique names, reserved words,
   clocks declared and used, event lanes, filter and condition bounds ('none'
   or a mapping), the
   MARK sniffer, interrupt sources per LMIC.

Both run on every input, so one run reports every error it can find; the
model builder reads the data defensively (a value of the wrong type is
skipped, the schema has already reported it). Checks that need the address
layout (register space vs addr_width) are in elaborate.py.
"""

from __future__ import annotations

import difflib
import json
from functools import lru_cache
from pathlib import Path

from .diag import Diagnostics, InputError
from .loader import Source, _type_name
from .model import (BUS_TAPS, MASK32, Bus, Clock, Condition, Dcapf, Interfacer, Lmic,
                    Monitor, Sniffer)
from .names import PROJECT_RESERVED, reserved_in
from . import utilization
from .pm import check_pc

SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / "jointer-1.schema.json"

# interfacer parameters and their defaults (the schema documents the same)
INTERFACER_DEFAULTS = {
    "axi4": {"direction": None, "addr_width": 32, "data_width": 32, "id_width": 0,
             "per_beat": False, "max_outstanding": 8},
    "axi4lite": {"direction": None, "addr_width": 32, "data_width": 32},
    "axis": {"data_width": 32, "count": "beats", "keep": False, "dest_width": 0},
    "start_done": {"mode": "pulses"},
    "events": {"width": 1, "data_width": 0, "edge": False},
    "mark": {},
    **utilization.DEFAULTS,           # axi_util, contention (bus utilization, utilization.py)
    "pc": {"flavour": "generic", "pc_width": 32, "addresses": 32},
    # issue 7 part 2: transaction latency (jointer_eig_axi4_latency)
    "axi4_latency": {"direction": None, "end": "last", "addr_width": 32, "data_width": 32,
                     "id_width": 0, "max_outstanding": 8},
}
# emit.data: what the event data is, per interfacer type (first = default)
EMIT_DATA = {
    "axi4": ["address"], "axi4lite": ["address"], "axis": ["tdata", "tdest"],
    "start_done": ["state"], "events": ["value"], "mark": ["value"],
    **utilization.EMIT_DATA,
    "pc": ["index"],
    "axi4_latency": ["latency"],   # issue 7 part 2
}
HISTOGRAM_BUCKETS = 8              # issue 7 part 2: default number of histogram buckets
MAX_IRQ = 32


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


@lru_cache(maxsize=1)
def _resolved() -> tuple[dict, dict]:
    """The schema with every local $ref replaced by its definition (shared
    objects, one per definition): validation without reference lookups, same
    results. Returns (root, {definition name: resolved definition})."""
    raw = schema()
    defs: dict[str, dict] = {}

    def resolve(node):
        if isinstance(node, dict):
            ref = node.get("$ref")
            if ref is not None and len(node) == 1 and ref.startswith("#/$defs/"):
                name = ref[len("#/$defs/"):]
                if name not in defs:
                    defs[name] = {}
                    defs[name].update(resolve(raw["$defs"][name]))
                return defs[name]
            return {k: resolve(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node
    root = resolve(raw)
    for name in raw["$defs"]:
        resolve({"$ref": f"#/$defs/{name}"})
    return root, defs


@lru_cache(maxsize=1)
def _validator():
    import jsonschema
    base = jsonschema.Draft202012Validator
    # YAML has real integers: 1.0 is a number, not an integer
    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _c, v: isinstance(v, int) and not isinstance(v, bool))
    cls = jsonschema.validators.extend(base, type_checker=checker)
    return cls(_resolved()[0])


# ---------------------------------------------------------------------------
# formatting helpers
# ---------------------------------------------------------------------------

def show(value) -> str:
    """A value as the user wrote it, short."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return f"0x{value:X}" if _hexish(value) else str(value)
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, float):
        return repr(value)
    return f"a {_type_name(value)}"


def _hexish(v: int) -> bool:
    """Large round binary numbers (masks, bounds, addresses) read better in hex."""
    return v > 0xFFFF and (v & (v + 1) == 0 or v % 0x100 == 0)


def item_path(src: Source, path) -> str:
    """lmics[accel].sniffers[task].interfacer: names where items have one."""
    out, node = "", src.data
    for p in path:
        if isinstance(p, int):
            name = node[p].get("name") if isinstance(node, list) and p < len(node) \
                and isinstance(node[p], dict) else None
            out += f"[{name}]" if isinstance(name, str) and _identifier_ok(name) else f"[{p}]"
        else:
            out += f".{p}" if out else p
        try:
            node = node[p]
        except (KeyError, IndexError, TypeError):
            node = None
    return out or "the document"


def _key(path) -> str:
    """The last key of a path (what the user calls the value)."""
    for p in reversed(tuple(path)):
        if isinstance(p, str):
            return p
    return "item"


def did_you_mean(word, choices) -> str:
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.7)
    return f"did you mean '{close[0]}'? " if close else ""


TYPE_WORDS = {"integer": "an integer", "string": "a string", "boolean": "true or false",
              "object": "a mapping", "array": "a list", "number": "a number", "null": "null"}


def _range_text(sub: dict) -> str:
    lo = sub.get("minimum", sub.get("exclusiveMinimum"))
    hi = sub.get("maximum", sub.get("exclusiveMaximum"))
    lo_t = show(lo) if "minimum" in sub else (f"> {show(lo)}" if lo is not None else "")
    if "exclusiveMinimum" in sub and hi is not None:
        return f"a value > {show(lo)} and <= {show(hi)}"
    if lo is not None and hi is not None:
        return f"{lo_t}..{show(hi)}"
    if lo is not None:
        return f">= {show(lo)}"
    return f"<= {show(hi)}"


# ---------------------------------------------------------------------------
# 1. JSON Schema
# ---------------------------------------------------------------------------

def _branch_owners() -> tuple[dict, dict]:
    """{id(def schema): (discriminator, value)} and {key: [(disc, value)...]}"""
    defs = _resolved()[1]
    ids, owners = {}, {}
    for prefix, disc in (("if_", "type"), ("dcapf_", "extractor")):
        for name, sub in defs.items():
            if name.startswith(prefix):
                value = name[len(prefix):]
                ids[id(sub)] = (disc, value)
                for k in sub.get("properties", {}):
                    owners.setdefault((disc, k), []).append(value)
    return ids, owners


def check_schema(src: Source, diags: Diagnostics) -> None:
    ids, owners = _branch_owners()
    for err in _validator().iter_errors(src.data):
        _report(src, diags, err, ids, owners)


def _report(src, diags, err, ids, owners) -> None:
    path = tuple(err.absolute_path)
    kw, sub, inst, val = err.validator, err.schema, err.instance, err.validator_value
    where = item_path(src, path)
    hint = sub.get("x-hint") if isinstance(sub, dict) else None
    loc = src.loc(path)
    if kw == "additionalProperties":
        allowed = list(sub.get("properties", {}))
        branch = ids.get(id(sub))
        for k in inst:
            if k in allowed:
                continue
            note = ""
            if branch:
                others = owners.get((branch[0], k))
                if others:
                    note = f"'{k}' is for {branch[0]} {', '.join(others)}; "
            diags.error(src.key_loc(path + (k,)),
                        f"unknown key '{k}' in {where} ({note}{did_you_mean(k, allowed)}"
                        f"expected one of: {', '.join(allowed)})")
    elif kw == "required":
        props = list(sub.get("properties", {}))
        for k in val:
            if isinstance(inst, dict) and k not in inst:
                choices = ""
                if k == "type" or k == "extractor":
                    choices = ": " + ", ".join(sub["properties"][k]["enum"])
                diags.error(loc, f"missing key '{k}' in {where} (expected '{k}'{choices}"
                            + (f"; keys: {', '.join(props)}" if not choices and props else "") + ")")
                if sub.get("additionalProperties") is not False:   # else reported as unknown
                    _misspelled_required(src, diags, path, where, k, inst, owners)
    elif kw == "type":
        types = val if isinstance(val, list) else [val]
        want = " or ".join(TYPE_WORDS.get(t, t) for t in types)
        if types == ["object"] and not hint and sub.get("properties"):
            keys = list(sub["properties"])
            need = [k for k in sub.get("required", [])]
            want += f" with the keys {', '.join(need or keys)}" + (
                f" (and optionally {', '.join(k for k in keys if k not in need)})"
                if need and len(need) < len(keys) else "")
        given = show(inst)
        if not given.startswith("a "):        # a scalar: say its value and its type
            given += f" is {_article(_type_name(inst))}"
        diags.error(loc, f"wrong type for {where}: {given} "
                    f"(expected {want}" + (f": {hint}" if hint else "") + ")")
    elif kw == "enum":
        diags.error(loc, f"invalid value {show(inst)} for {where} ({did_you_mean(inst, val)}"
                    f"expected one of: {', '.join(_enum_item(v) for v in val)}"
                    + (f"; {hint}" if hint else "") + ")")
    elif kw == "const":
        if path == ("jointer",):
            diags.error(loc, f"unsupported schema version {show(inst)} for 'jointer' "
                        f"(expected {show(val)})")
        else:
            diags.error(loc, f"invalid value {show(inst)} for {where} ({did_you_mean(inst, [val])}"
                        f"expected {show(val)}" + (f" {hint}" if hint else "") + ")")
    elif kw in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        diags.error(loc, f"{_key(path)} {show(inst)} out of range in {where} "
                    f"(expected {_range_text(sub)})")
    elif kw == "multipleOf":
        diags.error(loc, f"{_key(path)} {show(inst)} is not a multiple of {show(val)} in {where} "
                    f"(expected {_range_text(sub)} in steps of {show(val)})")
    elif kw in ("minItems", "maxItems"):
        n = len(inst)
        bound = f"at least {val}" if kw == "minItems" else f"at most {val}"
        if "minItems" in sub and "maxItems" in sub and sub["minItems"] == sub["maxItems"]:
            bound = f"exactly {val}"
        diags.error(loc, f"{where} has {n} item{'s' if n != 1 else ''} (expected {bound}"
                    + (f": {hint}" if hint else "") + ")")
    elif kw == "minProperties":
        diags.error(loc, f"{where} is empty (expected " + (hint or "some keys") + ")")
    elif kw in ("pattern", "minLength"):
        diags.error(loc, f"invalid {'name' if hint and 'letter' in hint else 'text'} {show(inst)} "
                    f"for {where} (expected {hint or 'a string matching ' + val})")
    elif kw == "maxLength":
        diags.error(loc, f"{where} is too long: {len(inst)} characters (expected at most {val})")
    else:  # pragma: no cover - every keyword the schema uses is handled above
        diags.error(loc, f"{where}: {err.message}")


def _misspelled_required(src, diags, path, where, key, inst, owners) -> None:
    """A key close to a missing required key that no branch knows: the user's
    spelling of it (`extracter: event`), reported too, at the key."""
    known = {k for (_disc, k) in owners}
    for k in inst:
        if isinstance(k, str) and k not in known and did_you_mean(k, [key]):
            diags.error(src.key_loc(path + (k,)), f"unknown key '{k}' in {where} "
                        f"(did you mean '{key}'? expected the required key '{key}')")


def _enum_item(v) -> str:
    if isinstance(v, int) and not isinstance(v, bool):
        return str(v)
    return show(v).strip("'")


def _article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


# ---------------------------------------------------------------------------
# 2. model builder + semantic checks
# ---------------------------------------------------------------------------

def _get(d, key, kind, default=None):
    """d[key] if d is a mapping and the value has the right type, else default."""
    if not isinstance(d, dict) or key not in d:
        return default
    v = d[key]
    if kind is int:
        return v if isinstance(v, int) and not isinstance(v, bool) else default
    if kind is float:
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default
    return v if isinstance(v, kind) else default


def _list(d, key) -> list:
    v = _get(d, key, list, [])
    return v


class _Builder:
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
        self.check_mark(clocks, lmics)
        check_pc(self, lmics)
        if name is None or not clocks:
            return None
        g = _get(m, "global", dict, {})
        return Monitor(name=name, clocks=clocks, bus=bus, lmics=lmics,
                       description=_get(m, "description", str, ""), path=mp,
                       timestamp=_get(g, "timestamp", bool), scratch=_get(g, "scratch", bool, False))

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
                    out.append(Clock(n, _get(c, "period_ns", float), p))
        return out

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
        conditions = [c for c in (self.condition(x, path + ("conditions", i))
                                  for i, x in enumerate(_list(d, "conditions"))) if c]
        emit = _get(d, "emit", dict, {})
        itype = itf.type if itf else None
        increment = _get(emit, "increment", str) or ("bytes" if itype in BUS_TAPS else "one")
        if itype == "axi4_latency" and itf.params["direction"] == "read" \
                and itf.params["end"] == "response":
            self.err(path + ("interfacer", "end"), f"end 'response' in {self.where(path)} is for "
                     "writes (a read ends with its RLAST beat; expected end: last)")
        data = _get(emit, "data", str)
        if itype is not None:
            allowed = EMIT_DATA[itype]
            if data is None:
                data = allowed[0]
            elif data not in allowed:
                self.err(path + ("emit", "data"), f"emit data '{data}' is not available from a "
                         f"{itype} interfacer in {self.where(path)} (expected "
                         f"{' or '.join(allowed)})")
            elif data == "tdest" and itf.params.get("dest_width") == 0:
                self.err(path + ("emit", "data"), f"emit data 'tdest' needs a TDEST in "
                         f"{self.where(path)} (expected interfacer dest_width >= 1)")
        dcapfs = [x for x in (self.dcapf(x, path + ("dcapfs", i), itf)
                              for i, x in enumerate(_list(d, "dcapfs")) if isinstance(x, dict)) if x]
        if name is None or itf is None:
            return None
        return Sniffer(name=name, interfacer=itf, dcapfs=dcapfs, conditions=conditions,
                       increment=increment, data=data or "", path=path,
                       description=_get(d, "description", str, ""))

    def interfacer(self, d, path) -> Interfacer | None:
        t = _get(d, "type", str)
        if t not in INTERFACER_DEFAULTS:
            return None
        params = {}
        for k, default in INTERFACER_DEFAULTS[t].items():
            kind = type(default) if default is not None else str
            params[k] = _get(d, k, kind, default)
        if t in utilization.TYPES:
            self.utilization_checks(d, path, params)
        return Interfacer(type=t, params=params, path=path)

    # -- bus utilization / contention interfacers (utilization.py) ---------------
    def utilization_checks(self, d, path, params) -> None:
        """Repeated channels of an axi_util interfacer; the list is kept in bus order."""
        for i, c in utilization.duplicate_channels(_get(d, "channels", list)):
            self.err(path + ("channels", i), f"channel '{c}' listed twice in "
                     f"{self.where(path)}.channels (expected each of aw, w, b, ar, r at most once)")
        raw = _get(d, "channels", list)
        if raw is not None and (not raw or any(c not in utilization.AXI_CHANNELS for c in raw)):
            params["channels"] = None      # reported by the schema: no lane checks on it
        elif "channels" in params:
            params["channels"] = utilization.channels(params)

    def lane_by_name(self, d, path, itf: Interfacer | None) -> int:
        """`event: <lane name>` of a DCAPF: the lane number (0 when unknown: reported)."""
        lane = d["event"]
        if itf is None or not _lane_name_ok(lane) \
                or (itf.type == "axi_util" and itf.params.get("channels") is None):
            return 0                        # the schema (or the channels) reported it
        if itf.type not in utilization.TYPES:
            n = itf.lanes
            numbers = "0" if n == 1 else f"0..{n - 1}"
            self.err(path + ("event",), f"event '{lane}' in {self.where(path)} is a lane name, but "
                     f"a{'n' if itf.type[0] in 'aeiou' else ''} {itf.type} interfacer has numbered "
                     f"lanes (expected {numbers})")
            return 0
        names = utilization.lane_names(itf.type, itf.params)
        every = utilization.lane_names(itf.type, {**itf.params, "channels": utilization.AXI_CHANNELS})
        if lane not in names and itf.type == "axi_util" and lane in every:
            ch = lane.split("_")[0]
            self.err(path + ("event",), f"lane '{lane}' in {self.where(path)} is on channel {ch}, "
                     f"which the axi_util interfacer does not watch (expected a lane of its channels "
                     f"{', '.join(utilization.channels(itf.params))}, or {ch} added to its channels)")
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
                                               and 0 <= x <= MASK32 for x in r):
                return None
            if r[0] > r[1]:
                self.err(path + ("range",), f"condition range [{show(r[0])}, {show(r[1])}] in "
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
        if mask is None or value is None or not (0 <= mask <= MASK32 and 0 <= value <= MASK32):
            return None
        if value & ~mask:
            self.err(path + ("value",), f"condition in {self.where(path)} never matches: value "
                     f"0x{value:08X} has bits outside mask 0x{mask:08X} (expected value & ~mask = 0)")
        return Condition("mask", mask, value, path)

    def dcapf(self, d, path, itf: Interfacer | None) -> Dcapf | None:
        name = self.name(d, path, "DCAPF")
        ext = _get(d, "extractor", str)
        if ext not in ("event", "time", "trace"):
            return None
        event = _get(d, "event", int, 0)
        if isinstance(d.get("event"), str):
            event = self.lane_by_name(d, path, itf)
        elif itf is not None and "event" in d and isinstance(d["event"], int) \
                and 0 <= event <= 31 and event >= itf.lanes \
                and not (itf.type == "axi_util" and itf.params.get("channels") is None):
            if itf.type in utilization.TYPES:
                self.err(path + ("event",), f"event {event} out of range in {self.where(path)}: "
                         f"the {itf.type} interfacer has {itf.lanes} lanes (expected "
                         f"0..{itf.lanes - 1} or a lane name: "
                         f"{', '.join(utilization.lane_names(itf.type, itf.params))})")
            elif itf.type == "events":
                lanes = "0" if itf.lanes == 1 else f"0..{itf.lanes - 1}"
                self.err(path + ("event",), f"event {event} out of range in {self.where(path)}: "
                         f"the events interfacer has {itf.lanes} lane"
                         f"{'s' if itf.lanes != 1 else ''} (expected {lanes})")
            else:
                self.err(path + ("event",), f"event {event} out of range in {self.where(path)}: "
                         f"a {itf.type} interfacer has one lane (expected 0)")
        # filter: a mapping of reset bounds (default), or 'none': no filter hardware
        has_filter = d.get("filter") != "none"
        f = _get(d, "filter", dict, {})
        default_low, default_high = 0, MASK32
        if ext == "time" and itf is not None and itf.type == "start_done" and has_filter:
            default_low = default_high = 1
        low = _get(f, "low", int, default_low)
        high = _get(f, "high", int, default_high)
        if 0 <= low <= MASK32 and 0 <= high <= MASK32 and low > high:
            self.err(path + ("filter",), f"filter of {self.where(path)} is empty: low "
                     f"{show(low)} > high {show(high)} (expected low <= high)")
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
        else:
            dc.width = _get(d, "width", int, 32)
            dc.aggregator = _get(d, "aggregator", str, "sum")
            dc.sample = _get(d, "sample", str, "increment") if ext == "event" else None
            dc.wrap = _get(d, "on_overflow", str, "saturate") == "wrap"
            dc.threshold_irq = _get(d, "threshold_irq", bool, False)
            self.histogram(d, path, dc)
        return dc

    # -- issue 7 part 2: the histogram aggregator ----------------------------------
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

    def check_mark(self, clocks, lmics) -> None:
        marks = [(lm, s) for lm in lmics for s in lm.sniffers if s.is_mark]
        for lm, s in marks[1:]:
            first = self.src.loc(marks[0][1].path)
            self.err(s.path + ("interfacer",), f"second mark sniffer '{s.name}' (the first is "
                     f"'{marks[0][1].name}' at line {first.line}; expected at most one: the "
                     "global block has one MARK register)")
        for lm, s in marks:
            if clocks and lm.clock is not None and lm.clock != clocks[0].name:
                self.err(s.path + ("interfacer",), f"mark sniffer '{s.name}' is in LMIC "
                         f"'{lm.name}' on clock '{lm.clock}' (expected an LMIC on the bus "
                         f"clock '{clocks[0].name}': MARK writes arrive on the bus clock)")


def _lane_name_ok(name: str) -> bool:
    """A lane name the schema accepts (`event: <name>`)."""
    import re
    dcapf_event = schema()["$defs"]["dcapf_event"]["properties"]["event"]
    return bool(re.fullmatch(dcapf_event["pattern"], name))


def _identifier_ok(name: str) -> bool:
    import re
    return bool(re.fullmatch(schema()["$defs"]["identifier"]["pattern"], name)) \
        and len(name) <= schema()["$defs"]["identifier"]["maxLength"]


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
