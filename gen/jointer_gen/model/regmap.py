"""The register map as C macros (<name>_regs.h, drivers/README.md naming), C
descriptor rows (metrics, traces) and documentation rows, from the layout.
"""

from __future__ import annotations

from . import layout as layout_mod
from .monitor import MASK32, Dcapf, Monitor
from .identifiers import GENERATED
from .views import Design

def c_hex(v: int) -> str:
    return f"0x{v:X}u"


def c_dec(v: int) -> str:
    return f"{v}u"


def c_and_docs(d: Design) -> None:
    """C macros of <name>_regs.h (drivers/README.md naming) and the register map."""
    L, NAME = d.layout, d.NAME
    gen = (GENERATED, d.monitor.path)
    sections: list[dict] = []

    def section(title: str, owner, rows) -> None:
        sections.append({"title": title, "owner": owner[0], "path": owner[1],
                         "rows": [(f"{NAME}_{n}", v, c) for n, v, c in rows]})

    hz = d.bus_clock_hz
    section(d.monitor.description or f"monitor {d.name}", gen, [
        ("CONFIG_HASH", f"0x{d.config_hash:08X}u", "CRC-32 of the normalised description"),
        ("BASE_ADDRESS", c_hex(d.monitor.bus.base_address), "bus.base_address"),
        ("SPAN", c_hex(L.span), "bytes of the register space"),
        ("WINDOW", c_hex(L.window), "bytes per window (global block, each LMIC)"),
        ("NUM_LMICS", c_dec(len(d.lmics)), ""),
        ("NUM_SNIFFERS", c_dec(len(d.sniffers)), ""),
        ("NUM_METRICS", c_dec(len(d.metrics)), "result DCAPFs"),
        ("NUM_TRACES", c_dec(len(d.traces)), "trace DCAPFs"),
        ("NUM_DCAPFS", c_dec(sum(len(s.model.dcapfs) for s in d.sniffers)),
         "all DCAPFs: 2 INIT words each"),
        ("ADDR_WIDTH", c_dec(d.addr_width), "s_axi address bits"),
        ("INFO", f"0x{d.info:08X}u", "value of the global INFO register"),
        ("BUS_CLOCK_HZ", c_dec(hz), "0: unknown (no period_ns)"),
    ])
    section("global block (window 0) and CONTROL/STATUS fields", gen,
            [(f"REG_{reg}", c_hex(4 * w), "") for reg, w in layout_mod.GLOBAL_REGS.items()]
            + [("ID_VALUE", f"0x{layout_mod.ID_VALUE:08X}u", "ID register: \"JNTR\""),
               ("VERSION_VALUE", f"0x{layout_mod.VERSION_VALUE:08X}u", "VERSION register: 2.0.0"),
               ("HAS_TIMESTAMP", c_dec(int(bool(d.info & layout_mod.INFO_TIMESTAMP))), "INFO[17]: TIMESTAMP_LO/HI"),
               ("HAS_MARK", c_dec(int(bool(d.info & layout_mod.INFO_MARK))), "INFO[18]: MARK"),
               ("HAS_SCRATCH", c_dec(int(bool(d.info & layout_mod.INFO_SCRATCH))), "INFO[19]: SCRATCH"),
               ("HAS_DESC_ROM", c_dec(int(bool(d.info & layout_mod.INFO_DESC_ROM))),
                "INFO[20]: DESC_INDEX/DESC_DATA (descriptor ROM)"),
               ("CONTROL_RUN", c_hex(layout_mod.CONTROL_RUN), "CONTROL bit 0"),
               ("CONTROL_SOFT_RESET", c_hex(layout_mod.CONTROL_SOFT_RESET), "CONTROL bit 1, write-1 pulse")]
            + [(f"PROG_{k}", c_hex(v), "PROG value" if k == "IDLE" else "")
               for k, v in layout_mod.PROG.items()])
    present = {"TIMESTAMP_LO": d.info & layout_mod.INFO_TIMESTAMP,
               "TIMESTAMP_HI": d.info & layout_mod.INFO_TIMESTAMP,
               "MARK": d.info & layout_mod.INFO_MARK, "SCRATCH": d.info & layout_mod.INFO_SCRATCH,
               "DESC_INDEX": d.info & layout_mod.INFO_DESC_ROM, "DESC_DATA": d.info & layout_mod.INFO_DESC_ROM}
    resets = {"ID": layout_mod.ID_VALUE, "VERSION": layout_mod.VERSION_VALUE, "CONFIG_HASH": d.config_hash,
              "INFO": d.info}
    regmap = [{"offset": 4 * w, "name": reg, "access": acc, "desc": desc, "reset": resets.get(reg, 0)}
              for (reg, w), (acc, desc) in zip(layout_mod.GLOBAL_REGS.items(), GLOBAL_DOC)
              if present.get(reg, 1)]
    for lv in d.lmics:
        ll, li, ln = lv.layout, lv.index, lv.model.name
        Ln = ln.upper()
        rows = [(f"LMIC_{Ln}", c_dec(li), "LMIC index"),
                (f"{Ln}_BASE", c_hex(L.lmic_base(li)), "window base")]
        rows += [(f"{Ln}_{reg}", c_hex(L.lmic_reg(li, w)), "") for reg, w in layout_mod.LMIC_REGS.items()]
        rows.append((f"{Ln}_NUM_IRQ", c_dec(ll.num_irq), "IRQ source bits used"))
        section(f"LMIC {ln} (window {li + 1}, clock {lv.clock})",
                (f"LMIC '{ln}'", lv.model.path + ("name",)), rows)
        regmap += [{"offset": L.lmic_reg(li, 0), "name": f"{ln}.CONTROL", "access": "rw",
                    "desc": "bit 0 RUN, bit 1 SOFT_RESET (write-1 pulse), bits 2+2i..3+2i PROG of sniffer i"},
                   {"offset": L.lmic_reg(li, 1), "name": f"{ln}.STATUS", "access": "ro",
                    "desc": "bit i VALID of sniffer i, bit 16+i OVERFLOW of sniffer i"},
                   {"offset": L.lmic_reg(li, 2), "name": f"{ln}.IRQ_STATUS", "access": "rw1c",
                    "desc": "one bit per IRQ source (write 1 to clear)"},
                   {"offset": L.lmic_reg(li, 3), "name": f"{ln}.IRQ_ENABLE", "access": "rw",
                    "desc": "IRQ source mask"}]
        for sv in lv.sniffers:
            Sn = sv.model.name.upper()
            shift = layout_mod.prog_shift(sv.index)
            init = L.lmic_reg(li, ll.init_word(sv.index))
            section(f"sniffer {ln}.{sv.model.name}: {sv.summary}",
                    (f"sniffer '{sv.model.name}'", sv.model.path + ("name",)), [
                        (f"SNIFFER_{Sn}", c_dec(sv.index), "index inside its LMIC (PROG field)"),
                        (f"{Sn}_LMIC", c_dec(li), ""),
                        (f"{Sn}_INIT", c_hex(init), "INIT register"),
                        (f"{Sn}_PROG_SHIFT", c_dec(shift), "PROG field in CONTROL"),
                        (f"{Sn}_PROG_MASK", c_hex(3 << shift), ""),
                        (f"{Sn}_VALID_MASK", c_hex(1 << sv.index), "in STATUS"),
                        (f"{Sn}_OVERFLOW_MASK", c_hex(1 << (layout_mod.STATUS_OVERFLOW_SHIFT + sv.index)), "in STATUS"),
                        (f"{Sn}_NUM_DCAPFS", c_dec(len(sv.model.dcapfs)), "INIT takes 2 words per DCAPF"),
                    ])
            nofilter = [x.name for x in sv.model.dcapfs if not x.has_filter]
            regmap.append({"offset": init, "name": f"{ln}.INIT[{sv.index}]", "access": "wo",
                           "desc": f"sniffer {sv.model.name}: filter bounds in INIT mode, "
                           "low then high per DCAPF" + (
                               f" ({', '.join(nofilter)}: no filter, "
                               f"{'its' if len(nofilter) == 1 else 'their'} words ignored)"
                               if nofilter else "")})
        for dl in ll.dcapfs:
            m = d.metric(dl.name)
            M = dl.name.upper()
            words = layout_mod.words_of(dl.width)
            mask = (1 << dl.width) - 1
            rows = [(f"METRIC_{M}", c_dec(m["index"]), f"index into {d.name}_cfg.metrics"),
                    (f"{M}_RESULT", c_hex(m["result_offset"]), "least significant word"),
                    (f"{M}_WIDTH", c_dec(dl.width), "result bits"),
                    (f"{M}_DCAPF", c_dec(dl.index), "DCAPF index inside its sniffer (INIT order)"),
                    (f"{M}_RESULT_WORDS", c_dec(words), ""),
                    (f"{M}_MASK_LO", c_hex(mask & MASK32), "valid bits of RESULT word 0"),
                    (f"{M}_MASK_HI", c_hex(mask >> 32), "valid bits of RESULT word 1"),
                    (f"{M}_HAS_FILTER", c_dec(int(m["has_filter"])),
                     "1: Init DCAPF + filter; 0: no filter (jointer_initialize: -ENOTSUP)"),
                    (f"{M}_LOW_RESET", c_hex(m["low"]), "filter bounds after reset" if m["has_filter"]
                     else "no filter: what the driver writes as its 2 (ignored) INIT words"),
                    (f"{M}_HIGH_RESET", c_hex(m["high"]), "")]
            if dl.buckets > 1:                  # histogram (or mean: sum, count)
                rows += [(f"{M}_BUCKETS", c_dec(dl.buckets), "mean: 2 slots, sum then count"
                          if m["aggregator"] == "mean" else "histogram buckets"),
                         (f"{M}_BUCKET_STRIDE", c_hex(4 * words), "bytes from one bucket to the next; "
                          "reading bucket 0's first word snapshots all the others")]
            if dl.threshold_word >= 0:
                rows += [(f"{M}_THRESHOLD", c_hex(m["threshold_offset"]), "least significant word"),
                         (f"{M}_IRQ_BIT", c_dec(dl.irq_bit), "in its LMIC's IRQ_STATUS/IRQ_ENABLE"),
                         (f"{M}_IRQ_MASK", c_hex(1 << dl.irq_bit), "")]
            section(f"metric {dl.name} ({dl.sniffer_name}, DCAPF {dl.index}, {m['extractor']}, "
                    f"{m['aggregator']}, {dl.width} bits)",
                    (f"DCAPF '{dl.name}'", dcapf_of(d, dl.name).path + ("name",)), rows)
            if dl.buckets > 1 and m["aggregator"] == "mean":   # sum, count
                for b, what in enumerate(("SUM", "COUNT")):
                    for k in range(words):
                        regmap.append({
                            "offset": L.lmic_reg(li, dl.bucket_word(b, k)),
                            "name": f"{ln}.{M}.{what}" + (f"[{k}]" if words > 1 else ""), "access": "ro",
                            "desc": f"{what.lower()} of the samples"
                            + (f", bits {min(32 * k + 31, dl.width - 1)}..{32 * k}" if words > 1 else "")
                            + (" (reading it snapshots the count)" if b == 0 and k == 0
                               else " (the snapshot taken by reading SUM word 0)")})
                continue
            if dl.buckets > 1:                  # histogram
                for b, (lo, hi) in enumerate(dcapf_of(d, dl.name).histogram_buckets()):
                    for k in range(words):
                        regmap.append({
                            "offset": L.lmic_reg(li, dl.bucket_word(b, k)),
                            "name": f"{ln}.{M}.BUCKET{b}" + (f"[{k}]" if words > 1 else ""),
                            "access": "ro",
                            "desc": f"samples in [{lo}, {'inf' if hi is None else hi})"
                            + (f", bits {min(32 * k + 31, dl.width - 1)}..{32 * k}" if words > 1 else "")
                            + (" (reading it snapshots every other bucket word)" if b == 0 and k == 0
                               else " (the snapshot taken by reading bucket 0 word 0)")})
                continue
            for k in range(words):
                regmap.append({"offset": L.lmic_reg(li, dl.result_word + k),
                               "name": f"{ln}.{M}" + (f"[{k}]" if words > 1 else ""), "access": "ro",
                               "desc": f"result of {dl.name}" + (
                                   f", bits {min(32 * k + 31, dl.width - 1)}..{32 * k}"
                                   + (" (the snapshot taken by reading word 0)" if k else
                                      " (reading it snapshots the upper word)")
                                   if words > 1 else "")})
        for dl in ll.dcapfs:
            if dl.threshold_word >= 0:
                words = layout_mod.words_of(dl.width)
                for k in range(words):
                    regmap.append({"offset": L.lmic_reg(li, dl.threshold_word + k),
                                   "name": f"{ln}.{dl.name.upper()}_THRESHOLD"
                                   + (f"[{k}]" if words > 1 else ""), "access": "rw",
                                   "reset": (((1 << dl.width) - 1) >> (32 * k)) & MASK32,
                                   "desc": f"IRQ bit {dl.irq_bit} when {dl.name} >= threshold"
                                   + (" (writing the last word commits)" if words > 1 else "")})
        for tl in ll.traces:
            t = d.trace(tl.name)
            T = tl.name.upper()
            reg = t["reg_offset"]
            if tl.sink:
                _sink_rows(d, tl, t, ln, section, regmap)
                continue
            rows = [(f"TRACE_{T}", c_dec(t["index"]), f"index into {d.name}_cfg.traces"),
                    (f"{T}_REGS", c_hex(reg), "WPTR; FILL, STATUS, WATERMARK, DEPTH follow"),
                    (f"{T}_RAM", c_hex(t["ram_offset"]), "record i: word 2i timestamp, 2i+1 data"),
                    (f"{T}_DEPTH", c_dec(tl.depth), "records"),
                    (f"{T}_DCAPF", c_dec(tl.index), "DCAPF index inside its sniffer (INIT order)"),
                    (f"{T}_IRQ_MASK", c_hex(3 << tl.irq_bit), "watermark | full"),
                    (f"{T}_WATERMARK_IRQ_MASK", c_hex(1 << tl.irq_bit), ""),
                    (f"{T}_FULL_IRQ_MASK", c_hex(1 << (tl.irq_bit + 1)), ""),
                    (f"{T}_HAS_FILTER", c_dec(int(t["has_filter"])),
                     "1: Init DCAPF + filter; 0: no filter (jointer_initialize: -ENOTSUP)"),
                    (f"{T}_LOW_RESET", c_hex(t["low"]), "filter bounds after reset" if t["has_filter"]
                     else "no filter: what the driver writes as its 2 (ignored) INIT words"),
                    (f"{T}_HIGH_RESET", c_hex(t["high"]), "")]
            if tl.relay:
                rows.insert(2, (f"{T}_RELAY", "1", "relay: RPTR, ACK, LOST follow DEPTH"))
            section(f"trace {tl.name} ({tl.sniffer_name}, DCAPF {tl.index}, {tl.depth} records, "
                    f"{'ring' if t['ring'] else 'relay' if t['mode'] == 'relay' else 'stop when full'})",
                    (f"DCAPF '{tl.name}'", dcapf_of(d, tl.name).path + ("name",)), rows)
            for reg_name, w in layout_mod.TRACE_REGS.items():
                regmap.append({"offset": reg + 4 * w, "name": f"{ln}.{T}_{reg_name}",
                               "access": "rw" if reg_name == "WATERMARK" else "ro",
                               "desc": TRACE_DOC[reg_name], "reset": tl.depth if reg_name == "DEPTH" else 0})
            if tl.relay:
                for reg_name, w in layout_mod.RELAY_REGS.items():
                    regmap.append({"offset": reg + 4 * w, "name": f"{ln}.{T}_{reg_name}",
                                   "access": "wo" if reg_name == "ACK" else "ro",
                                   "desc": RELAY_DOC[reg_name]})
            regmap.append({"offset": t["ram_offset"], "end": t["ram_offset"] + 8 * tl.depth - 4,
                           "name": f"{ln}.{T}_RAM", "access": "ro",
                           "desc": f"{tl.depth} records: word 2i timestamp, word 2i+1 data"})
    d.c_macros = sections
    d.register_map = sorted(regmap, key=lambda r: r["offset"])


def _sink_rows(d: Design, tl, t: dict, ln: str, section, regmap: list) -> None:
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
            (f"{T}_ERROR_IRQ_MASK", c_hex(1 << (tl.irq_bit + 1)), "STATUS.ERROR rises (a BRESP error)"),
            (f"{T}_HAS_FILTER", c_dec(int(t["has_filter"])),
             "1: Init DCAPF + filter; 0: no filter (jointer_initialize: -ENOTSUP)"),
            (f"{T}_LOW_RESET", c_hex(t["low"]), "filter bounds after reset" if t["has_filter"]
             else "no filter: what the driver writes as its 2 (ignored) INIT words"),
            (f"{T}_HIGH_RESET", c_hex(t["high"]), "")]
    section(f"trace {tl.name} ({tl.sniffer_name}, DCAPF {tl.index}, sink: {sk.data_width}-bit AXI4 master "
            f"m_axi_{tl.name}, {sk.encoding} encoding)",
            (f"DCAPF '{tl.name}'", dcapf_of(d, tl.name).path + ("name",)), rows)
    for reg_name, w in layout_mod.SINK_REGS.items():
        regmap.append({"offset": reg + 4 * w, "name": f"{ln}.{T}_{reg_name}",
                       "access": SINK_DOC[reg_name][0], "desc": SINK_DOC[reg_name][1], "reset": 0})


SINK_DOC = {"WPTR": ("ro", "sink: ring offset (bytes) of the next record written and acknowledged"),
            "RPTR": ("rw", "sink: the host's read offset (bytes; low 3 bits ignored); the sink never "
                           "writes [RPTR, RPTR + 8)"),
            "STATUS": ("ro", "sink: bit 0 ERROR (a BRESP error: stopped until CLEAR), bit 1 CONFIG_ERROR "
                             "(BASE/SIZE refused), bit 2 BUSY (bursts outstanding)"),
            "WATERMARK": ("rw", "sink: IRQ when (WPTR - RPTR) mod SIZE >= WATERMARK bytes (0: off)"),
            "BASE": ("rw", "sink: ring address in memory, 4 KB aligned"),
            "SIZE": ("rw", "sink: ring bytes, a non-zero multiple of 4 KB"),
            "CONTROL": ("rw", "sink: bit 0 ENABLE, bit 1 CLEAR (pulse, reads 0: drain, then WPTR, LOST, "
                              "errors 0)"),
            "LOST": ("ro", "sink: records dropped because the FIFO was full (saturating)")}
GLOBAL_DOC = [("ro", f"0x{layout_mod.ID_VALUE:08X} (\"JNTR\")"), ("ro", f"0x{layout_mod.VERSION_VALUE:08X} (2.0.0)"),
              ("ro", "hash of the description this monitor was generated from"),
              ("ro", "[7:0] LMICs, [15:8] log2 window bytes, [16] strict decoding, "
                     "[17] TIMESTAMP, [18] MARK, [19] SCRATCH, [20] descriptor ROM present"),
              ("ro", "bit i: LMIC i has an enabled pending interrupt source"),
              ("rw", "bit i enables LMIC i"),
              ("ro", "bus cycles since reset, low word (reading it snapshots HI)"),
              ("ro", "the snapshot's high word"),
              ("wo", "a write of VAL emits one event {data = VAL} to the mark sniffer"),
              ("rw", "free for software"),
              ("rw", "word index into the descriptor ROM (keeps min(value, ROM words))"),
              ("ro", "the descriptor ROM word at DESC_INDEX: bytes 4i..4i+3 of the monitor's "
                     "descriptor file, little-endian; 0 beyond it")]
RELAY_DOC = {"RPTR": "slot of the oldest unread record (relay)",
             "ACK": "write N: release min(N, FILL) records read by the host (relay)",
             "LOST": "records dropped because the buffer was full, since the last clear (relay)"}
TRACE_DOC = {"WPTR": "slot the next record goes to", "FILL": "records held (saturates at DEPTH)",
             "STATUS": "bit 0 FULL, bit 1 OVERFLOW (sticky)",
             "WATERMARK": "IRQ when FILL rises to >= WATERMARK (0: off)",
             "DEPTH": "records"}


def _clock_hz(mon: Monitor, clock: str) -> int:
    """Frequency of a clock of the monitor, 0 when its period_ns is not given."""
    c = next(c for c in mon.clocks if c.name == clock)
    return round(1e9 / c.period_ns) if c.period_ns else 0


def dcapf_of(d: Design, name: str) -> Dcapf:
    return next(x for x in d.monitor.dcapfs() if x.name == name)


def descriptor_rows(d: Design) -> None:
    L = d.layout
    for lv in d.lmics:
        for dl in lv.layout.dcapfs:
            dc = dcapf_of(d, dl.name)
            sv = lv.sniffers[dl.sniffer]
            d.metrics.append({
                "index": len(d.metrics), "name": dl.name, "NAME": dl.name.upper(), "lmic": lv.index, "lmic_name": lv.model.name,
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
                "bucket_ranges": dc.histogram_buckets() if dc.is_histogram else []})
        for tl in lv.layout.traces:
            dc = dcapf_of(d, tl.name)
            sv = lv.sniffers[tl.sniffer]
            d.traces.append({
                "index": len(d.traces), "name": tl.name, "NAME": tl.name.upper(), "lmic": lv.index, "lmic_name": lv.model.name,
                "sniffer": sv.number, "sniffer_name": sv.model.name, "dcapf": tl.index,
                "depth": tl.depth, "ring": dc.mode == "ring", "mode": dc.mode,
                "reg_offset": L.lmic_reg(lv.index, tl.reg_word),
                "ram_offset": 0 if tl.sink else L.lmic_reg(lv.index, tl.ram_word), "irq_bit": tl.irq_bit,
                "sink_bytes": tl.sink_bytes, "encoding": tl.encoding,
                "low": dc.low, "high": dc.high, "has_filter": dc.has_filter, "event": dc.event,
                "description": dc.description,
                "clock": lv.clock, "clock_hz": _clock_hz(d.monitor, lv.clock)})
