# SPDX-License-Identifier: MIT
"""VHDL netlist of a sniffer: interfacer (its kind's elaborate()), condition
checkers, emitter, dispenser, DCAPFs and trace extractors, as package
constants, ports, signals and instances of <name>_<sniffer>_sniffer.vhd.
"""

from __future__ import annotations

from ..model import datapath, timing
from ..interfacers import InterfacerNet
from ..model.monitor import Dcapf, Monitor, Sniffer
from .relay import relay_extractor_map, relay_lmic, relay_sniffer_ports
from .sink import sink_dcapfs, sink_extractor_map, sink_sniffer_ports
from .sources import COND_ENTITY, event_actuals, extra_parts, source_width
from ..model.views import (TIMESTAMP_W, Assign, Const, ConstGroup, Instance, ObservedSignal, Port, Signal,
                    SnifferView, int_vector, rng, slv_hex, slv_type, vhdl_bool)
from typing import NamedTuple
from .part import NetPart, join
from .trace_lanes import lane_comment, lanes_part
from .vhdl_syntax import OTHERS_ZERO, ONE_BIT_ONE, bit_string, element, field_of, slice_



def _summary(sn: Sniffer) -> str:
    return sn.interfacer.kind.summary(sn.interfacer.params)


class _Ctx(NamedTuple):
    """What every block of one sniffer needs."""
    mon: Monitor
    sn: Sniffer
    li: int                  # its LMIC
    pre: str                 # sn_<sniffer>: the prefix of its package constants
    relay: bool              # its LMIC holds a relay trace (every trace gets the relay ports)
    ranges: tuple            # the DCAPFs whose filter the interfacer or emitter evaluates (range bit k)
    ew: int                  # event data width: 32, or 64 (datapath.event_width)

    @property
    def wide_generic(self) -> tuple:
        """(ev_w_g => <pre>_ev_w_c,) for a sniffer with wide event data, else ()."""
        return (("ev_w_g", f"{self.pre}_ev_w_c"),) if self.ew > 32 else ()


class _InterfacerPart(NamedTuple):
    observed: tuple          # ObservedSignal: top-level ports <sniffer>_<sig>
    consts: tuple            # its package constants
    instance: Instance
    ports: tuple             # sniffer ports it adds (extra ports, then mon_<sig>)


def _interfacer(sn: Sniffer, pre: str) -> _InterfacerPart:
    """Observed top-level signals, interfacer constants, instance, sniffer ports."""
    kind = sn.interfacer.kind
    net = InterfacerNet(pre)
    kind.elaborate(sn, net)
    if source_width(sn, "") > 32:   # every address bit reaches the filters and conditions
        net.generic("ev_w_g", "positive", str(source_width(sn, "")),
                    f"event data ports: {datapath.source_data_width(sn, '')} bits that can be non-zero")
    pmap = list(net.port_map)
    if datapath.capture_ranges(sn):
        pmap += [("rng_low", "rng_low"), ("rng_high", "rng_high"), ("cand_in_range", "cand_in_range")]
    pmap += [("cand_valid", "cand_valid"), ("cand_data", "cand_data"), ("cand_bytes", "cand_bytes")]
    ports = [Port(name, d, slv_type(w), comment) for name, d, w, comment in net.ports]
    ports += [Port(f"mon_{o.sig}", "in", slv_type(o.width), o.comment) for o in net.observed]
    if ports:
        group = "observed signals (all inputs)" if not sn.is_mark else "MARK writes"
        ports[0] = ports[0]._replace(group=group)
    inst = Instance("u_interfacer", kind.entity, "interfacer: " + _summary(sn), tuple(net.generics),
                    tuple(pmap))
    return _InterfacerPart(tuple(net.observed), tuple(Const(*c) for c in net.consts), inst, tuple(ports))


# ---------------------------------------------------------------------------
# sniffer composition
# ---------------------------------------------------------------------------


def _dcapf_summary(dc: Dcapf) -> str:
    nofilter = "" if dc.has_filter else ", no filter"
    if dc.is_sink:
        return f"trace, sink mode ({dc.sink.data_width}-bit AXI4 master, {dc.sink.encoding}){nofilter}"
    if dc.is_trace:
        return f"trace, {dc.depth} records, {dc.mode} mode{nofilter}"
    what = {"event": "event extractor", "time": "time extractor"}[dc.extractor]
    if dc.extractor == "event":
        what += f" ({dc.sample})"
    return f"{what}, {dc.aggregator}, {dc.width} bits" + (", wraps" if dc.wrap else "") \
        + (", threshold IRQ" if dc.threshold_irq else "") + nofilter


NO_FILTER_COMMENT = "no filter: FILTERING counts as NO_FILTERING, its 2 INIT words are ignored"


FILTER_COMMENT = {
    "filter_none_c": NO_FILTER_COMMENT,
    "filter_runtime_c": "Init DCAPF (bounds loaded at run time) + filter",
    "filter_const_c": "constant bounds: a comparator, no registers; its 2 INIT words are ignored",
    "filter_capture_c": "Init DCAPF here; the interfacer compares where it captures the address",
    "filter_capture_const_c": "constant bounds, compared by the interfacer; its 2 INIT words are ignored",
}
EMITTER_FILTER_COMMENT = {
    "filter_capture_c": "Init DCAPF here; the emitter compares, beside the condition checkers",
    "filter_capture_const_c": "constant bounds, compared by the emitter; its 2 INIT words are ignored",
}


def _filter_generics(dp: str, dc: Dcapf, sn: Sniffer, ew: int = 32) -> dict[str, Const]:
    """{formal: constant} of the filter generics: has_filter_g of a trace, filter_g
    of another DCAPF (datapath.filter_mode), and the reset bounds when there is a filter."""
    if dc.is_trace:
        f = {"has_filter_g": Const(f"{dp}_has_filter_c", "boolean", vhdl_bool(dc.has_filter),
                                   "Init DCAPF + filter" if dc.has_filter else NO_FILTER_COMMENT)}
    else:
        mode = datapath.filter_mode(sn, dc)
        comments = EMITTER_FILTER_COMMENT if dc in datapath.emitter_ranges(sn) else FILTER_COMMENT
        f = {"filter_g": Const(f"{dp}_filter_c", "natural", mode, comments[mode])}
    if not dc.has_filter:
        return f
    return {**f, "low_reset_g": Const(f"{dp}_low_reset_c", slv_type(ew), slv_hex(dc.low, ew),
                                      "filter low after reset" if dc.filter_runtime else "filter low"),
            "high_reset_g": Const(f"{dp}_high_reset_c", slv_type(ew), slv_hex(dc.high, ew),
                                  "filter high after reset" if dc.filter_runtime else "filter high")}


def _capture_map(ranges: tuple, dc: Dcapf, ew: int = 32) -> list[tuple[str, str]]:
    """Port map of a DCAPF whose filter the interfacer or the emitter evaluates (its range
    bit k): in-range from the emitter, its bounds to the interfacer or the emitter."""
    if dc not in ranges:
        return []
    k = ranges.index(dc)
    return [("ev_in_range", element("ev_in_range", k)), ("low", field_of("rng_low", k, ew)),
            ("high", field_of("rng_high", k, ew))]


def sniffer(mon: Monitor, sn: Sniffer, li: int, si: int, number: int, first_result: int,
            first_trace: int, first_slot: int = 0) -> SnifferView:
    """The netlist of one sniffer; its DCAPFs start at first_result, first_trace
    and first_slot of its LMIC's vectors."""
    ctx = _Ctx(mon, sn, li, f"sn_{sn.name}", relay_lmic(mon.lmics[li]),
               tuple(datapath.range_dcapfs(sn)), datapath.event_width(sn))
    main = "" in datapath.sources(sn)      # the kind's own interfacer: when a DCAPF reads its lanes
    assert not main or source_width(sn, "") == ctx.ew, sn.name
    itf = _interfacer(sn, ctx.pre)
    extra_obs, extra = extra_parts(sn, ctx.pre, ctx.ew)
    observed, oports = _observed(itf, extra_obs)
    results = [d for d in sn.dcapfs if not d.is_trace]
    traces = [d for d in sn.dcapfs if d.is_trace and not d.is_sink]   # BRAM traces
    sinks = sink_dcapfs(sn)                                              # no RAM
    nslots = sum(d.buckets for d in results)   # a histogram takes one 64-bit slot per bucket
    head = (_conditions(ctx) + _emitter(ctx) if main else NetPart(consts=tuple(_emitter_consts(ctx).values()))) \
        + _dispenser(ctx)
    dcs = [_dcapf(ctx, *placed) for placed in _placed(sn.dcapfs)]
    body = join(part for _, part in dcs)
    mark = (Assign("mark_strobe(0)", "mark_valid", "the MARK write pulse"),) if sn.is_mark else ()
    group = ConstGroup(f"sniffer {sn.name} (LMIC {mon.lmics[li].name}, sniffer {si}): {_summary(sn)}",
                       itf.consts + head.consts + extra.consts)
    entity = f"{mon.name}_{sn.name}_sniffer"
    return SnifferView(model=sn, lmic=li, index=si, number=number, entity=entity,
                       file=f"hdl/{entity}.vhd", summary=_summary(sn), observed=observed,
                       ports=_ports(ctx, oports, results, traces, sinks, nslots),
                       signals=_signals(ctx, main) + extra.signals + body.signals,
                       instances=((itf.instance,) if main else ()) + head.instances + extra.instances
                       + body.instances,
                       assigns=mark + extra.assigns + body.assigns,
                       const_groups=(group,) + tuple(g for g, _ in dcs),
                       num_results=len(results), num_traces=len(traces),
                       first_result=first_result, first_trace=first_trace, num_slots=nslots,
                       first_slot=first_slot, needs_timestamp=bool(traces or sinks), is_mark=sn.is_mark)


def _observed(itf: _InterfacerPart, extra: list) -> tuple[tuple, tuple]:
    """(observed signals, sniffer ports) of the kind's interfacer and of the extra sources:
    every signal once (the kind's own always: they make the sniffer's bus interface)."""
    seen = {o.sig for o in itf.observed}
    more = []
    for o in extra:
        if o.sig not in seen:
            seen.add(o.sig)
            more.append(o)
    ports = tuple(Port(f"mon_{o.sig}", "in", slv_type(o.width), o.comment) for o in more)
    return itf.observed + tuple(more), itf.ports + ports


def _placed(dcapfs) -> list[tuple]:
    """(INIT index, DCAPF, result index, BRAM trace index, first 64-bit result slot) of
    each DCAPF of a sniffer: the positions of its signals in the sniffer's vectors."""
    out, ri, ti, slot = [], 0, 0, 0
    for di, dc in enumerate(dcapfs):
        out.append((di, dc, ri, ti, slot))
        if not dc.is_trace:
            ri, slot = ri + 1, slot + dc.buckets
        elif not dc.is_sink:
            ti += 1
    return out


# -- ports and signals ----------------------------------------------------------
def _ports(ctx: _Ctx, oports: tuple, results: list, traces: list, sinks: list, nslots: int) -> tuple:
    ports = [Port("clk", "in", "std_logic", "clock of the LMIC's area", group="clock and reset"),
             Port("rst", "in", "std_logic", "synchronous, active high"), *oports,
             Port("prog", "in", slv_type(2), "PROG of this sniffer (CONTROL)", group="control, from the LMIC"),
             Port("run", "in", "std_logic", "RUN (CONTROL bit 0)"),
             Port("soft_reset", "in", "std_logic", "SOFT_RESET pulse"),
             Port("ctrl_we", "in", "std_logic", "a CONTROL write is visible on prog/run"),
             Port("init_we", "in", "std_logic", "this sniffer's INIT register was written"),
             Port("init_data", "in", slv_type(32), "the INIT value")]
    if results:
        n = len(results)
        ports += [Port("dc_result", "out", slv_type(64 * nslots), "result DCAPFs, 64 bits each, zero-padded"
                       + ("; a histogram: 64 bits per bucket" if nslots > n else ""),
                       group="monitoring information, to the LMIC"),
                  Port("dc_overflow", "out", slv_type(n), "sticky overflow per result DCAPF"),
                  Port("dc_caught", "out", slv_type(n), "result updated since the last clear")]
    if traces:
        ports += _trace_ports(len(traces), ctx.relay)
    if sinks:
        if not traces:
            ports.append(Port("timestamp", "in", slv_type(TIMESTAMP_W), "cycle counter of this clock domain",
                              group="trace sinks"))
        ports += sink_sniffer_ports(ctx.sn)
    return tuple(ports)


def _trace_ports(n: int, relay: bool) -> list[Port]:
    """The ports of n BRAM traces (and of their relay wiring)."""
    return [Port("timestamp", "in", slv_type(TIMESTAMP_W), "cycle counter of this clock domain",
                 group="trace buffers"),
            Port("tr_wptr", "out", slv_type(32 * n), "per trace: next record slot"),
            Port("tr_fill", "out", slv_type(32 * n), "per trace: records held"),
            Port("tr_full", "out", slv_type(n)),
            Port("tr_overflow", "out", slv_type(n), "sticky"),
            Port("tr_rd_addr", "in", slv_type(32), "host read address (word in the trace window)"),
            Port("tr_rd_data", "out", slv_type(32 * n), "per trace: word read, one cycle later")] \
        + (relay_sniffer_ports(n) if relay else [])


def _signals(ctx: _Ctx, main: bool = True) -> tuple:
    """The signals between interfacer, condition checkers, emitter and dispenser (those of
    the kind's own interfacer only when it is instantiated)."""
    if not main:
        return _dispenser_signals(ctx)
    sn, ncond, nr = ctx.sn, len(ctx.sn.conditions), len(ctx.ranges)
    lanes = sn.interfacer.kind.main_lanes(sn.interfacer.params)
    mark = [Signal("mark_strobe", slv_type(1), "mark_valid as a one-lane vector")] if sn.is_mark else []
    cond = [Signal("cond", slv_type(ncond), "one match bit per condition")] if ncond else []
    cand = [Signal("cand_in_range", slv_type(nr), "the AW's address in range, per filter")] \
        if datapath.capture_ranges(sn) else []
    ranges = [Signal("rng_low", slv_type(ctx.ew * nr), "filter low bound per captured range"),
              Signal("rng_high", slv_type(ctx.ew * nr), "filter high bound per captured range")] + cand \
        + [Signal("ev_in_range", slv_type(nr), "event instance: in range, per filter")] if nr else []
    return tuple(mark + [Signal("cand_valid", slv_type(lanes), "candidate strobe per lane"),
                         Signal("cand_data", slv_type(ctx.ew), "candidate data"),
                         Signal("cand_bytes", slv_type(16), "candidate byte count")] + cond + ranges
                 + [Signal("ev_good", slv_type(lanes), "event instance: valid strobe per lane"),
                    Signal("ev_data", slv_type(ctx.ew), "event instance: data"),
                    Signal("ev_inc", slv_type(16), "event instance: increment")]) + _dispenser_signals(ctx)


def _dispenser_signals(ctx: _Ctx) -> tuple:
    """The dispenser's outputs, to every DCAPF."""
    return tuple([Signal("run_en", "std_logic"), Signal("use_filter", "std_logic"),
                  Signal("clear", "std_logic"), Signal("d_init_we", "std_logic"),
                  Signal("d_init_sel", slv_type(8)), Signal("d_init_hi", "std_logic")]
                 + ([Signal("d_init_word", "std_logic", "which 32-bit word of a 64-bit bound")]
                    if ctx.ew > 32 else [])
                 + [Signal("d_init_data", slv_type(32))])


# -- condition checkers, emitter, dispenser ----------------------------------------
def _conditions(ctx: _Ctx) -> NetPart:
    """One checker per condition: its two constants and its instance."""
    return join(_condition(ctx, ci, c) for ci, c in enumerate(ctx.sn.conditions))


def _condition(ctx: _Ctx, ci: int, c) -> NetPart:
    entity, ga, gb = COND_ENTITY[c.kind]
    pre, ew, digits = ctx.pre, ctx.ew, ctx.ew // 4
    a = Const(f"{pre}_cond{ci}_{ga}_c", slv_type(ew), slv_hex(c.a, ew))
    b = Const(f"{pre}_cond{ci}_{gb}_c", slv_type(ew), slv_hex(c.b, ew))
    what = (f"(data and 0x{c.a:0{digits}X}) = 0x{c.b:0{digits}X}" if c.kind == "mask"
            else f"0x{c.a:0{digits}X} <= data <= 0x{c.b:0{digits}X}")
    inst = Instance(f"u_cond{ci}", entity, f"condition {ci}: {what}",
                    ctx.wide_generic + ((f"{ga}_g", a.name), (f"{gb}_g", b.name)),
                    (("data", "cand_data"), ("match", element("cond", ci))))
    return NetPart(consts=(a, b), instances=(inst,))


def _emitter_consts(ctx: _Ctx) -> dict[str, Const]:
    """{generic: constant} of the emitter (and num_dcapfs_g of the dispenser), in package order.
    The dispenser's slots: the DCAPFs, then any INIT slots of the interfacer."""
    sn, pre = ctx.sn, ctx.pre
    init_slots = sn.interfacer.kind.init_slots(sn)
    registered = datapath.emitter_registered(sn)
    return {
        "lanes_g": Const(f"{pre}_lanes_c", "positive", str(sn.interfacer.kind.main_lanes(sn.interfacer.params)),
                         "event lanes"),
        "num_cond_g": Const(f"{pre}_num_cond_c", "natural", str(len(sn.conditions)), "condition checkers"),
        "increment_g": Const(f"{pre}_increment_c", "natural",
                             "increment_bytes_c" if sn.increment == "bytes" else "increment_one_c",
                             f"event increment: {'bytes' if sn.increment == 'bytes' else 'one'}"),
        "num_dcapfs_g": Const(f"{pre}_num_dcapfs_c", "positive", str(len(sn.dcapfs) + init_slots),
                              sn.interfacer.kind.init_slots_comment(sn) if init_slots
                              else "DCAPFs, traces included (2 INIT words each)"),
        "data_w_g": Const(f"{pre}_ev_data_w_c", "positive", str(datapath.source_data_width(sn, "")),
                          "event data bits that can be non-zero"),
        "inc_w_g": Const(f"{pre}_ev_inc_w_c", "positive", str(datapath.inc_width(sn)),
                         "increment bits that can be non-zero"),
        "registered_g": Const(f"{pre}_emit_registered_c", "boolean", vhdl_bool(registered),
                              "event instances registered (behind condition checkers)" if registered
                              else "the candidates, from the interfacer's registers, are the event instances")}


def _emitter(ctx: _Ctx) -> NetPart:
    ec = _emitter_consts(ctx)
    ranges = bool(ctx.ranges)
    compare = bool(datapath.emitter_ranges(ctx.sn))     # the emitter compares, else it carries the bits
    generics = [(g, ec[g].name) for g in ("lanes_g", "num_cond_g", "increment_g", "registered_g")]
    generics += [("ranges_g", str(len(ctx.ranges)))] if ranges else []
    generics += [("compare_g", "true"), ("data_w_g", ec["data_w_g"].name)] if compare else []
    generics += list(ctx.wide_generic)
    in_range = [("rng_low", "rng_low"), ("rng_high", "rng_high")] if compare \
        else [("cand_in_range", "cand_in_range")] if ranges else []
    ports = [("clk", "clk"), ("rst", "rst"), ("cand_valid", "cand_valid"), ("cand_data", "cand_data"),
             ("cand_bytes", "cand_bytes")] + in_range \
        + [("cond", "cond" if ctx.sn.conditions else ONE_BIT_ONE),
           ("ev_good", "ev_good"), ("ev_data", "ev_data"), ("ev_inc", "ev_inc")] \
        + ([("ev_in_range", "ev_in_range")] if ranges else [])
    inst = Instance("u_emitter", "jointer_eig_emitter", "emitter: event instances (data, increment, good)",
                    tuple(generics), tuple(ports))
    return NetPart(consts=tuple(ec.values()), instances=(inst,))


def _dispenser(ctx: _Ctx) -> NetPart:
    wide = ctx.ew > 32          # two INIT words per bound
    fast = timing.init_reg(ctx.mon, timing.clock_of(ctx.mon, ctx.mon.lmics[ctx.li].clock), ctx.sn)
    inst = Instance(
        "u_dispenser", "jointer_collect_dispenser", "dispenser: PROG/RUN/SOFT_RESET/INIT to the DCAPFs"
        + (" (fast: the INIT load registered, a cycle later)" if fast else ""),
        (("num_dcapfs_g", f"{ctx.pre}_num_dcapfs_c"),) + ((("words_g", "2"),) if wide else ())
        + ((("init_reg_g", "true"),) if fast else ()),
        (("clk", "clk"), ("rst", "rst"), ("prog", "prog"), ("run", "run"),
         ("soft_reset", "soft_reset"), ("ctrl_we", "ctrl_we"), ("init_we", "init_we"),
         ("init_data", "init_data"), ("run_en", "run_en"), ("use_filter", "use_filter"),
         ("clear", "clear"), ("init_we_o", "d_init_we"), ("init_sel", "d_init_sel"),
         ("init_hi", "d_init_hi")) + ((("init_word", "d_init_word"),) if wide else ())
        + (("init_data_o", "d_init_data"),))
    return NetPart(instances=(inst,))


# -- DCAPFs -----------------------------------------------------------------------
CONTROL_MAP = (("clk", "clk"), ("rst", "rst"), ("run_en", "run_en"), ("use_filter", "use_filter"),
               ("clear", "clear"), ("init_we", "d_init_we"), ("init_sel", "d_init_sel"),
               ("init_hi", "d_init_hi"), ("init_data", "d_init_data"))


def _dcapf(ctx: _Ctx, di: int, dc: Dcapf, ri: int, ti: int, slot: int) -> tuple[ConstGroup, NetPart]:
    """The constant group and the netlist of DCAPF di of the sniffer."""
    dp = f"dc_{dc.name}"
    index = Const(f"{dp}_index_c", "natural", str(di), "INIT order inside the sniffer")
    comment = f"DCAPF {di} {dc.name}: {_dcapf_summary(dc)}, {lane_comment(ctx.sn, dc)}"
    fgen = _filter_generics(dp, dc, ctx.sn, ctx.ew)
    if dc.is_sink:
        consts, part = _sink_extractor(ctx, dp, dc, index, fgen, comment)
    elif dc.is_trace:
        consts, part = _trace_extractor(ctx, dp, dc, index, fgen, comment, ti)
    else:
        consts, part = _result_dcapf(ctx, dp, dc, index, fgen, comment, ri, slot)
    title = f"DCAPF {dc.name} (sniffer {ctx.sn.name}, DCAPF {di}): {_dcapf_summary(dc)}"
    return ConstGroup(title, consts), part


def _sink_extractor(ctx: _Ctx, dp: str, dc: Dcapf, index: Const, fgen: dict,
                    comment: str) -> tuple[tuple, NetPart]:
    mode = Const(f"{dp}_mode_c", "natural", "trace_sink_c", "no RAM: records to the LMIC's jointer_trace_sink_axi")
    ev = event_actuals(ctx.sn, ctx.pre, ctx.ew, dc)
    lconsts, lgen, lports, lpart = lanes_part(dp, dc, ev.good)
    generics = (("index_g", index.name), ("depth_log2_g", "1"), ("mode_g", mode.name)) \
        + tuple((f, c.name) for f, c in fgen.items()) + lgen
    ports = CONTROL_MAP + lports + (("ev_data", ev.data), ("timestamp", "timestamp")) \
        + tuple(sink_extractor_map(dc))
    inst = Instance(f"trace_{dc.name}", "jointer_trace_extractor", comment, generics, ports)
    return (index, mode, *fgen.values(), *lconsts), lpart + NetPart(instances=(inst,))


def _trace_extractor(ctx: _Ctx, dp: str, dc: Dcapf, index: Const, fgen: dict, comment: str,
                     ti: int) -> tuple[tuple, NetPart]:
    depth = Const(f"{dp}_depth_log2_c", "positive", str(dc.depth.bit_length() - 1), f"{dc.depth} records")
    mode = Const(f"{dp}_mode_c", "natural", f"trace_{dc.mode or 'stop'}_c")
    ev = event_actuals(ctx.sn, ctx.pre, ctx.ew, dc)
    lconsts, lgen, lports, lpart = lanes_part(dp, dc, ev.good)
    generics = (("index_g", index.name), ("depth_log2_g", depth.name), ("mode_g", mode.name)) \
        + tuple((f, c.name) for f, c in fgen.items()) + lgen
    ports = CONTROL_MAP + lports + (
        ("ev_data", ev.data), ("timestamp", "timestamp"),
        ("tr_wptr", field_of("tr_wptr", ti, 32)), ("tr_fill", field_of("tr_fill", ti, 32)),
        ("tr_full", element("tr_full", ti)), ("tr_overflow", element("tr_overflow", ti)),
        ("tr_rd_addr", "tr_rd_addr"), ("tr_rd_data", field_of("tr_rd_data", ti, 32))) \
        + (tuple(relay_extractor_map(ti)) if ctx.relay else ())
    inst = Instance(f"trace_{dc.name}", "jointer_trace_extractor", comment, generics, ports)
    return (index, depth, mode, *fgen.values(), *lconsts), lpart + NetPart(instances=(inst,))


def _result_consts(dp: str, dc: Dcapf, index: Const, fgen: dict) -> dict[str, Const]:
    """{generic: constant} of a result DCAPF, in package order."""
    return {"index_g": index,
            "extractor_g": Const(f"{dp}_extractor_c", "natural", f"extractor_{dc.extractor}_c"),
            "aggregator_g": Const(f"{dp}_aggregator_c", "natural", f"aggregator_{dc.aggregator}_c"),
            "sample_g": Const(f"{dp}_sample_c", "natural",
                              "sample_data_c" if dc.sample == "data" else "sample_increment_c",
                              "" if dc.extractor == "event" else "unused by the time extractor"),
            "width_g": Const(f"{dp}_width_c", "positive", str(dc.width), "result bits"),
            "wrap_g": Const(f"{dp}_wrap_c", "boolean", vhdl_bool(dc.wrap),
                            "wraps on overflow" if dc.wrap else "saturates on overflow"),
            **fgen, **_bucket_consts(dp, dc)}


def _bucket_consts(dp: str, dc: Dcapf) -> dict[str, Const]:
    """The slots of a mean (sum, count) or the buckets of a histogram."""
    if dc.is_mean:
        return {"buckets_g": Const(f"{dp}_buckets_c", "positive", "2", "mean: sum and count")}
    if not dc.is_histogram:
        return {}
    pow2 = dc.boundaries == "pow2"
    return {"buckets_g": Const(f"{dp}_buckets_c", "positive", str(dc.buckets), "histogram buckets"),
            "hist_pow2_g": Const(f"{dp}_hist_pow2_c", "boolean", vhdl_bool(pow2),
                                 "bucket k = [2^(k-1), 2^k)" if pow2 else "listed boundaries"),
            "hist_bounds_g": Const(f"{dp}_hist_bounds_c", "integer_vector",
                                   int_vector(dc.boundaries if not pow2 else [1]),
                                   "boundaries b(1)..b(N-1)" if not pow2 else "unused (pow2)")}


def _paper_config(dp: str, dc: Dcapf) -> Const:
    """The paper's DCAPF_<name>_CONFIG (section 3.1.1), for reference: from the LSB
    data gating, time monitor, event monitor (1 = instantiated)."""
    enables = (int(dc.extractor == "event") | int(dc.extractor == "time") << 1
               | int(dc.extractor == "event") << 2)
    return Const(f"{dp}_config_c", slv_type(3), bit_string(enables, 3),
                 "paper's DCAPF config bits (LSB first: gating, time, event); informational")


def _result_dcapf(ctx: _Ctx, dp: str, dc: Dcapf, index: Const, fgen: dict, comment: str,
                  ri: int, slot: int) -> tuple[tuple, NetPart]:
    gconsts = {**_result_consts(dp, dc, index, fgen), **_variant_consts(ctx, dp, dc)}
    result, slots = _result_slots(dc, 64 * slot)
    ev = event_actuals(ctx.sn, ctx.pre, ctx.ew, dc)
    generics = tuple((f, c.name) for f, c in gconsts.items()) \
        + (("data_w_g", ev.data_w), ("inc_w_g", ev.inc_w)) + ctx.wide_generic
    control = CONTROL_MAP + ((("init_word", "d_init_word"),) if ctx.ew > 32 else ())
    ports = control + (("ev_good", ev.good), ("ev_data", ev.data),
                       ("ev_inc", ev.inc)) + tuple(_capture_map(ctx.ranges, dc, ctx.ew)) \
        + (("result", result), ("overflow", element("dc_overflow", ri)), ("caught", element("dc_caught", ri)))
    inst = Instance(f"dcapf_{dc.name}", "jointer_dcapf", comment, generics, ports)
    consts = (*gconsts.values(), _paper_config(dp, dc))
    return consts, slots + NetPart(instances=(inst,))


def _variant_consts(ctx: _Ctx, dp: str, dc: Dcapf) -> dict[str, Const]:
    """The fast variants the DCAPF's clock needs (model/timing.py); none: no generic."""
    clock = timing.clock_of(ctx.mon, ctx.mon.lmics[ctx.li].clock)
    v = timing.dcapf_variant(ctx.mon, clock, ctx.sn, dc)
    out = {}
    if v.split:
        out["split_g"] = Const(f"{dp}_split_c", "natural", str(v.split),
                               "fast: split carry, the result a cycle later")
    if v.smp_reg:
        out["smp_reg_g"] = Const(f"{dp}_smp_reg_c", "boolean", "true",
                                 "fast: the filter decision registered, a cycle later")
    return out


def _result_slots(dc: Dcapf, base: int) -> tuple[str, NetPart]:
    """What the DCAPF's result port drives, and the signal and assignments that
    place it in its 64-bit slots of dc_result (from bit base), zero-padded."""
    if dc.buckets == 1:
        pad = (Assign(slice_("dc_result", base + 63, base + dc.width), OTHERS_ZERO,
                      f"{dc.name}: zero padding to 64 bits"),) if dc.width < 64 else ()
        return slice_("dc_result", base + dc.width - 1, base), NetPart(assigns=pad)
    h = f"h_{dc.name}"             # histogram buckets, or the mean's sum and count
    sig = Signal(h, slv_type(dc.buckets * dc.width),
                 f"{dc.name}: {dc.buckets} {'slots' if dc.is_mean else 'buckets'} of {dc.width} bits")
    assigns = []
    for b in range(dc.buckets):
        bb, what = base + 64 * b, f"{dc.name}: " + (("sum", "count")[b] if dc.is_mean else f"bucket {b}")
        assigns.append(Assign(slice_("dc_result", bb + dc.width - 1, bb), field_of(h, b, dc.width), what))
        if dc.width < 64:
            assigns.append(Assign(slice_("dc_result", bb + 63, bb + dc.width), OTHERS_ZERO, what + " padding"))
    return h, NetPart(signals=(sig,), assigns=tuple(assigns))
