# SPDX-License-Identifier: MIT
"""Constraints of a generated monitor: ip/<name>.xdc.

Every clock crossing of the generated top is constrained by construction,
from the instances the elaborate stage put in the top (Design.top) and the
cell names of the library entities they instantiate:

- jointer_collect_cdc (u_cdcN, the register port of an LMIC on another
  clock): the handshake levels req_l -> u_req_sync and ack_m -> u_ack_sync
  (two-flop synchronisers), the data that crosses held by the handshake
  (the AXI payload and the DCI's op_we through m_we/m_addr/m_wdata towards
  the LMIC; the LMIC's held answer, its err and the bridge's rflag through
  s_rdata/s_err towards the bus) and commit_l (read by the m side two
  synchroniser stages after it settled): set_max_delay -datapath_only of the
  smaller of the two clock periods. No set_bus_skew: Vivado accepts it only
  between sequential cells (UG903, "Syntax of the set_bus_skew Command": an
  input or output port is neither a valid start nor end point), and every
  multi-bit crossing of the monitor starts at an input port (the AXI payload,
  held by the master; the DCI stores no address or data) or ends at an
  output port (RDATA, sampled by the master). Their skew is bounded by the
  max delay anyway: each bit arrives within one (smaller) period of its
  launch, and the capture comes at least two destination cycles after the
  value settled (the request or the answer crosses a two-flop synchroniser);
- jointer_collect_sync (u_irq_syncN, an LMIC's interrupt level): max delay
  into its first flop;
- jointer_collect_reset (u_rst_*, one per clock): the reset input reaches
  only the asynchronous preset of the bridge's flops, a false path (the
  de-assertion is synchronised by the bridge itself); its outputs are
  synchronous to their clock and need nothing;
- ASYNC_REG on every synchroniser and reset-bridge flop (the VHDL carries
  the attribute too; the XDC keeps it when a tool drops it).

Clocks are taken from the IP's ports (get_clocks -of_objects [get_ports ..]),
never created here: the file is processed LATE (after the user's clocks exist)
and scoped to the IP (Vivado scopes an IP's XDC to its instance), so cell
names are relative to the IP's top, the VHDL-93 wrapper (wrapper.py): the
monitor's top is its instance u_core, every cell and pin is under it (the
wrapper's ports are the top's, one for one). The periods are the YAML's
(`period_ns`); a clock without one uses the period Vivado knows
(get_property PERIOD). tools/cdc_check.py finds the same crossings in the
netlist; scripts/tests/test_cdc_check.py checks that each one is covered by a
constraint here and that each constraint covers one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...model.views import Design
from . import wrapper

# register names inside the library entities (VHDL signal -> Vivado cell <signal>_reg)
SYNC_STAGES = "stage_reg*"          # jointer_collect_sync, jointer_collect_reset
FIRST_STAGE = "stage_reg[0]*"       # stage(0): the flop that samples the other domain
CDC_TO_M = ["m_we", "m_addr[*]", "m_wdata[*]"]       # s -> m wires of jointer_collect_cdc
CDC_TO_S = ["s_rdata[*]", "s_err"]                   # m -> s wires of jointer_collect_cdc


@dataclass
class Ref:
    """One side of a constraint: kind cells|clock|port|pins, value (name or pattern)."""
    kind: str
    value: str


@dataclass
class Constraint:
    cmd: str                        # max_delay | false_path | async_reg
    to: Ref
    frm: Ref | None = None
    through: list[str] = field(default_factory=list)
    value: str = ""                 # ns, or a Tcl expression


@dataclass
class Section:
    title: str
    lines: list[str]                # comment lines
    constraints: list[Constraint]


def xdc_file(d: Design) -> str:
    return f"ip/{d.name}.xdc"


def _clock_ports(d: Design) -> dict[str, object]:
    """top clock port -> the YAML clock."""
    out = {"s_axi_aclk": d.monitor.clocks[0]}
    for c in d.monitor.clocks[1:]:
        out[f"{c.name}_clk"] = c
    return out


def _clock_of(inst) -> str:
    ports = dict(inst.ports)
    for formal in ("clk", "m_clk", "s_axi_aclk"):
        if formal in ports:
            return ports[formal]
    raise ValueError(f"instance {inst.label}: no clock port")


def _base(actual: str) -> str:
    return actual.split("(", 1)[0].strip()


def _period(clocks: dict, a: str, b: str) -> tuple[str, str]:
    """(value, description) of the smaller period of clock ports a and b."""
    pa, pb = clocks[a].period_ns, clocks[b].period_ns
    if pa is not None and pb is not None:
        p = min(pa, pb)
        return f"{p:g}", f"{p:g} ns, the smaller of {a} ({pa:g} ns) and {b} ({pb:g} ns)"
    expr = ("[expr {min([get_property PERIOD [get_clocks -of_objects [get_ports %s]]], "
            "[get_property PERIOD [get_clocks -of_objects [get_ports %s]]])}]" % (a, b))
    return expr, f"the smaller period of {a} and {b} (not given in the YAML: Vivado's)"


def sections(d: Design) -> list[Section]:
    clocks = _clock_ports(d)
    insts = d.top["instances"]
    out: list[Section] = []
    for i in insts:
        if i.entity != "jointer_collect_reset":
            continue
        p = dict(i.ports)
        c = f"{i.label}/{SYNC_STAGES}"
        out.append(Section(
            f"{i.label}: reset bridge of {p['clk']} (jointer_collect_reset)",
            [f"{p['resetn']} may fall at any time: it only presets the bridge's flops (asynchronous",
             f"assertion); they leave reset on {p['clk']} edges (synchronous de-assertion)."],
            [Constraint("async_reg", Ref("cells", c)),
             Constraint("false_path", Ref("pins", c), Ref("port", p["resetn"]))]))
    for i in insts:
        if i.entity != "jointer_collect_cdc":
            continue
        p = dict(i.ports)
        s, m = p["s_clk"], p["m_clk"]
        val, desc = _period(clocks, s, m)
        lab = i.label
        out.append(Section(
            f"{lab}: register port crossing {s} <-> {m} (jointer_collect_cdc, four-phase handshake)",
            [f"max delay {desc}: each value below is held from before the handshake",
             "that lets the other side capture it until after the capture (doc/internals/collect.md, CDC rules)."],
            [Constraint("async_reg", Ref("cells", f"{lab}/u_req_sync/{SYNC_STAGES}")),
             Constraint("async_reg", Ref("cells", f"{lab}/u_ack_sync/{SYNC_STAGES}")),
             Constraint("max_delay", Ref("cells", f"{lab}/u_req_sync/{FIRST_STAGE}"),
                        Ref("cells", f"{lab}/req_l_reg"), value=val),
             Constraint("max_delay", Ref("cells", f"{lab}/u_ack_sync/{FIRST_STAGE}"),
                        Ref("cells", f"{lab}/ack_m_reg"), value=val),
             Constraint("max_delay", Ref("clock", m), Ref("clock", s),
                        [f"{lab}/{x}" for x in CDC_TO_M], val),
             Constraint("max_delay", Ref("clock", s), Ref("clock", m),
                        [f"{lab}/{x}" for x in CDC_TO_S], val),
             Constraint("max_delay", Ref("clock", m), Ref("cells", f"{lab}/commit_l_reg"), value=val)]))
    for i in insts:
        if i.entity != "jointer_collect_sync":
            continue
        p = dict(i.ports)
        dst = p["clk"]
        drv = next((o for o in insts if o is not i and any(
            _base(a) == _base(p["d"]) for _, a in o.ports)), None)
        if drv is None:
            raise ValueError(f"{i.label}: no instance drives {p['d']}")
        src = _clock_of(drv)
        lv = next((lv for lv in d.lmics if f"lmic_{lv.model.name}" == drv.label), None)
        if lv is not None and lv.layout.num_irq == 0:
            # no IRQ source: the level is a constant 0, synthesis removes the flops
            out.append(Section(f"{i.label}: LMIC {lv.model.name} has no interrupt source (constant level, "
                               "no flop, nothing to constrain)", [], []))
            continue
        val, desc = _period(clocks, src, dst)
        out.append(Section(
            f"{i.label}: level {_base(p['d'])} from {src} to {dst} (jointer_collect_sync)",
            [f"max delay {desc} into the first flop."],
            [Constraint("async_reg", Ref("cells", f"{i.label}/{SYNC_STAGES}")),
             Constraint("max_delay", Ref("cells", f"{i.label}/{FIRST_STAGE}"), Ref("clock", src), value=val)]))
    return out


def scoped(secs: list[Section], prefix: str) -> list[Section]:
    """The sections with every cell and pin name under `prefix` (ports and clocks stay)."""
    def ref(r: Ref | None) -> Ref | None:
        return Ref(r.kind, prefix + r.value) if r is not None and r.kind in ("cells", "pins") else r
    return [Section(s.title, s.lines, [Constraint(c.cmd, ref(c.to), ref(c.frm), [prefix + t for t in c.through],
                                                  c.value) for c in s.constraints]) for s in secs]


def context(d: Design) -> dict:
    return {"file": xdc_file(d), "name": xdc_file(d).rsplit("/", 1)[-1], "top": wrapper.entity(d),
            "core": d.top["entity"], "instance": wrapper.INSTANCE,
            "clocks": list(_clock_ports(d)), "sections": scoped(sections(d), wrapper.INSTANCE + "/")}
