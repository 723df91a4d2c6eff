# SPDX-License-Identifier: MIT
"""Register-space layout: the only place where jointer addresses are computed.

doc/design.md ("Register space") and doc/internals/layout.md describe the result. The
generator's backends (VHDL generics, C header, docs) and the library's test
benches read addresses from a `Layout`; nothing else adds offsets.

Input is duck-typed so the generator's model and the tests' small fixtures
both fit:
    lmics:    sequence of objects with `.name`, `.sniffers`
    sniffer:  `.name`, `.dcapfs`
    dcapf:    `.name`, `.width` (1..64), `.extractor` ("event"|"time"|"trace"),
              `.threshold_irq` (bool), `.depth` (records, power of 2; trace only),
              `.buckets` (optional, default 1: a histogram's bucket count; its
              RESULT is `buckets` x ceil(width/32) words, bucket 0 first)
              optional `.mode` ("stop"|"ring"|"relay"; trace only, default
              "stop": a relay trace has 3 more registers, RELAY_REGS;
              "sink": SINK_REGS and no RAM window, ram_word -1),
              optional `.sink` (with `.data_width`, `.encoding`: a sink trace)
"""

from __future__ import annotations

from dataclasses import dataclass, field

# global block (window 0), word offsets
GLOBAL_REGS = {
    "ID": 0, "VERSION": 1, "CONFIG_HASH": 2, "INFO": 3, "IRQ_STATUS": 4,
    "IRQ_ENABLE": 5, "TIMESTAMP_LO": 6, "TIMESTAMP_HI": 7, "MARK": 8, "SCRATCH": 9,
    "DESC_INDEX": 10, "DESC_DATA": 11,
}
GLOBAL_WORDS = 16
# fixed LMIC registers, word offsets; INIT[i] at LMIC_INIT + i
LMIC_REGS = {"CONTROL": 0, "STATUS": 1, "IRQ_STATUS": 2, "IRQ_ENABLE": 3}
LMIC_INIT = 4
# trace register block, word offsets from its base
TRACE_REGS = {"WPTR": 0, "FILL": 1, "STATUS": 2, "WATERMARK": 3, "DEPTH": 4}
TRACE_REG_WORDS = 5
# a relay trace (mode: relay) appends these: the host drains it while it runs
RELAY_REGS = {"RPTR": 5, "ACK": 6, "LOST": 7}
RELAY_REG_WORDS = 8
# a sink trace (mode: sink) has no RAM window: its records go to a
# ring in memory through an AXI4 master (hdl/trace/jointer_trace_sink_axi)
SINK_REGS = {"WPTR": 0, "RPTR": 1, "STATUS": 2, "WATERMARK": 3,
             "BASE": 4, "SIZE": 5, "CONTROL": 6, "LOST": 7}
SINK_REG_WORDS = 8
SINK_STATUS = {"ERROR": 1 << 0, "CONFIG_ERROR": 1 << 1, "BUSY": 1 << 2}
SINK_CONTROL = {"ENABLE": 1 << 0, "CLEAR": 1 << 1}
# record encodings of a sink (jointer_trace_desc.encoding, trace file header)
ENCODINGS = {"raw": 0, "compact": 1}
MIN_WINDOW = 64  # bytes

# CONTROL bits
CONTROL_RUN = 1 << 0
CONTROL_SOFT_RESET = 1 << 1
PROG = {"IDLE": 0, "INIT": 1, "FILTERING": 2, "NO_FILTERING": 3}
# STATUS: VALID of sniffer s at bit s, OVERFLOW at bit STATUS_OVERFLOW_SHIFT + s
STATUS_OVERFLOW_SHIFT = 16
# the values of ID and VERSION (jointer_pkg id_c, version_c)
ID_VALUE = 0x4A4E5452                      # "JNTR"
VERSION_VALUE = 0x00020000                 # 2.0.0
# INFO bits of the optional global registers
INFO_STRICT, INFO_TIMESTAMP, INFO_MARK, INFO_SCRATCH = 1 << 16, 1 << 17, 1 << 18, 1 << 19
# the descriptor ROM (monitor.global.descriptor: rom): DESC_INDEX/DESC_DATA read
# the monitor's <name>.jdesc, file byte 4i+k = bits 8k+7..8k of word i
INFO_DESC_ROM = 1 << 20
# gen/tests/test_gen_fixed_offsets.py checks all of the above against
# drivers/include/jointer_desc.h and hdl/collect/jointer_collect_{global,lmic}.vhd


def prog_shift(sniffer: int) -> int:
    return 2 + 2 * sniffer


def words_of(width: int) -> int:
    return (width + 31) // 32


def _pow2_at_least(n: int) -> int:
    p = 1
    while p < n:
        p <<= 1
    return p


@dataclass
class DcapfLayout:
    lmic: int            # LMIC index
    sniffer: int         # sniffer index inside the LMIC
    index: int           # DCAPF index inside the sniffer (init order)
    number: int          # result-DCAPF number inside the LMIC (-1 for traces)
    name: str
    sniffer_name: str
    width: int
    extractor: str
    result_word: int = -1     # LMIC word offset of the least significant word
    threshold_word: int = -1  # LMIC word offset, -1 when none
    irq_bit: int = -1         # LMIC IRQ source bit, -1 when none
    buckets: int = 1          # histogram buckets (1: a single result)

    @property
    def result_words(self) -> int:
        """RESULT words: ceil(width/32) per bucket."""
        return self.buckets * words_of(self.width)

    def bucket_word(self, bucket: int, word: int = 0) -> int:
        """LMIC word offset of word `word` of bucket `bucket`."""
        return self.result_word + bucket * words_of(self.width) + word


@dataclass
class TraceLayout:
    lmic: int
    sniffer: int
    index: int           # DCAPF index inside the sniffer (init order)
    number: int          # trace number inside the LMIC
    name: str
    sniffer_name: str
    depth: int           # records
    reg_word: int = -1   # LMIC word offset of WPTR
    ram_word: int = -1   # LMIC word offset of record 0 (aligned to 2*depth)
    irq_bit: int = -1    # watermark bit; full is irq_bit + 1
    relay: bool = False  # mode: relay (RELAY_REG_WORDS registers)
    sink_bytes: int = 0  # mode: sink: memory data width in bytes (SINK_REG_WORDS registers, no RAM)
    encoding: int = 0    # mode: sink: ENCODINGS value

    @property
    def sink(self) -> bool:
        return self.sink_bytes != 0

    @property
    def reg_words(self) -> int:
        if self.sink:
            return SINK_REG_WORDS
        return RELAY_REG_WORDS if self.relay else TRACE_REG_WORDS

    @property
    def depth_log2(self) -> int:
        return self.depth.bit_length() - 1


@dataclass
class LmicLayout:
    index: int
    name: str
    num_sniffers: int
    dcapfs: list[DcapfLayout] = field(default_factory=list)   # result DCAPFs
    traces: list[TraceLayout] = field(default_factory=list)
    words: int = 0            # words used
    num_irq: int = 0

    def init_word(self, sniffer: int) -> int:
        return LMIC_INIT + sniffer


@dataclass
class Layout:
    window: int               # bytes per window (power of two)
    lmics: list[LmicLayout]
    addr_width: int           # bits needed for the whole register space

    @property
    def window_log2(self) -> int:
        return self.window.bit_length() - 1

    @property
    def span(self) -> int:
        """Bytes of the whole register space."""
        return self.window * (len(self.lmics) + 1)

    def lmic_base(self, lmic: int) -> int:
        """Byte offset of LMIC `lmic`'s window."""
        return self.window * (lmic + 1)

    def lmic_reg(self, lmic: int, word: int) -> int:
        """Byte offset of a word of an LMIC window."""
        return self.lmic_base(lmic) + 4 * word

    @staticmethod
    def global_reg(name: str) -> int:
        return 4 * GLOBAL_REGS[name]


def compute(lmics) -> Layout:
    """Lay out every LMIC window; see the module docstring for the input."""
    out = []
    for li, lmic in enumerate(lmics):
        ll = LmicLayout(index=li, name=lmic.name, num_sniffers=len(lmic.sniffers))
        word = LMIC_INIT + len(lmic.sniffers)
        number = 0
        for si, sn in enumerate(lmic.sniffers):
            for di, dc in enumerate(sn.dcapfs):
                if dc.extractor == "trace":
                    sk = getattr(dc, "sink", None) if getattr(dc, "mode", "stop") == "sink" else None
                    ll.traces.append(TraceLayout(li, si, di, len(ll.traces), dc.name, sn.name,
                                                 0 if sk else dc.depth,
                                                 relay=getattr(dc, "mode", "stop") == "relay",
                                                 sink_bytes=sk.data_width // 8 if sk else 0,
                                                 encoding=ENCODINGS[sk.encoding] if sk else 0))
                    continue
                d = DcapfLayout(li, si, di, number, dc.name, sn.name, dc.width, dc.extractor,
                                buckets=getattr(dc, "buckets", 1) or 1)
                d.result_word = word
                word += d.result_words
                number += 1
                ll.dcapfs.append(d)
        irq = 0
        sources = {(d.sniffer, d.index): d for d in ll.dcapfs}
        for si, sn in enumerate(lmic.sniffers):
            for di, dc in enumerate(sn.dcapfs):
                if dc.extractor != "trace" and dc.threshold_irq:
                    d = sources[(si, di)]
                    d.threshold_word = word
                    word += words_of(d.width)
                    d.irq_bit = irq
                    irq += 1
        for t in ll.traces:
            t.reg_word = word
            word += t.reg_words
            t.irq_bit = irq
            irq += 2
        for t in sorted(ll.traces, key=lambda t: -t.depth):  # largest first: least padding
            if t.sink:
                continue                 # no RAM window: the records are in memory
            size = 2 * t.depth
            word = (word + size - 1) // size * size
            t.ram_word = word
            word += size
        ll.words = word
        ll.num_irq = irq
        out.append(ll)
    window = max([MIN_WINDOW, 4 * GLOBAL_WORDS] + [_pow2_at_least(4 * l.words) for l in out])
    span = window * (len(out) + 1)
    return Layout(window=window, lmics=out, addr_width=(span - 1).bit_length())
