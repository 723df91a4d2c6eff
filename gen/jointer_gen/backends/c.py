"""C backend: <name>_regs.h, <name>.h, <name>.c and <name>_selfcheck.c.

The table rows and the self-check relations are prepared here from the
elaborated design; the templates (templates/c/) only print them. The
self-check's compile-time relations restate the layout rules of
doc/internals/layout.md in terms of the generated macros and the
driver's jointer_desc.h, so the compiler, not the generator, evaluates them.
"""

from __future__ import annotations

from ..model import layout
from ..model.regmap import c_hex
from ..model.views import Design

EXTRACTOR_C = {"event": "JOINTER_EXTRACTOR_EVENT", "time": "JOINTER_EXTRACTOR_TIME",
               "trace": "JOINTER_EXTRACTOR_TRACE"}
AGGREGATOR_C = {"sum": "JOINTER_AGGREGATOR_SUM", "max": "JOINTER_AGGREGATOR_MAX",
                "min": "JOINTER_AGGREGATOR_MIN", "last": "JOINTER_AGGREGATOR_LAST",
                "histogram": "JOINTER_AGGREGATOR_HISTOGRAM", "mean": "JOINTER_AGGREGATOR_MEAN"}


def context(d: Design) -> dict:
    N = d.NAME
    lmics, sniffers, metrics, traces = [], [], [], []
    first = 0
    for lv in d.lmics:
        lmics.append({"name": lv.model.name, "NAME": lv.model.name.upper(), "first_sniffer": first,
                      "num_sniffers": len(lv.sniffers), "num_irq": lv.layout.num_irq})
        first += len(lv.sniffers)
        for sv in lv.sniffers:
            sniffers.append({"name": sv.model.name, "NAME": sv.model.name.upper(),
                             "lmic_name": lv.model.name, "lmic": lv.index, "index": sv.index,
                             "num_dcapfs": len(sv.model.dcapfs),
                             "pm_c": sv.model.interfacer.kind.c_fields(sv.model)})
    for m in d.metrics:
        flags = (["JOINTER_METRIC_WRAP"] if m["wrap"] else []) + \
            (["JOINTER_METRIC_THRESHOLD"] if m["threshold_irq"] else []) + \
            (["JOINTER_METRIC_FILTER"] if m["has_filter"] else [])
        metrics.append({**m, "SNIFFER": m["sniffer_name"].upper(),
                        "threshold_c": f"{N}_{m['NAME']}_THRESHOLD" if m["threshold_irq"]
                        else "JOINTER_NO_OFFSET",
                        "low_c": c_hex(m["low"]), "high_c": c_hex(m["high"]),
                        "extractor_c": EXTRACTOR_C[m["extractor"]],
                        "aggregator_c": AGGREGATOR_C[m["aggregator"]],
                        "flags_c": " | ".join(flags) or "0",
                        # NULL bounds = power-of-two boundaries
                        "bounds_c": (f"{d.name}_{m['name']}_bounds" if m["aggregator"] == "histogram"
                                     and m["boundaries"] != "pow2" else "NULL"),
                        "bounds_list": ", ".join(f"{b}u" for b in m["boundaries"])
                        if m["aggregator"] == "histogram" and m["boundaries"] != "pow2" else ""})
    for t in d.traces:
        traces.append({**t, "SNIFFER": t["sniffer_name"].upper(), "low_c": c_hex(t["low"]),
                       "high_c": c_hex(t["high"]), "ring_c": 1 if t["ring"] else 0, "relay": t["mode"] == "relay", "clock_hz": t["clock_hz"],
                       "filter_c": 1 if t["has_filter"] else 0, "sink": t["sink_bytes"] != 0})
    mark = [s for s in d.sniffers if s.is_mark]
    return {"lmics": lmics, "sniffers": sniffers, "metrics": metrics, "traces": traces,
            "has_mark": bool(mark), "mark_sniffer": mark[0].model.name if mark else "",
            "static_checks": _static_checks(d), "runtime_checks": _runtime_checks(d, lmics, sniffers)}


def _mask64(width: str) -> str:
    """2^width - 1 as an unsigned long long, without shifting by 64."""
    return f"(((1ull << ({width} - 1u)) - 1ull) * 2ull + 1ull)"


def _static_checks(d: Design) -> list[dict]:
    N = d.NAME
    out = [{"title": "monitor", "checks": [
        ("span", f"{N}_SPAN == {N}_WINDOW * ({N}_NUM_LMICS + 1u)"),
        ("window_pow2", f"({N}_WINDOW & ({N}_WINDOW - 1u)) == 0u && {N}_WINDOW >= 64u"),
        ("span_fits", f"(unsigned long long){N}_SPAN <= (1ull << {N}_ADDR_WIDTH)"),
        ("base_aligned", f"{N}_BASE_ADDRESS % (1ull << {N}_ADDR_WIDTH) == 0u"),
        ("info_lmics", f"({N}_INFO & 0xFFu) == {N}_NUM_LMICS"),
        ("info_window", f"(1u << (({N}_INFO >> 8) & 0xFFu)) == {N}_WINDOW"),
        ("dcapfs", f"{N}_NUM_DCAPFS == {N}_NUM_METRICS + {N}_NUM_TRACES"),
        ("global_fits", f"JOINTER_REG_SCRATCH + 4u <= {N}_WINDOW"),
        ("id", f"{N}_ID_VALUE == JOINTER_ID_VALUE && {N}_VERSION_VALUE == JOINTER_VERSION_VALUE"),
        ("control", f"{N}_CONTROL_RUN == JOINTER_CONTROL_RUN && "
                    f"{N}_CONTROL_SOFT_RESET == JOINTER_CONTROL_SOFT_RESET"),
        ("prog", f"{N}_PROG_IDLE == JOINTER_IDLE && {N}_PROG_INIT == JOINTER_INIT && "
                 f"{N}_PROG_FILTERING == JOINTER_FILTERING && {N}_PROG_NO_FILTERING == JOINTER_NO_FILTERING"),
    ] + [(f"reg_{reg.lower()}", f"{N}_REG_{reg} == JOINTER_REG_{reg}") for reg in layout.GLOBAL_REGS]}]
    for lv in d.lmics:
        L = f"{N}_{lv.model.name.upper()}"
        li = lv.model.name
        checks = [
            (f"{li}_base", f"{L}_BASE == {N}_WINDOW * ({N}_LMIC_{lv.model.name.upper()} + 1u)"),
            (f"{li}_control", f"{L}_CONTROL == {L}_BASE + JOINTER_LMIC_CONTROL"),
            (f"{li}_status", f"{L}_STATUS == {L}_BASE + JOINTER_LMIC_STATUS"),
            (f"{li}_irq_status", f"{L}_IRQ_STATUS == {L}_BASE + JOINTER_LMIC_IRQ_STATUS"),
            (f"{li}_irq_enable", f"{L}_IRQ_ENABLE == {L}_BASE + JOINTER_LMIC_IRQ_ENABLE"),
            (f"{li}_num_irq", f"{L}_NUM_IRQ <= 32u"),
        ]
        for sv in lv.sniffers:
            S, sn = f"{N}_{sv.model.name.upper()}", sv.model.name
            idx = f"{N}_SNIFFER_{sv.model.name.upper()}"
            checks += [
                (f"{sn}_lmic", f"{S}_LMIC == {N}_LMIC_{lv.model.name.upper()}"),
                (f"{sn}_index", f"{idx} < JOINTER_MAX_SNIFFERS_PER_LMIC"),
                (f"{sn}_init", f"{S}_INIT == {L}_BASE + JOINTER_LMIC_INIT({idx})"),
                (f"{sn}_prog_shift", f"{S}_PROG_SHIFT == JOINTER_PROG_SHIFT({idx})"),
                (f"{sn}_prog_mask", f"{S}_PROG_MASK == JOINTER_PROG_MASK({idx})"),
                (f"{sn}_valid", f"{S}_VALID_MASK == JOINTER_STATUS_VALID({idx})"),
                (f"{sn}_overflow", f"{S}_OVERFLOW_MASK == JOINTER_STATUS_OVERFLOW({idx})"),
            ]
        # result words: right after the INIT registers, contiguous, in layout order
        nxt = f"{L}_BASE + JOINTER_LMIC_INIT({len(lv.sniffers)}u)"
        for dl in lv.layout.dcapfs:
            M, mn = f"{N}_{dl.name.upper()}", dl.name
            checks += [
                (f"{mn}_result", f"{M}_RESULT == {nxt}"),
                (f"{mn}_words", f"{M}_RESULT_WORDS == ({M}_WIDTH + 31u) / 32u"),
                (f"{mn}_width", f"{M}_WIDTH >= 1u && {M}_WIDTH <= 64u"),
                (f"{mn}_mask_lo", f"{M}_MASK_LO == (unsigned long)({_mask64(M + '_WIDTH')} & 0xFFFFFFFFull)"),
                (f"{mn}_mask_hi", f"{M}_MASK_HI == (unsigned long)({_mask64(M + '_WIDTH')} >> 32)"),
                (f"{mn}_filter", f"(long long){M}_HIGH_RESET - (long long){M}_LOW_RESET >= 0"),
            ]
            nxt = f"{M}_RESULT + 4u * {M}_RESULT_WORDS"
            if dl.buckets > 1:                  # N buckets of RESULT_WORDS
                checks += [(f"{mn}_stride", f"{M}_BUCKET_STRIDE == 4u * {M}_RESULT_WORDS"),
                           (f"{mn}_buckets", f"{M}_BUCKETS >= 2u && {M}_BUCKETS <= 64u")]
                nxt = f"{M}_RESULT + {M}_BUCKETS * {M}_BUCKET_STRIDE"
        # thresholds follow, same order; IRQ bits 0, 1, ...
        irq = "0u"
        for dl in lv.layout.dcapfs:
            if dl.threshold_word < 0:
                continue
            M, mn = f"{N}_{dl.name.upper()}", dl.name
            checks += [
                (f"{mn}_threshold", f"{M}_THRESHOLD == {nxt}"),
                (f"{mn}_irq_bit", f"{M}_IRQ_BIT == {irq}"),
                (f"{mn}_irq_mask", f"{M}_IRQ_MASK == (1u << {M}_IRQ_BIT)"),
            ]
            nxt = f"{M}_THRESHOLD + 4u * {M}_RESULT_WORDS"
            irq = f"{M}_IRQ_BIT + 1u"
        # trace register blocks follow; two IRQ bits each
        for tl in lv.layout.traces:
            T, tn = f"{N}_{tl.name.upper()}", tl.name
            if tl.sink:                 # 8 registers, no RAM; IRQ watermark | error
                checks += [
                    (f"{tn}_regs", f"{T}_REGS == {nxt}"),
                    (f"{tn}_irq", f"{T}_WATERMARK_IRQ_MASK == (1u << ({irq}))"),
                    (f"{tn}_irq_error", f"{T}_ERROR_IRQ_MASK == {T}_WATERMARK_IRQ_MASK << 1"),
                    (f"{tn}_irq_mask", f"{T}_IRQ_MASK == ({T}_WATERMARK_IRQ_MASK | {T}_ERROR_IRQ_MASK)"),
                    (f"{tn}_no_ram", f"{T}_RAM == 0u && {T}_DEPTH == 0u"),
                    (f"{tn}_sink_bytes", f"{T}_SINK_BYTES == 4u || {T}_SINK_BYTES == 8u || {T}_SINK_BYTES == 16u"),
                    (f"{tn}_ring_bytes", f"{T}_RING_BYTES % 4096u == 0u && {T}_RING_BYTES != 0u"),
                    (f"{tn}_ring_log2", f"{T}_RING_LOG2 >= 12u && {T}_RING_LOG2 <= 32u && "
                     f"(({T}_RING_BYTES - 1u) >> ({T}_RING_LOG2 - 1u)) == 1u"),
                    (f"{tn}_filter", f"(long long){T}_HIGH_RESET - (long long){T}_LOW_RESET >= 0"),
                ]
                nxt = f"{T}_REGS + 4u * {tl.reg_words}u"
                irq = f"{irq} + 2u"
                continue
            checks += [
                (f"{tn}_regs", f"{T}_REGS == {nxt}"),
                (f"{tn}_irq", f"{T}_WATERMARK_IRQ_MASK == (1u << ({irq}))"),
                (f"{tn}_irq_full", f"{T}_FULL_IRQ_MASK == {T}_WATERMARK_IRQ_MASK << 1"),
                (f"{tn}_irq_mask", f"{T}_IRQ_MASK == ({T}_WATERMARK_IRQ_MASK | {T}_FULL_IRQ_MASK)"),
                (f"{tn}_depth", f"({T}_DEPTH & ({T}_DEPTH - 1u)) == 0u && {T}_DEPTH >= 2u"),
                (f"{tn}_ram_aligned", f"({T}_RAM - {L}_BASE) % (8u * {T}_DEPTH) == 0u"),
                (f"{tn}_ram_fits", f"{T}_RAM + 8u * {T}_DEPTH <= {L}_BASE + {N}_WINDOW"),
                (f"{tn}_filter", f"(long long){T}_HIGH_RESET - (long long){T}_LOW_RESET >= 0"),
            ]
            nxt = f"{T}_REGS + 4u * {tl.reg_words}u"
            irq = f"{irq} + 2u"
        checks.append((f"{li}_irq_count", f"{L}_NUM_IRQ == {irq}"))
        checks.append((f"{li}_regs_fit", f"{nxt} <= {L}_BASE + {N}_WINDOW"))
        traces = [t for t in lv.layout.traces if not t.sink]   # sinks have no RAM window
        for t in traces:
            T = f"{N}_{t.name.upper()}"
            checks.append((f"{t.name}_ram_after_regs", f"{T}_RAM >= {nxt}"))
        for i, a in enumerate(traces):
            for b in traces[i + 1:]:
                A, B = f"{N}_{a.name.upper()}", f"{N}_{b.name.upper()}"
                checks.append((f"{a.name}_{b.name}_apart",
                               f"{A}_RAM + 8u * {A}_DEPTH <= {B}_RAM || {B}_RAM + 8u * {B}_DEPTH <= {A}_RAM"))
        out.append({"title": f"LMIC {lv.model.name}", "checks": checks})
    return out


def _runtime_checks(d: Design, lmics, sniffers) -> list[tuple[str, str]]:
    N = d.NAME
    r = [("config hash", f"cfg->config_hash == {N}_CONFIG_HASH"),
         ("name", f'strcmp(cfg->name, "{d.name}") == 0'),
         ("version", "cfg->version == JOINTER_VERSION_VALUE"),
         ("info", f"cfg->info == {N}_INFO"),
         ("span", f"cfg->span == {N}_SPAN"), ("window", f"cfg->window == {N}_WINDOW"),
         ("base address", f"cfg->base_address == {N}_BASE_ADDRESS"),
         ("counts", f"cfg->num_lmics == {N}_NUM_LMICS && cfg->num_sniffers == {N}_NUM_SNIFFERS"
                    f" && cfg->num_metrics == {N}_NUM_METRICS && cfg->num_traces == {N}_NUM_TRACES"
                    f" && cfg->num_dcapfs == {N}_NUM_DCAPFS")]
    for i, l in enumerate(lmics):
        L = f"{N}_{l['NAME']}"
        e = f"cfg->lmics[{N}_LMIC_{l['NAME']}]"
        r += [(f"LMIC {l['name']}: name", f'strcmp({e}.name, "{l["name"]}") == 0'),
              (f"LMIC {l['name']}: base", f"{e}.base == {L}_BASE"),
              (f"LMIC {l['name']}: sniffers",
               f"{e}.first_sniffer == {l['first_sniffer']}u && {e}.num_sniffers == {l['num_sniffers']}u"),
              (f"LMIC {l['name']}: irq bits", f"{e}.num_irq == {L}_NUM_IRQ")]
    for k, s in enumerate(sniffers):
        S = f"{N}_{s['NAME']}"
        e = f"cfg->sniffers[{k}]"
        r += [(f"sniffer {s['name']}: name", f'strcmp({e}.name, "{s["name"]}") == 0'),
              (f"sniffer {s['name']}: place",
               f"{e}.lmic == {S}_LMIC && {e}.index == {N}_SNIFFER_{s['NAME']}"),
              (f"sniffer {s['name']}: dcapfs", f"{e}.num_dcapfs == {S}_NUM_DCAPFS"),
              (f"sniffer {s['name']}: in its LMIC",
               f"{k}u >= cfg->lmics[{e}.lmic].first_sniffer && {k}u < cfg->lmics[{e}.lmic].first_sniffer"
               f" + cfg->lmics[{e}.lmic].num_sniffers")]
    for m in d.metrics:
        M = f"{N}_{m['NAME']}"
        e = f"cfg->metrics[{N}_METRIC_{m['NAME']}]"
        thr = f"{M}_THRESHOLD" if m["threshold_irq"] else "JOINTER_NO_OFFSET"
        r += [(f"metric {m['name']}: name", f'strcmp({e}.name, "{m["name"]}") == 0'),
              (f"metric {m['name']}: result", f"{e}.result_offset == {M}_RESULT && {e}.width == {M}_WIDTH"),
              (f"metric {m['name']}: threshold", f"{e}.threshold_offset == {thr}"),
              (f"metric {m['name']}: dcapf",
               f"{e}.dcapf == {M}_DCAPF && {e}.dcapf < cfg->sniffers[{e}.sniffer].num_dcapfs"),
              (f"metric {m['name']}: sniffer",
               f"{e}.sniffer == {N}_SNIFFER_{m['sniffer_name'].upper()} + "
               f"cfg->lmics[{e}.lmic].first_sniffer && cfg->sniffers[{e}.sniffer].lmic == {e}.lmic"),
              (f"metric {m['name']}: bounds",
               f"{e}.low_reset == {M}_LOW_RESET && {e}.high_reset == {M}_HIGH_RESET"),
              (f"metric {m['name']}: filter",
               f"(({e}.flags & JOINTER_METRIC_FILTER) != 0) == ({M}_HAS_FILTER != 0)"),
              (f"metric {m['name']}: in its window",
               f"{e}.result_offset >= cfg->lmics[{e}.lmic].base && {e}.result_offset + 4u * "
               f"{M}_RESULT_WORDS{' * ' + M + '_BUCKETS' if m['buckets'] > 1 else ''} "
               f"<= cfg->lmics[{e}.lmic].base + cfg->window")]
        if m["buckets"] > 1:
            r.append((f"metric {m['name']}: buckets",
                      f"{e}.buckets == {M}_BUCKETS && {e}.aggregator == "
                      f"{'JOINTER_AGGREGATOR_MEAN' if m['aggregator'] == 'mean' else 'JOINTER_AGGREGATOR_HISTOGRAM'}"))
        if m["threshold_irq"]:
            r.append((f"metric {m['name']}: irq bit",
                      f"{e}.irq_bit >= 0 && (1u << {e}.irq_bit) == {M}_IRQ_MASK"))
        else:
            r.append((f"metric {m['name']}: no irq bit", f"{e}.irq_bit == -1"))
    for t in d.traces:
        T = f"{N}_{t['NAME']}"
        e = f"cfg->traces[{N}_TRACE_{t['NAME']}]"
        r += [(f"trace {t['name']}: name", f'strcmp({e}.name, "{t["name"]}") == 0'),
              (f"trace {t['name']}: registers",
               f"{e}.reg_offset == {T}_REGS && {e}.ram_offset == {T}_RAM && {e}.depth == {T}_DEPTH"),
              (f"trace {t['name']}: dcapf",
               f"{e}.dcapf == {T}_DCAPF && {e}.dcapf < cfg->sniffers[{e}.sniffer].num_dcapfs"),
              (f"trace {t['name']}: sniffer",
               f"{e}.sniffer == {N}_SNIFFER_{t['sniffer_name'].upper()} + "
               f"cfg->lmics[{e}.lmic].first_sniffer && cfg->sniffers[{e}.sniffer].lmic == {e}.lmic"),
              (f"trace {t['name']}: bounds",
               f"{e}.low_reset == {T}_LOW_RESET && {e}.high_reset == {T}_HIGH_RESET"),
              (f"trace {t['name']}: filter", f"{e}.filter == {T}_HAS_FILTER"),
              (f"trace {t['name']}: irq", f"(3u << {e}.irq_bit) == {T}_IRQ_MASK")]
        if t["sink_bytes"]:                     # a sink trace
            r.append((f"trace {t['name']}: sink",
                      f"{e}.sink_bytes == {T}_SINK_BYTES && {e}.encoding == {T}_ENCODING"))
        else:
            r.append((f"trace {t['name']}: not a sink", f"{e}.sink_bytes == 0"))
    return r
