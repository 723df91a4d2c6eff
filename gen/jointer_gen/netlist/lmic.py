"""VHDL netlist of an LMIC wrapper (<name>_<lmic>_lmic.vhd): jointer_collect_lmic
with its generics from the layout, its sniffers, a trace timestamp of its own
when it needs one, the relay wiring (netlist_relay.py) and the sink traces
with their AXI4 masters (netlist_sink.py).
"""

from __future__ import annotations

from . import collection as collect_mod
from ..model import datapath
from ..model import layout as layout_mod
from ..model.monitor import Lmic, Monitor
from .relay import relay_lmic, relay_lmic_hook, relay_sniffer_map
from .sink import lmic_sinks, sink_dcapfs, sink_lmic_hook, sink_sniffer_map
from ..model.views import (TIMESTAMP_W, Assign, Const, ConstGroup, Instance, LmicView, Port, Signal,
                    SnifferView, int_vector, rng, slv_type)

# jointer_collect_lmic sizes its DCAPF / trace ports (dc_result ..., tr_wptr ...)
# with maximum(count, 1): one dummy item tied to '0' when the count is 0 (GHDL
# 2.0.0 cannot write null vectors as Verilog). A fact of the library, checked
# against the entity by gen/tests/test_gen_fixed_offsets.py.
LMIC_PORTS_MIN_ONE = (True, True)


def lmic(mon: Monitor, lm: Lmic, li: int, ll: layout_mod.LmicLayout, sviews: list[SnifferView],
          rp_addr_w: int, col: collect_mod.Collect) -> LmicView:
    pre = f"lm_{lm.name}"
    on_bus = lm.clock == mon.bus_clock.name
    traces = [t for t in ll.traces if not t.sink]   # BRAM traces (sinks: netlist_sink.py)
    nres, ntr = len(ll.dcapfs), len(traces)
    has_mark = any(s.is_mark for s in sviews)
    global_ts = len(ll.traces) > 0 and on_bus and col.timestamp
    local_ts = len(ll.traces) > 0 and not global_ts
    init_w = 32 if any(datapath.takes_init(sv.model) for sv in sviews) else 0

    consts = [
        Const(f"{pre}_num_sniffers_c", "positive", str(len(lm.sniffers))),
        Const(f"{pre}_num_dcapfs_c", "natural", str(nres), "result DCAPFs"),
        Const(f"{pre}_num_traces_c", "natural", str(ntr), "trace DCAPFs"),
        Const(f"{pre}_dcapf_sniffer_c", "integer_vector", int_vector([d.sniffer for d in ll.dcapfs]),
              "owning sniffer of each result DCAPF"),
        Const(f"{pre}_dcapf_width_c", "integer_vector", int_vector([d.width for d in ll.dcapfs]),
              "result bits"),
        Const(f"{pre}_dcapf_result_word_c", "integer_vector",
              int_vector([d.result_word for d in ll.dcapfs]), "least significant RESULT word"),
        Const(f"{pre}_dcapf_threshold_word_c", "integer_vector",
              int_vector([d.threshold_word for d in ll.dcapfs]), "THRESHOLD word, -1: none"),
        Const(f"{pre}_dcapf_irq_bit_c", "integer_vector",
              int_vector([d.irq_bit for d in ll.dcapfs]), "IRQ source bit, -1: none"),
        Const(f"{pre}_trace_sniffer_c", "integer_vector", int_vector([t.sniffer for t in traces]),
              "owning sniffer of each trace"),
        Const(f"{pre}_trace_reg_word_c", "integer_vector", int_vector([t.reg_word for t in traces]),
              "first of the 5 trace registers"),
        Const(f"{pre}_trace_ram_word_c", "integer_vector", int_vector([t.ram_word for t in traces]),
              "record 0 of the trace RAM window"),
        Const(f"{pre}_trace_depth_log2_c", "integer_vector",
              int_vector([t.depth_log2 for t in traces]), "log2 of the depth in records"),
        Const(f"{pre}_trace_irq_bit_c", "integer_vector", int_vector([t.irq_bit for t in traces]),
              "watermark IRQ bit (full = bit + 1)"),
        Const(f"{pre}_num_irq_c", "natural", str(ll.num_irq), "IRQ source bits"),
        Const(f"{pre}_init_w_c", "natural", str(init_w),
              "INIT bits a sniffer takes (bounds, a table)" if init_w else
              "no sniffer takes INIT data (no run-time bounds)"),
    ]
    nslots = sum(d.buckets for d in ll.dcapfs)
    if nslots > nres:                           # histograms (else the default)
        consts.append(Const(f"{pre}_dcapf_buckets_c", "integer_vector",
                            int_vector([d.buckets for d in ll.dcapfs]),
                            "result slots per DCAPF (a histogram: its buckets)"))
    group = ConstGroup(f"LMIC {lm.name} (window {li + 1}, clock {lm.clock}, {ll.words} words)", consts)
    gmap = [("addr_w_g", "rp_addr_w_c"), ("strict_g", "strict_c")] + \
        [(c.name[len(pre) + 1:-2] + "_g", c.name) for c in consts]

    ports = [Port("clk", "in", "std_logic", f"clock {lm.clock}", group="clock and reset"),
             Port("rst", "in", "std_logic", "synchronous, active high"),
             Port("rp_req", "in", "std_logic", "one-cycle request",
                  group="register port from the DCI (doc/internals/collect.md)"),
             Port("rp_commit", "in", "std_logic", "one-cycle pulse: perform the captured write"),
             Port("rp_we", "in", "std_logic"),
             Port("rp_addr", "in", slv_type(rp_addr_w)),
             Port("rp_wdata", "in", slv_type(32)), Port("rp_ack", "out", "std_logic"),
             Port("rp_rdata", "out", slv_type(32)), Port("rp_err", "out", "std_logic"),
             Port("irq", "out", "std_logic", "level: an enabled IRQ source is pending",
                  group="interrupt")]
    if global_ts:
        ports.append(Port("timestamp", "in", slv_type(TIMESTAMP_W), "bus-clock cycle counter",
                          group="trace timestamps"))
    if has_mark:
        ports += [Port("mark_valid", "in", "std_logic", "one pulse per MARK write",
                       group="MARK writes (global block)"),
                  Port("mark_data", "in", slv_type(32))]
    for sv in sviews:
        for o in sv.observed:
            ports.append(Port(f"{sv.model.name}_{o.sig}", "in", slv_type(o.width), o.comment,
                              group=f"sniffer {sv.model.name}: {sv.summary}" if o is sv.observed[0] else ""))

    def vec(n: int, w: int = 1) -> str:
        return f"std_logic_vector({w * n - 1} downto 0)"
    # a count of 0 gives null vectors, or one dummy item tied to '0' when the
    # library's LMIC sizes those ports with maximum(count, 1)
    dummy_d, dummy_t = LMIC_PORTS_MIN_ONE
    nd = max(nres, 1) if dummy_d else nres
    nt = max(ntr, 1) if dummy_t else ntr
    signals = [Signal("sn_prog", vec(len(lm.sniffers), 2), "PROG of each sniffer"),
               Signal("sn_run", "std_logic"), Signal("sn_soft_reset", "std_logic"),
               Signal("sn_ctrl_we", "std_logic"),
               Signal("sn_init_we", vec(len(lm.sniffers)), "INIT write strobe per sniffer"),
               Signal("sn_init_data", slv_type(32)),
               Signal("dc_result", vec(max(nd, nslots), 64), "result DCAPFs, 64 bits each"
                      + ("; a histogram: 64 bits per bucket" if nslots > nres else "")),
               Signal("dc_overflow", vec(nd)), Signal("dc_caught", vec(nd)),
               Signal("tr_wptr", vec(nt, 32), "trace status, 32 bits per trace"),
               Signal("tr_fill", vec(nt, 32)), Signal("tr_full", vec(nt)),
               Signal("tr_overflow", vec(nt)), Signal("tr_rd_addr", slv_type(32)),
               Signal("tr_rd_data", vec(nt, 32))]
    assigns = []
    if nd > nres:
        assigns += [Assign(x, "(others => '0')", "no result DCAPF: the LMIC's dummy item")
                    for x in ("dc_result", "dc_overflow", "dc_caught")]
    if nt > ntr:
        assigns += [Assign(x, "(others => '0')", "no trace: the LMIC's dummy item")
                    for x in ("tr_wptr", "tr_fill", "tr_full", "tr_overflow", "tr_rd_data")]
    if local_ts:
        signals.append(Signal("timestamp", slv_type(TIMESTAMP_W), f"cycle counter of clock {lm.clock}"))
    instances = []
    if local_ts:
        instances.append(Instance("u_timestamp", "jointer_collect_timestamp",
                                  f"trace timestamps: cycles of clock {lm.clock}",
                                  [("width_g", str(TIMESTAMP_W))],
                                  [("clk", "clk"), ("rst", "rst"), ("timestamp", "timestamp")]))
    instances.append(Instance(
        "u_lmic", "jointer_collect_lmic", f"LMIC {lm.name}: CONTROL, STATUS, INIT, RESULT, "
        "THRESHOLD and TRACE registers", gmap,
        [("clk", "clk"), ("rst", "rst"), ("rp_req", "rp_req"), ("rp_commit", "rp_commit"),
         ("rp_we", "rp_we"),
         ("rp_addr", "rp_addr"), ("rp_wdata", "rp_wdata"), ("rp_ack", "rp_ack"),
         ("rp_rdata", "rp_rdata"), ("rp_err", "rp_err"), ("sn_prog", "sn_prog"),
         ("sn_run", "sn_run"), ("sn_soft_reset", "sn_soft_reset"), ("sn_ctrl_we", "sn_ctrl_we"),
         ("sn_init_we", "sn_init_we"), ("sn_init_data", "sn_init_data"),
         ("dc_result", "dc_result"), ("dc_overflow", "dc_overflow"), ("dc_caught", "dc_caught"),
         ("tr_wptr", "tr_wptr"), ("tr_fill", "tr_fill"), ("tr_full", "tr_full"),
         ("tr_overflow", "tr_overflow"), ("tr_rd_addr", "tr_rd_addr"),
         ("tr_rd_data", "tr_rd_data"), ("irq", "irq")]))
    if relay_lmic(lm):
        relay_lmic_hook(pre, ll, nt, consts, gmap, signals, instances[-1])
    if lmic_sinks(lm):
        sink_lmic_hook(pre, lm, ll, consts, gmap, signals, ports, instances, instances[-1])
    for sv in sviews:
        si = sv.index
        pm = [("clk", "clk"), ("rst", "rst")]
        for o in sv.observed:
            pm.append((f"mon_{o.sig}", f"{sv.model.name}_{o.sig}"))
        if sv.is_mark:
            pm += [("mark_valid", "mark_valid"), ("mark_data", "mark_data")]
        pm += [("prog", f"sn_prog({rng(2 * si + 1, 2 * si)})"), ("run", "sn_run"),
               ("soft_reset", "sn_soft_reset"), ("ctrl_we", "sn_ctrl_we"),
               ("init_we", f"sn_init_we({si})"), ("init_data", "sn_init_data")]
        if sv.num_results:
            a, n = sv.first_result, sv.num_results
            sa, sn_ = sv.first_slot, sv.num_slots
            pm += [("dc_result", f"dc_result({rng(64 * (sa + sn_) - 1, 64 * sa)})"),
                   ("dc_overflow", f"dc_overflow({rng(a + n - 1, a)})"),
                   ("dc_caught", f"dc_caught({rng(a + n - 1, a)})")]
        if sv.num_traces:
            a, n = sv.first_trace, sv.num_traces
            pm += [("timestamp", "timestamp"),
                   ("tr_wptr", f"tr_wptr({rng(32 * (a + n) - 1, 32 * a)})"),
                   ("tr_fill", f"tr_fill({rng(32 * (a + n) - 1, 32 * a)})"),
                   ("tr_full", f"tr_full({rng(a + n - 1, a)})"),
                   ("tr_overflow", f"tr_overflow({rng(a + n - 1, a)})"),
                   ("tr_rd_addr", "tr_rd_addr"),
                   ("tr_rd_data", f"tr_rd_data({rng(32 * (a + n) - 1, 32 * a)})")]
            if relay_lmic(lm):
                pm += relay_sniffer_map(a, n)
        if sink_dcapfs(sv.model):
            if not sv.num_traces:
                pm.append(("timestamp", "timestamp"))
            pm += sink_sniffer_map(sv.model)
        instances.append(Instance(f"sniffer_{sv.model.name}", sv.entity,
                                  f"sniffer {si} {sv.model.name}: {sv.summary}", [], pm))
    entity = f"{mon.name}_{lm.name}_lmic"
    return LmicView(model=lm, index=li, entity=entity, file=f"hdl/{entity}.vhd", clock=lm.clock,
                    on_bus_clock=on_bus, layout=ll, sniffers=sviews, ports=ports, signals=signals,
                    instances=instances, assigns=assigns, const_group=group, num_results=nres, num_traces=ntr,
                    local_timestamp=local_ts, global_timestamp=global_ts, has_mark=has_mark)
