# SPDX-License-Identifier: MIT
"""Stage 2a: the JSON Schema check of the loaded data, and its messages.

The schema is schema/jointer-1.schema.json plus, per interfacer kind, its
fragment interfacers/<kind>.schema.json and the platforms' enum (assembled by `schema()`; run
`python3 -m jointer_gen.load.schema_check` to print the whole schema, e.g. for an
editor). jsonschema (Draft 2020-12, imported only when needed) reports
shapes, types, ranges, enums and unknown keys; each of its errors is
rewritten here into one line with the item path, the valid choices and a
difflib "did you mean" for keys and values.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib.util
import json
import os
import re
from functools import lru_cache
from pathlib import Path

from .. import cache
from .diag import Diagnostics
from .loader import Source, _type_name
from typing import NamedTuple

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "schema" / "jointer-1.schema.json"


@lru_cache(maxsize=1)
def schema() -> dict:
    """The monitor schema with the interfacer kinds' fragments, emit.data's choices and the platforms."""
    from .. import interfacers, platforms
    s = json.loads(SCHEMA_PATH.read_text())
    s.pop("$comment", None)
    s["$defs"].update(interfacers.schema_defs())
    s["$defs"]["platform"] = platforms.schema()
    s["$defs"]["emit"]["properties"]["data"] = {"enum": interfacers.emit_data_choices()}
    return s


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
    root, _defs = _resolved()
    return cls(root)


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


def show_pair(a: int, b: int) -> tuple[str, str]:
    """Two bounds of one range in one base: hex when either reads better in hex."""
    if _hexish(a) or _hexish(b):
        return f"0x{a:X}", f"0x{b:X}"
    return str(a), str(b)


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
    _root, defs = _resolved()
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
    key = _valid_key(src.data)
    if key and os.path.exists(key):
        return                      # these exact data passed this exact schema before
    ids, owners = _branch_owners()
    valid = True
    for err in _validator().iter_errors(src.data):
        _report(src, diags, err, ids, owners)
        valid = False
    if key and valid:
        try:
            open(key, "ab").close()
        except OSError:
            pass


def _valid_key(data) -> str | None:
    """The cache file that says `data` passed the schema: named after a hash of
    the data (repr: types kept apart, 1 is not 1.0 nor True), the assembled
    schema, this module (the validator's settings) and the installed jsonschema.
    Only passes are recorded: a description with an error is always checked
    and reported in full. None without a cache folder."""
    folder = cache.folder("schema-ok")
    if folder is None:
        return None
    spec = importlib.util.find_spec("jsonschema")
    if spec is None or not spec.origin:
        return None
    st = os.stat(spec.origin)
    h = hashlib.sha256()
    for part in (json.dumps(schema(), sort_keys=True).encode(), Path(__file__).read_bytes(),
                 f"{spec.origin} {st.st_mtime_ns} {st.st_size}".encode(), repr(data).encode()):
        h.update(hashlib.sha256(part).digest())
    return os.path.join(folder, h.hexdigest())


class _Err(NamedTuple):
    """One jsonschema error, with what its message needs."""
    path: tuple
    kw: str                  # the failing keyword
    sub: object              # the (sub)schema holding it
    inst: object             # the value in the document
    val: object              # the keyword's value
    where: str               # item_path of path
    hint: str | None         # the schema's x-hint
    loc: object              # src.loc(path)


def _report(src, diags, err, ids, owners) -> None:
    path = tuple(err.absolute_path)
    sub = err.schema
    e = _Err(path, err.validator, sub, err.instance, err.validator_value, item_path(src, path),
             sub.get("x-hint") if isinstance(sub, dict) else None, src.loc(path))
    if e.kw == "additionalProperties":
        _unknown_keys(src, diags, e, ids, owners)
    elif e.kw == "required":
        _missing_keys(src, diags, e, owners)
    elif e.kw in _MESSAGES:
        diags.error(e.loc, _MESSAGES[e.kw](e))
    else:  # pragma: no cover - every keyword the schema uses is handled above
        diags.error(e.loc, f"{e.where}: {err.message}")


def _unknown_keys(src, diags, e: _Err, ids, owners) -> None:
    allowed = list(e.sub.get("properties", {}))
    disc, _value = ids.get(id(e.sub), (None, None))   # the branch's discriminator
    for k in e.inst:
        if k in allowed:
            continue
        note = ""
        if disc:
            others = owners.get((disc, k))
            if others:
                note = f"'{k}' is for {disc} {', '.join(others)}; "
        diags.error(src.key_loc(e.path + (k,)),
                    f"unknown key '{k}' in {e.where} ({note}{did_you_mean(k, allowed)}"
                    f"expected one of: {', '.join(allowed)})")


def _missing_keys(src, diags, e: _Err, owners) -> None:
    props = list(e.sub.get("properties", {}))
    for k in e.val:
        if isinstance(e.inst, dict) and k not in e.inst:
            choices = ""
            if k == "type" or k == "extractor":
                choices = ": " + ", ".join(e.sub["properties"][k]["enum"])
            diags.error(e.loc, f"missing key '{k}' in {e.where} (expected '{k}'{choices}"
                        + (f"; keys: {', '.join(props)}" if not choices and props else "") + ")")
            if e.sub.get("additionalProperties") is not False:   # else reported as unknown
                _misspelled_required(src, diags, e.path, e.where, k, e.inst, owners)


def _wrong_type(e: _Err) -> str:
    types = e.val if isinstance(e.val, list) else [e.val]
    want = " or ".join(TYPE_WORDS.get(t, t) for t in types)
    if types == ["object"] and not e.hint and e.sub.get("properties"):
        keys = list(e.sub["properties"])
        need = [k for k in e.sub.get("required", [])]
        want += f" with the keys {', '.join(need or keys)}" + (
            f" (and optionally {', '.join(k for k in keys if k not in need)})"
            if need and len(need) < len(keys) else "")
    given = show(e.inst)
    if not given.startswith("a "):        # a scalar: say its value and its type
        given += f" is {_article(_type_name(e.inst))}"
    return f"wrong type for {e.where}: {given} (expected {want}" + (f": {e.hint}" if e.hint else "") + ")"


def _bad_enum(e: _Err) -> str:
    return (f"invalid value {show(e.inst)} for {e.where} ({did_you_mean(e.inst, e.val)}"
            f"expected one of: {', '.join(_enum_item(v) for v in e.val)}" + (f"; {e.hint}" if e.hint else "") + ")")


def _bad_const(e: _Err) -> str:
    if e.path == ("jointer",):
        return f"unsupported schema version {show(e.inst)} for 'jointer' (expected {show(e.val)})"
    return (f"invalid value {show(e.inst)} for {e.where} ({did_you_mean(e.inst, [e.val])}"
            f"expected {show(e.val)}" + (f" {e.hint}" if e.hint else "") + ")")


def _out_of_range(e: _Err) -> str:
    return f"{_key(e.path)} {show(e.inst)} out of range in {e.where} (expected {_range_text(e.sub)})"


def _not_multiple(e: _Err) -> str:
    return (f"{_key(e.path)} {show(e.inst)} is not a multiple of {show(e.val)} in {e.where} "
            f"(expected {_range_text(e.sub)} in steps of {show(e.val)})")


def _item_count(e: _Err) -> str:
    n = len(e.inst)
    bound = f"at least {e.val}" if e.kw == "minItems" else f"at most {e.val}"
    if "minItems" in e.sub and "maxItems" in e.sub and e.sub["minItems"] == e.sub["maxItems"]:
        bound = f"exactly {e.val}"
    return f"{e.where} has {n} item{'s' if n != 1 else ''} (expected {bound}" + (f": {e.hint}" if e.hint else "") + ")"


def _bad_text(e: _Err) -> str:
    return (f"invalid {'name' if e.hint and 'letter' in e.hint else 'text'} {show(e.inst)} "
            f"for {e.where} (expected {e.hint or 'a string matching ' + e.val})")


# the message of each other keyword the schema uses
_MESSAGES = {
    "type": _wrong_type, "enum": _bad_enum, "const": _bad_const,
    "minimum": _out_of_range, "maximum": _out_of_range,
    "exclusiveMinimum": _out_of_range, "exclusiveMaximum": _out_of_range,
    "multipleOf": _not_multiple, "minItems": _item_count, "maxItems": _item_count,
    "minProperties": lambda e: f"{e.where} is empty (expected " + (e.hint or "some keys") + ")",
    "pattern": _bad_text, "minLength": _bad_text,
    "maxLength": lambda e: f"{e.where} is too long: {len(e.inst)} characters (expected at most {e.val})",
}


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


def _lane_name_ok(name: str) -> bool:
    """A lane name the schema accepts (`event: <name>`)."""
    dcapf_event = schema()["$defs"]["dcapf_event"]["properties"]["event"]
    return bool(re.fullmatch(dcapf_event["pattern"], name))


def _identifier_ok(name: str) -> bool:
    return bool(re.fullmatch(schema()["$defs"]["identifier"]["pattern"], name)) \
        and len(name) <= schema()["$defs"]["identifier"]["maxLength"]


if __name__ == "__main__":
    print(json.dumps(schema(), indent=2))
