# SPDX-License-Identifier: MIT
"""The trace keys of a DCAPF, checked and read into the model (a mixin of
validate's builder, which gives err() and where()): a sink's `sink:` block,
several lanes in one trace (`lanes`, `sync`) and its `spans`."""

from __future__ import annotations

from .. import interfacers
from ..model.monitor import Dcapf, Interfacer, Sink, Span
from .getters import _get, _list
from .schema_check import _lane_name_ok, show

COMPACT_SUPPORTED = True           # hdl/trace/jointer_trace_compact.vhd before the sink


class TraceChecks:
    # -- trace sinks (mode: sink) ----------------------------------------
    def sink(self, d, path, dc: Dcapf) -> None:
        """the `sink:` mapping of a trace; `depth` is refused with mode: sink."""
        if dc.mode != "sink":
            if "sink" in d:
                self.err(path + ("sink",), f"'sink' in {self.where(path)} is only for mode: sink "
                         f"(this trace's mode is {dc.mode}; expected mode: sink, or no 'sink' key)")
            return
        if "depth" in d:
            self.err(path + ("depth",), f"'depth' in {self.where(path)}: a mode: sink trace has no "
                     "buffer of its own, its records go to a ring in memory (expected no 'depth'; "
                     "size the ring at run time and the FIFO with sink: {fifo_depth: N})")
        s = _get(d, "sink", dict, {})
        sk = Sink(data_width=_get(s, "data_width", int, 64), max_burst=_get(s, "max_burst", int, 16),
                  fifo_depth=_get(s, "fifo_depth", int, 32),
                  flush_timeout=_get(s, "flush_timeout", int, 64),
                  encoding=_get(s, "encoding", str, "raw"), ring_bytes=_get(s, "ring_bytes", int, 1 << 20),
                  sync_period=_get(s, "sync_period", int, 256), idle_flush=_get(s, "idle_flush", int, 16))
        dc.sink, dc.depth = sk, 0
        if sk.data_width in (32, 64, 128) and 2 <= sk.max_burst <= 256 \
                and sk.fifo_depth < sk.burst_records:
            self.err(path + ("sink", "fifo_depth"), f"sink fifo_depth {sk.fifo_depth} in "
                     f"{self.where(path)} is smaller than a burst ({sk.max_burst} beats of "
                     f"{sk.data_width} bits = {sk.burst_records} records; expected fifo_depth >= "
                     f"{sk.burst_records}, or a smaller max_burst)")
        for key in ("sync_period", "idle_flush"):
            if key in s and sk.encoding != "compact":
                self.err(path + ("sink", key), f"sink {key} in {self.where(path)} is only for "
                         f"encoding: compact (this sink's encoding is {sk.encoding}; expected "
                         f"encoding: compact, or no '{key}')")
        if sk.encoding == "compact" and not COMPACT_SUPPORTED:
            self.err(path + ("sink", "encoding"), f"sink encoding compact in {self.where(path)} is "
                     "not yet supported by this version of jointer-gen (expected encoding: raw)")

    # -- several lanes in one trace, host syncs, spans ----------------------
    def lane_number(self, v, path, itf: Interfacer | None) -> int | None:
        """A lane of the interfacer given by number or name, None when unknown (reported)."""
        if isinstance(v, bool) or not isinstance(v, (int, str)) or itf is None:
            return None
        kind = interfacers.kind(itf.type)
        if isinstance(v, str):
            return self.lane_by_name({"event": v}, path[:-1], itf) if _lane_name_ok(v) else None
        if 0 <= v <= 31 and v >= itf.lanes and not kind.lanes_unknown(itf.params):
            self.err(path, kind.lane_out_of_range(self.where(path[:-1]), v, itf.params))
            return None
        return v if 0 <= v <= 31 else None

    def trace_lanes(self, d, path, dc: Dcapf, itf: Interfacer | None) -> None:
        """`lanes:` (several lanes recorded with a tag) and `sync:` of a trace."""
        items, sync = _list(d, "lanes"), _get(d, "sync", bool, False)
        if "lanes" in d and "event" in d:
            self.err(path + ("lanes",), f"{self.where(path)} has both 'event' and 'lanes' (expected "
                     "one of them: event: N records one lane, lanes: [...] several, each record "
                     "tagged with the lanes that fired)")
        if sync and (not items or dc.mode != "sink"):
            self.err(path + ("sync",), f"sync: true in {self.where(path)} needs mode: sink and a "
                     f"'lanes' list (this trace: mode {dc.mode}{', no lanes' if not items else ''}; "
                     "the sync is a tag bit written through the sink's CONTROL register)")
            sync = False
        lanes, names = [], []
        for i, it in enumerate(items):
            ip = path + ("lanes", i)
            lane = self.lane_number(it.get("lane") if isinstance(it, dict) else it,
                                    ip + (("lane",) if isinstance(it, dict) else ()), itf)
            if lane is None:
                continue
            if lane in lanes:
                self.err(ip, f"lane {lane} is listed twice in 'lanes' of {self.where(path)} "
                         "(expected each lane once)")
                continue
            label = interfacers.kind(itf.type).lane_label(itf.params, lane) if itf else None
            lanes.append(lane)
            names.append(it.get("name") if isinstance(it, dict) and it.get("name")
                         else it if isinstance(it, str) else label or f"lane{lane}")
        dc.lanes, dc.lane_names, dc.sync = tuple(lanes), tuple(names), sync and bool(lanes)
        if lanes:
            dc.event = lanes[0]

    def spans(self, d, path, dc: Dcapf) -> None:
        """`spans:` of a trace: begin/end lanes of its `lanes`, or neither (the level)."""
        out, named = [], []
        for i, sp in enumerate(_list(d, "spans")):
            sp_path = path + ("spans", i)
            if not isinstance(sp, dict) or not isinstance(sp.get("name"), str):
                continue
            named.append((sp["name"], sp_path))
            ends = [self.span_lane(sp, sp_path, k, dc) for k in ("begin", "end")]
            if ("begin" in sp) != ("end" in sp):
                self.err(sp_path, f"span '{sp['name']}' in {self.where(path)} has "
                         f"'{'begin' if 'begin' in sp else 'end'}' only (expected both begin and end "
                         "lanes, or neither: the event value opens (non-zero) and closes (zero) it)")
                continue
            if "begin" in sp and ends[0] is not None and ends[0] == ends[1]:
                self.err(sp_path + ("end",), f"span '{sp['name']}' in {self.where(path)} begins and "
                         "ends on the same lane (expected two different lanes)")
                continue
            if None in ends and "begin" in sp:
                continue
            out.append(Span(sp["name"], *(e if e is not None else -1 for e in ends),
                            by_id=sp.get("id", "value") == "value", track_value=sp.get("track") == "value"))
        self.unique(named, "span", f"{self.where(path)}'s spans")
        dc.spans = tuple(out)

    def span_lane(self, sp: dict, path, key: str, dc: Dcapf) -> int | None:
        """The tag bit of a span's begin or end lane (a number or a name of the trace's lanes)."""
        if key not in sp:
            return None
        v = sp[key]
        if not dc.lanes:
            self.err(path + (key,), f"span '{sp['name']}' of {self.where(path[:-2])}: '{key}' needs a "
                     "'lanes' list in the trace (expected lanes: [...] naming the lanes that begin and "
                     "end it, or a span without begin/end: the event value opens and closes it)")
            return None
        for bit, (lane, name) in enumerate(zip(dc.lanes, dc.lane_names)):
            if v == name or (isinstance(v, int) and not isinstance(v, bool) and v == lane):
                return bit
        listed = ", ".join(f"{n} ({ln})" for ln, n in zip(dc.lanes, dc.lane_names))
        self.err(path + (key,), f"span '{sp['name']}' {key} {show(v)} is not a lane of "
                 f"{self.where(path[:-2])} (expected one of its lanes: {listed})")
        return None
