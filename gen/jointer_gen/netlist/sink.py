# SPDX-License-Identifier: MIT
"""Sink traces (`mode: sink`): a trace extractor with no RAM whose
record stream goes to a jointer_trace_sink_axi, an AXI4 master writing a ring
in memory. What the sniffer, the LMIC and the top gain for them.

- sniffer: per sink DCAPF the ports `sk_<trace>_valid/_ts/_data` (the
  extractor in mode trace_sink_c gives its filtered records there);
- LMIC: jointer_collect_lmic's sink generics (num_sinks_g, sink_*_g: the
  SINK register block, jointer_collect_lmic_sink), the sk_* register signals,
  one jointer_trace_sink_axi per sink on the LMIC's clock and reset (with
  `encoding: compact`, a jointer_trace_compact before it: 64-bit units of 1
  to 3 records, rec_n / rec_ready between them), and its AXI4 master ports
  `m_axi_<trace>_*`;
- top: the same `m_axi_<trace>_*` ports, wired to the LMIC.
LMICs without a sink are generated exactly as before.
"""

from __future__ import annotations

from ..model.monitor import Dcapf, Lmic, Sniffer
from ..model.views import Assign, Const, Instance, Port, Signal, int_vector, rng, slv_type
from .part import NetPart, join
from .vhdl_syntax import element, field_of, vector


def sink_dcapfs(sn: Sniffer) -> list[Dcapf]:
    return [d for d in sn.dcapfs if d.is_sink]


def lmic_sinks(lm: Lmic) -> list[Dcapf]:
    return [d for s in lm.sniffers for d in sink_dcapfs(s)]


def master_signals(dc: Dcapf) -> list[tuple[str, str, int]]:
    """(name, direction seen from the monitor, width) of the AXI4 write master."""
    dw = dc.sink.data_width
    return [("awid", "out", 1), ("awaddr", "out", 32), ("awlen", "out", 8), ("awsize", "out", 3),
            ("awburst", "out", 2), ("awvalid", "out", 0), ("awready", "in", 0),
            ("wdata", "out", dw), ("wstrb", "out", dw // 8), ("wlast", "out", 0),
            ("wvalid", "out", 0), ("wready", "in", 0), ("bid", "in", 1), ("bresp", "in", 2),
            ("bvalid", "in", 0), ("bready", "out", 0)]


def master_ports(dc: Dcapf, clock: str) -> list[Port]:
    ports = []
    for k, (sig, d, w) in enumerate(master_signals(dc)):
        ports.append(Port(f"m_axi_{dc.name}_{sig}", d, "std_logic" if w == 0 else slv_type(w),
                          "" if k else f"AXI4 master (write channels), clock {clock}",
                          group="" if k else f"trace sink {dc.name}: records into a ring in memory"))
    return ports


# -- sniffer ------------------------------------------------------------------
def sink_sniffer_ports(sn: Sniffer) -> list[Port]:
    ports = []
    for dc in sink_dcapfs(sn):
        ports += [Port(f"sk_{dc.name}_valid", "out", "std_logic", "a record (filter applied)",
                       group=f"trace sink {dc.name}: record stream to the LMIC"),
                  Port(f"sk_{dc.name}_ts", "out", slv_type(32), "its timestamp"),
                  Port(f"sk_{dc.name}_data", "out", slv_type(32), "its data")]
        if dc.sync:
            ports.append(Port(f"sk_{dc.name}_sync", "in", "std_logic",
                              "the host's sync (CONTROL.SYNC pulse): a tagged record"))
    return ports


def sink_extractor_map(dc: Dcapf) -> list:
    return [("tr_wptr", "open"), ("tr_fill", "open"), ("tr_full", "open"), ("tr_overflow", "open"),
            ("tr_rd_data", "open"), ("rec_valid", f"sk_{dc.name}_valid"),
            ("rec_ts", f"sk_{dc.name}_ts"), ("rec_data", f"sk_{dc.name}_data")]


def sink_sniffer_map(sn: Sniffer) -> list:
    return [(f"sk_{dc.name}_{s}", f"sk_{dc.name}_{s}") for dc in sink_dcapfs(sn)
            for s in ("valid", "ts", "data") + (("sync",) if dc.sync else ())]


# -- LMIC ---------------------------------------------------------------------
SINK_REGISTER_SIGNALS = ("sk_wptr", "sk_lost", "sk_status", "sk_irq_wm", "sk_base", "sk_size", "sk_rptr",
                         "sk_watermark", "sk_enable", "sk_clear")


def sink_lmic_hook(pre: str, lm: Lmic, ll) -> NetPart:
    """What an LMIC with sinks adds: generics, the SINK register signals on
    u_lmic, and per sink its constants, stream signals, instances and AXI4 master ports."""
    sinks = [t for t in ll.traces if t.sink]
    n = len(sinks)
    new = (Const(f"{pre}_num_sinks_c", "natural", str(n), "sink traces"),
           Const(f"{pre}_sink_sniffer_c", "integer_vector", int_vector([t.sniffer for t in sinks]),
                 "owning sniffer of each sink"),
           Const(f"{pre}_sink_reg_word_c", "integer_vector", int_vector([t.reg_word for t in sinks]),
                 "first of the 8 sink registers"),
           Const(f"{pre}_sink_irq_bit_c", "integer_vector", int_vector([t.irq_bit for t in sinks]),
                 "watermark IRQ bit (error = bit + 1)"))
    signals = (Signal("sk_wptr", vector(n, 32), "sink: WPTR per sink"), Signal("sk_lost", vector(n, 32)),
               Signal("sk_status", vector(n, 3)), Signal("sk_irq_wm", vector(n)),
               Signal("sk_base", vector(n, 32), "sink: BASE, SIZE, RPTR, WATERMARK per sink"),
               Signal("sk_size", vector(n, 32)), Signal("sk_rptr", vector(n, 32)),
               Signal("sk_watermark", vector(n, 32)),
               Signal("sk_enable", vector(n), "CONTROL.ENABLE"), Signal("sk_clear", vector(n), "CONTROL.CLEAR pulse"))
    registers = NetPart(consts=new, signals=signals,
                        generics=tuple((c.name[len(pre) + 1:-2] + "_g", c.name) for c in new),
                        port_map=tuple((s, s) for s in SINK_REGISTER_SIGNALS))
    return join([registers, _sync_part(lm)] + [_sink(pre, lm, k, dc) for k, dc in enumerate(lmic_sinks(lm))])


def _sync_part(lm: Lmic) -> NetPart:
    """CONTROL.SYNC of the sinks recorded with `sync: true` (none: nothing, as before)."""
    sinks = lmic_sinks(lm)
    synced = [(k, dc) for k, dc in enumerate(sinks) if dc.sync]
    if not synced:
        return NetPart()
    return NetPart(signals=(Signal("sk_sync", vector(len(sinks)), "CONTROL.SYNC pulse per sink"),)
                   + tuple(Signal(f"sk_{dc.name}_sync", "std_logic", f"sink {dc.name}: the host's sync")
                           for _, dc in synced),
                   assigns=tuple(Assign(f"sk_{dc.name}_sync", element("sk_sync", k),
                                        f"sink {dc.name}: the host's sync") for k, dc in synced),
                   port_map=(("sk_sync", "sk_sync"),))


def _sink_consts(sp: str, dc: Dcapf) -> dict[str, Const]:
    """{generic of jointer_trace_sink_axi: constant} of one sink."""
    sk = dc.sink
    return {"data_w_g": Const(f"{sp}_data_w_c", "positive", str(sk.data_width),
                              f"sink {dc.name}: memory data bits"),
            "fifo_depth_log2_g": Const(f"{sp}_fifo_depth_log2_c", "positive",
                                       str(sk.fifo_depth.bit_length() - 1), f"{sk.fifo_depth} records"),
            "max_burst_g": Const(f"{sp}_max_burst_c", "positive", str(sk.max_burst), "beats per burst"),
            "flush_timeout_g": Const(f"{sp}_flush_timeout_c", "positive", str(sk.flush_timeout),
                                     "idle cycles before a partial burst"),
            "ring_log2_g": Const(f"{sp}_ring_log2_c", "positive", str(sk.ring_log2),
                                 f"largest ring: {1 << sk.ring_log2} bytes (sink: ring_bytes {sk.ring_bytes})")}


def _sink(pre: str, lm: Lmic, k: int, dc: Dcapf) -> NetPart:
    """Sink k of the LMIC: its record stream, a compact encoder when asked, its jointer_trace_sink_axi."""
    sk = dc.sink
    sc = _sink_consts(f"{pre}_{dc.name}", dc)
    stream = NetPart(signals=(Signal(f"sk_{dc.name}_valid", "std_logic", f"sink {dc.name}: record stream"),
                              Signal(f"sk_{dc.name}_ts", slv_type(32)),
                              Signal(f"sk_{dc.name}_data", slv_type(32))),
                     ports=tuple(master_ports(dc, lm.clock)))
    records = (("rec_valid", f"sk_{dc.name}_valid"), ("rec_ts", f"sk_{dc.name}_ts"),
               ("rec_data", f"sk_{dc.name}_data"))
    if sk.encoding == "compact":        # records -> units of 1..3 records (doc/trace-encoding.md)
        compact, rec = _compact(k, dc, records)
        stream = stream + compact
    else:
        rec = records + (("rec_ready", "open"),)
    inst = Instance(
        f"u_sink_{dc.name}", "jointer_trace_sink_axi",
        f"trace sink {dc.name}: its {'units' if sk.encoding == 'compact' else 'records'} into a "
        f"ring in memory (AXI4 master, clock {lm.clock})",
        tuple((g, c.name) for g, c in sc.items()),
        (("clk", "clk"), ("rst", "rst"), *rec,
         ("ring_base", field_of("sk_base", k, 32)), ("ring_size", field_of("sk_size", k, 32)),
         ("enable", element("sk_enable", k)), ("clear", element("sk_clear", k)),
         ("rptr_in", field_of("sk_rptr", k, 32)), ("watermark", field_of("sk_watermark", k, 32)),
         ("wptr", field_of("sk_wptr", k, 32)), ("lost", field_of("sk_lost", k, 32)),
         ("status", field_of("sk_status", k, 3)), ("irq_wm", element("sk_irq_wm", k)))
        + tuple((f"m_axi_{s}", f"m_axi_{dc.name}_{s}") for s, _, _ in master_signals(dc)))
    return NetPart(consts=tuple(sc.values())) + stream + NetPart(instances=(inst,))


def _compact(k: int, dc: Dcapf, records: tuple) -> tuple[NetPart, tuple]:
    """The jointer_trace_compact before sink k, and the unit stream it gives the sink."""
    sk, u = dc.sink, f"cu_{dc.name}"
    signals = (Signal(f"{u}_valid", "std_logic", f"sink {dc.name}: compact units"),
               Signal(f"{u}_lo", slv_type(32), "unit bits 31..0 (lower address)"),
               Signal(f"{u}_hi", slv_type(32), "unit bits 63..32"),
               Signal(f"{u}_n", slv_type(2), "records in the unit"),
               Signal(f"{u}_ready", "std_logic", "the sink accepts a unit"))
    inst = Instance(
        f"u_compact_{dc.name}", "jointer_trace_compact",
        f"trace sink {dc.name}: compact encoding (a SYNC every {sk.sync_period} records "
        f"at least, a partial unit leaves after {sk.idle_flush} idle cycles)",
        (("sync_period_g", str(sk.sync_period)), ("idle_flush_g", str(sk.idle_flush))),
        (("clk", "clk"), ("rst", "rst"), ("clear", element("sk_clear", k)), *records,
         ("unit_valid", f"{u}_valid"), ("unit_lo", f"{u}_lo"), ("unit_hi", f"{u}_hi"),
         ("unit_n", f"{u}_n"), ("unit_ready", f"{u}_ready")))
    units = (("rec_valid", f"{u}_valid"), ("rec_ts", f"{u}_lo"), ("rec_data", f"{u}_hi"),
             ("rec_n", f"{u}_n"), ("rec_ready", f"{u}_ready"))
    return NetPart(signals=signals, instances=(inst,)), units


def top_sink_ports(lv) -> list[Port]:
    return [p for dc in lmic_sinks(lv.model) for p in master_ports(dc, lv.clock)]


def top_sink_map(lv) -> list:
    return [(p.name, p.name) for p in top_sink_ports(lv)]
