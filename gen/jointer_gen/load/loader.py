# SPDX-License-Identifier: MIT
"""Stage 1: read a YAML file into plain data plus a source map.

The YAML is composed with PyYAML's safe composer (libyaml when present) and
converted node by node, so every value keeps the line and column it came
from. Duplicate keys, non-string keys, unknown tags, several documents, an
empty file, a file too large to be a monitor description: each is a
Diagnostic, never an exception.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from .diag import Diagnostics, InputError, Loc

MAX_BYTES = 1 << 20        # a monitor description is a few kB
MAX_NODES = 200_000        # after alias expansion
MAX_DEPTH = 64
# the tags PyYAML's composer gives untagged collections (an explicit !!map / !!seq is the same)
PLAIN_TAG = {"MappingNode": "tag:yaml.org,2002:map", "SequenceNode": "tag:yaml.org,2002:seq"}


@dataclass
class Source:
    """The loaded document: `data` and where each part of it came from."""
    file: str                                   # the path as given (for messages)
    data: object = None
    values: dict = field(default_factory=dict)  # path tuple -> Loc of the value
    keys: dict = field(default_factory=dict)    # path tuple -> Loc of the key

    def loc(self, path) -> Loc:
        """Where the value at `path` is, or its closest existing parent."""
        path = tuple(path)
        while path not in self.values and path:
            path = path[:-1]
        return self.values.get(path, Loc(1, 1))

    def key_loc(self, path) -> Loc:
        """Where the key of the value at `path` is (the value if no key)."""
        path = tuple(path)
        return self.keys.get(path) or self.loc(path)


def _type_name(value) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "integer", float: "number", str: "string",
            dict: "mapping", list: "list"}.get(type(value), type(value).__name__)


def _mark(node) -> Loc:
    m = node.start_mark
    return Loc(m.line + 1, m.column + 1)


class _Converter:
    def __init__(self, src: Source, diags: Diagnostics):
        import yaml
        self.yaml = yaml
        self.src, self.diags = src, diags
        self.constructor = yaml.constructor.SafeConstructor()
        self.count = 0
        self.too_big = False

    def convert(self, node, path: tuple, depth: int):
        yaml = self.yaml
        self.count += 1
        if self.count > MAX_NODES or depth > MAX_DEPTH:
            if not self.too_big:
                what = (f"more than {MAX_NODES} values after alias expansion"
                        if self.count > MAX_NODES else f"nested deeper than {MAX_DEPTH} levels")
                self.diags.error(_mark(node), f"document too large: {what} "
                                 "(expected a monitor description of a few kB)")
                self.too_big = True
            return None
        self.src.values[path] = _mark(node)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.tag != PLAIN_TAG[type(node).__name__]:
            what = "mapping" if isinstance(node, yaml.MappingNode) else "list"
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            self.diags.error(_mark(node), f"unsupported tag '{tag}' on a {what} "
                             f"(expected a plain YAML {what} without tags)")
            return None
        if isinstance(node, yaml.MappingNode):
            out = {}
            for knode, vnode in node.value:
                if knode.tag == "tag:yaml.org,2002:merge":
                    self.diags.error(_mark(knode), "YAML merge keys ('<<') are not supported "
                                     "(expected the keys written out)")
                    continue
                if not isinstance(knode, yaml.ScalarNode) or knode.tag != "tag:yaml.org,2002:str":
                    key = self._scalar(knode) if isinstance(knode, yaml.ScalarNode) else None
                    shown = f" {key!r}" if key is not None else ""
                    self.diags.error(_mark(knode), f"key{shown} is a {self._node_type(knode, key)} "
                                     "(expected a string key)")
                    continue
                key = knode.value
                if key in out:
                    first = self.src.keys[path + (key,)]
                    self.diags.error(_mark(knode), f"duplicate key '{key}' (first defined at "
                                     f"line {first.line}, column {first.col})")
                    continue
                self.src.keys[path + (key,)] = _mark(knode)
                out[key] = self.convert(vnode, path + (key,), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        return self._scalar(node)

    def _node_type(self, node, value) -> str:
        if isinstance(node, self.yaml.MappingNode):
            return "mapping"
        if isinstance(node, self.yaml.SequenceNode):
            return "list"
        return _type_name(value)

    def _scalar(self, node):
        try:
            return self.constructor.construct_object(node, deep=True)
        except self.yaml.YAMLError as e:
            problem = getattr(e, "problem", None) or str(e)
            self.diags.error(_mark(node), f"cannot read value: {problem} "
                             "(expected a plain YAML scalar without tags)")
            return None


def load(path: str | Path, display: str | None = None) -> Source:
    """Read `path`; raise InputError with every problem found."""
    display = display or str(path)
    src = Source(display)
    diags = Diagnostics()
    try:
        with open(path, "rb") as f:
            # at most MAX_BYTES + 1 bytes: the cap holds for pipes and devices
            # (/dev/zero), whose st_size says nothing
            raw = f.read(MAX_BYTES + 1)
            size = os.fstat(f.fileno()).st_size
    except FileNotFoundError:
        diags.error(Loc(), "cannot read the file: no such file (expected a YAML monitor description)")
        raise InputError(diags)
    except IsADirectoryError:
        diags.error(Loc(), "cannot read the file: it is a directory (expected a YAML file)")
        raise InputError(diags)
    except OSError as e:
        diags.error(Loc(), f"cannot read the file: {e.strerror or e} (expected a readable YAML file)")
        raise InputError(diags)
    if len(raw) > MAX_BYTES:
        what = f"{size} bytes" if size > MAX_BYTES else f"more than {MAX_BYTES} bytes"
        diags.error(Loc(), f"file too large: {what} (expected at most {MAX_BYTES} bytes "
                    "for a monitor description)")
        raise InputError(diags)
    return loads(raw, display, src, diags)


def loads(raw: bytes | str, display: str = "<string>", src: Source | None = None,
          diags: Diagnostics | None = None) -> Source:
    src = src or Source(display)
    diags = diags or Diagnostics()
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            line = raw[:e.start].count(b"\n") + 1
            col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
            diags.error(Loc(line, col), f"invalid UTF-8 byte 0x{raw[e.start]:02X} "
                        "(expected a UTF-8 text file)")
            raise InputError(diags)
    else:
        text = raw
    if text.startswith("\ufeff"):
        text = text[1:]
    import yaml
    loader_cls = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        loader = loader_cls(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        loc = Loc(mark.line + 1, mark.column + 1) if mark else Loc(1, 1)
        problem = (e.problem or "syntax error").strip()
        context = f" {e.context.strip()}" if e.context else ""
        if "expected a single document" in problem or "single document" in (e.context or ""):
            diags.error(loc, "several YAML documents in one file (expected exactly one)")
        else:
            diags.error(loc, f"invalid YAML: {problem}{context} (expected valid YAML 1.1)")
        raise InputError(diags)
    except yaml.YAMLError as e:
        diags.error(Loc(1, 1), f"invalid YAML: {e} (expected valid YAML 1.1)")
        raise InputError(diags)
    if node is None:
        diags.error(Loc(1, 1), "empty file (expected a monitor description starting with 'jointer: 1')")
        raise InputError(diags)
    conv = _Converter(src, diags)
    src.data = conv.convert(node, (), 0)
    if diags:
        raise InputError(diags)
    return src
