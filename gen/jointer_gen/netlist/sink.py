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
from ..model.views import Const, Instance, Port, Signal, int_vector, rng, slv_type


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
    return ports


def sink_extractor_map(dc: Dcapf) -> list:
    return [("tr_wptr", "open"), ("tr_fill", "open"), ("tr_full", "open"), ("tr_overflow", "open"),
            ("tr_rd_data", "open"), ("rec_valid", f"sk_{dc.name}_valid"),
            ("rec_ts", f"sk_{dc.name}_ts"), ("rec_data", f"sk_{dc.name}_data")]


def sink_sniffer_map(sn: Sniffer) -> list:
    return [(f"sk_{dc.name}_{s}", f"sk_{dc.name}_{s}") for dc in sink_dcapfs(sn)
            for s in ("valid", "ts", "data")]


# -- LMIC ---------------------------------------------------------------------
def sink_lmic_hook(pre: str, lm: Lmic, ll, consts: list, gmap: list, signals: list, ports: list,
                   instances: list, u_lmic) -> None:
    """Generics, signals, AXI4 master ports and sink instances of an LMIC with sinks."""
    sinks = [t for t in ll.traces if t.sink]
    dcs = lmic_sinks(lm)
    n = len(sinks)
    new = [Const(f"{pre}_num_sinks_c", "natural", str(n), "sink traces"),
           Const(f"{pre}_sink_sniffer_c", "integer_vector", int_vector([t.sniffer for t in sinks]),
                 "owning sniffer of each sink"),
           Const(f"{pre}_sink_reg_word_c", "integer_vector", int_vector([t.reg_word for t in sinks]),
                 "first of the 8 sink registers"),
           Const(f"{pre}_sink_irq_bit_c", "integer_vector", int_vector([t.irq_bit for t in sinks]),
                 "watermark IRQ bit (error = bit + 1)")]
    consts[len(consts) - 1:len(consts) - 1] = new   # before init_w_c, as the relay constant
    gmap += [(c.name[len(pre) + 1:-2] + "_g", c.name) for c in new]
    vec = lambda w: f"std_logic_vector({w * n - 1} downto 0)"  # noqa: E731
    signals += [Signal("sk_wptr", vec(32), "sink: WPTR per sink"), Signal("sk_lost", vec(32)),
                Signal("sk_status", vec(3)), Signal("sk_irq_wm", vec(1)),
                Signal("sk_base", vec(32), "sink: BASE, SIZE, RPTR, WATERMARK per sink"),
                Signal("sk_size", vec(32)), Signal("sk_rptr", vec(32)), Signal("sk_watermark", vec(32)),
                Signal("sk_enable", vec(1), "CONTROL.ENABLE"), Signal("sk_clear", vec(1), "CONTROL.CLEAR pulse")]
    u_lmic.ports[-1:-1] = [(s, s) for s in ("sk_wptr", "sk_lost", "sk_status", "sk_irq_wm", "sk_base",
                                            "sk_size", "sk_rptr", "sk_watermark", "sk_enable", "sk_clear")]
    for k, dc in enumerate(dcs):
        sk = dc.sink
        sp = f"{pre}_{dc.name}"
        sc = [Const(f"{sp}_data_w_c", "positive", str(sk.data_width), f"sink {dc.name}: memory data bits"),
              Const(f"{sp}_fifo_depth_log2_c", "positive", str(sk.fifo_depth.bit_length() - 1),
                    f"{sk.fifo_depth} records"),
              Const(f"{sp}_max_burst_c", "positive", str(sk.max_burst), "beats per burst"),
              Const(f"{sp}_flush_timeout_c", "positive", str(sk.flush_timeout),
                    "idle cycles before a partial burst"),
              Const(f"{sp}_ring_log2_c", "positive", str(sk.ring_log2),
                    f"largest ring: {1 << sk.ring_log2} bytes (sink: ring_bytes {sk.ring_bytes})")]
        consts[len(consts) - 1:len(consts) - 1] = sc
        signals += [Signal(f"sk_{dc.name}_valid", "std_logic", f"sink {dc.name}: record stream"),
                    Signal(f"sk_{dc.name}_ts", slv_type(32)), Signal(f"sk_{dc.name}_data", slv_type(32))]
        ports += master_ports(dc, lm.clock)
        r32 = rng(32 * k + 31, 32 * k)
        rec = [("rec_valid", f"sk_{dc.name}_valid"), ("rec_ts", f"sk_{dc.name}_ts"),
               ("rec_data", f"sk_{dc.name}_data"), ("rec_ready", "open")]
        if sk.encoding == "compact":        # records -> units of 1..3 records (doc/trace-encoding.md)
            u = f"cu_{dc.name}"
            signals += [Signal(f"{u}_valid", "std_logic", f"sink {dc.name}: compact units"),
                        Signal(f"{u}_lo", slv_type(32), "unit bits 31..0 (lower address)"),
                        Signal(f"{u}_hi", slv_type(32), "unit bits 63..32"),
                        Signal(f"{u}_n", slv_type(2), "records in the unit"),
                        Signal(f"{u}_ready", "std_logic", "the sink accepts a unit")]
            instances.append(Instance(
                f"u_compact_{dc.name}", "jointer_trace_compact",
                f"trace sink {dc.name}: compact encoding (a SYNC every {sk.sync_period} records "
                f"at least, a partial unit leaves after {sk.idle_flush} idle cycles)",
                [("sync_period_g", str(sk.sync_period)), ("idle_flush_g", str(sk.idle_flush))],
                [("clk", "clk"), ("rst", "rst"), ("clear", f"sk_clear({k})"), *rec[:3],
                 ("unit_valid", f"{u}_valid"), ("unit_lo", f"{u}_lo"), ("unit_hi", f"{u}_hi"),
                 ("unit_n", f"{u}_n"), ("unit_ready", f"{u}_ready")]))
            rec = [("rec_valid", f"{u}_valid"), ("rec_ts", f"{u}_lo"), ("rec_data", f"{u}_hi"),
                   ("rec_n", f"{u}_n"), ("rec_ready", f"{u}_ready")]
        instances.append(Instance(
            f"u_sink_{dc.name}", "jointer_trace_sink_axi",
            f"trace sink {dc.name}: its {'units' if sk.encoding == 'compact' else 'records'} into a "
            f"ring in memory (AXI4 master, clock {lm.clock})",
            [("data_w_g", sc[0].name), ("fifo_depth_log2_g", sc[1].name), ("max_burst_g", sc[2].name),
             ("flush_timeout_g", sc[3].name), ("ring_log2_g", sc[4].name)],
            [("clk", "clk"), ("rst", "rst"), *rec,
             ("ring_base", f"sk_base({r32})"), ("ring_size", f"sk_size({r32})"),
             ("enable", f"sk_enable({k})"), ("clear", f"sk_clear({k})"),
             ("rptr_in", f"sk_rptr({r32})"), ("watermark", f"sk_watermark({r32})"),
             ("wptr", f"sk_wptr({r32})"), ("lost", f"sk_lost({r32})"),
             ("status", f"sk_status({rng(3 * k + 2, 3 * k)})"), ("irq_wm", f"sk_irq_wm({k})")]
            + [(f"m_axi_{s}", f"m_axi_{dc.name}_{s}") for s, _, _ in master_signals(dc)]))


def top_sink_ports(lv) -> list[Port]:
    return [p for dc in lmic_sinks(lv.model) for p in master_ports(dc, lv.clock)]


def top_sink_map(lv) -> list:
    return [(p.name, p.name) for p in top_sink_ports(lv)]
