# SPDX-License-Identifier: MIT
"""Descriptor file backend: <name>.jdesc, the binary form of <name>_cfg.

The same values the C table (templates/c/desc.c.j2) prints, packed into the
little-endian records of doc/descriptor-file.md, so one generic `jointer`
binary (and the Python package) serves every monitor by reading this file.
The layout constants below are the format; drivers/src/jointer_descfile.c
reads it.
"""

from __future__ import annotations

import struct
import zlib

from ..model import datapath, layout
from ..model.views import Design
from . import OutFile
from . import c as c_backend

MAGIC = b"JDSC"
FORMAT_VERSION = 3                             # 2: 64-bit filter bounds, a sniffer's data width;
                                               # 3: a trace's lanes, spans and clock name, an LMIC's clock
HEADER = struct.Struct("<4sHHII6IQIBBH4H")   # 64 bytes
LMIC = struct.Struct("<IIHBBII")               # 20 (12 in formats 1 and 2: no clock)
SNIFFER = struct.Struct("<IBBBBBB2x")          # 12
METRIC = struct.Struct("<3I2QHBBBBBBbBH")      # 40
TRACE = struct.Struct("<7IHBBBb8BHI")         # 48 (40 in formats 1 and 2)
LANE = struct.Struct("<I")                     # a lane's name
SPAN = struct.Struct("<IBBBx")                 # 8
SPAN_LEVEL = 0xFF                              # begin/end of a span the event value opens and closes
SPAN_BY_ID, SPAN_TRACK_VALUE = 0x01, 0x02
NO_BOUNDS = 0xFFFF                             # metric.bounds: NULL (pow2 or not a histogram)
NO_OFFSET = 0xFFFFFFFF
EXTRACTOR = {"event": 0, "time": 1, "trace": 2}
AGGREGATOR = {"sum": 0, "max": 1, "min": 2, "last": 3, "histogram": 4, "mean": 5}
FLAG_WRAP, FLAG_THRESHOLD, FLAG_FILTER = 0x01, 0x02, 0x04
CRC_FROM = 16                                  # the CRC covers bytes [16, file length)


class Strings:
    """The string table: NUL-terminated names, each stored once, by offset."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.where: dict[str, int] = {}

    def add(self, text: str) -> int:
        if text not in self.where:
            self.where[text] = len(self.data)
            self.data += text.encode("ascii") + b"\0"
        return self.where[text]


def _lmics(d: Design, lmics: list[dict], st: Strings) -> bytes:
    return b"".join(LMIC.pack(st.add(l["name"]), d.layout.lmic_base(i), l["first_sniffer"], l["num_sniffers"],
                              l["num_irq"], l["clock_hz"], st.add(l["clock"])) for i, l in enumerate(lmics))


def _sniffers(d: Design, st: Strings) -> bytes:
    out = b""
    for lv in d.lmics:
        for sv in lv.sniffers:
            addresses, pc_width = sv.model.interfacer.kind.pm_fields(sv.model)
            out += SNIFFER.pack(st.add(sv.model.name), lv.index, sv.index, len(sv.model.dcapfs),
                                addresses, pc_width, datapath.data_width(sv.model))
    return out


def _metric(m: dict, st: Strings, pool: list[int]) -> bytes:
    flags = ((FLAG_WRAP if m["wrap"] else 0) | (FLAG_THRESHOLD if m["threshold_irq"] else 0)
             | (FLAG_FILTER if m["has_filter"] else 0))
    bounds = NO_BOUNDS
    if m["aggregator"] == "histogram" and m["boundaries"] != "pow2":
        bounds = len(pool)
        pool.extend(m["boundaries"])
    buckets = m["buckets"] if m["buckets"] > 1 else 0
    thr = m["threshold_offset"] if m["threshold_irq"] else NO_OFFSET
    return METRIC.pack(st.add(m["name"]), m["result_offset"], thr, m["low"], m["high"], m["sniffer"],
                       m["lmic"], m["dcapf"], m["width"], EXTRACTOR[m["extractor"]],
                       AGGREGATOR[m["aggregator"]], flags, m["irq_bit"], buckets, bounds)


def _trace(d: Design, t: dict, st: Strings) -> bytes:
    sink = t["sink_bytes"] != 0
    relay = t["mode"] == "relay"
    ring_log2 = _sink_of(d, t["name"]).ring_log2 if sink else 0
    return TRACE.pack(st.add(t["name"]), t["reg_offset"], t["ram_offset"], t["depth"] if not sink else 0,
                      t["low"], t["high"], t["clock_hz"], t["sniffer"], t["lmic"],
                      t["dcapf"], 1 if t["ring"] else 0, t["irq_bit"], 1 if t["has_filter"] else 0,
                      1 if relay else 0, t["sink_bytes"], t["encoding"] if sink else 0, ring_log2,
                      len(t["lanes"]), 1 if t["sync"] else 0, len(t["spans"]), 0, st.add(t["clock"]))


def _lanes_spans(traces, st: Strings) -> bytes:
    """The lane-name table, then the span table, of every trace in trace order."""
    lanes = b"".join(LANE.pack(st.add(n)) for t in traces for n in t["lane_names"])
    spans = b"".join(SPAN.pack(st.add(sp.name), SPAN_LEVEL if sp.begin < 0 else sp.begin,
                               SPAN_LEVEL if sp.end < 0 else sp.end,
                               (SPAN_BY_ID if sp.by_id else 0) | (SPAN_TRACK_VALUE if sp.track_value else 0))
                     for t in traces for sp in t["spans"])
    return lanes + spans


def _sink_of(d: Design, name: str):
    return next(x for x in d.monitor.dcapfs() if x.name == name).sink


def encode(d: Design) -> bytes:
    """The descriptor file of the elaborated design (doc/descriptor-file.md)."""
    st = Strings()
    name = st.add(d.name)
    lmics = _lmics(d, c_backend.context(d)["lmics"], st)
    sniffers = _sniffers(d, st)
    pool: list[int] = []
    metrics = b"".join(_metric(m, st, pool) for m in d.metrics)
    traces = b"".join(_trace(d, t, st) for t in d.traces)
    tables = _lanes_spans(d.traces, st)
    body = lmics + sniffers + metrics + traces + struct.pack(f"<{len(pool)}I", *pool) + tables + bytes(st.data)
    num_dcapfs = sum(len(s.model.dcapfs) for s in d.sniffers)
    length = HEADER.size + len(body)
    head = HEADER.pack(MAGIC, FORMAT_VERSION, HEADER.size, length, 0, d.config_hash, layout.VERSION_VALUE,
                       d.info, d.layout.span, d.layout.window, d.bus_clock_hz, d.monitor.bus.base_address,
                       name, len(d.lmics), 0, len(d.sniffers), len(d.metrics), len(d.traces), num_dcapfs,
                       len(pool))
    crc = zlib.crc32(head[CRC_FROM:] + body) & 0xFFFFFFFF
    return head[:12] + struct.pack("<I", crc) + head[CRC_FROM:] + body


def emit(d: Design) -> list[OutFile]:
    """The descriptor file, for the generic CLI, and its copy in the C bundle."""
    data = encode(d)
    return [OutFile(f"{d.name}.jdesc", data, "descriptor"), OutFile(f"c/{d.name}.jdesc", data, "c-descriptor-file")]
