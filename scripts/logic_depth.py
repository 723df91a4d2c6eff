#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Logic depth per clock domain of a synthesised top (make bench).

    logic_depth.py NETLIST.json [TOP] [--path]

Reads the flat yosys JSON netlist (synth_xilinx -flatten; `write_json`) and
gives, for every clock domain, the longest register-to-register path in LUT
levels: the number of LUT1..LUT6 cells on the path. yosys's own `ltp` counts
every cell and does not know the Xilinx primitives, so this walks the
netlist itself:
- start points: flip-flop outputs (FD*), block RAM and DSP outputs, the top's
  input ports; end points: flip-flop D/CE/S/R inputs, block RAM and DSP
  inputs, the write side of a LUTRAM (data, address, enable);
- through: LUT1..LUT6 (one level each), CARRY4, MUXF7/F8, INV and BUFG
  (no level: Vivado folds an inverter into the LUT or the pin, and a carry
  chain or wide mux sits in the same slice as its LUTs), and the read side
  of a LUTRAM (one level: its read port is a LUT);
- the domain of a path is the clock of its end point: the top port that
  drives the flip-flop's C (or the RAM's write clock), through BUFGs.
Paths into output ports are not counted (they end in the user's logic).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from functools import lru_cache

SEQ = re.compile(r"^(FD\w*|RAMB\w+|DSP\w+)$")
LUT = re.compile(r"^LUT\d$")
LUTRAM = re.compile(r"^(RAM\d+[MX]\w*|SRL\w+)$")
PASS = re.compile(r"^(CARRY4|MUXF\d|INV|BUFG\w*)$")
CLOCK_PINS = ("C", "CLK", "WCLK", "CLKARDCLK", "CLKBWRCLK")
# LUTRAM read side: outputs that follow the read addresses combinationally
LUTRAM_READ = re.compile(r"^(ADDR[A-C]|A\d?|ADDRD|DPRA\d?|A)$")


def top_module(net: dict, top: str | None) -> tuple[str, dict]:
    mods = net["modules"]
    if top in mods:
        return top, mods[top]
    for name, m in mods.items():
        if str(m.get("attributes", {}).get("top", "0")).strip("0"):   # "000...01"
            return name, m
    raise SystemExit("logic_depth: no top module in the netlist (give TOP)")


def depth(net: dict, top: str | None = None) -> dict[str, dict]:
    """{clock port: {"levels": n, "path": [cell names, start first]}}."""
    _, mod = top_module(net, top)
    cells = mod["cells"]
    driver = {}                        # net bit -> (cell, pin) | ("<port>", name)
    for pname, p in mod["ports"].items():
        if p["direction"] == "input":
            for b in p["bits"]:
                driver[b] = ("<port>", pname)
    for cname, c in cells.items():
        for pin, bits in c["connections"].items():
            if c["port_directions"].get(pin) == "output":
                for b in bits:
                    driver[b] = (cname, pin)

    @lru_cache(maxsize=None)
    def clock_of(bit) -> str:
        d = driver.get(bit)
        if d is None:
            return "?"
        if d[0] == "<port>":
            return d[1]
        c = cells[d[0]]
        if c["type"].startswith("BUFG") or c["type"] == "INV":
            return clock_of(c["connections"]["I"][0])
        return d[0]

    sys.setrecursionlimit(100000)
    memo: dict = {}

    def arrive(bit) -> tuple[int, tuple]:
        """(LUT levels, path) of the longest combinational path ending at net bit."""
        if bit in memo:
            return memo[bit]
        if not isinstance(bit, int):
            return (0, ())                     # a constant
        d = driver.get(bit)
        if d is None or d[0] == "<port>":
            res = (0, ())
        else:
            name, pin = d
            c = cells[name]
            t = c["type"]
            if SEQ.match(t):
                res = (0, (name,))
            elif LUTRAM.match(t):
                ins = [b for p, bs in c["connections"].items() if c["port_directions"].get(p) == "input"
                       and LUTRAM_READ.match(p) for b in bs]
                best = max((arrive(b) for b in ins), default=(0, ()))
                res = (best[0] + 1, best[1] + (name,))
            else:
                ins = [b for p, bs in c["connections"].items() if c["port_directions"].get(p) == "input"
                       for b in bs]
                best = max((arrive(b) for b in ins), default=(0, ()))
                lvl = 1 if LUT.match(t) else 0
                res = (best[0] + lvl, best[1] + (name,))
        memo[bit] = res
        return res

    domains: dict[str, dict] = {}
    for cname, c in cells.items():
        t = c["type"]
        if not (SEQ.match(t) or LUTRAM.match(t)):
            continue
        clk = next((c["connections"][p][0] for p in CLOCK_PINS if p in c["connections"]), None)
        dom = clock_of(clk) if clk is not None else "?"
        for pin, bits in c["connections"].items():
            if c["port_directions"].get(pin) != "input" or pin in CLOCK_PINS:
                continue
            for b in bits:
                lv, path = arrive(b)
                cur = domains.setdefault(dom, {"levels": 0, "path": []})
                if lv > cur["levels"]:
                    cur["levels"], cur["path"] = lv, list(path) + [f"{cname}.{pin}"]
    return domains


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("netlist")
    ap.add_argument("top", nargs="?")
    ap.add_argument("--path", action="store_true", help="also print the longest path of each domain")
    a = ap.parse_args(argv)
    with open(a.netlist) as f:
        net = json.load(f)
    for dom, d in sorted(depth(net, a.top).items()):
        print(f"{dom}: {d['levels']} LUT levels")
        if a.path:
            label = cell_labels(net, a.top)
            for c in d["path"]:
                print(f"    {label(c)}")
    return 0


def cell_labels(net: dict, top: str | None):
    """A function: cell name (or "cell.PIN") -> "TYPE  signal it drives", the
    readable name of the cell's output net (the VHDL signal path ghdl synth
    kept), so a path says which registers and signals it runs through."""
    _, mod = top_module(net, top)
    names: dict = {}
    for n, v in mod["netnames"].items():
        hidden = n.startswith("$") or v.get("hide_name")
        for b in v["bits"]:
            if isinstance(b, int) and (b not in names or (names[b][0] and not hidden)
                                       or (names[b][0] == hidden and len(n) < len(names[b][1]))):
                names[b] = (hidden, n)

    def label(ref: str) -> str:
        cname, _, pin = ref.partition(".") if ref not in mod["cells"] else (ref, "", "")
        c = mod["cells"].get(cname)
        if c is None:
            return ref
        outs = [b for p, bs in c["connections"].items() if c["port_directions"].get(p) == "output"
                for b in bs if isinstance(b, int)]
        sig = next((names[b][1] for b in outs if b in names), "?")
        return f"{c['type']:<8} {sig}" + (f"  (into .{pin})" if pin else "")
    return label


if __name__ == "__main__":
    sys.exit(main())
