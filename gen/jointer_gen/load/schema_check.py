"""Stage 2a: the JSON Schema check of the loaded data, and its messages.

The schema is schema/jointer-1.schema.json plus, per interfacer kind, its
fragment interfacers/<kind>.schema.json (assembled by `schema()`; run
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

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "schema" / "jointer-1.schema.json"


@lru_cache(maxsize=1)
def schema() -> dict:
    """The monitor schema with the interfacer kinds' fragments and emit.data choices."""
    from .. import interfacers
    s = json.loads(SCHEMA_PATH.read_text())
    s.pop("$comment", None)
    s["$defs"].update(interfacers.schema_defs())
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


def _lane_name_ok(name: str) -> bool:
    """A lane name the schema accepts (`event: <name>`)."""
    dcapf_event = schema()["$defs"]["dcapf_event"]["properties"]["event"]
    return bool(re.fullmatch(dcapf_event["pattern"], name))


def _identifier_ok(name: str) -> bool:
    return bool(re.fullmatch(schema()["$defs"]["identifier"]["pattern"], name)) \
        and len(name) <= schema()["$defs"]["identifier"]["maxLength"]


if __name__ == "__main__":
    print(json.dumps(schema(), indent=2))
