# SPDX-License-Identifier: MIT
"""The register map as C macros (<name>_regs.h, drivers/README.md naming), C
descriptor rows (metrics, traces) and documentation rows, from the layout.
"""

from __future__ import annotations

from . import datapath, layout as layout_mod
from .monitor import MASK32, Dcapf, Monitor
from .identifiers import GENERATED
from .views import Design
from .views import frozen_row
from typing import NamedTuple


class RegDoc(NamedTuple):
    """The documentation of a register: its access and its description."""
    access: str              # ro | rw | wo | rw1c
    desc: str


def c_hex(v: int) -> str:
    """A C constant: 0x...u, or 0x...ull above 32 bits (a 64-bit filter bound)."""
    return f"0x{v:X}u" if v <= 0xFFFFFFFF else f"0x{v:X}ull"


def c_dec(v: int) -> str:
    return f"{v}u"


def c_hex32(v: int) -> str:
    """A 32-bit register value, all 8 digits: 0x0000ABCDu."""
    return f"0x{v:08X}u"


def _words_suffix(k: int, words: int) -> str:
    """[k] after a register name when the value takes more than one word."""
    return f"[{k}]" if words > 1 else ""


def _bits_text(k: int, width: int, words: int) -> str:
    """, bits hi..lo of word k of a multi-word value."""
    return f", bits {min(32 * k + 31, width - 1)}..{32 * k}" if words > 1 else ""


def c_and_docs(d: Design) -> tuple[tuple, tuple]:
    """(C macro sections of <name>_regs.h (drivers/README.md naming), register map sorted by offset)."""
    sections = [_monitor_section(d), _global_section(d)]
    regmap = _global_regmap(d)
    for lv in d.lmics:
        s, r = _lmic_docs(d, lv)
        sections += s
        regmap += r
    digits = max(3, (d.addr_width + 3) // 4)        # the docs' offset column
    return tuple(sections), tuple(frozen_row({**r, "offset_text": _offset_text(r, digits)})
                                  for r in sorted(regmap, key=lambda r: r["offset"]))


def _offset_text(row: dict, digits: int) -> str:
    """0x010, or 0x100..0x1FC for a range."""
    return f"0x{row['offset']:0{digits}X}" + (f"..0x{row['end']:0{digits}X}" if "end" in row else "")


def _section(d: Design, title: str, owner: str, path: tuple, rows):
    """A block of macros of <name>_regs.h: rows (name without the prefix, value, comment)."""
    return frozen_row({"title": title, "owner": owner, "path": path,
                       "rows": tuple((f"{d.NAME}_{n}", v, c) for n, v, c in rows)})


def _monitor_section(d: Design) -> dict:
    L = d.layout
    return _section(d, d.monitor.description or f"monitor {d.name}", GENERATED, d.monitor.path, [
        ("CONFIG_HASH", c_hex32(d.config_hash), "CRC-32 of the normalised description"),
        ("BASE_ADDRESS", c_hex(d.monitor.bus.base_address), "bus.base_address"),
        ("SPAN", c_hex(L.span), "bytes of the register space"),
        ("WINDOW", c_hex(L.window), "bytes per window (global block, each LMIC)"),
        ("NUM_LMICS", c_dec(len(d.lmics)), ""),
        ("NUM_SNIFFERS", c_dec(len(d.sniffers)), ""),
        ("NUM_METRICS", c_dec(len(d.metrics)), "result DCAPFs"),
        ("NUM_TRACES", c_dec(len(d.traces)), "trace DCAPFs"),
        ("NUM_DCAPFS", c_dec(sum(len(s.model.dcapfs) for s in d.sniffers)),
         "all DCAPFs: 2 INIT words each (4 on a sniffer whose event data exceeds 32 bits)"),
        ("BOUNDS_WORDS", c_dec(sum(2 * datapath.init_words(s.model) * len(s.model.dcapfs) for s in d.sniffers)),
         "the driver's filter-bounds cache (jointer_attach_bounds): every DCAPF's INIT words"),
        ("ADDR_WIDTH", c_dec(d.addr_width), "s_axi address bits"),
        ("INFO", c_hex32(d.info), "value of the global INFO register"),
        ("BUS_CLOCK_HZ", c_dec(d.bus_clock_hz), "0: unknown (no period_ns)"),
    ])


def _global_section(d: Design) -> dict:
    def has(bit: int) -> str:
        return c_dec(int(bool(d.info & bit)))
    return _section(d, "global block (window 0) and CONTROL/STATUS fields", GENERATED, d.monitor.path,
                    [(f"REG_{reg}", c_hex(4 * w), "") for reg, w in layout_mod.GLOBAL_REGS.items()]
                    + [("ID_VALUE", c_hex32(layout_mod.ID_VALUE), "ID register: \"JNTR\""),
                       ("VERSION_VALUE", c_hex32(layout_mod.VERSION_VALUE), "VERSION register: 2.0.0"),
                       ("HAS_TIMESTAMP", has(layout_mod.INFO_TIMESTAMP), "INFO[17]: TIMESTAMP_LO/HI"),
                       ("HAS_MARK", has(layout_mod.INFO_MARK), "INFO[18]: MARK"),
                       ("HAS_SCRATCH", has(layout_mod.INFO_SCRATCH), "INFO[19]: SCRATCH"),
                       ("HAS_DESC_ROM", has(layout_mod.INFO_DESC_ROM),
                        "INFO[20]: DESC_INDEX/DESC_DATA (descriptor ROM)"),
                       ("CONTROL_RUN", c_hex(layout_mod.CONTROL_RUN), "CONTROL bit 0"),
                       ("CONTROL_SOFT_RESET", c_hex(layout_mod.CONTROL_SOFT_RESET), "CONTROL bit 1, write-1 pulse")]
                    + [(f"PROG_{k}", c_hex(v), "PROG value" if k == "IDLE" else "")
                       for k, v in layout_mod.PROG.items()])


def _global_regmap(d: Design) -> list[dict]:
    """The global block's registers that exist in this monitor."""
    info = d.info
    present = {"TIMESTAMP_LO": info & layout_mod.INFO_TIMESTAMP, "TIMESTAMP_HI": info & layout_mod.INFO_TIMESTAMP,
               "MARK": info & layout_mod.INFO_MARK, "SCRATCH": info & layout_mod.INFO_SCRATCH,
               "DESC_INDEX": info & layout_mod.INFO_DESC_ROM, "DESC_DATA": info & layout_mod.INFO_DESC_ROM}
    resets = {"ID": layout_mod.ID_VALUE, "VERSION": layout_mod.VERSION_VALUE, "CONFIG_HASH": d.config_hash,
              "INFO": info}
    return [{"offset": 4 * w, "name": reg, "access": GLOBAL_DOC[reg].access, "desc": GLOBAL_DOC[reg].desc,
             "reset": resets.get(reg, 0)}
            for reg, w in layout_mod.GLOBAL_REGS.items() if present.get(reg, 1)]


LMIC_DOC = {"CONTROL": RegDoc("rw", "bit 0 RUN, bit 1 SOFT_RESET (write-1 pulse), bits 2+2i..3+2i PROG of sniffer i"),
            "STATUS": RegDoc("ro", "bit i VALID of sniffer i, bit 16+i OVERFLOW of sniffer i"),
            "IRQ_STATUS": RegDoc("rw1c", "one bit per IRQ source (write 1 to clear)"),
            "IRQ_ENABLE": RegDoc("rw", "IRQ source mask")}


def _lmic_docs(d: Design, lv) -> tuple[list, list]:
    """The sections and register-map rows of LMIC lv: its own registers, its
    sniffers, metrics, thresholds and traces."""
    L, ll, li, ln = d.layout, lv.layout, lv.index, lv.model.name
    rows = [(f"LMIC_{ln.upper()}", c_dec(li), "LMIC index"), (f"{ln.upper()}_BASE", c_hex(L.lmic_base(li)), "window base")]
    rows += [(f"{ln.upper()}_{reg}", c_hex(L.lmic_reg(li, w)), "") for reg, w in layout_mod.LMIC_REGS.items()]
    rows.append((f"{ln.upper()}_NUM_IRQ", c_dec(ll.num_irq), "IRQ source bits used"))
    sections = [_section(d, f"LMIC {ln} (window {li + 1}, clock {lv.clock})", f"LMIC '{ln}'",
                         lv.model.path + ("name",), rows)]
    regmap = [{"offset": L.lmic_reg(li, layout_mod.LMIC_REGS[reg]), "name": f"{ln}.{reg}", "access": doc.access,
               "desc": doc.desc} for reg, doc in LMIC_DOC.items()]
    for sv in lv.sniffers:
        sections.append(_sniffer_section(d, lv, sv))
        regmap.append(_init_row(d, lv, sv))
    for dl in ll.dcapfs:
        sections.append(_metric_section(d, dl))
        regmap += _metric_regmap(d, li, ln, dl)
    regmap += [r for dl in ll.dcapfs if dl.threshold_word >= 0 for r in _threshold_regmap(d, li, ln, dl)]
    for tl in ll.traces:
        s, r = (_sink_rows if tl.sink else _trace_rows)(d, tl, d.trace(tl.name), ln)
        sections.append(s)
        regmap += r
    return sections, regmap


def _sniffer_section(d: Design, lv, sv) -> dict:
    L, li, Sn = d.layout, lv.index, sv.model.name.upper()
    shift = layout_mod.prog_shift(sv.index)
    return _section(d, f"sniffer {lv.model.name}.{sv.model.name}: {sv.summary}", f"sniffer '{sv.model.name}'",
                    sv.model.path + ("name",), [
                        (f"SNIFFER_{Sn}", c_dec(sv.index), "index inside its LMIC (PROG field)"),
                        (f"{Sn}_LMIC", c_dec(li), ""),
                        (f"{Sn}_INIT", c_hex(L.lmic_reg(li, lv.layout.init_word(sv.index))), "INIT register"),
                        (f"{Sn}_PROG_SHIFT", c_dec(shift), "PROG field in CONTROL"),
                        (f"{Sn}_PROG_MASK", c_hex(3 << shift), ""),
                        (f"{Sn}_VALID_MASK", c_hex(1 << sv.index), "in STATUS"),
                        (f"{Sn}_OVERFLOW_MASK", c_hex(1 << (layout_mod.STATUS_OVERFLOW_SHIFT + sv.index)), "in STATUS"),
                        (f"{Sn}_NUM_DCAPFS", c_dec(len(sv.model.dcapfs)),
                         f"INIT takes {2 * datapath.init_words(sv.model)} words per DCAPF"),
                    ])


def _init_row(d: Design, lv, sv) -> dict:
    nofilter = [x.name for x in sv.model.dcapfs if not x.has_filter]
    return {"offset": d.layout.lmic_reg(lv.index, lv.layout.init_word(sv.index)),
            "name": f"{lv.model.name}.INIT[{sv.index}]", "access": "wo",
            "desc": f"sniffer {sv.model.name}: filter bounds in INIT mode, low then high per DCAPF" + (
                f" ({', '.join(nofilter)}: no filter, {'its' if len(nofilter) == 1 else 'their'} words ignored)"
                if nofilter else "")}


def _filter_rows(P: str, row: dict) -> list[tuple]:
    """The filter macros of a metric or trace (its descriptor row)."""
    return [(f"{P}_HAS_FILTER", c_dec(int(row["has_filter"])),
             "1: Init DCAPF + filter; 0: no filter (jointer_initialize: -ENOTSUP)"),
            (f"{P}_LOW_RESET", c_hex(row["low"]), "filter bounds after reset" if row["has_filter"]
             else "no filter: what the driver writes as its INIT words (ignored)"),
            (f"{P}_HIGH_RESET", c_hex(row["high"]), "")]


def _metric_section(d: Design, dl) -> dict:
    m, M = d.metric(dl.name), dl.name.upper()
    words = layout_mod.words_of(dl.width)
    mask = (1 << dl.width) - 1
    rows = [(f"METRIC_{M}", c_dec(m["index"]), f"index into {d.name}_cfg.metrics"),
            (f"{M}_RESULT", c_hex(m["result_offset"]), "least significant word"),
            (f"{M}_WIDTH", c_dec(dl.width), "result bits"),
            (f"{M}_DCAPF", c_dec(dl.index), "DCAPF index inside its sniffer (INIT order)"),
            (f"{M}_RESULT_WORDS", c_dec(words), ""),
            (f"{M}_MASK_LO", c_hex(mask & MASK32), "valid bits of RESULT word 0"),
            (f"{M}_MASK_HI", c_hex(mask >> 32), "valid bits of RESULT word 1")] + _filter_rows(M, m)
    if dl.buckets > 1:                  # histogram (or mean: sum, count)
        rows += [(f"{M}_BUCKETS", c_dec(dl.buckets), "mean: 2 slots, sum then count"
                  if m["aggregator"] == "mean" else "histogram buckets"),
                 (f"{M}_BUCKET_STRIDE", c_hex(4 * words), "bytes from one bucket to the next; "
                  "reading bucket 0's first word snapshots all the others")]
    if dl.threshold_word >= 0:
        rows += [(f"{M}_THRESHOLD", c_hex(m["threshold_offset"]), "least significant word"),
                 (f"{M}_IRQ_BIT", c_dec(dl.irq_bit), "in its LMIC's IRQ_STATUS/IRQ_ENABLE"),
                 (f"{M}_IRQ_MASK", c_hex(1 << dl.irq_bit), "")]
    return _section(d, f"metric {dl.name} ({dl.sniffer_name}, DCAPF {dl.index}, {m['extractor']}, "
                    f"{m['aggregator']}, {dl.width} bits)", f"DCAPF '{dl.name}'",
                    dcapf_of(d, dl.name).path + ("name",), rows)


def _metric_regmap(d: Design, li: int, ln: str, dl) -> list[dict]:
    """The RESULT words of a metric: sum and count of a mean, the buckets of a histogram, or the result."""
    L, M, words = d.layout, dl.name.upper(), layout_mod.words_of(dl.width)
    if dl.buckets > 1 and d.metric(dl.name)["aggregator"] == "mean":
        return [{"offset": L.lmic_reg(li, dl.bucket_word(b, k)),
                 "name": f"{ln}.{M}.{what}" + _words_suffix(k, words), "access": "ro",
                 "desc": f"{what.lower()} of the samples" + _bits_text(k, dl.width, words)
                 + (" (reading it snapshots the count)" if b == 0 and k == 0
                    else " (the snapshot taken by reading SUM word 0)")}
                for b, what in enumerate(("SUM", "COUNT")) for k in range(words)]
    if dl.buckets > 1:                  # histogram
        return [{"offset": L.lmic_reg(li, dl.bucket_word(b, k)),
                 "name": f"{ln}.{M}.BUCKET{b}" + _words_suffix(k, words), "access": "ro",
                 "desc": f"samples in [{lo}, {'inf' if hi is None else hi})" + _bits_text(k, dl.width, words)
                 + (" (reading it snapshots every other bucket word)" if b == 0 and k == 0
                    else " (the snapshot taken by reading bucket 0 word 0)")}
                for b, (lo, hi) in enumerate(dcapf_of(d, dl.name).histogram_buckets()) for k in range(words)]
    return [{"offset": L.lmic_reg(li, dl.result_word + k), "name": f"{ln}.{M}" + _words_suffix(k, words),
             "access": "ro", "desc": f"result of {dl.name}" + (
                 _bits_text(k, dl.width, words) + (" (the snapshot taken by reading word 0)" if k else
                                                   " (reading it snapshots the upper word)")
                 if words > 1 else "")}
            for k in range(words)]


def _threshold_regmap(d: Design, li: int, ln: str, dl) -> list[dict]:
    words = layout_mod.words_of(dl.width)
    return [{"offset": d.layout.lmic_reg(li, dl.threshold_word + k),
             "name": f"{ln}.{dl.name.upper()}_THRESHOLD" + _words_suffix(k, words), "access": "rw",
             "reset": (((1 << dl.width) - 1) >> (32 * k)) & MASK32,
             "desc": f"IRQ bit {dl.irq_bit} when {dl.name} >= threshold"
             + (" (writing the last word commits)" if words > 1 else "")}
            for k in range(words)]


def _trace_rows(d: Design, tl, t: dict, ln: str) -> tuple[dict, list]:
    """C macros and register-map rows of a trace with a RAM window."""
    T, reg = tl.name.upper(), t["reg_offset"]
    rows = [(f"TRACE_{T}", c_dec(t["index"]), f"index into {d.name}_cfg.traces"),
            (f"{T}_REGS", c_hex(reg), "WPTR; FILL, STATUS, WATERMARK, DEPTH follow")]
    rows += [(f"{T}_RELAY", "1", "relay: RPTR, ACK, LOST follow DEPTH")] if tl.relay else []
    rows += [(f"{T}_RAM", c_hex(t["ram_offset"]), "record i: word 2i timestamp, 2i+1 data"),
             (f"{T}_DEPTH", c_dec(tl.depth), "records"),
             (f"{T}_DCAPF", c_dec(tl.index), "DCAPF index inside its sniffer (INIT order)"),
             (f"{T}_IRQ_MASK", c_hex(3 << tl.irq_bit), "watermark | full"),
             (f"{T}_WATERMARK_IRQ_MASK", c_hex(1 << tl.irq_bit), ""),
             (f"{T}_FULL_IRQ_MASK", c_hex(1 << (tl.irq_bit + 1)), "")] + _filter_rows(T, t)
    section = _section(d, f"trace {tl.name} ({tl.sniffer_name}, DCAPF {tl.index}, {tl.depth} records, "
                       f"{'ring' if t['ring'] else 'relay' if t['mode'] == 'relay' else 'stop when full'})",
                       f"DCAPF '{tl.name}'", dcapf_of(d, tl.name).path + ("name",), rows)
    regmap = [{"offset": reg + 4 * w, "name": f"{ln}.{T}_{reg_name}",
               "access": "rw" if reg_name == "WATERMARK" else "ro",
               "desc": TRACE_DOC[reg_name], "reset": tl.depth if reg_name == "DEPTH" else 0}
              for reg_name, w in layout_mod.TRACE_REGS.items()]
    if tl.relay:
        regmap += [{"offset": reg + 4 * w, "name": f"{ln}.{T}_{reg_name}",
                    "access": "wo" if reg_name == "ACK" else "ro", "desc": RELAY_DOC[reg_name]}
                   for reg_name, w in layout_mod.RELAY_REGS.items()]
    regmap.append({"offset": t["ram_offset"], "end": t["ram_offset"] + 8 * tl.depth - 4,
                   "name": f"{ln}.{T}_RAM", "access": "ro",
                   "desc": f"{tl.depth} records: word 2i timestamp, word 2i+1 data"})
    return section, regmap


def _sink_rows(d: Design, tl, t: dict, ln: str) -> tuple[dict, list]:
    """C macros and register-map rows of a sink trace (mode: sink)."""
    T, reg = tl.name.upper(), t["reg_offset"]
    sk = dcapf_of(d, tl.name).sink
    rows = [(f"TRACE_{T}", c_dec(t["index"]), f"index into {d.name}_cfg.traces"),
            (f"{T}_REGS", c_hex(reg), "WPTR; RPTR, STATUS, WATERMARK, BASE, SIZE, CONTROL, LOST follow"),
            (f"{T}_RAM", "0x0u", "a sink has no RAM window: its records are in the ring in memory"),
            (f"{T}_DEPTH", "0u", "a sink: the ring's size is SIZE (bytes)"),
            (f"{T}_SINK_BYTES", c_dec(tl.sink_bytes), "memory data width in bytes (m_axi_" + tl.name + "_wdata)"),
            (f"{T}_ENCODING", c_dec(tl.encoding),
             "JOINTER_ENCODING_" + ("RAW" if tl.encoding == 0 else "COMPACT")),
            (f"{T}_RING_BYTES", c_hex(sk.ring_bytes), "size of the .dtsi's reserved-memory region"),
            (f"{T}_RING_LOG2", c_dec(sk.ring_log2), "largest ring the sink addresses: 2^this bytes"),
            (f"{T}_FIFO_DEPTH", c_dec(sk.fifo_depth), "records the sink's FIFO holds"),
            (f"{T}_DCAPF", c_dec(tl.index), "DCAPF index inside its sniffer (INIT order)"),
            (f"{T}_IRQ_MASK", c_hex(3 << tl.irq_bit), "watermark | error"),
            (f"{T}_WATERMARK_IRQ_MASK", c_hex(1 << tl.irq_bit), ""),
            (f"{T}_ERROR_IRQ_MASK", c_hex(1 << (tl.irq_bit + 1)), "STATUS.ERROR rises (a BRESP error)")] \
        + _filter_rows(T, t)
    section = _section(d, f"trace {tl.name} ({tl.sniffer_name}, DCAPF {tl.index}, sink: {sk.data_width}-bit "
                       f"AXI4 master m_axi_{tl.name}, {sk.encoding} encoding)",
                       f"DCAPF '{tl.name}'", dcapf_of(d, tl.name).path + ("name",), rows)
    regmap = [{"offset": reg + 4 * w, "name": f"{ln}.{T}_{reg_name}",
               "access": SINK_DOC[reg_name].access, "desc": SINK_DOC[reg_name].desc, "reset": 0}
              for reg_name, w in layout_mod.SINK_REGS.items()]
    return section, regmap


SINK_DOC = {"WPTR": RegDoc("ro", "sink: ring offset (bytes) of the next record written and acknowledged"),
            "RPTR": RegDoc("rw", "sink: the host's read offset (bytes; low 3 bits ignored); the sink never "
                           "writes [RPTR, RPTR + 8)"),
            "STATUS": RegDoc("ro", "sink: bit 0 ERROR (a BRESP error: stopped until CLEAR), bit 1 CONFIG_ERROR "
                             "(BASE/SIZE refused), bit 2 BUSY (bursts outstanding)"),
            "WATERMARK": RegDoc("rw", "sink: IRQ when (WPTR - RPTR) mod SIZE >= WATERMARK bytes (0: off)"),
            "BASE": RegDoc("rw", "sink: ring address in memory, 4 KB aligned"),
            "SIZE": RegDoc("rw", "sink: ring bytes, a non-zero multiple of 4 KB"),
            "CONTROL": RegDoc("rw", "sink: bit 0 ENABLE, bit 1 CLEAR (pulse, reads 0: drain, then WPTR, LOST, "
                              "errors 0)"),
            "LOST": RegDoc("ro", "sink: records dropped because the FIFO was full (saturating)")}
GLOBAL_DOC = {"ID": RegDoc("ro", f"0x{layout_mod.ID_VALUE:08X} (\"JNTR\")"),
              "VERSION": RegDoc("ro", f"0x{layout_mod.VERSION_VALUE:08X} (2.0.0)"),
              "CONFIG_HASH": RegDoc("ro", "hash of the description this monitor was generated from"),
              "INFO": RegDoc("ro", "[7:0] LMICs, [15:8] log2 window bytes, [16] strict decoding, "
                             "[17] TIMESTAMP, [18] MARK, [19] SCRATCH, [20] descriptor ROM present"),
              "IRQ_STATUS": RegDoc("ro", "bit i: LMIC i has an enabled pending interrupt source"),
              "IRQ_ENABLE": RegDoc("rw", "bit i enables LMIC i"),
              "TIMESTAMP_LO": RegDoc("ro", "bus cycles since reset, low word (reading it snapshots HI)"),
              "TIMESTAMP_HI": RegDoc("ro", "the snapshot's high word"),
              "MARK": RegDoc("wo", "a write of VAL emits one event {data = VAL} to the mark sniffer"),
              "SCRATCH": RegDoc("rw", "free for software"),
              "DESC_INDEX": RegDoc("rw", "word index into the descriptor ROM (keeps min(value, ROM words))"),
              "DESC_DATA": RegDoc("ro", "the descriptor ROM word at DESC_INDEX: bytes 4i..4i+3 of the monitor's "
                                  "descriptor file, little-endian; 0 beyond it")}
RELAY_DOC = {"RPTR": "slot of the oldest unread record (relay)",
             "ACK": "write N: release min(N, FILL) records read by the host (relay)",
             "LOST": "records dropped because the buffer was full, since the last clear (relay)"}
TRACE_DOC = {"WPTR": "slot the next record goes to", "FILL": "records held (saturates at DEPTH)",
             "STATUS": "bit 0 FULL, bit 1 OVERFLOW (sticky)",
             "WATERMARK": "IRQ when FILL rises to >= WATERMARK (0: off)",
             "DEPTH": "records"}


def clock_hz(mon: Monitor, clock: str) -> int:
    """Frequency of a clock of the monitor, 0 when its period_ns is not given."""
    c = next(c for c in mon.clocks if c.name == clock)
    return round(1e9 / c.period_ns) if c.period_ns else 0


def dcapf_of(d: Design, name: str) -> Dcapf:
    return d.monitor.dcapf_by_name[name]


def descriptor_rows(d: Design) -> tuple[tuple, tuple]:
    """(metrics, traces): the C/doc rows of the result and trace DCAPFs, monitor order."""
    metrics = [_metric_row(d, lv, dl) for lv in d.lmics for dl in lv.layout.dcapfs]
    traces = [_trace_row(d, lv, tl) for lv in d.lmics for tl in lv.layout.traces]
    return (tuple(frozen_row({"index": i, **m}) for i, m in enumerate(metrics)),
            tuple(frozen_row({"index": i, **t}) for i, t in enumerate(traces)))


def _sniffer(lv, name: str):
    """The sniffer view of LMIC lv called name."""
    return next(sv for sv in lv.sniffers if sv.model.name == name)


def _metric_row(d: Design, lv, dl) -> dict:
    L, dc, sv = d.layout, dcapf_of(d, dl.name), _sniffer(lv, dl.sniffer_name)
    return {"name": dl.name, "NAME": dl.name.upper(), "lmic": lv.index, "lmic_name": lv.model.name,
            "sniffer": sv.number, "sniffer_name": sv.model.name, "dcapf": dl.index,
            "width": dl.width, "words": layout_mod.words_of(dl.width),
            "extractor": dc.extractor, "aggregator": dc.aggregator, "sample": dc.sample,
            "result_offset": L.lmic_reg(lv.index, dl.result_word),
            "threshold_offset": L.lmic_reg(lv.index, dl.threshold_word) if dl.threshold_word >= 0 else None,
            "irq_bit": dl.irq_bit, "low": dc.low, "high": dc.high,
            "has_filter": dc.has_filter, "wrap": dc.wrap,
            "threshold_irq": dc.threshold_irq, "event": dc.event,
            "description": dc.description, "clock": lv.clock,
            "buckets": dl.buckets, "boundaries": dc.boundaries,
            "bucket_ranges": dc.histogram_buckets() if dc.is_histogram else []}


def _trace_row(d: Design, lv, tl) -> dict:
    L, dc, sv = d.layout, dcapf_of(d, tl.name), _sniffer(lv, tl.sniffer_name)
    return {"name": tl.name, "NAME": tl.name.upper(), "lmic": lv.index, "lmic_name": lv.model.name,
            "sniffer": sv.number, "sniffer_name": sv.model.name, "dcapf": tl.index,
            "depth": tl.depth, "ring": dc.mode == "ring", "mode": dc.mode,
            "reg_offset": L.lmic_reg(lv.index, tl.reg_word),
            "ram_offset": 0 if tl.sink else L.lmic_reg(lv.index, tl.ram_word), "irq_bit": tl.irq_bit,
            "sink_bytes": tl.sink_bytes, "encoding": tl.encoding,
            "low": dc.low, "high": dc.high, "has_filter": dc.has_filter, "event": dc.event,
            "description": dc.description,
            "clock": lv.clock, "clock_hz": clock_hz(d.monitor, lv.clock),
            "lanes": dc.lanes, "lane_names": dc.lane_names, "sync": dc.sync, "spans": dc.spans,
            "tag_bits": dc.tag_bits}
