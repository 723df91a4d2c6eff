"""VHDL netlist of the top (<name>_monitor.vhd): a reset bridge per clock, the
DCI, the global block, per LMIC a direct connection or a CDC bridge and its
irq synchroniser. doc/internals/compositions.md.
"""

from __future__ import annotations

from . import collection as collect_mod
from ..model.monitor import Monitor
from .sink import top_sink_map, top_sink_ports
from ..model.views import TIMESTAMP_W, Instance, LmicView, Port, Signal, rng, slv_type

S_AXI = [("awaddr", "in", "addr"), ("awprot", "in", 3), ("awvalid", "in", None),
         ("awready", "out", None), ("wdata", "in", 32), ("wstrb", "in", 4),
         ("wvalid", "in", None), ("wready", "out", None), ("bresp", "out", 2),
         ("bvalid", "out", None), ("bready", "in", None), ("araddr", "in", "addr"),
         ("arprot", "in", 3), ("arvalid", "in", None), ("arready", "out", None),
         ("rdata", "out", 32), ("rresp", "out", 2), ("rvalid", "out", None), ("rready", "in", None)]


def top(mon: Monitor, lviews: list[LmicView], addr_width: int, rp_addr_w: int,
         col: collect_mod.Collect) -> dict:
    """The top: a reset bridge per clock, the DCI, the global block (target 0),
    per LMIC a direct connection or a CDC bridge (+ its irq synchroniser), the
    LMICs. doc/internals/compositions.md."""
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
    for lv in lviews:
        ports += top_sink_ports(lv)       # m_axi_<trace>_* of each sink trace
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
    # the targets behind a crossing (the bridge bounds their answer; the DCI
    # bounds the others); the DCI leaves reset with bus_rst, as its targets
    bridged = sum(1 << (lv.index + 1) for lv in lviews if not lv.on_bus_clock)
    instances.append(Instance(
        "u_dci", "jointer_collect_dci", "DCI: the AXI4-Lite slave over every window",
        [("addr_w_g", "bus_addr_w_c"), ("num_lmics_g", "num_lmics_c"),
         ("window_log2_g", "window_log2_c"), ("strict_g", "strict_c"), ("bridged_g", str(bridged))],
        [(f"s_axi_{s}", f"s_axi_{s}") for s in ("aclk", "aresetn")] + [("rst", "bus_rst")] +
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
                                   ("SCRATCH", col.scratch), ("descriptor ROM", col.desc_rom)) if on),
        [("addr_w_g", "rp_addr_w_c"), ("strict_g", "strict_c"), ("config_hash_g", "config_hash_c"),
         ("info_g", "info_c"), ("num_lmics_g", "num_lmics_c"), ("has_timestamp_g", "has_timestamp_c"),
         ("has_mark_g", "has_mark_c"), ("has_scratch_g", "has_scratch_c")]
        + ([("desc_words_g", "desc_words_c"), ("desc_rom_g", "desc_rom_c")] if col.desc_rom else []),
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
        pm += top_sink_map(lv)
        how = "same clock as the bus: wired directly" if lv.on_bus_clock else f"clock {lv.clock}"
        instances.append(Instance(f"lmic_{lv.model.name}", lv.entity,
                                  f"LMIC {i} {lv.model.name} (window {t}, {how})", [], pm))
    return {"ports": ports, "signals": signals, "instances": instances, "assigns": [],
            "entity": f"{mon.name}_monitor", "file": f"hdl/{mon.name}_monitor.vhd"}
