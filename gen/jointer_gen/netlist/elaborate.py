# SPDX-License-Identifier: MIT
"""Stage 4: elaborate the model once into everything the backends print.

The register layout comes from layout.compute() (the only place that
computes addresses); the concerns are in their own modules:

- views.py          the design view (what templates see) and the config hash
- netlist_sniffer.py, netlist_lmic.py, netlist_relay.py, netlist_top.py
                    the VHDL netlist (generics as package constants, ports,
                    port maps); each interfacer kind elaborates itself
                    (interfacers/<kind>.py)
- vivado_bif.py     the Vivado bus interfaces of the top
- regmap.py         C macros, descriptor rows and the register map of the docs
- namecheck.py      name checks after prefixing (names.Namespace)

Templates only place these values; they compute nothing. This module checks
the register space against the bus and assembles the Design.
"""

from __future__ import annotations

from pathlib import Path

from .. import __version__
from . import collection as collect_mod
from ..model import layout as layout_mod
from ..load.diag import Diagnostics, InputError
from ..load.loader import Source
from ..model.monitor import Monitor
from .namecheck import check_names
from .lmic import lmic as lmic_netlist
from .relay import relay_lmic
from .sniffer import sniffer as sniffer_netlist
from .top import top as top_netlist
from ..model.regmap import c_and_docs, c_hex, descriptor_rows
from ..model.views import (MAX_ADDR_WIDTH, MIN_ADDR_WIDTH, Const, ConstGroup, Design, LmicView,
                    SnifferView, config_hash, slv_hex, slv_type, vhdl_bool)
from .bus_interfaces import bus_interfaces
from .vhdl_syntax import aggregate, ascending

# what other modules import from here
__all__ = ["elaborate", "Design", "config_hash", "c_hex", "relay_lmic", "source_display_name"]


def elaborate(mon: Monitor, src: Source, source_name: str) -> Design:
    diags = Diagnostics()
    L = layout_mod.compute(mon.lmics)
    addr_width = _addr_width(mon, L, src, diags)
    h = config_hash(mon)
    col = collect_mod.collect(mon, L.window_log2)
    rp_addr_w = L.window_log2 - 2
    lviews = _lmic_views(mon, L, rp_addr_w, col)
    netlist = Design(monitor=mon, source_name=source_name, version=__version__, config_hash=h,
                     layout=L, addr_width=addr_width, info=col.info, lmics=lviews,
                     sniffers=tuple(sv for lv in lviews for sv in lv.sniffers), metrics=(), traces=(),
                     monitor_consts=_monitor_consts(mon, L, h, addr_width, rp_addr_w, col),
                     top=top_netlist(mon, lviews, addr_width, rp_addr_w, col), c_macros=(), register_map=(),
                     bus_interfaces=tuple(bus_interfaces(mon, lviews)))
    metrics, traces = descriptor_rows(netlist)
    rows = netlist._replace(metrics=metrics, traces=traces)
    c_macros, register_map = c_and_docs(rows)
    d = rows._replace(c_macros=c_macros, register_map=register_map)
    check_names(d, src, diags)
    if diags:
        raise InputError(diags)
    if col.desc_rom:
        d = d._replace(desc_rom_consts=_desc_rom(d, src, diags))
    return d


def _addr_width(mon: Monitor, L, src: Source, diags: Diagnostics) -> int:
    """The s_axi address bits: as given, else the smallest that fits; errors
    when the register space does not fit or the base address is not aligned."""
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
    return addr_width


def _lmic_views(mon: Monitor, L, rp_addr_w: int, col) -> tuple:
    """The netlists of the LMICs and their sniffers; each sniffer's vectors
    start where the previous sniffer's end."""
    out, number = [], 0
    for li, (lm, ll) in enumerate(zip(mon.lmics, L.lmics)):
        sviews, fr, ft, fs = [], 0, 0, 0
        for si, sn in enumerate(lm.sniffers):
            sv = sniffer_netlist(mon, sn, li, si, number + si, fr, ft, fs)
            fr, ft, fs = fr + sv.num_results, ft + sv.num_traces, fs + sv.num_slots
            sviews.append(sv)
        number += len(lm.sniffers)
        out.append(lmic_netlist(mon, lm, li, ll, sviews, rp_addr_w, col))
    return tuple(out)


def _monitor_consts(mon: Monitor, L, h: int, addr_width: int, rp_addr_w: int, col) -> ConstGroup:
    bus = mon.bus
    return ConstGroup(f"monitor {mon.name}", (
        Const("config_hash_c", slv_type(32), slv_hex(h), "CONFIG_HASH register"),
        Const("info_c", slv_type(32), slv_hex(col.info), collect_mod.info_text(col, mon, L.window)),
        Const("bus_addr_w_c", "positive", str(addr_width), "s_axi address bits"),
        Const("window_log2_c", "positive", str(L.window_log2), f"{L.window} bytes per window"),
        Const("rp_addr_w_c", "positive", str(rp_addr_w), "word-address bits inside a window"),
        Const("strict_c", "boolean", vhdl_bool(bus.strict),
              "SLVERR on unmapped addresses" if bus.strict else "unmapped addresses read 0, OKAY"),
        Const("num_lmics_c", "positive", str(len(mon.lmics))),
        Const("has_timestamp_c", "boolean", vhdl_bool(col.timestamp), "global TIMESTAMP_LO/HI"),
        Const("has_mark_c", "boolean", vhdl_bool(col.mark), "global MARK"),
        Const("has_scratch_c", "boolean", vhdl_bool(col.scratch), "global SCRATCH"),
    ) + tuple(Const(f"lmic{i}_cdc_timeout_c", "positive", str(collect_mod.cdc_timeout(mon, lm)),
                    f"LMIC {lm.name}: bus cycles before a crossing to it answers SLVERR")
              for i, lm in enumerate(mon.lmics) if lm.clock != mon.bus_clock.name))


def _desc_rom(d: Design, src: Source, diags: Diagnostics) -> ConstGroup:
    """The descriptor ROM's constants: the descriptor file of the finished design
    (it describes the design, not its VHDL: no cycle)."""
    from ..backends.descfile import encode  # the backend imports this module
    data = encode(d)
    words = desc_rom_words(data)
    if len(words) > ROM_MAX_WORDS:
        diags.error(src.loc(d.monitor.path + ("global", "descriptor")),
                    f"the descriptor file needs {len(words)} ROM words (expected at most "
                    f"{ROM_MAX_WORDS}: use descriptor: none and install the file)")
        raise InputError(diags)
    return desc_rom_consts(d.name, data, words)


ROM_WORDS_PER_LINE = 6
ROM_MAX_WORDS = 65535      # jointer_collect_global's desc_words_g


def desc_rom_words(data: bytes) -> list[int]:
    """The descriptor ROM's words: file byte 4i+k is bits 8k+7..8k of word i
    (little-endian), the last word padded with zero bytes."""
    data = data + bytes(-len(data) % 4)
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def desc_rom_consts(name: str, data: bytes, words: list[int]) -> ConstGroup:
    """The config package's constants of the descriptor ROM holding data."""
    value = aggregate([slv_hex(w) for w in words], ROM_WORDS_PER_LINE)
    return ConstGroup(f"descriptor ROM: {name}.jdesc, {len(data)} bytes, little-endian words", (
        Const("desc_words_c", "natural", str(len(words)), "ROM words (DESC_DATA)"),
        Const("desc_rom_c", ascending("word_array_t", len(words)), value)))


def source_display_name(path: str) -> str:
    return Path(path).name
