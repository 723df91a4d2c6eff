#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The proof of a multi-clock top split at its register-port bridges
(hdl/collect/jointer_collect_cdc.vhd), so that it holds for every ratio and
phase of the clocks and is unbounded (abc pdr). The bus side is proven with
the bridges' timeout_g at 16 by default, like the whole proofs (formal.py
says why that stands for any value; `formal.py split --cdc-timeout 0` takes
the generated one, 25 minutes for two_clock_bus's 64 instead of one).
sim/formal/cdc_contract.v states what a bridge's m side promises its s side
at the bus clock's edges; formal.py all runs both halves:

  crossing   the contract asserted inside every bridge. SymbiYosys multiclock,
             every clock and every reset free (no clock_env: any rate, any
             phase, stopped); the DCI, the global block, the sniffers, the
             LMICs' result, trace, IRQ, timestamp and dispenser blocks and
             every RAM are cut points: their outputs free at every step. The
             bridges and the LMICs' register ports are the real ones.
  bus side   the AXI4-Lite properties (sim/formal/axil_props.v) with the
             contract assumed inside every bridge. One clock: every flip-flop
             off the bus clock is a cut point (its output free at every bus
             edge), and so are the blocks the crossing proof cuts but the
             DCI and the global block. The response bound is the timeout's
             (common.response_bound).

Why the two make a proof of the real top: the crossing proof assumes nothing
of the bus side (its inputs are free), so every trace of the real top keeps
the contract; seen at the bus edges, every such trace is a trace of the
bus-side model, whose cut points may take any value the contract allows.
Both models only add behaviour (cut points), so a pass holds for the real
top. Checked against vacuity: the contract without rflag's mask must FAIL in
the crossing proof (an LMIC port reset moves the held word after the bridge
answered), and the bus-side bound minus one must FAIL.
"""

from __future__ import annotations

import re
from pathlib import Path

import formal_common as common

CONTRACT_PORTS = ("s_clk", "req_l", "ack_m", "rflag", "m_rdata", "m_err")
BRIDGE = re.compile(r"^module jointer_collect_cdc_\w+.*?^endmodule", re.S | re.M)
# the crossing proof's cut points: every block but the bridges and the LMICs' ports and glue
CROSSING_CUTS = ("t:$mem_v2", "t:*_sniffer", "t:jointer_collect_dci_*", "t:jointer_collect_global_*",
                 *common.LMIC_BLOCK_CUTS)
# the bus-side proof's cut points: every RAM, sniffer and LMIC block behind its port (as in the
# whole proofs), then every flip-flop not clocked by the bus clock
BUS_SIDE_CUTS = ("".join(f"cutpoint {c}\n" for c in ("t:$mem_v2", "t:*_sniffer", *common.LMIC_BLOCK_CUTS))
                 + "flatten\nopt_clean\n"
                 "select -set bus_ffs w:s_axi_aclk %co1:+[CLK] t:$*dff* %i\n"
                 "cutpoint t:$*dff* @bus_ffs %d\n")


def with_contract(verilog: str, guarantee: bool, rflag_masks: bool = True) -> str:
    """The Verilog with cdc_contract instantiated inside every bridge module."""
    conns = ", ".join(f".{p}({p})" for p in CONTRACT_PORTS)
    inst = (f"  cdc_contract #(.GUARANTEE({int(guarantee)}), .RFLAG_MASKS({int(rflag_masks)})) "
            f"u_cdc_contract ({conns});\n")

    def add(m: re.Match) -> str:
        body = m.group(0)
        cut = body.rindex("endmodule")
        return body[:cut] + inst + body[cut:]
    out, n = BRIDGE.subn(add, verilog)
    if not n:
        raise SystemExit("formal: no jointer_collect_cdc module in the Verilog (not a multi-clock top?)")
    return out


def _job(top: str, files: list[str], multiclock: bool, cuts: str) -> str:
    reads = "\n".join(f"read -formal {f}" for f in files)
    return (f"[options]\nmode prove\ndepth 20\nmulticlock {'on' if multiclock else 'off'}\n\n"
            f"[engines]\nabc pdr\n\n[script]\n{reads}\nprep -top {top}\n{cuts}\n"
            f"[files]\n" + "\n".join(files) + "\n")


def _run(name: str, proof: str, job: str, files: dict, timeout: int, expect: str, row: dict) -> dict:
    work = common.BUILD / name
    common.say(f"formal: {name}: {proof} ...")
    status, secs, tail = common.run_sby(work / "sby", job, files, timeout)
    common.say(f"formal: {name}: {status} in {secs:.0f} s" + (f" (expected {expect})" if expect != "PASS" else ""))
    if status != expect:
        common.say(tail)
    return {**row, "mode": "prove", "engine": "pdr", "depth_steps": None, "hold": None,
            "min_bus_cycles": None, "checked_steps": None, "status": status, "expected": expect,
            "ok": status == expect, "seconds": round(secs, 1), "cpu_seconds": None}


def crossing(cfg: Path, timeout: int, rflag_masks: bool = True) -> dict:
    """The contract asserted at every bridge, every clock and reset free."""
    from top_verilog import top_verilog
    expect = "PASS" if rflag_masks else "FAIL"
    name = f"{cfg.stem}_crossing" + ("" if rflag_masks else "_unmasked_fail")
    vfile, top, design = top_verilog(cfg, common.BUILD / name / "hdl")
    files = {"top.v": with_contract(vfile.read_text(), True, rflag_masks),
             "cdc_contract.v": (common.FORMAL / "cdc_contract.v").read_text()}
    cuts = "".join(f"cutpoint {c}\n" for c in CROSSING_CUTS)
    what = "the bridges keep the contract" + ("" if rflag_masks else " without rflag's mask, must FAIL")
    row = {"proof": f"{cfg.stem} (crossing: {what})", "clocks": common.clock_count(cfg), "bound": None,
           "cdc_timeouts_generated": common.cdc_timeouts(design), "cdc_timeouts_proven": []}
    return _run(name, "crossing proof, every clock and reset free, pdr", _job(top, list(files), True, cuts),
                files, timeout, expect, row)


def bus_side(cfg: Path, timeout: int, tighter: bool = False, cdc_timeout: int = 0) -> dict:
    """The AXI4-Lite properties, the contract assumed, every flip-flop off the bus clock cut.
    tighter: the response bound minus one, which must FAIL. cdc_timeout: every bridge's
    timeout_g in the proof (0: as generated; formal.py says why 16 stands for any)."""
    from top_verilog import top_verilog
    name = f"{cfg.stem}_bus_side" + ("_tighter_fail" if tighter else "")
    edit = common.set_cdc_timeout(cdc_timeout) if cdc_timeout else None
    vfile, top, design = top_verilog(cfg, common.BUILD / name / "hdl", edit)
    generated = common.cdc_timeouts(design)
    timeouts = [cdc_timeout] * len(generated) if cdc_timeout else generated
    bound = common.response_bound(max(timeouts or [0])) - int(tighter)
    expect = "FAIL" if tighter else "PASS"
    text = common.with_props(vfile.read_text(), top, design.addr_width, bound)
    files = {"top.v": with_contract(text, False), "axil_props.v": (common.FORMAL / "axil_props.v").read_text(),
             "cdc_contract.v": (common.FORMAL / "cdc_contract.v").read_text()}
    what = "the contract assumed" + (f", bound {bound}, must FAIL" if expect == "FAIL" else "")
    row = {"proof": f"{cfg.stem} (bus side: {what})", "clocks": common.clock_count(cfg), "bound": bound,
           "cdc_timeouts_generated": generated, "cdc_timeouts_proven": timeouts}
    return _run(name, f"bus-side proof, response bound {bound} bus cycles (bridge timeout {timeouts}), pdr",
                _job(top, list(files), False, BUS_SIDE_CUTS), files, timeout, expect, row)
