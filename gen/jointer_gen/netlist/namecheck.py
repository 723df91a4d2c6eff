# SPDX-License-Identifier: MIT
"""Name checks of an elaborated design: every identifier a backend will print
is registered in its scope (VHDL package constants, design units, top-level
and LMIC identifiers, Vivado bus interfaces, C identifiers); a collision is an
input error located at the YAML name that caused it.
"""

from __future__ import annotations

from ..load.diag import Diagnostics
from ..load.loader import Source
from ..model.identifiers import GENERATED, Namespace
from .top import S_AXI
from ..model.regmap import dcapf_of
from ..model.views import Design


def check_names(d: Design, src: Source, diags: Diagnostics) -> None:
    _package_constants(d, src, diags)
    _design_units(d, src, diags)
    _top_identifiers(d, src, diags)
    # Vivado bus interfaces: only when the names passed so far (a sniffer called s_axi is reported once)
    if not diags:
        _bus_interfaces(d, src, diags)
    _c_identifiers(d, src, diags)


def _package_constants(d: Design, src: Source, diags: Diagnostics) -> None:
    """Package constants (one package)."""
    pkg = Namespace("VHDL constant", diags, src, case_sensitive=False)
    for c in d.monitor_consts.consts:
        pkg.add(c.name, GENERATED, d.monitor.path)
    for lv in d.lmics:
        for c in lv.const_group.consts:
            pkg.add(c.name, f"LMIC '{lv.model.name}'", lv.model.path + ("name",))
        for sv in lv.sniffers:
            for g in sv.const_groups:
                for c in g.consts:
                    pkg.add(c.name, *_const_owner(sv, c.name))


def _const_owner(sv, name: str) -> tuple[str, tuple]:
    """Who a sniffer's constant belongs to: a DCAPF (dc_<dcapf>_*) or the sniffer."""
    if name.startswith("dc_"):
        dc = next(x for x in sv.model.dcapfs if name.startswith(f"dc_{x.name}_"))
        return f"DCAPF '{dc.name}'", dc.path + ("name",)
    return f"sniffer '{sv.model.name}'", sv.model.path + ("name",)


def _design_units(d: Design, src: Source, diags: Diagnostics) -> None:
    """Design units (one library)."""
    mon = d.monitor
    units = Namespace("VHDL design unit", diags, src, case_sensitive=False)
    units.add(f"{mon.name}_config", GENERATED, mon.path + ("name",))
    units.add(d.top.entity, GENERATED, mon.path + ("name",))
    for lv in d.lmics:
        units.add(lv.entity, f"LMIC '{lv.model.name}'", lv.model.path + ("name",))
        for sv in lv.sniffers:
            units.add(sv.entity, f"sniffer '{sv.model.name}'", sv.model.path + ("name",))


# the top's ports of fixed name: the bus and the interrupt
TOP_FIXED_PORTS = ("s_axi_aclk", "s_axi_aresetn") + tuple(f"s_axi_{s}" for s, _, _ in S_AXI) + ("irq",)


def _top_identifiers(d: Design, src: Source, diags: Diagnostics) -> None:
    """Top-level identifiers, and those of each LMIC wrapper."""
    mon, gen = d.monitor, GENERATED
    top = Namespace("top-level VHDL identifier", diags, src, case_sensitive=False)
    for name in TOP_FIXED_PORTS:
        top.add(name, gen, mon.path)
    for s in d.top.signals:
        if s.name.startswith(("t_", "lmic", "mark_", "timestamp", "bus_rst")):
            top.add(s.name, gen, mon.path)
    for inst in d.top.instances:
        if not inst.label.startswith("lmic_"):
            top.add(inst.label, gen, mon.path)
    for c in mon.domain_clocks:
        for ident in (f"{c.name}_clk", f"{c.name}_resetn", f"{c.name}_rst"):
            top.add(ident, f"clock '{c.name}'", c.path)
    for lv in d.lmics:
        top.add(f"lmic_{lv.model.name}", f"LMIC '{lv.model.name}'", lv.model.path + ("name",))
        _lmic_identifiers(lv, top, src, diags)


def _lmic_identifiers(lv, top: Namespace, src: Source, diags: Diagnostics) -> None:
    """The identifiers inside LMIC lv's wrapper; its sniffers' observed ports also in the top."""
    inner = Namespace(f"VHDL identifier of {lv.entity}", diags, src, case_sensitive=False)
    for p in lv.ports:
        if not any(p.name.startswith(f"{sv.model.name}_") for sv in lv.sniffers):
            inner.add(p.name, GENERATED, lv.model.path)
    for s in lv.signals:
        inner.add(s.name, GENERATED, lv.model.path)
    for sv in lv.sniffers:
        owner, path = f"sniffer '{sv.model.name}'", sv.model.path + ("name",)
        inner.add(f"sniffer_{sv.model.name}", owner, path)
        for o in sv.observed:
            ident = f"{sv.model.name}_{o.sig}"
            top.add(ident, owner, path)
            inner.add(ident, owner, path)


def _bus_interfaces(d: Design, src: Source, diags: Diagnostics) -> None:
    """Vivado bus interfaces (component.xml; Vivado compares them case-insensitively)."""
    bif = Namespace("Vivado bus interface", diags, src, case_sensitive=False)
    rank = {"aximm": 2, "axis": 2}      # fixed names, then clocks', then sniffers' (the culprits)
    for b in sorted(d.bus_interfaces, key=lambda b: 0 if b.owner == GENERATED else rank.get(b.kind, 1)):
        bif.add(b.name, b.owner, b.path)


MONITOR_FUNCTIONS = ("cfg", "dev", "lmics", "sniffers", "metrics", "traces", "init",
                     "init_baremetal", "open", "close", "selftest", "read_all", "mark")


def _c_identifiers(d: Design, src: Source, diags: Diagnostics) -> None:
    """C macros and functions."""
    mon = d.monitor
    cns = Namespace("C identifier", diags, src)
    for sec in d.c_macros:
        for name, _, _ in sec["rows"]:
            cns.add(name, sec["owner"], sec["path"])
    for suffix in MONITOR_FUNCTIONS:
        cns.add(f"{mon.name}_{suffix}", GENERATED, mon.path)
    for lv in d.lmics:
        for act in ("run", "stop", "reset"):
            cns.add(f"{mon.name}_{act}_{lv.model.name}", f"LMIC '{lv.model.name}'", lv.model.path + ("name",))
        for sv in lv.sniffers:
            cns.add(f"{mon.name}_set_mode_{sv.model.name}", f"sniffer '{sv.model.name}'",
                    sv.model.path + ("name",))
    for m in d.metrics:
        owner, path = f"DCAPF '{m['name']}'", dcapf_of(d, m["name"]).path + ("name",)
        cns.add(f"{mon.name}_read_{m['name']}", owner, path)
        if m["has_filter"]:
            cns.add(f"{mon.name}_initialize_{m['name']}", owner, path)
        if m["threshold_irq"]:
            cns.add(f"{mon.name}_set_threshold_{m['name']}", owner, path)
            cns.add(f"{mon.name}_read_threshold_{m['name']}", owner, path)
    for t in d.traces:
        owner, path = f"DCAPF '{t['name']}'", dcapf_of(d, t["name"]).path + ("name",)
        if t["sink_bytes"]:
            for fn in ("sink_start", "drain", "sink_stop") + (("sink_sync",) if t["sync"] else ()):
                cns.add(f"{mon.name}_{fn}_{t['name']}", owner, path)
        else:
            cns.add(f"{mon.name}_trace_read_{t['name']}", owner, path)
        if t["mode"] == "relay":
            cns.add(f"{mon.name}_drain_{t['name']}", owner, path)
        if t["has_filter"]:
            cns.add(f"{mon.name}_initialize_{t['name']}", owner, path)
