# SPDX-License-Identifier: MIT
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
from typing import NamedTuple
from .part import NetPart
from .vhdl_syntax import OTHERS_ZERO, element, field_of, fields_of, vector

# jointer_collect_lmic sizes its DCAPF / trace ports (dc_result ..., tr_wptr ...)
# with maximum(count, 1): one dummy item tied to '0' when the count is 0 (GHDL
# 2.0.0 cannot write null vectors as Verilog). A fact of the library, checked
# against the entity by gen/tests/test_gen_fixed_offsets.py.
LMIC_PORTS_MIN_ONE = (True, True)


class _Counts(NamedTuple):
    """The sizes of an LMIC's DCAPF and trace vectors."""
    nres: int                # result DCAPFs
    ntr: int                 # BRAM traces
    nslots: int              # 64-bit result slots (a histogram: one per bucket)
    nd: int                  # result items of the vectors (a dummy one when the library wants it)
    nt: int                  # trace items of the vectors


def _counts(ll: layout_mod.LmicLayout) -> _Counts:
    # a count of 0 gives null vectors, or one dummy item tied to '0' when the
    # library's LMIC sizes those ports with maximum(count, 1)
    dummy_d, dummy_t = LMIC_PORTS_MIN_ONE
    nres, ntr = len(ll.dcapfs), len([t for t in ll.traces if not t.sink])
    return _Counts(nres, ntr, sum(d.buckets for d in ll.dcapfs), max(nres, 1) if dummy_d else nres,
                   max(ntr, 1) if dummy_t else ntr)


def lmic(mon: Monitor, lm: Lmic, li: int, ll: layout_mod.LmicLayout, sviews: list[SnifferView],
         rp_addr_w: int, col: collect_mod.Collect) -> LmicView:
    pre = f"lm_{lm.name}"
    on_bus = lm.clock == mon.bus_clock.name
    n = _counts(ll)
    has_mark = any(s.is_mark for s in sviews)
    global_ts = len(ll.traces) > 0 and on_bus and col.timestamp
    local_ts = len(ll.traces) > 0 and not global_ts
    table, last = _consts(pre, lm, ll, sviews, n)
    ext = (relay_lmic_hook(pre, ll, n.nt) if relay_lmic(lm) else NetPart()) \
        + (sink_lmic_hook(pre, lm, ll) if lmic_sinks(lm) else NetPart())
    # the relay and sink constants sit before the last constant of the group
    group = ConstGroup(f"LMIC {lm.name} (window {li + 1}, clock {lm.clock}, {ll.words} words)",
                       table + ext.consts + (last,))
    generics = (("addr_w_g", "rp_addr_w_c"), ("strict_g", "strict_c")) \
        + tuple((_generic(pre, c), c.name) for c in table + (last,)) + ext.generics
    ts = _local_timestamp(lm) if local_ts else NetPart()
    u_lmic = Instance("u_lmic", "jointer_collect_lmic", f"LMIC {lm.name}: CONTROL, STATUS, INIT, RESULT, "
                      "THRESHOLD and TRACE registers", generics, U_LMIC_MAP + ext.port_map + (("irq", "irq"),))
    entity = f"{mon.name}_{lm.name}_lmic"
    return LmicView(model=lm, index=li, entity=entity, file=f"hdl/{entity}.vhd", clock=lm.clock,
                    on_bus_clock=on_bus, layout=ll, sniffers=tuple(sviews),
                    ports=_ports(lm, sviews, rp_addr_w, global_ts, has_mark) + ext.ports,
                    signals=_signals(lm, n) + ts.signals + ext.signals,
                    instances=ts.instances + (u_lmic,) + ext.instances
                    + tuple(_sniffer_instance(lm, sv) for sv in sviews),
                    assigns=_dummies(n) + ext.assigns, const_group=group, num_results=n.nres, num_traces=n.ntr,
                    local_timestamp=local_ts, global_timestamp=global_ts, has_mark=has_mark)


def _generic(pre: str, c: Const) -> str:
    """The generic of jointer_collect_lmic a constant lm_<lmic>_<x>_c feeds: <x>_g."""
    return c.name[len(pre) + 1:-2] + "_g"


def _consts(pre: str, lm: Lmic, ll: layout_mod.LmicLayout, sviews, n: _Counts) -> tuple[tuple, Const]:
    """The LMIC's generics as constants: (all but the last, the last)."""
    traces = [t for t in ll.traces if not t.sink]   # BRAM traces (sinks: netlist_sink.py)
    init_w = 32 if any(datapath.takes_init(sv.model) for sv in sviews) else 0

    def table(what: str, values: list[int], comment: str) -> Const:
        return Const(f"{pre}_{what}_c", "integer_vector", int_vector(values), comment)
    consts = (
        Const(f"{pre}_num_sniffers_c", "positive", str(len(lm.sniffers))),
        Const(f"{pre}_num_dcapfs_c", "natural", str(n.nres), "result DCAPFs"),
        Const(f"{pre}_num_traces_c", "natural", str(n.ntr), "trace DCAPFs"),
        table("dcapf_sniffer", [d.sniffer for d in ll.dcapfs], "owning sniffer of each result DCAPF"),
        table("dcapf_width", [d.width for d in ll.dcapfs], "result bits"),
        table("dcapf_result_word", [d.result_word for d in ll.dcapfs], "least significant RESULT word"),
        table("dcapf_threshold_word", [d.threshold_word for d in ll.dcapfs], "THRESHOLD word, -1: none"),
        table("dcapf_irq_bit", [d.irq_bit for d in ll.dcapfs], "IRQ source bit, -1: none"),
        table("trace_sniffer", [t.sniffer for t in traces], "owning sniffer of each trace"),
        table("trace_reg_word", [t.reg_word for t in traces], "first of the 5 trace registers"),
        table("trace_ram_word", [t.ram_word for t in traces], "record 0 of the trace RAM window"),
        table("trace_depth_log2", [t.depth_log2 for t in traces], "log2 of the depth in records"),
        table("trace_irq_bit", [t.irq_bit for t in traces], "watermark IRQ bit (full = bit + 1)"),
        Const(f"{pre}_num_irq_c", "natural", str(ll.num_irq), "IRQ source bits"))
    init = Const(f"{pre}_init_w_c", "natural", str(init_w),
                 "INIT bits a sniffer takes (bounds, a table)" if init_w else
                 "no sniffer takes INIT data (no run-time bounds)")
    if n.nslots == n.nres:                      # no histogram: the default buckets
        return consts, init
    return consts + (init,), table("dcapf_buckets", [d.buckets for d in ll.dcapfs],
                                   "result slots per DCAPF (a histogram: its buckets)")


def _ports(lm: Lmic, sviews, rp_addr_w: int, global_ts: bool, has_mark: bool) -> tuple:
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
        for k, o in enumerate(sv.observed):
            ports.append(Port(f"{sv.model.name}_{o.sig}", "in", slv_type(o.width), o.comment,
                              group="" if k else f"sniffer {sv.model.name}: {sv.summary}"))
    return tuple(ports)


def _signals(lm: Lmic, n: _Counts) -> tuple:
    return (Signal("sn_prog", vector(len(lm.sniffers), 2), "PROG of each sniffer"),
            Signal("sn_run", "std_logic"), Signal("sn_soft_reset", "std_logic"),
            Signal("sn_ctrl_we", "std_logic"),
            Signal("sn_init_we", vector(len(lm.sniffers)), "INIT write strobe per sniffer"),
            Signal("sn_init_data", slv_type(32)),
            Signal("dc_result", vector(max(n.nd, n.nslots), 64), "result DCAPFs, 64 bits each"
                   + ("; a histogram: 64 bits per bucket" if n.nslots > n.nres else "")),
            Signal("dc_overflow", vector(n.nd)), Signal("dc_caught", vector(n.nd)),
            Signal("tr_wptr", vector(n.nt, 32), "trace status, 32 bits per trace"),
            Signal("tr_fill", vector(n.nt, 32)), Signal("tr_full", vector(n.nt)),
            Signal("tr_overflow", vector(n.nt)), Signal("tr_rd_addr", slv_type(32)),
            Signal("tr_rd_data", vector(n.nt, 32)))


def _dummies(n: _Counts) -> tuple:
    """The dummy items of the LMIC's vectors, tied to '0'."""
    return tuple(Assign(x, OTHERS_ZERO, "no result DCAPF: the LMIC's dummy item")
                 for x in ("dc_result", "dc_overflow", "dc_caught") if n.nd > n.nres) \
        + tuple(Assign(x, OTHERS_ZERO, "no trace: the LMIC's dummy item")
                for x in ("tr_wptr", "tr_fill", "tr_full", "tr_overflow", "tr_rd_data") if n.nt > n.ntr)


def _local_timestamp(lm: Lmic) -> NetPart:
    """A cycle counter of the LMIC's own clock for its trace records."""
    return NetPart(
        signals=(Signal("timestamp", slv_type(TIMESTAMP_W), f"cycle counter of clock {lm.clock}"),),
        instances=(Instance("u_timestamp", "jointer_collect_timestamp",
                            f"trace timestamps: cycles of clock {lm.clock}", (("width_g", str(TIMESTAMP_W)),),
                            (("clk", "clk"), ("rst", "rst"), ("timestamp", "timestamp"))),))


# u_lmic's port map but its irq (the relay and sink ports come before it)
U_LMIC_MAP = tuple((s, s) for s in (
    "clk", "rst", "rp_req", "rp_commit", "rp_we", "rp_addr", "rp_wdata", "rp_ack", "rp_rdata", "rp_err",
    "sn_prog", "sn_run", "sn_soft_reset", "sn_ctrl_we", "sn_init_we", "sn_init_data", "dc_result",
    "dc_overflow", "dc_caught", "tr_wptr", "tr_fill", "tr_full", "tr_overflow", "tr_rd_addr", "tr_rd_data"))


def _sniffer_instance(lm: Lmic, sv: SnifferView) -> Instance:
    si = sv.index
    pm = [("clk", "clk"), ("rst", "rst")] + [(f"mon_{o.sig}", f"{sv.model.name}_{o.sig}") for o in sv.observed]
    if sv.is_mark:
        pm += [("mark_valid", "mark_valid"), ("mark_data", "mark_data")]
    pm += [("prog", field_of("sn_prog", si, 2)), ("run", "sn_run"),
           ("soft_reset", "sn_soft_reset"), ("ctrl_we", "sn_ctrl_we"),
           ("init_we", element("sn_init_we", si)), ("init_data", "sn_init_data")]
    if sv.num_results:
        a, n = sv.first_result, sv.num_results
        pm += [("dc_result", fields_of("dc_result", sv.first_slot, sv.num_slots, 64)),
               ("dc_overflow", fields_of("dc_overflow", a, n)), ("dc_caught", fields_of("dc_caught", a, n))]
    if sv.num_traces:
        a, n = sv.first_trace, sv.num_traces
        pm += [("timestamp", "timestamp"), ("tr_wptr", fields_of("tr_wptr", a, n, 32)),
               ("tr_fill", fields_of("tr_fill", a, n, 32)), ("tr_full", fields_of("tr_full", a, n)),
               ("tr_overflow", fields_of("tr_overflow", a, n)), ("tr_rd_addr", "tr_rd_addr"),
               ("tr_rd_data", fields_of("tr_rd_data", a, n, 32))]
        pm += relay_sniffer_map(a, n) if relay_lmic(lm) else []
    if sink_dcapfs(sv.model):
        pm += [] if sv.num_traces else [("timestamp", "timestamp")]
        pm += sink_sniffer_map(sv.model)
    return Instance(f"sniffer_{sv.model.name}", sv.entity, f"sniffer {si} {sv.model.name}: {sv.summary}",
                    (), tuple(pm))
