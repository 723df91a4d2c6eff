#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where the LUTs and flip-flops of a synthesised top go (make bench).

    attribution.py NETLIST.json TOP VERILOG [--cells] [--json OUT]

Reads the flat yosys JSON netlist (synth_xilinx -flatten; `write_json`) of
the Verilog that ghdl synth wrote (one module per entity instance kind), and
charges every cell to a block of the design:
- a flip-flop (or LUTRAM/SRL/BRAM) to the signal it drives: the `src` of the
  cell names the Verilog module whose process made it, and of the
  hierarchical names of its output net (ghdl synth and yosys keep the VHDL
  instance path, lmic_accel.u_lmic.u_port.held_r) the one in a scope of that
  module is its own (a net also has the names of the ports it reaches);
- a LUT (or CARRY4/MUXF) to the registers and output ports it feeds through
  combinational cells: to their common hierarchical prefix, so a LUT that
  feeds one block only is that block's, and logic shared by two blocks is
  charged to the scope that contains both (`<shared>` at that level).
Blocks are then named from the instance path (DCI, CDC bridge, LMIC request
pipeline, a sniffer's interfacer, a DCAPF, ...) and rolled up `--depth`
levels. Counts are the flat netlist's, so they add up to the top's total.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sys

SEQ = re.compile(r"^(FD\w*|RAM\w+|SRL\w+|RAMB\w+|DSP\w+)$")
LUT = re.compile(r"^LUT\d$")
LUTRAM_LUTS = {"RAM32M": 4, "RAM64M": 4, "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4,
               "RAM32X1S": 1, "RAM64X1S": 1, "RAM128X1S": 2, "RAM256X1S": 4,
               "SRL16E": 1, "SRLC16E": 1, "SRLC32E": 1}

# instance path patterns -> block names (first match wins); {n} = the instance's own name
BLOCKS = [
    (r"^u_dci(\.|$)", "DCI (AXI4-Lite slave)"),
    (r"^u_global(\.|$)", "global block"),
    (r"^u_cdc(\d+)(\.|$)", "CDC bridge {1}"),
    (r"^u_rst_(\w+)", "reset bridges"),
    (r"^u_irq_sync", "irq synchronisers"),
    (r"^lmic_(\w+)\.u_lmic\.u_port(\.|$)", "LMIC {1}: request pipeline (held word)"),
    (r"^lmic_(\w+)\.u_lmic\.u_results(\.|$)", "LMIC {1}: results, snapshots, thresholds"),
    (r"^lmic_(\w+)\.u_lmic\.u_trace(\.|$)", "LMIC {1}: trace registers"),
    (r"^lmic_(\w+)\.u_lmic\.u_irq(\.|$)", "LMIC {1}: interrupts"),
    (r"^lmic_(\w+)\.u_lmic(\.|$)", "LMIC {1}: CONTROL, STATUS, INIT, IRQ"),
    (r"^lmic_(\w+)\.u_timestamp(\.|$)", "LMIC {1}: trace timestamp"),
    (r"^lmic_(\w+)\.sniffer_(\w+)\.u_interfacer(\.|$)", "sniffer {2}: interfacer"),
    (r"^lmic_(\w+)\.sniffer_(\w+)\.u_(emitter|cond\d+)(\.|$)", "sniffer {2}: emitter, conditions"),
    (r"^lmic_(\w+)\.sniffer_(\w+)\.u_dispenser(\.|$)", "sniffer {2}: dispenser"),
    (r"^lmic_(\w+)\.sniffer_(\w+)\.(dcapf|trace)_(\w+)(\.|$)", "sniffer {2}: DCAPF {4}"),
    (r"^lmic_(\w+)\.sniffer_(\w+)(\.|$)", "sniffer {2}: composition"),
    (r"^lmic_(\w+)(\.|$)", "LMIC {1}: composition"),
]


def block_of(path: str) -> str:
    for pat, name in BLOCKS:
        m = re.match(pat, path)
        if m:
            return name.format(*([""] + list(m.groups())))
    return "top level"


def _bit_names(mod: dict) -> dict[int, list[str]]:
    """Every hierarchical name of every net bit."""
    out: dict[int, list[str]] = collections.defaultdict(list)
    for name, nn in mod["netnames"].items():
        if "$" not in name:
            for b in nn["bits"]:
                if isinstance(b, int):
                    out[b].append(name)
    return out


class Verilog:
    """Module line ranges and instances of the Verilog ghdl synth wrote."""

    def __init__(self, text: str, top: str):
        self.ranges: list[tuple[int, int, str]] = []
        insts: dict[str, list[tuple[str, str]]] = collections.defaultdict(list)
        cur, start = None, 0
        for i, line in enumerate(text.splitlines(), 1):
            m = re.match(r"\s*module\s+(\w+)", line)
            if m:
                cur, start = m.group(1), i
                continue
            if re.match(r"\s*endmodule", line) and cur:
                self.ranges.append((start, i, cur))
                cur = None
                continue
            m = re.match(r"\s*(\w+)\s+(\w+)\s*\($", line)
            if cur and m and m.group(1) not in ("module", "always", "function", "assign"):
                insts[cur].append((m.group(1), m.group(2)))
        self.scope: dict[str, str] = {}           # instance path -> module

        def walk(mod: str, path: str) -> None:
            self.scope[path] = mod
            for kind, name in insts.get(mod, []):
                walk(kind, f"{path}.{name}" if path else name)
        walk(top, "")

    def module_at(self, line: int) -> str | None:
        for a, b, m in self.ranges:
            if a <= line <= b:
                return m
        return None


def _src_modules(cell: dict, vlog: Verilog | None, vname: str) -> set[str]:
    """The modules of the instantiations and the process that made a sequential cell
    (its `src` entries in the design's Verilog: the chain from the top to its driver)."""
    if vlog is None:
        return set()
    lines = [int(m.group(1)) for m in re.finditer(re.escape(vname) + r":(\d+)\.", cell["attributes"].get("src", ""))]
    return {vlog.module_at(n) for n in lines} - {None}


def attribute(netlist: dict, top: str, verilog: str | None = None, vname: str = "") -> dict:
    """{'cells': {path: [lut, ff, lutram_luts]}, 'blocks': {block: [...]}, 'total': [...]}"""
    mod = netlist["modules"][top]
    cells = mod["cells"]
    all_names = _bit_names(mod)
    vlog = Verilog(verilog, top) if verilog else None
    names = {b: min(ns, key=lambda n: (n.count("."), len(n))) for b, ns in all_names.items()}
    sinks = collections.defaultdict(list)
    for cn, c in cells.items():
        for p, bits in c["connections"].items():
            if c["port_directions"][p] != "output":
                for b in bits:
                    if isinstance(b, int):
                        sinks[b].append(cn)
    out_bits = {b for p in mod["ports"].values() if p["direction"] == "output"
                for b in p["bits"] if isinstance(b, int)}

    def owner(cn: str) -> str:
        c = cells[cn]
        outs = [b for p, bits in c["connections"].items() if c["port_directions"][p] == "output"
                for b in bits if isinstance(b, int)]
        if not outs:
            return cn
        cands = all_names.get(outs[0], [])
        mods = _src_modules(c, vlog, vname)
        own = [n for n in cands if vlog is not None and vlog.scope.get(n.rpartition(".")[0]) in mods]
        pick = own or cands
        # the deepest scope on the driver's chain; its own signal rather than a port or a temporary
        return min(pick, key=lambda n: (-n.count("."), bool(re.search(r"(^|\.)n\d+_[oq]$", n)), len(n))) \
            if pick else cn

    seq_owner = {cn: owner(cn) for cn, c in cells.items() if SEQ.match(c["type"])}
    memo: dict[str, frozenset] = {}

    def reach(cn: str) -> frozenset:
        """The register (or output port) names a combinational cell feeds."""
        if cn in memo:
            return memo[cn]
        memo[cn] = frozenset()      # a combinational loop (none expected) stops here
        found = set()
        c = cells[cn]
        for p, bits in c["connections"].items():
            if c["port_directions"][p] != "output":
                continue
            for b in bits:
                if not isinstance(b, int):
                    continue
                if b in out_bits:
                    found.add("<output " + names.get(b, "?") + ">")
                for s in sinks[b]:
                    found |= {seq_owner[s]} if s in seq_owner else reach(s)
        memo[cn] = frozenset(found)
        return memo[cn]

    def scope(targets: frozenset) -> str:
        if len(targets) == 1:
            return next(iter(targets))
        parts = [t.split(".")[:-1] for t in targets if not t.startswith("<")]
        pre = os.path.commonprefix(parts) if parts and len(parts) == len(targets) else []
        return ".".join(pre + ["<shared>"])

    per_cell = collections.defaultdict(lambda: [0, 0, 0])
    for cn, c in cells.items():
        t = c["type"]
        if cn in seq_owner:
            path = seq_owner[cn]
            if t.startswith("FD"):
                per_cell[path][1] += 1
            per_cell[path][2] += LUTRAM_LUTS.get(t, 0)
        elif LUT.match(t):
            targets = reach(cn)
            if targets:
                per_cell[scope(targets)][0] += 1
    blocks = collections.defaultdict(lambda: [0, 0, 0])
    for path, v in per_cell.items():
        b = block_of(path) if not path.startswith("<output") else "output ports (read data mux)"
        for i in range(3):
            blocks[b][i] += v[i]
    total = [sum(v[i] for v in blocks.values()) for i in range(3)]
    return {"cells": dict(per_cell), "blocks": dict(blocks), "total": total}


def table(res: dict) -> list[list]:
    """Rows [block, LUT, LUT+mem, FF], largest first."""
    rows = [[b, v[0], v[0] + v[2], v[1]] for b, v in res["blocks"].items()]
    return sorted(rows, key=lambda r: (-(r[2] + r[3]), r[0]))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("netlist")
    ap.add_argument("top")
    ap.add_argument("verilog", nargs="?", help="the Verilog the netlist was synthesised from")
    ap.add_argument("--cells", action="store_true", help="list every register group, not only blocks")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    vtext = open(a.verilog).read() if a.verilog else None
    res = attribute(json.load(open(a.netlist)), a.top, vtext, os.path.basename(a.verilog or ""))
    if a.cells:
        for path, v in sorted(res["cells"].items()):
            print(f"{path:80} LUT {v[0]:4} FF {v[1]:4}" + (f" LUTRAM {v[2]}" if v[2] else ""))
    print(f"{'block':48} {'LUT':>5} {'+mem':>5} {'FF':>5}")
    for r in table(res):
        print(f"{r[0]:48} {r[1]:5} {r[2]:5} {r[3]:5}")
    t = res["total"]
    print(f"{'total':48} {t[0]:5} {t[0] + t[2]:5} {t[1]:5}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"blocks": table(res), "total": t}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
