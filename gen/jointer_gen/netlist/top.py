# SPDX-License-Identifier: MIT
"""VHDL netlist of the top (<name>_monitor.vhd): a reset bridge per clock, the
DCI, the global block, per LMIC a direct connection or a CDC bridge and its
irq synchroniser. doc/internals/compositions.md.
"""

from __future__ import annotations

from . import collection as collect_mod
from ..model.monitor import Monitor
from .sink import top_sink_map, top_sink_ports
from ..model.views import TIMESTAMP_W, Instance, LmicView, Port, Signal, rng, slv_type
from .part import NetPart, join
from ..model.views import TopView
from .vhdl_syntax import element, field_of, slice_, vector

S_AXI = [("awaddr", "in", "addr"), ("awprot", "in", 3), ("awvalid", "in", None),
         ("awready", "out", None), ("wdata", "in", 32), ("wstrb", "in", 4),
         ("wvalid", "in", None), ("wready", "out", None), ("bresp", "out", 2),
         ("bvalid", "out", None), ("bready", "in", None), ("araddr", "in", "addr"),
         ("arprot", "in", 3), ("arvalid", "in", None), ("arready", "out", None),
         ("rdata", "out", 32), ("rresp", "out", 2), ("rvalid", "out", None), ("rready", "in", None)]


def top(mon: Monitor, lviews: list[LmicView], addr_width: int, rp_addr_w: int,
        col: collect_mod.Collect) -> TopView:
    """The top: a reset bridge per clock, the DCI, the global block (target 0),
    per LMIC a direct connection or a CDC bridge (+ its irq synchroniser), the
    LMICs. doc/internals/compositions.md."""
    need_mark = any(lv.has_mark for lv in lviews)
    lmics = join(_lmic(lv, rp_addr_w) for lv in lviews)
    return TopView(ports=_ports(mon, lviews, addr_width),
                   signals=_signals(mon, len(lviews), rp_addr_w, need_mark, col) + lmics.signals,
                   instances=_resets(mon) + (_dci(lviews),) + _timestamp(col) + (_global(col, need_mark),)
                   + lmics.instances,
                   assigns=(), entity=f"{mon.name}_monitor", file=f"hdl/{mon.name}_monitor.vhd")


def _ports(mon: Monitor, lviews, addr_width: int) -> tuple:
    bus = mon.bus_clock.name
    ports = [Port("s_axi_aclk", "in", "std_logic", f"bus clock ({bus}): DCI, global block",
                  group="AXI4-Lite slave: the host's port to the monitor"),
             Port("s_axi_aresetn", "in", "std_logic", "active low (may be asynchronous: reset bridge)")]
    ports += [Port(f"s_axi_{sig}", d, slv_type(addr_width if w == "addr" else w)) for sig, d, w in S_AXI]
    for c in mon.domain_clocks:
        ports += [Port(f"{c.name}_clk", "in", "std_logic", f"clock {c.name}", group=f"clock domain {c.name}"),
                  Port(f"{c.name}_resetn", "in", "std_logic", "active low (may be asynchronous: reset bridge)")]
    ports.append(Port("irq", "out", "std_logic", "level: an enabled interrupt source is pending",
                      group="interrupt (bus clock)"))
    for lv in lviews:
        for sv in lv.sniffers:
            for k, o in enumerate(sv.observed):
                ports.append(Port(f"{sv.model.name}_{o.sig}", "in", slv_type(o.width), o.comment,
                                  group="" if k else f"sniffer {sv.model.name} (LMIC {lv.model.name}, clock "
                                  f"{lv.clock}): {sv.summary}"))
    for lv in lviews:
        ports += top_sink_ports(lv)       # m_axi_<trace>_* of each sink trace
    return tuple(ports)


def _signals(mon: Monitor, n: int, rp_addr_w: int, need_mark: bool, col: collect_mod.Collect) -> tuple:
    """The DCI's target vectors (index 0: global block, i + 1: LMIC i), MARK, TIMESTAMP, resets."""
    signals = [Signal("bus_rst", "std_logic", "bus-clock reset, active high (reset bridge)"),
               Signal("t_req", vector(n + 1), "index 0: global block, i + 1: LMIC i"),
               Signal("t_start", "std_logic", "an access starts (the global block's answer goes to 0)"),
               Signal("t_commit", vector(n + 1), "phase 2 of a write"),
               Signal("t_we", "std_logic"), Signal("t_addr", slv_type(rp_addr_w)),
               Signal("t_wdata", slv_type(32)), Signal("t_ack", vector(n + 1)),
               Signal("t_rdata", vector(n + 1, 32)),
               Signal("t_err", vector(n + 1)),
               Signal("lmic_irq", vector(n), "per LMIC, on the bus clock")]
    if need_mark:
        signals += [Signal("mark_valid", "std_logic", "MARK writes"), Signal("mark_data", slv_type(32))]
    if col.timestamp:
        signals.append(Signal("timestamp", slv_type(64), "bus-clock cycle counter (global TIMESTAMP)"))
    signals += [Signal(f"{c.name}_rst", "std_logic", f"clock {c.name} reset, active high (reset bridge)")
                for c in mon.domain_clocks]
    return tuple(signals)


def _resets(mon: Monitor) -> tuple:
    """A reset bridge per clock."""
    return (Instance("u_rst_bus", "jointer_collect_reset", f"reset bridge of the bus clock ({mon.bus_clock.name})",
                     (), (("clk", "s_axi_aclk"), ("resetn", "s_axi_aresetn"), ("rst", "bus_rst"))),) \
        + tuple(Instance(f"u_rst_{c.name}", "jointer_collect_reset", f"reset bridge of clock {c.name}", (),
                         (("clk", f"{c.name}_clk"), ("resetn", f"{c.name}_resetn"), ("rst", f"{c.name}_rst")))
                for c in mon.domain_clocks)


def _dci(lviews) -> Instance:
    # the targets behind a crossing (the bridge bounds their answer; the DCI
    # bounds the others); the DCI leaves reset with bus_rst, as its targets
    bridged = sum(1 << (lv.index + 1) for lv in lviews if not lv.on_bus_clock)
    return Instance(
        "u_dci", "jointer_collect_dci", "DCI: the AXI4-Lite slave over every window",
        (("addr_w_g", "bus_addr_w_c"), ("num_lmics_g", "num_lmics_c"),
         ("window_log2_g", "window_log2_c"), ("strict_g", "strict_c"), ("bridged_g", str(bridged))),
        tuple((f"s_axi_{s}", f"s_axi_{s}") for s in ("aclk", "aresetn")) + (("rst", "bus_rst"),)
        + tuple((f"s_axi_{s}", f"s_axi_{s}") for s, _, _ in S_AXI)
        + tuple((s, s) for s in ("t_req", "t_start", "t_commit", "t_we", "t_addr", "t_wdata", "t_ack",
                                 "t_rdata", "t_err")))


def _timestamp(col: collect_mod.Collect) -> tuple:
    if not col.timestamp:
        return ()
    return (Instance("u_timestamp", "jointer_collect_timestamp",
                     "bus-clock cycle counter (TIMESTAMP_LO/HI, bus-clock trace records)", (("width_g", "64"),),
                     (("clk", "s_axi_aclk"), ("rst", "bus_rst"), ("timestamp", "timestamp"))),)


def _global(col: collect_mod.Collect, need_mark: bool) -> Instance:
    return Instance(
        "u_global", "jointer_collect_global",
        "global block (window 0): ID, VERSION, CONFIG_HASH, INFO, IRQ" + "".join(
            f", {r}" for r, on in (("TIMESTAMP", col.timestamp), ("MARK", col.mark),
                                   ("SCRATCH", col.scratch), ("descriptor ROM", col.desc_rom)) if on),
        (("addr_w_g", "rp_addr_w_c"), ("strict_g", "strict_c"), ("config_hash_g", "config_hash_c"),
         ("info_g", "info_c"), ("num_lmics_g", "num_lmics_c"), ("has_timestamp_g", "has_timestamp_c"),
         ("has_mark_g", "has_mark_c"), ("has_scratch_g", "has_scratch_c"))
        + ((("desc_words_g", "desc_words_c"), ("desc_rom_g", "desc_rom_c")) if col.desc_rom else ()),
        (("clk", "s_axi_aclk"), ("rst", "bus_rst"), ("rp_req", element("t_req", 0)), ("rp_start", "t_start"),
         ("rp_commit", element("t_commit", 0)), ("rp_we", "t_we"), ("rp_addr", "t_addr"),
         ("rp_wdata", "t_wdata"), ("rp_ack", element("t_ack", 0)), ("rp_rdata", field_of("t_rdata", 0, 32)),
         ("rp_err", element("t_err", 0)), ("lmic_irq", "lmic_irq"), ("irq", "irq"))
        + ((("mark_valid", "mark_valid"), ("mark_data", "mark_data")) if need_mark else ())
        + ((("timestamp", "timestamp"),) if col.timestamp else ()))


# the register port of an LMIC, by its formal (the DCI target's, or the crossing's far side)
RP = ("req", "commit", "we", "addr", "wdata", "ack", "rdata", "err")


def _lmic(lv: LmicView, rp_addr_w: int) -> NetPart:
    """LMIC lv (DCI target lv.index + 1): wired directly, or behind a CDC bridge and an irq synchroniser."""
    i, t = lv.index, lv.index + 1
    target = {"req": element("t_req", t), "commit": element("t_commit", t), "we": "t_we", "addr": "t_addr",
              "wdata": "t_wdata", "ack": element("t_ack", t), "rdata": field_of("t_rdata", t, 32),
              "err": element("t_err", t)}
    if lv.on_bus_clock:
        clk, rst = "s_axi_aclk", "bus_rst"
        crossing = NetPart()
        rp = tuple((f"rp_{s}", target[s]) for s in RP) + (("irq", element("lmic_irq", i)),)
    else:
        clk, rst = f"{lv.clock}_clk", f"{lv.clock}_rst"
        crossing = _crossing(lv, target, rp_addr_w)
        rp = tuple((f"rp_{s}", f"lmic{i}_{s}") for s in RP) + (("irq", element(f"lmic{i}_irq", 0)),)
    pm = (("clk", clk), ("rst", rst)) + rp
    pm += ((("timestamp", slice_("timestamp", TIMESTAMP_W - 1, 0)),) if lv.global_timestamp else ())
    pm += (("mark_valid", "mark_valid"), ("mark_data", "mark_data")) if lv.has_mark else ()
    pm += tuple((f"{sv.model.name}_{o.sig}",) * 2 for sv in lv.sniffers for o in sv.observed)
    pm += tuple(top_sink_map(lv))
    how = "same clock as the bus: wired directly" if lv.on_bus_clock else f"clock {lv.clock}"
    inst = Instance(f"lmic_{lv.model.name}", lv.entity, f"LMIC {i} {lv.model.name} (window {t}, {how})", (), pm)
    return crossing + NetPart(instances=(inst,))


def _crossing(lv: LmicView, target: dict, rp_addr_w: int) -> NetPart:
    """The request/acknowledge crossing to an LMIC on another clock, and its irq synchroniser."""
    i, pfx = lv.index, f"lmic{lv.index}"
    signals = (Signal(f"{pfx}_req", "std_logic", f"LMIC {lv.model.name}, clock {lv.clock} side"),
               Signal(f"{pfx}_commit", "std_logic"),
               Signal(f"{pfx}_we", "std_logic"), Signal(f"{pfx}_addr", slv_type(rp_addr_w)),
               Signal(f"{pfx}_wdata", slv_type(32)), Signal(f"{pfx}_ack", "std_logic"),
               Signal(f"{pfx}_rdata", slv_type(32)), Signal(f"{pfx}_err", "std_logic"),
               Signal(f"{pfx}_irq", slv_type(1), "LMIC interrupt, before synchronisation"))
    cdc = Instance(
        f"u_cdc{i}", "jointer_collect_cdc",
        f"LMIC {lv.model.name}: request/acknowledge crossing bus clock -> {lv.clock}",
        (("addr_w_g", "rp_addr_w_c"), ("timeout_g", f"{pfx}_cdc_timeout_c")),
        (("s_clk", "s_axi_aclk"), ("s_rst", "bus_rst")) + tuple((f"s_{s}", target[s]) for s in RP)
        + (("m_clk", f"{lv.clock}_clk"), ("m_rst", f"{lv.clock}_rst"))
        + tuple((f"m_{s}", f"{pfx}_{s}") for s in RP))
    sync = Instance(
        f"u_irq_sync{i}", "jointer_collect_sync", f"LMIC {lv.model.name}: interrupt level to the bus clock",
        (("width_g", "1"),),
        (("clk", "s_axi_aclk"), ("rst", "bus_rst"), ("d", f"{pfx}_irq"), ("q", slice_("lmic_irq", i, i))))
    return NetPart(signals=signals, instances=(cdc, sync))
