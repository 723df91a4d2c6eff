"""Stage 4: elaborate the model once into everything the backends print.

The register layout comes from layout.compute() (the only place that
computes addresses); this module derives from it and from the model the
VHDL generics (as package constants), the ports and port maps of every
generated entity, the C macros and descriptor rows, and the documentation
tables. Templates only place these values; they compute nothing.

Name checks (names.Namespace) run here too: every identifier a backend will
print is registered in its scope, and a collision is an input error located
at the YAML name that caused it.
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from . import __version__
from . import collect as collect_mod
from . import datapath
from . import layout as layout_mod
from . import utilization
from . import pm
from .diag import Diagnostics, InputError
from .loader import Source
from .model import MASK32, Dcapf, Lmic, Monitor, Sniffer
from .names import GENERATED, Namespace

MIN_ADDR_WIDTH, MAX_ADDR_WIDTH = 8, 32   # jointer_collect_dci addr_w_g
TIMESTAMP_W = 32                          # trace record timestamp bits

# ---------------------------------------------------------------------------
# VHDL literals
# ---------------------------------------------------------------------------


def slv_hex(value: int, width: int = 32) -> str:
    if width % 4 == 0:
        return f'x"{value:0{width // 4}X}"'
    return f'"{value:0{width}b}"'


def vhdl_bool(b: bool) -> str:
    return "true" if b else "false"


def int_vector(items: list[int]) -> str:
    """integer_vector aggregate; one dummy item when empty (doc/internals.md)."""
    items = items or [0]
    if len(items) == 1:
        return f"(0 => {items[0]})"
    rows = [", ".join(str(i) for i in items[k:k + 16]) for k in range(0, len(items), 16)]
    return "(" + (",\n" + " " * 6).join(rows) + ")"


def slv_type(width: int | None) -> str:
    """std_logic for None, else a descending vector."""
    if width is None:
        return "std_logic"
    return f"std_logic_vector({width - 1} downto 0)"


def rng(hi: int, lo: int) -> str:
    return f"{hi} downto {lo}"


# ---------------------------------------------------------------------------
# view objects (what the templates see)
# ---------------------------------------------------------------------------


@dataclass
class Const:
    """A package constant that feeds one generic."""
    name: str
    vtype: str
    value: str
    comment: str = ""


@dataclass
class Instance:
    label: str
    entity: str
    comment: str
    generics: list[tuple[str, str]] = field(default_factory=list)   # (formal, actual)
    ports: list[tuple[str, str]] = field(default_factory=list)      # (formal, actual)


@dataclass
class Port:
    name: str
    direction: str        # in | out
    vtype: str
    comment: str = ""
    group: str = ""       # a comment line before this port: the start of a group


@dataclass
class Signal:
    name: str
    vtype: str
    comment: str = ""


@dataclass
class Assign:
    target: str
    expr: str
    comment: str = ""


@dataclass
class ObservedSignal:
    sig: str              # name after the sniffer prefix (awaddr, start, events ...)
    width: int | None     # None: std_logic
    comment: str = ""


@dataclass
class BusInterface:
    """A group of top-level ports Vivado sees as one interface (IP-XACT busInterface)."""
    name: str
    kind: str                       # aximm | axis | clock | reset | interrupt
    mode: str                       # slave | master | monitor
    port_maps: list[tuple[str, str]]        # (logical port of the bus definition, top-level port)
    params: list[tuple[str, str]]           # bus parameters (name, value)
    description: str
    owner: str                      # who gives the name (name checks)
    path: tuple
    monitored: str = ""             # monitor: the mode of the interfaces it may watch
    memory_map: str = ""            # slave: the memory map it decodes


@dataclass
class ConstGroup:
    title: str
    consts: list[Const]


@dataclass
class SnifferView:
    model: Sniffer
    lmic: int
    index: int                      # inside its LMIC
    number: int                     # in the monitor
    entity: str
    file: str
    summary: str
    observed: list[ObservedSignal]  # top-level port group (<name>_<sig>)
    ports: list[Port]
    signals: list[Signal]
    instances: list[Instance]
    assigns: list[Assign]
    const_groups: list[ConstGroup]
    num_results: int
    num_traces: int
    first_result: int               # index of its first result DCAPF in its LMIC
    first_trace: int
    needs_timestamp: bool
    is_mark: bool
    num_slots: int = 0              # 64-bit result slots (a histogram: one per bucket)
    first_slot: int = 0             # its first slot in its LMIC's dc_result


@dataclass
class LmicView:
    model: Lmic
    index: int
    entity: str
    file: str
    clock: str
    on_bus_clock: bool
    layout: layout_mod.LmicLayout
    sniffers: list[SnifferView]
    ports: list[Port]
    signals: list[Signal]
    instances: list[Instance]
    assigns: list[Assign]
    const_group: ConstGroup
    num_results: int
    num_traces: int
    local_timestamp: bool           # a jointer_collect_timestamp of its own
    global_timestamp: bool          # uses the global block's timestamp
    has_mark: bool


@dataclass
class Design:
    monitor: Monitor
    source_name: str
    version: str
    config_hash: int
    layout: layout_mod.Layout
    addr_width: int
    info: int
    lmics: list[LmicView]
    sniffers: list[SnifferView]
    metrics: list[dict]             # C/doc rows of result DCAPFs, monitor order
    traces: list[dict]              # C/doc rows of trace DCAPFs
    monitor_consts: ConstGroup
    top: dict                       # ports, signals, instances, assigns, processes
    c_macros: list[dict]            # {title, owner, path, rows: [(name, value, comment)]}
    register_map: list[dict]        # doc rows
    files: list[dict] = field(default_factory=list)
    bus_interfaces: list[BusInterface] = field(default_factory=list)   # Vivado IP (component.xml)

    @property
    def name(self) -> str:
        return self.monitor.name

    @property
    def NAME(self) -> str:
        return self.monitor.name.upper()

    @property
    def hash_hex(self) -> str:
        return f"0x{self.config_hash:08X}"

    @property
    def bus_clock_hz(self) -> int:
        p = self.monitor.bus_clock.period_ns
        return round(1e9 / p) if p else 0

    def metric(self, name: str) -> dict:
        return next(m for m in self.metrics if m["name"] == name)

    def trace(self, name: str) -> dict:
        return next(t for t in self.traces if t["name"] == name)


# ---------------------------------------------------------------------------
# config hash
# ---------------------------------------------------------------------------


def config_hash(monitor: Monitor) -> int:
    """CRC-32 of the canonical JSON of the validated model (no descriptions)."""
    text = json.dumps(monitor.canonical(), sort_keys=True, separators=(",", ":"))
    return zlib.crc32(text.encode()) & 0xFFFFFFFF


# ---------------------------------------------------------------------------
# interfacers: observed signals, entity, generics, port maps
# ---------------------------------------------------------------------------

AXI4_SIGNALS = [
    ("awid", "id"), ("awaddr", "addr"), ("awlen", 8), ("awsize", 3), ("awburst", 2),
    ("awlock", None), ("awcache", 4), ("awprot", 3), ("awqos", 4), ("awvalid", None),
    ("awready", None), ("wdata", "data"), ("wstrb", "strb"), ("wlast", None),
    ("wvalid", None), ("wready", None), ("bid", "id"), ("bresp", 2), ("bvalid", None),
    ("bready", None), ("arid", "id"), ("araddr", "addr"), ("arlen", 8), ("arsize", 3),
    ("arburst", 2), ("arlock", None), ("arcache", 4), ("arprot", 3), ("arqos", 4),
    ("arvalid", None), ("arready", None), ("rid", "id"), ("rdata", "data"), ("rresp", 2),
    ("rlast", None), ("rvalid", None), ("rready", None),
]
AXI4LITE_SIGNALS = [
    ("awaddr", "addr"), ("awprot", 3), ("awvalid", None), ("awready", None),
    ("wdata", "data"), ("wstrb", "strb"), ("wvalid", None), ("wready", None),
    ("bresp", 2), ("bvalid", None), ("bready", None), ("araddr", "addr"), ("arprot", 3),
    ("arvalid", None), ("arready", None), ("rdata", "data"), ("rresp", 2), ("rvalid", None),
    ("rready", None),
]
DIR_CONST = {"write": "dir_write_c", "read": "dir_read_c"}
INTERFACER_ENTITY = {
    "axi4": "jointer_eig_axi4", "axi4lite": "jointer_eig_axi4lite", "axis": "jointer_eig_axis",
    "start_done": "jointer_eig_start_done", "events": "jointer_eig_events",
    "mark": "jointer_eig_events",
    **utilization.ENTITY,
    "pc": "jointer_eig_pc",
    "axi4_latency": "jointer_eig_axi4_latency",   # issue 7 part 2
}
LATENCY_END = {"last": "latency_end_last_c", "response": "latency_end_resp_c"}


def _summary(sn: Sniffer) -> str:
    p, t = sn.interfacer.params, sn.interfacer.type
    if t == "axi4":
        return (f"AXI4 {p['direction']} tap, {p['addr_width']}-bit address, {p['data_width']}-bit "
                f"data, {'per beat' if p['per_beat'] else 'per burst'}")
    if t == "axi4_latency":                     # issue 7 part 2
        end = {"read": "RLAST", "write": "WLAST"}[p["direction"]] if p["end"] == "last" else "B"
        return (f"AXI4 {p['direction']} latency (address handshake to {end}), "
                f"{p['addr_width']}-bit address, {p['data_width']}-bit data")
    if t == "axi4lite":
        return f"AXI4-Lite {p['direction']} tap, {p['addr_width']}-bit address, {p['data_width']}-bit data"
    if t == "axis":
        return f"AXI4-Stream tap, {p['data_width']}-bit data, one event per {p['count'][:-1]}"
    if t == "start_done":
        return "start/done " + ("pulses" if p["mode"] == "pulses" else "busy level")
    if t in utilization.TYPES:
        return utilization.summary(t, p)
    if t == "events":
        lanes = f"{p['width']} event strobe{'s' if p['width'] != 1 else ''}"
        data = f", {p['data_width']}-bit value" if p["data_width"] else ""
        return lanes + data + (", rising edges" if p["edge"] else "")
    if t == "pc":
        return pm.summary(p)
    return "host MARK writes (global block)"


def _interfacer(sn: Sniffer, pre: str) -> tuple[list[ObservedSignal], list[Const], Instance, list[Port]]:
    """Observed top-level signals, interfacer constants, instance, sniffer ports."""
    t, p = sn.interfacer.type, sn.interfacer.params
    consts: list[Const] = []
    gmap: list[tuple[str, str]] = []

    def gen(formal: str, vtype: str, value: str, comment: str = "") -> None:
        cname = f"{pre}_{formal[:-2]}_c"
        consts.append(Const(cname, vtype, value, comment))
        gmap.append((formal, cname))

    observed: list[ObservedSignal] = []
    pmap: list[tuple[str, str]] = [("clk", "clk"), ("rst", "rst")]
    ports: list[Port] = []
    if t in ("axi4", "axi4lite", "axi4_latency"):
        widths = {"addr": p["addr_width"], "data": p["data_width"], "strb": p["data_width"] // 8,
                  "id": p.get("id_width", 0)}
        gen("dir_g", "natural", DIR_CONST[p["direction"]], f"{p['direction']} direction")
        if t == "axi4_latency":                 # issue 7 part 2
            gen("end_g", "natural", LATENCY_END[p["end"]],
                "ends at the B handshake" if p["end"] == "response" else "ends at the last data beat")
        gen("addr_w_g", "positive", str(p["addr_width"]))
        gen("data_w_g", "positive", str(p["data_width"]))
        if t in ("axi4", "axi4_latency"):
            gen("id_w_g", "positive", str(max(1, p["id_width"])),
                "ID bits" + (" (no ID: tied to 0)" if p["id_width"] == 0 else ""))
            if t == "axi4":
                gen("per_beat_g", "boolean", vhdl_bool(p["per_beat"]),
                    "one event per beat" if p["per_beat"] else "one event per burst")
            gen("max_outstanding_g", "positive", str(p["max_outstanding"]))
            nr = len(datapath.capture_ranges(sn))
            if nr:                          # issue 12: DCAPF filters evaluated at the AW capture
                gen("ranges_g", "natural", str(nr), "DCAPF filters evaluated where AWADDR is captured")
                gen("keep_data_g", "boolean", vhdl_bool(datapath.keep_data(sn)),
                    "the address reaches the DCAPFs" if datapath.keep_data(sn)
                    else "only the in-range bits travel, not the address")
        for sig, w in (AXI4LITE_SIGNALS if t == "axi4lite" else AXI4_SIGNALS):
            width = widths[w] if isinstance(w, str) else w
            if w == "id" and width == 0:
                pmap.append((f"mon_{sig}", "(others => '0')"))
                continue
            observed.append(ObservedSignal(sig, width))
            pmap.append((f"mon_{sig}", f"mon_{sig}"))
    elif t == "axis":
        dw = p["data_width"]
        gen("data_w_g", "positive", str(dw))
        gen("count_g", "natural", "axis_beats_c" if p["count"] == "beats" else "axis_packets_c",
            f"one event per {p['count'][:-1]}")
        gen("has_keep_g", "boolean", vhdl_bool(p["keep"]))
        gen("dest_w_g", "positive", str(max(1, p["dest_width"])),
            "TDEST bits" + (" (no TDEST: tied to 0)" if p["dest_width"] == 0 else ""))
        gen("data_sel_g", "natural", "1" if sn.data == "tdest" else "0",
            "event data = " + ("TDEST" if sn.data == "tdest" else "TDATA (low 32 bits)"))
        observed.append(ObservedSignal("tdata", dw))
        pmap.append(("mon_tdata", "mon_tdata"))
        if p["keep"]:
            observed.append(ObservedSignal("tkeep", dw // 8))
            pmap.append(("mon_tkeep", "mon_tkeep"))
        else:
            pmap.append(("mon_tkeep", "(others => '1')"))
        for sig in ("tlast", "tvalid", "tready"):
            observed.append(ObservedSignal(sig, None))
            pmap.append((f"mon_{sig}", f"mon_{sig}"))
        if p["dest_width"]:
            observed.append(ObservedSignal("tdest", p["dest_width"]))
            pmap.append(("mon_tdest", "mon_tdest"))
        else:
            pmap.append(("mon_tdest", "(others => '0')"))
    elif t == "start_done":
        busy = p["mode"] == "busy"
        gen("mode_g", "natural", "start_done_busy_c" if busy else "start_done_pulses_c",
            "a busy level" if busy else "start and done pulses")
        if busy:
            observed.append(ObservedSignal("busy", None, "high while the task runs"))
            pmap += [("sd_start", "'0'"), ("sd_done", "'0'"), ("sd_busy", "mon_busy")]
        else:
            observed.append(ObservedSignal("start", None, "one-cycle pulse: the task starts"))
            observed.append(ObservedSignal("done", None, "one-cycle pulse: the task ends"))
            pmap += [("sd_start", "mon_start"), ("sd_done", "mon_done"), ("sd_busy", "'0'")]
    elif t == "events":
        gen("width_g", "positive", str(p["width"]), "event lanes")
        gen("data_w_g", "natural", str(p["data_width"]),
            "event value bits" if p["data_width"] else "no value: event data 0")
        gen("edge_g", "boolean", vhdl_bool(p["edge"]),
            "an event per rising edge" if p["edge"] else "an event per cycle the strobe is high")
        observed.append(ObservedSignal("events", p["width"], "event strobes, one per lane"))
        pmap.append(("ev_strobe", "mon_events"))
        if p["data_width"]:
            observed.append(ObservedSignal("value", p["data_width"], "event value"))
            pmap.append(("ev_value", "mon_value"))
        else:
            pmap.append(("ev_value", "(others => '0')"))
    elif t in utilization.TYPES:    # bus utilization / contention (utilization.py)
        uobs, ugen, upmap = utilization.interfacer(t, p)
        for formal, vtype, value, comment in ugen:
            gen(formal, vtype, value, comment)
        observed += [ObservedSignal(sig, w, c) for sig, w, c in uobs]
        pmap += upmap
    elif t == "pc":
        pm.interfacer(sn, gen, observed, pmap, ObservedSignal)
    else:  # mark: fed by the global block's MARK register
        gen("width_g", "positive", "1", "one lane: a MARK write")
        gen("data_w_g", "natural", "32", "event data = the value written to MARK")
        gen("edge_g", "boolean", "false", "mark_valid is a one-cycle pulse per write")
        pmap += [("ev_strobe", "mark_strobe"), ("ev_value", "mark_data")]
        ports += [Port("mark_valid", "in", "std_logic", "one pulse per host write to MARK"),
                  Port("mark_data", "in", slv_type(32), "the value written")]
    if datapath.capture_ranges(sn):
        pmap += [("rng_low", "rng_low"), ("rng_high", "rng_high"), ("cand_in_range", "cand_in_range")]
    pmap += [("cand_valid", "cand_valid"), ("cand_data", "cand_data"), ("cand_bytes", "cand_bytes")]
    for o in observed:
        ports.append(Port(f"mon_{o.sig}", "in", slv_type(o.width), o.comment))
    inst = Instance("u_interfacer", INTERFACER_ENTITY[t], "interfacer: " + _summary(sn), gmap, pmap)
    return observed, consts, inst, ports


# ---------------------------------------------------------------------------
# sniffer composition
# ---------------------------------------------------------------------------


def _dcapf_summary(dc: Dcapf) -> str:
    nofilter = "" if dc.has_filter else ", no filter"
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


def _takes_init(sn: Sniffer) -> bool:
    return datapath.takes_init(sn)


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
    t = sn.interfacer.type
    if t in utilization.TYPES:
        return f"{dc.event} ({utilization.lane_label(t, sn.interfacer.params, dc.event)})"
    return str(dc.event)


def _sniffer(mon: Monitor, sn: Sniffer, li: int, si: int, number: int, first_result: int,
             first_trace: int) -> SnifferView:
    pre = f"sn_{sn.name}"
    observed, iconsts, iinst, oports = _interfacer(sn, pre)
    lanes = sn.interfacer.lanes
    ncond = len(sn.conditions)
    results = [d for d in sn.dcapfs if not d.is_trace]
    traces = [d for d in sn.dcapfs if d.is_trace]

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
            ports += _relay_sniffer_ports(n)

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

    # emitter
    ec = [Const(f"{pre}_lanes_c", "positive", str(lanes), "event lanes"),
          Const(f"{pre}_num_cond_c", "natural", str(ncond), "condition checkers"),
          Const(f"{pre}_increment_c", "natural",
                "increment_bytes_c" if sn.increment == "bytes" else "increment_one_c",
                f"event increment: {'bytes' if sn.increment == 'bytes' else 'one'}"),
          Const(f"{pre}_num_dcapfs_c", "positive", str(pm.dispenser_slots(sn)),
                "DCAPFs, traces included (2 INIT words each)" if not pm.is_pc(sn) else
                f"{len(sn.dcapfs)} DCAPFs + {pm.table_slots(sn)} INIT slots of the address table"),
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
        if dc.is_trace:
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
                + (_relay_extractor_map(ti) if relay_lmic(mon.lmics[li]) else [])))
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
            if dc.is_mean:                      # issue 7 part 2: sum (slot 0), count (slot 1)
                hc = [Const(f"{dp}_buckets_c", "positive", "2", "mean: sum and count")]
                consts += hc
                hgen = [("buckets_g", hc[0].name)]
            if dc.is_histogram:                 # issue 7 part 2
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
                       needs_timestamp=bool(traces), is_mark=sn.is_mark)


# ---------------------------------------------------------------------------
# LMIC wrapper
# ---------------------------------------------------------------------------



# -- relay traces (mode: relay): the host drains them while they run ----------
# An LMIC with a relay trace wires, for every trace of it, the release pulse
# and count (LMIC -> extractor) and the read pointer and lost counter
# (extractor -> LMIC); a stop/ring extractor there ignores the pulse and
# drives 0. Other LMICs are generated exactly as before.
def relay_lmic(lm: Lmic) -> bool:
    return any(d.is_trace and d.mode == "relay" for s in lm.sniffers for d in s.dcapfs)


def _relay_sniffer_ports(n: int) -> list:
    return [Port("tr_ack", "in", slv_type(n), "per trace: release pulse (relay: ACK written)"),
            Port("tr_ack_n", "in", slv_type(32), "records released (the ACK value)"),
            Port("tr_rptr", "out", slv_type(32 * n), "per trace: oldest unread record slot (relay)"),
            Port("tr_lost", "out", slv_type(32 * n), "per trace: records dropped when full (relay)")]


def _relay_extractor_map(ti: int) -> list:
    hi, lo = 32 * ti + 31, 32 * ti
    return [("tr_ack", f"tr_ack({ti})"), ("tr_ack_n", "tr_ack_n"),
            ("tr_rptr", f"tr_rptr({rng(hi, lo)})"), ("tr_lost", f"tr_lost({rng(hi, lo)})")]


def _relay_sniffer_map(a: int, n: int) -> list:
    return [("tr_ack", f"tr_ack({rng(a + n - 1, a)})"), ("tr_ack_n", "tr_ack_n"),
            ("tr_rptr", f"tr_rptr({rng(32 * (a + n) - 1, 32 * a)})"),
            ("tr_lost", f"tr_lost({rng(32 * (a + n) - 1, 32 * a)})")]


def _relay_lmic_hook(pre: str, ll, nt: int, consts: list, gmap: list, signals: list, u_lmic) -> None:
    c = Const(f"{pre}_trace_relay_c", "integer_vector", int_vector([int(t.relay) for t in ll.traces]),
              "1: relay trace (+ RPTR, ACK, LOST registers)")
    consts.insert(len(consts) - 1, c)
    gmap.append(("trace_relay_g", c.name))
    vec = lambda w: f"std_logic_vector({w * nt - 1} downto 0)"  # noqa: E731
    signals += [Signal("tr_ack", vec(1), "relay: release pulse per trace"),
                Signal("tr_ack_n", slv_type(32), "relay: records released"),
                Signal("tr_rptr", vec(32), "relay: read pointer per trace"),
                Signal("tr_lost", vec(32), "relay: records dropped per trace")]
    u_lmic.ports[-1:-1] = [("tr_ack", "tr_ack"), ("tr_ack_n", "tr_ack_n"),
                              ("tr_rptr", "tr_rptr"), ("tr_lost", "tr_lost")]


# jointer_collect_lmic sizes its DCAPF / trace ports (dc_result ..., tr_wptr ...)
# with maximum(count, 1): one dummy item tied to '0' when the count is 0 (GHDL
# 2.0.0 cannot write null vectors as Verilog). A fact of the library, checked
# against the entity by gen/tests/test_gen_fixed_offsets.py.
LMIC_PORTS_MIN_ONE = (True, True)


def _lmic(mon: Monitor, lm: Lmic, li: int, ll: layout_mod.LmicLayout, sviews: list[SnifferView],
          rp_addr_w: int, col: collect_mod.Collect) -> LmicView:
    pre = f"lm_{lm.name}"
    on_bus = lm.clock == mon.bus_clock.name
    nres, ntr = len(ll.dcapfs), len(ll.traces)
    has_mark = any(s.is_mark for s in sviews)
    global_ts = ntr > 0 and on_bus and col.timestamp
    local_ts = ntr > 0 and not global_ts
    init_w = 32 if any(_takes_init(sv.model) for sv in sviews) else 0

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
        Const(f"{pre}_trace_sniffer_c", "integer_vector", int_vector([t.sniffer for t in ll.traces]),
              "owning sniffer of each trace"),
        Const(f"{pre}_trace_reg_word_c", "integer_vector", int_vector([t.reg_word for t in ll.traces]),
              "first of the 5 trace registers"),
        Const(f"{pre}_trace_ram_word_c", "integer_vector", int_vector([t.ram_word for t in ll.traces]),
              "record 0 of the trace RAM window"),
        Const(f"{pre}_trace_depth_log2_c", "integer_vector",
              int_vector([t.depth_log2 for t in ll.traces]), "log2 of the depth in records"),
        Const(f"{pre}_trace_irq_bit_c", "integer_vector", int_vector([t.irq_bit for t in ll.traces]),
              "watermark IRQ bit (full = bit + 1)"),
        Const(f"{pre}_num_irq_c", "natural", str(ll.num_irq), "IRQ source bits"),
        Const(f"{pre}_init_w_c", "natural", str(init_w),
              "INIT bits a sniffer takes (bounds, a table)" if init_w else
              "no sniffer takes INIT data (no run-time bounds)"),
    ]
    nslots = sum(d.buckets for d in ll.dcapfs)
    if nslots > nres:                           # issue 7 part 2: histograms (else the default)
        consts.append(Const(f"{pre}_dcapf_buckets_c", "integer_vector",
                            int_vector([d.buckets for d in ll.dcapfs]),
                            "result slots per DCAPF (a histogram: its buckets)"))
    group = ConstGroup(f"LMIC {lm.name} (window {li + 1}, clock {lm.clock}, {ll.words} words)", consts)
    gmap = [("addr_w_g", "rp_addr_w_c"), ("strict_g", "strict_c")] + \
        [(c.name[len(pre) + 1:-2] + "_g", c.name) for c in consts]

    ports = [Port("clk", "in", "std_logic", f"clock {lm.clock}", group="clock and reset"),
             Port("rst", "in", "std_logic", "synchronous, active high"),
             Port("rp_req", "in", "std_logic", "one-cycle request",
                  group="register port from the DCI (doc/internals.md section 3)"),
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
        _relay_lmic_hook(pre, ll, nt, consts, gmap, signals, instances[-1])
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
                pm += _relay_sniffer_map(a, n)
        instances.append(Instance(f"sniffer_{sv.model.name}", sv.entity,
                                  f"sniffer {si} {sv.model.name}: {sv.summary}", [], pm))
    entity = f"{mon.name}_{lm.name}_lmic"
    return LmicView(model=lm, index=li, entity=entity, file=f"hdl/{entity}.vhd", clock=lm.clock,
                    on_bus_clock=on_bus, layout=ll, sniffers=sviews, ports=ports, signals=signals,
                    instances=instances, assigns=assigns, const_group=group, num_results=nres, num_traces=ntr,
                    local_timestamp=local_ts, global_timestamp=global_ts, has_mark=has_mark)


# ---------------------------------------------------------------------------
# top level
# ---------------------------------------------------------------------------

S_AXI = [("awaddr", "in", "addr"), ("awprot", "in", 3), ("awvalid", "in", None),
         ("awready", "out", None), ("wdata", "in", 32), ("wstrb", "in", 4),
         ("wvalid", "in", None), ("wready", "out", None), ("bresp", "out", 2),
         ("bvalid", "out", None), ("bready", "in", None), ("araddr", "in", "addr"),
         ("arprot", "in", 3), ("arvalid", "in", None), ("arready", "out", None),
         ("rdata", "out", 32), ("rresp", "out", 2), ("rvalid", "out", None), ("rready", "in", None)]


def _top(mon: Monitor, lviews: list[LmicView], addr_width: int, rp_addr_w: int,
         col: collect_mod.Collect) -> dict:
    """The top: a reset bridge per clock, the DCI, the global block (target 0),
    per LMIC a direct connection or a CDC bridge (+ its irq synchroniser), the
    LMICs. doc/internals.md section 5."""
    n = len(lviews)
    bus = mon.bus_clock.name
    ports = [Port("s_axi_aclk", "in", "std_logic", f"bus clock ({bus}): DCI, global block",
                  group="AXI4-Lite slave: the host's port to the monitor"),
             Port("s_axi_aresetn", "in", "std_logic", "active low (may be asynchronous: reset bridge)")]
    for sig, d, w in S_AXI:
        ports.append(Port(f"s_axi_{sig}", d, slv_type(addr_width if w == "addr" else w)))
    for c in mon.clocks[1:]:
        ports += [Port(f"{c.name}_clk", "in", "std_logic", f"clock {c.name}", group=f"clock domain {c.name}"),
                  Port(f"{c.name}_resetn", "in", "std_logic", "active low (may be asynchronous: reset bridge)")]
    ports.append(Port("irq", "out", "std_logic", "level: an enabled interrupt source is pending",
                      group="interrupt (bus clock)"))
    for lv in lviews:
        for sv in lv.sniffers:
            for o in sv.observed:
                ports.append(Port(f"{sv.model.name}_{o.sig}", "in", slv_type(o.width), o.comment,
                                  group=f"sniffer {sv.model.name} (LMIC {lv.model.name}, clock "
                                  f"{lv.clock}): {sv.summary}" if o is sv.observed[0] else ""))
    need_mark = any(lv.has_mark for lv in lviews)
    signals = [Signal("bus_rst", "std_logic", "bus-clock reset, active high (reset bridge)"),
               Signal("t_req", f"std_logic_vector({n} downto 0)", "index 0: global block, i + 1: LMIC i"),
               Signal("t_start", "std_logic", "an access starts (the global block's answer goes to 0)"),
               Signal("t_commit", f"std_logic_vector({n} downto 0)", "phase 2 of a write"),
               Signal("t_we", "std_logic"), Signal("t_addr", slv_type(rp_addr_w)),
               Signal("t_wdata", slv_type(32)), Signal("t_ack", f"std_logic_vector({n} downto 0)"),
               Signal("t_rdata", f"std_logic_vector({32 * (n + 1) - 1} downto 0)"),
               Signal("t_err", f"std_logic_vector({n} downto 0)"),
               Signal("lmic_irq", f"std_logic_vector({n - 1} downto 0)", "per LMIC, on the bus clock")]
    if need_mark:
        signals += [Signal("mark_valid", "std_logic", "MARK writes"), Signal("mark_data", slv_type(32))]
    if col.timestamp:
        signals.append(Signal("timestamp", slv_type(64), "bus-clock cycle counter (global TIMESTAMP)"))
    for c in mon.clocks[1:]:
        signals.append(Signal(f"{c.name}_rst", "std_logic", f"clock {c.name} reset, active high (reset bridge)"))
    instances = [Instance("u_rst_bus", "jointer_collect_reset",
                          f"reset bridge of the bus clock ({bus})", [],
                          [("clk", "s_axi_aclk"), ("resetn", "s_axi_aresetn"), ("rst", "bus_rst")])]
    instances += [Instance(f"u_rst_{c.name}", "jointer_collect_reset", f"reset bridge of clock {c.name}", [],
                           [("clk", f"{c.name}_clk"), ("resetn", f"{c.name}_resetn"),
                            ("rst", f"{c.name}_rst")]) for c in mon.clocks[1:]]
    instances.append(Instance(
        "u_dci", "jointer_collect_dci", "DCI: the AXI4-Lite slave over every window",
        [("addr_w_g", "bus_addr_w_c"), ("num_lmics_g", "num_lmics_c"),
         ("window_log2_g", "window_log2_c"), ("strict_g", "strict_c")],
        [(f"s_axi_{s}", f"s_axi_{s}") for s in ("aclk", "aresetn")] +
        [(f"s_axi_{s}", f"s_axi_{s}") for s, _, _ in S_AXI] +
        [("t_req", "t_req"), ("t_start", "t_start"), ("t_commit", "t_commit"), ("t_we", "t_we"),
         ("t_addr", "t_addr"),
         ("t_wdata", "t_wdata"), ("t_ack", "t_ack"), ("t_rdata", "t_rdata"), ("t_err", "t_err")]))
    if col.timestamp:
        instances.append(Instance("u_timestamp", "jointer_collect_timestamp",
                                  "bus-clock cycle counter (TIMESTAMP_LO/HI, bus-clock trace records)",
                                  [("width_g", "64")],
                                  [("clk", "s_axi_aclk"), ("rst", "bus_rst"), ("timestamp", "timestamp")]))
    instances.append(Instance(
        "u_global", "jointer_collect_global",
        "global block (window 0): ID, VERSION, CONFIG_HASH, INFO, IRQ" + "".join(
            f", {r}" for r, on in (("TIMESTAMP", col.timestamp), ("MARK", col.mark),
                                   ("SCRATCH", col.scratch)) if on),
        [("addr_w_g", "rp_addr_w_c"), ("strict_g", "strict_c"), ("config_hash_g", "config_hash_c"),
         ("info_g", "info_c"), ("num_lmics_g", "num_lmics_c"), ("has_timestamp_g", "has_timestamp_c"),
         ("has_mark_g", "has_mark_c"), ("has_scratch_g", "has_scratch_c")],
        [("clk", "s_axi_aclk"), ("rst", "bus_rst"), ("rp_req", "t_req(0)"), ("rp_start", "t_start"),
         ("rp_commit", "t_commit(0)"), ("rp_we", "t_we"), ("rp_addr", "t_addr"), ("rp_wdata", "t_wdata"), ("rp_ack", "t_ack(0)"),
         ("rp_rdata", "t_rdata(31 downto 0)"), ("rp_err", "t_err(0)"), ("lmic_irq", "lmic_irq"),
         ("irq", "irq")]
        + ([("mark_valid", "mark_valid"), ("mark_data", "mark_data")] if need_mark else [])
        + ([("timestamp", "timestamp")] if col.timestamp else [])))
    for lv in lviews:
        i = lv.index
        t = i + 1
        pfx = f"lmic{i}"
        clk, rst = ("s_axi_aclk", "bus_rst") if lv.on_bus_clock else (f"{lv.clock}_clk", f"{lv.clock}_rst")
        rdata = f"t_rdata({rng(32 * t + 31, 32 * t)})"
        if lv.on_bus_clock:
            rp = [("rp_req", f"t_req({t})"), ("rp_commit", f"t_commit({t})"), ("rp_we", "t_we"),
                  ("rp_addr", "t_addr"), ("rp_wdata", "t_wdata"), ("rp_ack", f"t_ack({t})"),
                  ("rp_rdata", rdata), ("rp_err", f"t_err({t})"), ("irq", f"lmic_irq({i})")]
        else:
            signals += [Signal(f"{pfx}_req", "std_logic", f"LMIC {lv.model.name}, clock {lv.clock} side"),
                        Signal(f"{pfx}_commit", "std_logic"),
                        Signal(f"{pfx}_we", "std_logic"), Signal(f"{pfx}_addr", slv_type(rp_addr_w)),
                        Signal(f"{pfx}_wdata", slv_type(32)), Signal(f"{pfx}_ack", "std_logic"),
                        Signal(f"{pfx}_rdata", slv_type(32)), Signal(f"{pfx}_err", "std_logic"),
                        Signal(f"{pfx}_irq", slv_type(1), "LMIC interrupt, before synchronisation")]
            instances.append(Instance(
                f"u_cdc{i}", "jointer_collect_cdc",
                f"LMIC {lv.model.name}: request/acknowledge crossing bus clock -> {lv.clock}",
                [("addr_w_g", "rp_addr_w_c"), ("timeout_g", f"{pfx}_cdc_timeout_c")],
                [("s_clk", "s_axi_aclk"), ("s_rst", "bus_rst"), ("s_req", f"t_req({t})"),
                 ("s_commit", f"t_commit({t})"), ("s_we", "t_we"), ("s_addr", "t_addr"),
                 ("s_wdata", "t_wdata"), ("s_ack", f"t_ack({t})"), ("s_rdata", rdata),
                 ("s_err", f"t_err({t})"), ("m_clk", clk), ("m_rst", rst), ("m_req", f"{pfx}_req"),
                 ("m_commit", f"{pfx}_commit"), ("m_we", f"{pfx}_we"), ("m_addr", f"{pfx}_addr"),
                 ("m_wdata", f"{pfx}_wdata"), ("m_ack", f"{pfx}_ack"), ("m_rdata", f"{pfx}_rdata"),
                 ("m_err", f"{pfx}_err")]))
            instances.append(Instance(
                f"u_irq_sync{i}", "jointer_collect_sync",
                f"LMIC {lv.model.name}: interrupt level to the bus clock",
                [("width_g", "1")],
                [("clk", "s_axi_aclk"), ("rst", "bus_rst"), ("d", f"{pfx}_irq"),
                 ("q", f"lmic_irq({rng(i, i)})")]))
            rp = [("rp_req", f"{pfx}_req"), ("rp_commit", f"{pfx}_commit"), ("rp_we", f"{pfx}_we"),
                  ("rp_addr", f"{pfx}_addr"), ("rp_wdata", f"{pfx}_wdata"), ("rp_ack", f"{pfx}_ack"),
                  ("rp_rdata", f"{pfx}_rdata"), ("rp_err", f"{pfx}_err"), ("irq", f"{pfx}_irq(0)")]
        pm = [("clk", clk), ("rst", rst)] + rp
        if lv.global_timestamp:
            pm.append(("timestamp", f"timestamp({TIMESTAMP_W - 1} downto 0)"))
        if lv.has_mark:
            pm += [("mark_valid", "mark_valid"), ("mark_data", "mark_data")]
        for sv in lv.sniffers:
            for o in sv.observed:
                pm.append((f"{sv.model.name}_{o.sig}", f"{sv.model.name}_{o.sig}"))
        how = "same clock as the bus: wired directly" if lv.on_bus_clock else f"clock {lv.clock}"
        instances.append(Instance(f"lmic_{lv.model.name}", lv.entity,
                                  f"LMIC {i} {lv.model.name} (window {t}, {how})", [], pm))
    return {"ports": ports, "signals": signals, "instances": instances, "assigns": [],
            "entity": f"{mon.name}_monitor", "file": f"hdl/{mon.name}_monitor.vhd"}


# ---------------------------------------------------------------------------
# bus interfaces of the top (Vivado IP packaging: component.xml, package_ip.tcl)
# ---------------------------------------------------------------------------

TAP_KIND = {"axi4": "aximm", "axi4lite": "aximm", "axis": "axis",
            "axi_util": "aximm",   # axi_util: only the VALID/READY ports of its channels
            "axi4_latency": "aximm"}   # issue 7 part 2: a monitor interface like axi4


def _bus_interfaces(mon: Monitor, lviews: list[LmicView]) -> list[BusInterface]:
    """s_axi (AXI4-Lite slave, memory map s_axi), every AXI4 / AXI4-Lite /
    AXI4-Stream tap as a monitor interface (it attaches to an existing net,
    as System ILA does), irq, and a clock and a reset interface per clock
    with the interfaces and the reset of its domain. Start/done and event
    strobes stay plain ports. Logical port names are the AXI names of
    xilinx.com:interface:aximm / axis (the port suffix in upper case)."""
    gen = GENERATED
    bus = mon.bus_clock.name
    out = [BusInterface("s_axi", "aximm", "slave",
                        [(sig.upper(), f"s_axi_{sig}") for sig, _, _ in S_AXI], [],
                        "AXI4-Lite slave: the host's port to the monitor registers", gen, mon.path,
                        memory_map="s_axi")]
    taps: dict[str, list[str]] = {c.name: [] for c in mon.clocks}
    taps[bus].append("s_axi")
    for lv in lviews:
        for sv in lv.sniffers:
            t = sv.model.interfacer.type
            if t not in TAP_KIND:
                continue
            n = sv.model.name
            out.append(BusInterface(n, TAP_KIND[t], "monitor",
                                    [(o.sig.upper(), f"{n}_{o.sig}") for o in sv.observed], [],
                                    f"sniffer {n} (LMIC {lv.model.name}, clock {lv.clock}): {sv.summary}",
                                    f"sniffer '{n}'", sv.model.path + ("name",), monitored="slave"))
            taps[lv.clock].append(n)
    out.append(BusInterface("irq", "interrupt", "master", [("INTERRUPT", "irq")],
                            [("SENSITIVITY", "LEVEL_HIGH")],
                            "level interrupt: an enabled source is pending (bus clock)", gen, mon.path))
    for i, c in enumerate(mon.clocks):
        clk, rst = ("s_axi_aclk", "s_axi_aresetn") if i == 0 else (f"{c.name}_clk", f"{c.name}_resetn")
        owner, path = (gen, mon.path) if i == 0 else (f"clock '{c.name}'", c.path)
        out.append(BusInterface(rst, "reset", "slave", [("RST", rst)], [("POLARITY", "ACTIVE_LOW")],
                                f"reset of clock {c.name}, active low, synchronous to {clk}", owner, path))
        params = [("ASSOCIATED_BUSIF", ":".join(taps[c.name]))] if taps[c.name] else []
        out.append(BusInterface(clk, "clock", "slave", [("CLK", clk)], params + [("ASSOCIATED_RESET", rst)],
                                f"clock {c.name}" + (" (bus clock: DCI, global block)" if i == 0 else ""),
                                owner, path))
    return out


# ---------------------------------------------------------------------------
# C macros, descriptor rows, register map
# ---------------------------------------------------------------------------


def c_hex(v: int) -> str:
    return f"0x{v:X}u"


def c_dec(v: int) -> str:
    return f"{v}u"


def _c_and_docs(d: Design) -> None:
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
            + [("ID_VALUE", "0x4A4E5452u", "ID register: \"JNTR\""),
               ("VERSION_VALUE", "0x00020000u", "VERSION register: 2.0.0"),
               ("HAS_TIMESTAMP", c_dec(int(d.info >> 17 & 1)), "INFO[17]: TIMESTAMP_LO/HI"),
               ("HAS_MARK", c_dec(int(d.info >> 18 & 1)), "INFO[18]: MARK"),
               ("HAS_SCRATCH", c_dec(int(d.info >> 19 & 1)), "INFO[19]: SCRATCH"),
               ("CONTROL_RUN", c_hex(layout_mod.CONTROL_RUN), "CONTROL bit 0"),
               ("CONTROL_SOFT_RESET", c_hex(layout_mod.CONTROL_SOFT_RESET), "CONTROL bit 1, write-1 pulse")]
            + [(f"PROG_{k}", c_hex(v), "PROG value" if k == "IDLE" else "")
               for k, v in layout_mod.PROG.items()])
    present = {"TIMESTAMP_LO": d.info >> 17 & 1, "TIMESTAMP_HI": d.info >> 17 & 1,
               "MARK": d.info >> 18 & 1, "SCRATCH": d.info >> 19 & 1}
    regmap = [{"offset": 4 * w, "name": reg, "access": acc, "desc": desc}
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
                        (f"{Sn}_OVERFLOW_MASK", c_hex(1 << (16 + sv.index)), "in STATUS"),
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
            if dl.buckets > 1:                  # issue 7 part 2: histogram (or mean: sum, count)
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
                    (f"DCAPF '{dl.name}'", _dcapf(d, dl.name).path + ("name",)), rows)
            if dl.buckets > 1 and m["aggregator"] == "mean":   # issue 7 part 2: sum, count
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
            if dl.buckets > 1:                  # issue 7 part 2: histogram
                for b, (lo, hi) in enumerate(_dcapf(d, dl.name).histogram_buckets()):
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
                                   "desc": f"IRQ bit {dl.irq_bit} when {dl.name} >= threshold"
                                   + (" (writing the last word commits)" if words > 1 else "")})
        for tl in ll.traces:
            t = d.trace(tl.name)
            T = tl.name.upper()
            reg = t["reg_offset"]
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
                    (f"DCAPF '{tl.name}'", _dcapf(d, tl.name).path + ("name",)), rows)
            for reg_name, w in layout_mod.TRACE_REGS.items():
                regmap.append({"offset": reg + 4 * w, "name": f"{ln}.{T}_{reg_name}",
                               "access": "rw" if reg_name == "WATERMARK" else "ro",
                               "desc": TRACE_DOC[reg_name]})
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


GLOBAL_DOC = [("ro", "0x4A4E5452 (\"JNTR\")"), ("ro", "0x00020000 (2.0.0)"),
              ("ro", "hash of the description this monitor was generated from"),
              ("ro", "[7:0] LMICs, [15:8] log2 window bytes, [16] strict decoding, "
                     "[17] TIMESTAMP, [18] MARK, [19] SCRATCH present"),
              ("ro", "bit i: LMIC i has an enabled pending interrupt source"),
              ("rw", "bit i enables LMIC i"),
              ("ro", "bus cycles since reset, low word (reading it snapshots HI)"),
              ("ro", "the snapshot's high word"),
              ("wo", "a write of VAL emits one event {data = VAL} to the mark sniffer"),
              ("rw", "free for software")]
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


def _dcapf(d: Design, name: str) -> Dcapf:
    return next(x for x in d.monitor.dcapfs() if x.name == name)


def _rows(d: Design) -> None:
    L = d.layout
    for lv in d.lmics:
        for dl in lv.layout.dcapfs:
            dc = _dcapf(d, dl.name)
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
            dc = _dcapf(d, tl.name)
            sv = lv.sniffers[tl.sniffer]
            d.traces.append({
                "index": len(d.traces), "name": tl.name, "NAME": tl.name.upper(), "lmic": lv.index, "lmic_name": lv.model.name,
                "sniffer": sv.number, "sniffer_name": sv.model.name, "dcapf": tl.index,
                "depth": tl.depth, "ring": dc.mode == "ring", "mode": dc.mode,
                "reg_offset": L.lmic_reg(lv.index, tl.reg_word),
                "ram_offset": L.lmic_reg(lv.index, tl.ram_word), "irq_bit": tl.irq_bit,
                "low": dc.low, "high": dc.high, "has_filter": dc.has_filter, "event": dc.event,
                "description": dc.description,
                "clock": lv.clock, "clock_hz": _clock_hz(d.monitor, lv.clock)})


# ---------------------------------------------------------------------------
# name checks
# ---------------------------------------------------------------------------


def _check_names(d: Design, src: Source, diags: Diagnostics) -> None:
    mon = d.monitor
    gen = GENERATED
    # package constants (one package)
    pkg = Namespace("VHDL constant", diags, src, case_sensitive=False)
    for c in d.monitor_consts.consts:
        pkg.add(c.name, gen, mon.path)
    for lv in d.lmics:
        for c in lv.const_group.consts:
            pkg.add(c.name, f"LMIC '{lv.model.name}'", lv.model.path + ("name",))
        for sv in lv.sniffers:
            for g in sv.const_groups:
                for c in g.consts:
                    owner = f"sniffer '{sv.model.name}'"
                    path = sv.model.path + ("name",)
                    if c.name.startswith("dc_"):
                        dc = next(x for x in sv.model.dcapfs if c.name.startswith(f"dc_{x.name}_"))
                        owner, path = f"DCAPF '{dc.name}'", dc.path + ("name",)
                    pkg.add(c.name, owner, path)
    # design units (one library)
    units = Namespace("VHDL design unit", diags, src, case_sensitive=False)
    units.add(f"{mon.name}_config", gen, mon.path + ("name",))
    units.add(d.top["entity"], gen, mon.path + ("name",))
    for lv in d.lmics:
        units.add(lv.entity, f"LMIC '{lv.model.name}'", lv.model.path + ("name",))
        for sv in lv.sniffers:
            units.add(sv.entity, f"sniffer '{sv.model.name}'", sv.model.path + ("name",))
    # top-level and LMIC identifiers
    top = Namespace("top-level VHDL identifier", diags, src, case_sensitive=False)
    for p in d.top["ports"][:2 + len(S_AXI)] + [x for x in d.top["ports"] if x.name == "irq"]:
        top.add(p.name, gen, mon.path)
    for s in d.top["signals"]:
        if s.name.startswith(("t_", "lmic", "mark_", "timestamp", "bus_rst")):
            top.add(s.name, gen, mon.path)
    for inst in d.top["instances"]:
        if not inst.label.startswith("lmic_"):
            top.add(inst.label, gen, mon.path)
    for c in mon.clocks[1:]:
        for ident in (f"{c.name}_clk", f"{c.name}_resetn", f"{c.name}_rst"):
            top.add(ident, f"clock '{c.name}'", c.path)
    for lv in d.lmics:
        top.add(f"lmic_{lv.model.name}", f"LMIC '{lv.model.name}'", lv.model.path + ("name",))
        inner = Namespace(f"VHDL identifier of {lv.entity}", diags, src, case_sensitive=False)
        for p in lv.ports:
            if not any(p.name.startswith(f"{sv.model.name}_") for sv in lv.sniffers):
                inner.add(p.name, gen, lv.model.path)
        for s in lv.signals:
            inner.add(s.name, gen, lv.model.path)
        for sv in lv.sniffers:
            inner.add(f"sniffer_{sv.model.name}", f"sniffer '{sv.model.name}'", sv.model.path + ("name",))
            for o in sv.observed:
                ident = f"{sv.model.name}_{o.sig}"
                top.add(ident, f"sniffer '{sv.model.name}'", sv.model.path + ("name",))
                inner.add(ident, f"sniffer '{sv.model.name}'", sv.model.path + ("name",))
    # Vivado bus interfaces (component.xml; Vivado compares them case-insensitively);
    # only when the names passed so far (a sniffer called s_axi is reported once)
    if not diags:
        bif = Namespace("Vivado bus interface", diags, src, case_sensitive=False)
        rank = {"aximm": 2, "axis": 2}      # fixed names, then clocks', then sniffers' (the culprits)
        for b in sorted(d.bus_interfaces, key=lambda b: 0 if b.owner == gen else rank.get(b.kind, 1)):
            bif.add(b.name, b.owner, b.path)
    # C macros and functions
    cns = Namespace("C identifier", diags, src)
    for sec in d.c_macros:
        for name, _, _ in sec["rows"]:
            cns.add(name, sec["owner"], sec["path"])
    for suffix in ("cfg", "dev", "lmics", "sniffers", "metrics", "traces", "init",
                   "init_baremetal", "open", "close", "selftest", "read_all", "mark"):
        cns.add(f"{mon.name}_{suffix}", gen, mon.path)
    for lv in d.lmics:
        for act in ("run", "stop", "reset"):
            cns.add(f"{mon.name}_{act}_{lv.model.name}", f"LMIC '{lv.model.name}'",
                    lv.model.path + ("name",))
        for sv in lv.sniffers:
            cns.add(f"{mon.name}_set_mode_{sv.model.name}", f"sniffer '{sv.model.name}'",
                    sv.model.path + ("name",))
    for m in d.metrics:
        owner, path = f"DCAPF '{m['name']}'", _dcapf(d, m["name"]).path + ("name",)
        cns.add(f"{mon.name}_read_{m['name']}", owner, path)
        if m["has_filter"]:
            cns.add(f"{mon.name}_initialize_{m['name']}", owner, path)
        if m["threshold_irq"]:
            cns.add(f"{mon.name}_set_threshold_{m['name']}", owner, path)
            cns.add(f"{mon.name}_read_threshold_{m['name']}", owner, path)
    for t in d.traces:
        owner, path = f"DCAPF '{t['name']}'", _dcapf(d, t["name"]).path + ("name",)
        cns.add(f"{mon.name}_trace_read_{t['name']}", owner, path)
        if t["has_filter"]:
            cns.add(f"{mon.name}_initialize_{t['name']}", owner, path)


# ---------------------------------------------------------------------------
# entry point
# ---------------------------------------------------------------------------


def elaborate(mon: Monitor, src: Source, source_name: str) -> Design:
    diags = Diagnostics()
    L = layout_mod.compute(mon.lmics)
    bus = mon.bus
    need = max(MIN_ADDR_WIDTH, L.addr_width)
    if need > MAX_ADDR_WIDTH:
        diags.error(src.loc(mon.path + ("name",)),
                    f"the register space needs {need} address bits (expected at most "
                    f"{MAX_ADDR_WIDTH}: reduce trace depths)")
        raise InputError(diags)
    addr_width = bus.addr_width if bus.addr_width is not None else need
    if bus.addr_width is not None and bus.addr_width < need:
        diags.error(src.loc(bus.path + ("addr_width",)),
                    f"the register space of {L.span} bytes ({len(L.lmics) + 1} windows of "
                    f"{L.window} bytes) does not fit bus.addr_width {bus.addr_width} "
                    f"(expected addr_width >= {need})")
    if bus.base_address % (1 << addr_width):
        p = bus.path + ("base_address",)
        diags.error(src.loc(p), f"bus.base_address 0x{bus.base_address:X} is not aligned to the "
                    f"{1 << addr_width}-byte register space of addr_width {addr_width} "
                    f"(expected a multiple of 0x{1 << addr_width:X})")
    h = config_hash(mon)
    col = collect_mod.collect(mon, L.window_log2)
    info = col.info
    rp_addr_w = L.window_log2 - 2

    sviews_all: list[SnifferView] = []
    lviews: list[LmicView] = []
    number = 0
    for li, (lm, ll) in enumerate(zip(mon.lmics, L.lmics)):
        sviews = []
        fr = ft = fs = 0
        for si, sn in enumerate(lm.sniffers):
            sv = _sniffer(mon, sn, li, si, number, fr, ft)
            sv.first_slot = fs
            fs += sv.num_slots
            fr += sv.num_results
            ft += sv.num_traces
            number += 1
            sviews.append(sv)
        sviews_all += sviews
        lviews.append(_lmic(mon, lm, li, ll, sviews, rp_addr_w, col))

    monitor_consts = ConstGroup(f"monitor {mon.name}", [
        Const("config_hash_c", slv_type(32), slv_hex(h), "CONFIG_HASH register"),
        Const("info_c", slv_type(32), slv_hex(info), collect_mod.info_text(col, mon, L.window)),
        Const("bus_addr_w_c", "positive", str(addr_width), "s_axi address bits"),
        Const("window_log2_c", "positive", str(L.window_log2), f"{L.window} bytes per window"),
        Const("rp_addr_w_c", "positive", str(rp_addr_w), "word-address bits inside a window"),
        Const("strict_c", "boolean", vhdl_bool(bus.strict),
              "SLVERR on unmapped addresses" if bus.strict else "unmapped addresses read 0, OKAY"),
        Const("num_lmics_c", "positive", str(len(mon.lmics))),
        Const("has_timestamp_c", "boolean", vhdl_bool(col.timestamp), "global TIMESTAMP_LO/HI"),
        Const("has_mark_c", "boolean", vhdl_bool(col.mark), "global MARK"),
        Const("has_scratch_c", "boolean", vhdl_bool(col.scratch), "global SCRATCH"),
    ] + [Const(f"lmic{i}_cdc_timeout_c", "positive", str(collect_mod.cdc_timeout(mon, lm)),
               f"LMIC {lm.name}: bus cycles before a crossing to it answers SLVERR")
         for i, lm in enumerate(mon.lmics) if lm.clock != mon.bus_clock.name])
    d = Design(monitor=mon, source_name=source_name, version=__version__, config_hash=h,
               layout=L, addr_width=addr_width, info=info, lmics=lviews, sniffers=sviews_all,
               metrics=[], traces=[], monitor_consts=monitor_consts,
               top=_top(mon, lviews, addr_width, rp_addr_w, col), c_macros=[], register_map=[])
    d.bus_interfaces = _bus_interfaces(mon, lviews)
    _rows(d)
    _c_and_docs(d)
    _check_names(d, src, diags)
    if diags:
        raise InputError(diags)
    return d


def source_display_name(path: str) -> str:
    return Path(path).name
