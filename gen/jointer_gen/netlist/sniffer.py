"""VHDL netlist of a sniffer: interfacer (its kind's elaborate()), condition
checkers, emitter, dispenser, DCAPFs and trace extractors, as package
constants, ports, signals and instances of <name>_<sniffer>_sniffer.vhd.
"""

from __future__ import annotations

from ..model import datapath
from ..interfacers import InterfacerNet
from ..model.monitor import Dcapf, Monitor, Sniffer
from .relay import relay_extractor_map, relay_lmic, relay_sniffer_ports
from .sink import sink_dcapfs, sink_extractor_map, sink_sniffer_ports
from ..model.views import (TIMESTAMP_W, Assign, Const, ConstGroup, Instance, ObservedSignal, Port, Signal,
                    SnifferView, int_vector, rng, slv_hex, slv_type, vhdl_bool)


def _summary(sn: Sniffer) -> str:
    return sn.interfacer.kind.summary(sn.interfacer.params)


def _interfacer(sn: Sniffer, pre: str) -> tuple[list[ObservedSignal], list[Const], Instance, list[Port]]:
    """Observed top-level signals, interfacer constants, instance, sniffer ports."""
    kind = sn.interfacer.kind
    net = InterfacerNet(pre)
    kind.elaborate(sn, net)
    pmap = net.port_map
    if datapath.capture_ranges(sn):
        pmap += [("rng_low", "rng_low"), ("rng_high", "rng_high"), ("cand_in_range", "cand_in_range")]
    pmap += [("cand_valid", "cand_valid"), ("cand_data", "cand_data"), ("cand_bytes", "cand_bytes")]
    ports = [Port(name, d, slv_type(w), comment) for name, d, w, comment in net.ports]
    for o in net.observed:
        ports.append(Port(f"mon_{o.sig}", "in", slv_type(o.width), o.comment))
    inst = Instance("u_interfacer", kind.entity, "interfacer: " + _summary(sn), net.generics, pmap)
    return net.observed, [Const(*c) for c in net.consts], inst, ports


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


def _filter_generics(dp: str, dc: Dcapf, sn: Sniffer) -> list[tuple[str, Const]]:
    """(formal, constant) of the filter generics: has_filter_g of a trace, filter_g
    of another DCAPF (datapath.filter_mode), and the reset bounds when there is a filter."""
    if dc.is_trace:
        f = [("has_filter_g", Const(f"{dp}_has_filter_c", "boolean", vhdl_bool(dc.has_filter),
                                    "Init DCAPF + filter" if dc.has_filter else NO_FILTER_COMMENT))]
    else:
        mode = datapath.filter_mode(sn, dc)
        f = [("filter_g", Const(f"{dp}_filter_c", "natural", mode, FILTER_COMMENT[mode]))]
    if not dc.has_filter:
        return f
    return f + [("low_reset_g", Const(f"{dp}_low_reset_c", slv_type(32), slv_hex(dc.low),
                                      "filter low after reset" if dc.filter_runtime else "filter low")),
                ("high_reset_g", Const(f"{dp}_high_reset_c", slv_type(32), slv_hex(dc.high),
                                       "filter high after reset" if dc.filter_runtime else "filter high"))]
def _capture_map(ranges: list[Dcapf], dc: Dcapf) -> list[tuple[str, str]]:
    """Port map of a DCAPF whose filter the interfacer evaluates (its range bit k):
    in-range from the emitter, its bounds to the interfacer."""
    if dc not in ranges:
        return []
    k = ranges.index(dc)
    return [("ev_in_range", f"ev_in_range({k})"), ("low", f"rng_low({rng(32 * k + 31, 32 * k)})"),
            ("high", f"rng_high({rng(32 * k + 31, 32 * k)})")]


def _lane(sn: Sniffer, dc: Dcapf) -> str:
    """The DCAPF's lane: its number, and its name where lanes have names."""
    label = sn.interfacer.kind.lane_label(sn.interfacer.params, dc.event)
    return f"{dc.event} ({label})" if label is not None else str(dc.event)


def sniffer(mon: Monitor, sn: Sniffer, li: int, si: int, number: int, first_result: int,
             first_trace: int) -> SnifferView:
    pre = f"sn_{sn.name}"
    observed, iconsts, iinst, oports = _interfacer(sn, pre)
    lanes = sn.interfacer.lanes
    ncond = len(sn.conditions)
    results = [d for d in sn.dcapfs if not d.is_trace]
    traces = [d for d in sn.dcapfs if d.is_trace and not d.is_sink]   # BRAM traces
    sinks = sink_dcapfs(sn)                                              # no RAM

    ports = [Port("clk", "in", "std_logic", "clock of the LMIC's area", group="clock and reset"),
             Port("rst", "in", "std_logic", "synchronous, active high")]
    if oports:
        oports[0].group = "observed signals (all inputs)" if not sn.is_mark else "MARK writes"
    ports += oports
    ports += [Port("prog", "in", slv_type(2), "PROG of this sniffer (CONTROL)",
                   group="control, from the LMIC"),
              Port("run", "in", "std_logic", "RUN (CONTROL bit 0)"),
              Port("soft_reset", "in", "std_logic", "SOFT_RESET pulse"),
              Port("ctrl_we", "in", "std_logic", "a CONTROL write is visible on prog/run"),
              Port("init_we", "in", "std_logic", "this sniffer's INIT register was written"),
              Port("init_data", "in", slv_type(32), "the INIT value")]
    nslots = sum(d.buckets for d in results)   # a histogram takes one 64-bit slot per bucket
    if results:
        n = len(results)
        ports += [Port("dc_result", "out", slv_type(64 * nslots), "result DCAPFs, 64 bits each, zero-padded"
                       + ("; a histogram: 64 bits per bucket" if nslots > n else ""),
                       group="monitoring information, to the LMIC"),
                  Port("dc_overflow", "out", slv_type(n), "sticky overflow per result DCAPF"),
                  Port("dc_caught", "out", slv_type(n), "result updated since the last clear")]
    if traces:
        n = len(traces)
        ports += [Port("timestamp", "in", slv_type(TIMESTAMP_W), "cycle counter of this clock domain",
                       group="trace buffers"),
                  Port("tr_wptr", "out", slv_type(32 * n), "per trace: next record slot"),
                  Port("tr_fill", "out", slv_type(32 * n), "per trace: records held"),
                  Port("tr_full", "out", slv_type(n)),
                  Port("tr_overflow", "out", slv_type(n), "sticky"),
                  Port("tr_rd_addr", "in", slv_type(32), "host read address (word in the trace window)"),
                  Port("tr_rd_data", "out", slv_type(32 * n), "per trace: word read, one cycle later")]
        if relay_lmic(mon.lmics[li]):
            ports += relay_sniffer_ports(n)
    if sinks:
        if not traces:
            ports.append(Port("timestamp", "in", slv_type(TIMESTAMP_W), "cycle counter of this clock domain",
                              group="trace sinks"))
        ports += sink_sniffer_ports(sn)

    signals = [Signal("cand_valid", slv_type(lanes), "candidate strobe per lane"),
               Signal("cand_data", slv_type(32), "candidate data"),
               Signal("cand_bytes", slv_type(16), "candidate byte count")]
    if sn.is_mark:
        signals.insert(0, Signal("mark_strobe", slv_type(1), "mark_valid as a one-lane vector"))
    if ncond:
        signals.append(Signal("cond", slv_type(ncond), "one match bit per condition"))
    ranges = datapath.capture_ranges(sn)
    if ranges:
        nr = len(ranges)
        signals += [Signal("rng_low", slv_type(32 * nr), "filter low bound per captured range"),
                    Signal("rng_high", slv_type(32 * nr), "filter high bound per captured range"),
                    Signal("cand_in_range", slv_type(nr), "the AW's address in range, per filter"),
                    Signal("ev_in_range", slv_type(nr), "event instance: in range, per filter")]
    signals += [Signal("ev_good", slv_type(lanes), "event instance: valid strobe per lane"),
                Signal("ev_data", slv_type(32), "event instance: data"),
                Signal("ev_inc", slv_type(16), "event instance: increment"),
                Signal("run_en", "std_logic"), Signal("use_filter", "std_logic"),
                Signal("clear", "std_logic"), Signal("d_init_we", "std_logic"),
                Signal("d_init_sel", slv_type(8)), Signal("d_init_hi", "std_logic"),
                Signal("d_init_data", slv_type(32))]

    groups = [ConstGroup(f"sniffer {sn.name} (LMIC {mon.lmics[li].name}, sniffer {si}): "
                         f"{_summary(sn)}", iconsts)]
    instances = [iinst]
    assigns: list[Assign] = []
    if sn.is_mark:
        assigns.append(Assign("mark_strobe(0)", "mark_valid", "the MARK write pulse"))

    # condition checkers
    for ci, c in enumerate(sn.conditions):
        if c.kind == "mask":
            consts = [Const(f"{pre}_cond{ci}_mask_c", slv_type(32), slv_hex(c.a)),
                      Const(f"{pre}_cond{ci}_value_c", slv_type(32), slv_hex(c.b))]
            inst = Instance(f"u_cond{ci}", "jointer_eig_check_mask",
                            f"condition {ci}: (data and 0x{c.a:08X}) = 0x{c.b:08X}",
                            [("mask_g", consts[0].name), ("value_g", consts[1].name)],
                            [("data", "cand_data"), ("match", f"cond({ci})")])
        else:
            consts = [Const(f"{pre}_cond{ci}_low_c", slv_type(32), slv_hex(c.a)),
                      Const(f"{pre}_cond{ci}_high_c", slv_type(32), slv_hex(c.b))]
            inst = Instance(f"u_cond{ci}", "jointer_eig_check_range",
                            f"condition {ci}: 0x{c.a:08X} <= data <= 0x{c.b:08X}",
                            [("low_g", consts[0].name), ("high_g", consts[1].name)],
                            [("data", "cand_data"), ("match", f"cond({ci})")])
        groups[0].consts += consts
        instances.append(inst)

    # emitter (the dispenser's slots: the DCAPFs, then any INIT slots of the interfacer)
    init_slots = sn.interfacer.kind.init_slots(sn)
    init_comment = sn.interfacer.kind.init_slots_comment(sn)
    ec = [Const(f"{pre}_lanes_c", "positive", str(lanes), "event lanes"),
          Const(f"{pre}_num_cond_c", "natural", str(ncond), "condition checkers"),
          Const(f"{pre}_increment_c", "natural",
                "increment_bytes_c" if sn.increment == "bytes" else "increment_one_c",
                f"event increment: {'bytes' if sn.increment == 'bytes' else 'one'}"),
          Const(f"{pre}_num_dcapfs_c", "positive", str(len(sn.dcapfs) + init_slots),
                init_comment if init_slots else "DCAPFs, traces included (2 INIT words each)"),
          Const(f"{pre}_ev_data_w_c", "positive", str(datapath.data_width(sn)),
                "event data bits that can be non-zero"),
          Const(f"{pre}_ev_inc_w_c", "positive", str(datapath.inc_width(sn)),
                "increment bits that can be non-zero"),
          Const(f"{pre}_emit_registered_c", "boolean", vhdl_bool(datapath.emitter_registered(sn)),
                "event instances registered (behind condition checkers)" if datapath.emitter_registered(sn)
                else "the candidates, from the interfacer's registers, are the event instances")]
    groups[0].consts += ec
    instances.append(Instance(
        "u_emitter", "jointer_eig_emitter", "emitter: event instances (data, increment, good)",
        [("lanes_g", ec[0].name), ("num_cond_g", ec[1].name), ("increment_g", ec[2].name),
         ("registered_g", ec[6].name)] + ([("ranges_g", str(len(ranges)))] if ranges else []),
        [("clk", "clk"), ("rst", "rst"), ("cand_valid", "cand_valid"), ("cand_data", "cand_data"),
         ("cand_bytes", "cand_bytes")]
        + ([("cand_in_range", "cand_in_range")] if ranges else [])
        + [("cond", "cond" if ncond else '"1"'),
           ("ev_good", "ev_good"), ("ev_data", "ev_data"), ("ev_inc", "ev_inc")]
        + ([("ev_in_range", "ev_in_range")] if ranges else [])))
    instances.append(Instance(
        "u_dispenser", "jointer_collect_dispenser",
        "dispenser: PROG/RUN/SOFT_RESET/INIT to the DCAPFs",
        [("num_dcapfs_g", ec[3].name)],
        [("clk", "clk"), ("rst", "rst"), ("prog", "prog"), ("run", "run"),
         ("soft_reset", "soft_reset"), ("ctrl_we", "ctrl_we"), ("init_we", "init_we"),
         ("init_data", "init_data"), ("run_en", "run_en"), ("use_filter", "use_filter"),
         ("clear", "clear"), ("init_we_o", "d_init_we"), ("init_sel", "d_init_sel"),
         ("init_hi", "d_init_hi"), ("init_data_o", "d_init_data")]))

    control = [("clk", "clk"), ("rst", "rst"), ("run_en", "run_en"), ("use_filter", "use_filter"),
               ("clear", "clear"), ("init_we", "d_init_we"), ("init_sel", "d_init_sel"),
               ("init_hi", "d_init_hi"), ("init_data", "d_init_data")]
    ri = ti = slot = 0
    for di, dc in enumerate(sn.dcapfs):
        dp = f"dc_{dc.name}"
        good = f"ev_good({dc.event})"
        fgen = _filter_generics(dp, dc, sn)
        if dc.is_sink:
            consts = [Const(f"{dp}_index_c", "natural", str(di), "INIT order inside the sniffer"),
                      Const(f"{dp}_mode_c", "natural", "trace_sink_c",
                            "no RAM: records to the LMIC's jointer_trace_sink_axi")] \
                + [c for _, c in fgen]
            instances.append(Instance(
                f"trace_{dc.name}", "jointer_trace_extractor",
                f"DCAPF {di} {dc.name}: {_dcapf_summary(dc)}, lane {_lane(sn, dc)}",
                [("index_g", consts[0].name), ("depth_log2_g", "1"),
                 ("mode_g", consts[1].name)] + [(f, c.name) for f, c in fgen],
                control + [("ev_good", good), ("ev_data", "ev_data"), ("timestamp", "timestamp")]
                + sink_extractor_map(dc)))
        elif dc.is_trace:
            consts = [Const(f"{dp}_index_c", "natural", str(di), "INIT order inside the sniffer"),
                      Const(f"{dp}_depth_log2_c", "positive", str(dc.depth.bit_length() - 1),
                            f"{dc.depth} records"),
                      Const(f"{dp}_mode_c", "natural", f"trace_{dc.mode or 'stop'}_c")] \
                + [c for _, c in fgen]
            hi, lo = 32 * ti + 31, 32 * ti
            instances.append(Instance(
                f"trace_{dc.name}", "jointer_trace_extractor",
                f"DCAPF {di} {dc.name}: {_dcapf_summary(dc)}, lane {_lane(sn, dc)}",
                [("index_g", consts[0].name), ("depth_log2_g", consts[1].name),
                 ("mode_g", consts[2].name)] + [(f, c.name) for f, c in fgen],
                control + [("ev_good", good), ("ev_data", "ev_data"), ("timestamp", "timestamp"),
                           ("tr_wptr", f"tr_wptr({rng(hi, lo)})"),
                           ("tr_fill", f"tr_fill({rng(hi, lo)})"), ("tr_full", f"tr_full({ti})"),
                           ("tr_overflow", f"tr_overflow({ti})"), ("tr_rd_addr", "tr_rd_addr"),
                           ("tr_rd_data", f"tr_rd_data({rng(hi, lo)})")]
                + (relay_extractor_map(ti) if relay_lmic(mon.lmics[li]) else [])))
            ti += 1
        else:
            consts = [Const(f"{dp}_index_c", "natural", str(di), "INIT order inside the sniffer"),
                      Const(f"{dp}_extractor_c", "natural", f"extractor_{dc.extractor}_c"),
                      Const(f"{dp}_aggregator_c", "natural", f"aggregator_{dc.aggregator}_c"),
                      Const(f"{dp}_sample_c", "natural",
                            "sample_data_c" if dc.sample == "data" else "sample_increment_c",
                            "" if dc.extractor == "event" else "unused by the time extractor"),
                      Const(f"{dp}_width_c", "positive", str(dc.width), "result bits"),
                      Const(f"{dp}_wrap_c", "boolean", vhdl_bool(dc.wrap),
                            "wraps on overflow" if dc.wrap else "saturates on overflow")] \
                + [c for _, c in fgen]
            # the paper's DCAPF_<name>_CONFIG (section 3.1.1), for reference: from the LSB
            # data gating, time monitor, event monitor (1 = instantiated)
            enables = (int(dc.extractor == "event") | int(dc.extractor == "time") << 1
                       | int(dc.extractor == "event") << 2)
            paper = Const(f"{dp}_config_c", slv_type(3), f'"{enables:03b}"',
                          "paper's DCAPF config bits (LSB first: gating, time, event); informational")
            base = 64 * slot
            hgen = []
            if dc.is_mean:                      # sum (slot 0), count (slot 1)
                hc = [Const(f"{dp}_buckets_c", "positive", "2", "mean: sum and count")]
                consts += hc
                hgen = [("buckets_g", hc[0].name)]
            if dc.is_histogram:
                hc = [Const(f"{dp}_buckets_c", "positive", str(dc.buckets), "histogram buckets"),
                      Const(f"{dp}_hist_pow2_c", "boolean", vhdl_bool(dc.boundaries == "pow2"),
                            "bucket k = [2^(k-1), 2^k)" if dc.boundaries == "pow2"
                            else "listed boundaries"),
                      Const(f"{dp}_hist_bounds_c", "integer_vector",
                            int_vector(dc.boundaries if dc.boundaries != "pow2" else [1]),
                            "boundaries b(1)..b(N-1)" if dc.boundaries != "pow2" else "unused (pow2)")]
                consts += hc
                hgen = [("buckets_g", hc[0].name), ("hist_pow2_g", hc[1].name),
                        ("hist_bounds_g", hc[2].name)]
            if dc.buckets > 1:                  # histogram buckets, or the mean's sum and count
                signals.append(Signal(f"h_{dc.name}", slv_type(dc.buckets * dc.width),
                                      f"{dc.name}: {dc.buckets} {'slots' if dc.is_mean else 'buckets'} "
                                      f"of {dc.width} bits"))
                result = f"h_{dc.name}"
                for b in range(dc.buckets):
                    bb = base + 64 * b
                    assigns.append(Assign(f"dc_result({rng(bb + dc.width - 1, bb)})",
                                          f"h_{dc.name}({rng((b + 1) * dc.width - 1, b * dc.width)})",
                                          f"{dc.name}: " + (("sum", "count")[b] if dc.is_mean
                                                               else f"bucket {b}")))
                    if dc.width < 64:
                        assigns.append(Assign(f"dc_result({rng(bb + 63, bb + dc.width)})",
                                              "(others => '0')", f"{dc.name}: " + (
                                                  ("sum", "count")[b] if dc.is_mean else f"bucket {b}")
                                              + " padding"))
            else:
                result = f"dc_result({rng(base + dc.width - 1, base)})"
            instances.append(Instance(
                f"dcapf_{dc.name}", "jointer_dcapf",
                f"DCAPF {di} {dc.name}: {_dcapf_summary(dc)}, lane {_lane(sn, dc)}",
                [("index_g", consts[0].name), ("extractor_g", consts[1].name),
                 ("aggregator_g", consts[2].name), ("sample_g", consts[3].name),
                 ("width_g", consts[4].name), ("wrap_g", consts[5].name)]
                + [(f, c.name) for f, c in fgen] + hgen
                + [("data_w_g", f"{pre}_ev_data_w_c"), ("inc_w_g", f"{pre}_ev_inc_w_c")],
                control + [("ev_good", good), ("ev_data", "ev_data"), ("ev_inc", "ev_inc")]
                + _capture_map(ranges, dc) + [
                           ("result", result),
                           ("overflow", f"dc_overflow({ri})"), ("caught", f"dc_caught({ri})")]))
            if dc.width < 64 and dc.buckets == 1:
                assigns.append(Assign(f"dc_result({rng(base + 63, base + dc.width)})", "(others => '0')",
                                      f"{dc.name}: zero padding to 64 bits"))
            ri += 1
            slot += dc.buckets
        groups.append(ConstGroup(f"DCAPF {dc.name} (sniffer {sn.name}, DCAPF {di}): "
                                 f"{_dcapf_summary(dc)}", consts + ([] if dc.is_trace else [paper])))
    entity = f"{mon.name}_{sn.name}_sniffer"
    return SnifferView(model=sn, lmic=li, index=si, number=number, entity=entity,
                       file=f"hdl/{entity}.vhd", summary=_summary(sn), observed=observed,
                       ports=ports, signals=signals, instances=instances, assigns=assigns,
                       const_groups=groups, num_results=len(results), num_traces=len(traces),
                       first_result=first_result, first_trace=first_trace, num_slots=nslots,
                       needs_timestamp=bool(traces or sinks), is_mark=sn.is_mark)
