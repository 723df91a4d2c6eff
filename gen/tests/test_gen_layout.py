# SPDX-License-Identifier: MIT
"""Addresses, checked independently of layout.py.

`expected()` re-derives every offset of an example from the rules of
doc/internals/layout.md (written here from the text, not from layout.py);
the test compares them with layout.compute(), with the macros of the
generated <name>_regs.h and with the integer vectors of <name>_config.vhd.
The Y9 addresses are also spelled out by hand.
"""
import re

import pytest

from gentest_util import EXAMPLES, generated
from jointer_gen.model import layout


def expected(monitor):
    """{macro suffix: value} and per-LMIC generic vectors, from the rules."""
    lmics = monitor.lmics
    words_of = lambda w: -(-w // 32)  # noqa: E731
    per_lmic, macros = [], {}
    for lm in lmics:
        s = len(lm.sniffers)
        w = 4 + s
        res, thr, trc = [], [], []
        for si, sn in enumerate(lm.sniffers):
            for di, dc in enumerate(sn.dcapfs):
                if dc.extractor == "trace":
                    trc.append([si, di, dc])
                else:
                    res.append([si, di, dc, w, -1, -1])
                    w += words_of(dc.width)
        irq = 0
        for r in res:
            if r[2].threshold_irq:
                r[4], r[5] = w, irq
                w += words_of(r[2].width)
                irq += 1
        for t in trc:
            t.append(w)          # reg word
            t.append(irq)        # irq bit
            w += 8 if t[2].mode in ("relay", "sink") else 5   # relay: + RPTR, ACK, LOST; sink: 8 SINK regs
            irq += 2
        for t in sorted(trc, key=lambda t: -t[2].depth):
            if t[2].mode == "sink":
                t.append(-1)     # a sink has no RAM window
                continue
            size = 2 * t[2].depth
            w = (w + size - 1) // size * size
            t.append(w)          # ram word
            w += size
        per_lmic.append({"sniffers": s, "res": res, "trc": trc, "words": w, "irq": irq})
    window = 64
    for lm in per_lmic:
        while window < 4 * lm["words"]:
            window *= 2
    macros.update(SPAN=window * (len(lmics) + 1), WINDOW=window)
    for li, (lm, pl) in enumerate(zip(lmics, per_lmic)):
        base = window * (li + 1)
        L = lm.name.upper()
        macros.update({f"{L}_BASE": base, f"{L}_CONTROL": base, f"{L}_STATUS": base + 4,
                       f"{L}_IRQ_STATUS": base + 8, f"{L}_IRQ_ENABLE": base + 12,
                       f"{L}_NUM_IRQ": pl["irq"], f"LMIC_{L}": li})
        for si, sn in enumerate(lm.sniffers):
            S = sn.name.upper()
            macros.update({f"{S}_INIT": base + 16 + 4 * si, f"{S}_PROG_SHIFT": 2 + 2 * si,
                           f"{S}_PROG_MASK": 3 << (2 + 2 * si), f"SNIFFER_{S}": si,
                           f"{S}_VALID_MASK": 1 << si, f"{S}_OVERFLOW_MASK": 1 << (16 + si)})
        for si, di, dc, rw, tw, bit in pl["res"]:
            M = dc.name.upper()
            macros.update({f"{M}_RESULT": base + 4 * rw, f"{M}_WIDTH": dc.width, f"{M}_DCAPF": di,
                           f"{M}_MASK_LO": ((1 << dc.width) - 1) & 0xFFFFFFFF,
                           f"{M}_MASK_HI": ((1 << dc.width) - 1) >> 32})
            if tw >= 0:
                macros.update({f"{M}_THRESHOLD": base + 4 * tw, f"{M}_IRQ_BIT": bit,
                               f"{M}_IRQ_MASK": 1 << bit})
        for si, di, dc, rw, bit, ram in pl["trc"]:
            T = dc.name.upper()
            macros.update({f"{T}_REGS": base + 4 * rw, f"{T}_RAM": base + 4 * ram if ram >= 0 else 0,
                           f"{T}_DEPTH": dc.depth, f"{T}_IRQ_MASK": 3 << bit, f"{T}_DCAPF": di})
            if dc.mode == "sink":
                macros.update({f"{T}_SINK_BYTES": dc.sink.data_width // 8, f"{T}_RAM": 0, f"{T}_DEPTH": 0,
                               f"{T}_ENCODING": {"raw": 0, "compact": 1}[dc.sink.encoding]})
    return macros, per_lmic


def regs_macros(text, name):
    out = {}
    for m in re.finditer(r"^#define (\w+)\s+(0x[0-9A-F]+|\d+)u", text, re.M):
        out[m.group(1)[len(name) + 1:]] = int(m.group(2), 0)
    return out


def vhdl_vector(text, const):
    m = re.search(rf"constant {const}\s*: integer_vector := \((.*?)\);", text, re.S)
    body = m.group(1)
    return [int(x) for x in re.sub(r"^0 => ", "", body).split(",")]


@pytest.mark.parametrize("name", EXAMPLES)
def test_offsets(name):
    design, files = generated(name)
    want, per_lmic = expected(design.monitor)
    have = regs_macros(files[f"c/{name}_regs.h"], name.upper())
    for k, v in want.items():
        assert have[k] == v, k
    # layout.compute agrees
    lay = layout.compute(design.monitor.lmics)
    assert (lay.window, lay.span) == (want["WINDOW"], want["SPAN"])
    for ll, pl in zip(lay.lmics, per_lmic):
        assert ll.words == pl["words"] and ll.num_irq == pl["irq"]
    # the VHDL generics (config package) agree
    cfg = files[f"hdl/{name}_config.vhd"]
    for lm, pl in zip(design.monitor.lmics, per_lmic):
        p = f"lm_{lm.name}"
        if pl["res"]:
            assert vhdl_vector(cfg, f"{p}_dcapf_result_word_c") == [r[3] for r in pl["res"]]
            assert vhdl_vector(cfg, f"{p}_dcapf_threshold_word_c") == [r[4] for r in pl["res"]]
            assert vhdl_vector(cfg, f"{p}_dcapf_irq_bit_c") == [r[5] for r in pl["res"]]
            assert vhdl_vector(cfg, f"{p}_dcapf_width_c") == [r[2].width for r in pl["res"]]
            assert vhdl_vector(cfg, f"{p}_dcapf_sniffer_c") == [r[0] for r in pl["res"]]
        bram = [t for t in pl["trc"] if t[2].mode != "sink"]
        sinks = [t for t in pl["trc"] if t[2].mode == "sink"]
        if bram:
            assert vhdl_vector(cfg, f"{p}_trace_reg_word_c") == [t[3] for t in bram]
            assert vhdl_vector(cfg, f"{p}_trace_ram_word_c") == [t[5] for t in bram]
            assert vhdl_vector(cfg, f"{p}_trace_irq_bit_c") == [t[4] for t in bram]
            assert vhdl_vector(cfg, f"{p}_trace_depth_log2_c") == \
                [t[2].depth.bit_length() - 1 for t in bram]
        if sinks:                # the sink generics of jointer_collect_lmic
            assert vhdl_vector(cfg, f"{p}_sink_reg_word_c") == [t[3] for t in sinks]
            assert vhdl_vector(cfg, f"{p}_sink_irq_bit_c") == [t[4] for t in sinks]
            assert vhdl_vector(cfg, f"{p}_sink_sniffer_c") == [t[0] for t in sinks]
            assert re.search(rf"constant {p}_num_sinks_c\s*: natural := {len(sinks)};", cfg)
        else:
            assert f"{p}_num_sinks_c" not in cfg   # no sink: the LMIC is generated as before
        assert re.search(rf"constant {p}_num_irq_c\s*: natural := {pl['irq']};", cfg)
    window_log2 = want["WINDOW"].bit_length() - 1
    assert re.search(rf"constant window_log2_c\s*: positive := {window_log2};", cfg)
    assert re.search(rf"constant rp_addr_w_c\s*: positive := {window_log2 - 2};", cfg)


def test_y9_by_hand():
    """The Y9 register map, written out (paper section 4.1: 16 DCI registers in one window)."""
    _, files = generated("selective_accumulations")
    have = regs_macros(files["c/selective_accumulations_regs.h"], "SELECTIVE_ACCUMULATIONS")
    assert {k: have[k] for k in ["WINDOW", "SPAN", "ACCEL_CONTROL", "TRANSACTION_INIT", "TASK_INIT",
                                 "OPERATION_INIT", "BYTES_WRITTEN_RESULT", "COMPUTE_CYCLES_RESULT",
                                 "FORWARD_FIRES_RESULT", "MAC_FIRES_RESULT", "MAC_FIRES_THRESHOLD",
                                 "BASE_ADDRESS", "ADDR_WIDTH", "INFO"]} == {
        "WINDOW": 0x40, "SPAN": 0x80, "ACCEL_CONTROL": 0x40, "TRANSACTION_INIT": 0x50, "TASK_INIT": 0x54,
        "OPERATION_INIT": 0x58, "BYTES_WRITTEN_RESULT": 0x5C, "COMPUTE_CYCLES_RESULT": 0x60,
        "FORWARD_FIRES_RESULT": 0x68, "MAC_FIRES_RESULT": 0x6C, "MAC_FIRES_THRESHOLD": 0x70,
        "BASE_ADDRESS": 0x43C00000, "ADDR_WIDTH": 12, "INFO": 0x00000601}


def test_stress_windows():
    design, _ = generated("stress_15x4")
    lay = design.layout
    assert len(lay.lmics) == 4 and all(l.num_sniffers == 15 for l in lay.lmics)
    assert lay.window == 1024 and lay.span == 5 * 1024 and design.addr_width == 16
