# SPDX-License-Identifier: MIT
"""Tests of the CDC check (jointer-cdc-check, gen/jointer_gen/tools/cdc_check.py): planted bad crossings in a tiny
VHDL top (scripts/tests/cdc/cdc_fix_top.vhd, one case per value of case_g),
each caught with its message naming both registers and their clocks; the
good case passes with exactly the crossings it has; every configs/ top and
every fixture with two clocks passes (make cdc-check runs the same), and its
generated ip/<name>.xdc covers every crossing the checker finds with a
constraint while every constraint covers a crossing (the XDC's Vivado cell,
pin and port names mapped to the netlist's VHDL paths).
"""
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "gen"))
from jointer_gen.tools import cdc_check  # noqa: E402

FIX = HERE / "cdc"


def run_case(case: int, tmp_path: Path) -> dict:
    top = (FIX / "cdc_fix_top.vhd").read_text()
    top = top.replace("case_g : natural := 0", f"case_g : natural := {case}")
    f = tmp_path / "cdc_fix_top.vhd"
    f.write_text(top)
    return cdc_check.check_design([FIX / "cdc_fix_sync.vhd", f], "cdc_fix_top", tmp_path / "work")


def groups(res: dict) -> set:
    return {(c["rule"], c["src_signal"], c["src_clock"], c["dest_signal"], c["dest_clock"])
            for c in res["crossings"]}


GOOD = {("handshake", "a_data", "a_clk", "b_data", "b_clk"),
        ("sync", "a_flag", "a_clk", "u_flag_sync.s1", "b_clk"),
        ("sync", "a_req", "a_clk", "u_req_sync.stage", "b_clk"),
        ("sync", "b_ack", "b_clk", "u_ack_sync.stage", "a_clk"),
        ("reset-bridge", "a_resetn", "a_clk", "u_rst_a.stage", "a_clk"),
        ("reset-bridge", "b_resetn", "b_clk", "u_rst_b.stage", "b_clk")}


def test_good_top_passes_with_its_crossings(tmp_path):
    res = run_case(0, tmp_path)
    assert res["errors"] == []
    assert groups(res) == GOOD
    # 8 data bits, 3 synchronisers, 2 flops in each of the 2 reset bridges
    assert len(res["crossings"]) == 8 + 3 + 4


# case -> (number of errors, one full message)
BAD = {
    1: (8, "a_data[3] (clock a_clk) -> b_data[3] (clock b_clk): sampled without a synchroniser "
           "or a synchronised handshake (no synchroniser from a_clk enables b_data)"),
    2: (1, "a_flag (clock a_clk) -> u_flag_sync.s1 (clock b_clk): the synchroniser's first flop "
           "drives logic ($and -> "),
    3: (2, "a_flag (clock a_clk) -> u_flag_sync.s1 (clock b_clk): logic between the source "
           "register and the synchroniser's first flop (its D must be the source's Q)"),
    4: (8, "u_rst_a.stage[0] (clock a_clk) -> b_cnt[5] (clock b_clk): the reset of clock a_clk "
           "used in clock b_clk without a synchroniser"),
    5: (8, "reset input a_resetn (clock a_clk) used by b_cnt[0] (clock b_clk) without a reset "
           "bridge (jointer_collect_reset)"),
    6: (8, "a_free[7] (clock a_clk) -> b_data[7] (clock b_clk): the source is not held by a "
           "handshake (it may change while b_data captures it)"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_planted_crossing_is_caught(case, tmp_path):
    res = run_case(case, tmp_path)
    n, msg = BAD[case]
    assert len(res["errors"]) == n, res["errors"]
    assert any(e.startswith(msg) for e in res["errors"]), res["errors"]
    if case == 2:
        assert "(logic between its flops)" in res["errors"][0]
    # the rest of the design is still proven (the other crossings are reported as before)
    assert ("sync", "b_ack", "b_clk", "u_ack_sync.stage", "a_clk") in groups(res)


def test_cli_exit_status(tmp_path):
    top = (FIX / "cdc_fix_top.vhd").read_text().replace("case_g : natural := 0", "case_g : natural := 2")
    f = tmp_path / "cdc_fix_top.vhd"
    f.write_text(top)
    args = ["--files", str(FIX / "cdc_fix_sync.vhd"), str(f), "--top", "cdc_fix_top", "--out", str(tmp_path)]
    assert cdc_check.main(args) == 1
    f.write_text(top.replace("case_g : natural := 2", "case_g : natural := 0"))
    assert cdc_check.main(args) == 0


CONFIGS = sorted((ROOT / "configs").glob("*.yaml")) + cdc_check.fixtures()


def test_fixtures_found():
    names = {p.stem for p in cdc_check.fixtures()}
    assert {"cosim_events", "cosim_relay", "latency_demo", "papi_mon", "relay_traces",
            "byte_counter"} <= names


# ---- the XDC cross-check ------------------------------------------------------------------------

def signal(pattern: str) -> str:
    """Vivado cell name of a register -> its VHDL path in the monitor's top: u_cdc1/u_req_sync/stage_reg[0]* ->
    u_cdc1.u_req_sync.stage; pin u_cdc1/m_addr[*] -> u_cdc1.m_addr; a port stays itself. The IP's
    XDC names cells from the IP's top, the wrapper whose instance u_core the monitor's top is."""
    p = re.sub(r"(_reg)?(\[[^\]]*\])*\*?$", "", re.sub(r"^u_core/", "", pattern.strip()))
    return p.replace("/", ".")


def parse_xdc(text: str) -> list[dict]:
    """The XDC run by Tcl with stand-ins for Vivado's commands (tkinter, as the package_ip.tcl
    test does): [{cmd, from, through, to: (kind, [names]), line}]."""
    import tkinter
    tcl = tkinter.Tcl()
    out = []

    def obj(v):
        kind, _, rest = v.partition(":")
        return kind, tcl.splitlist(rest)

    def record(cmd):
        def fn(*args):
            c = {"cmd": cmd}
            args = [a for a in args if a != "-datapath_only"]
            opts = args if len(args) % 2 == 0 else args[:-1]       # then the last one is a value
            for opt, val in zip(opts[0::2], opts[1::2]):
                c[opt[1:]] = obj(val)
            c["line"] = f"{cmd} {' '.join(args)}"
            out.append(c)
            return ""
        return fn

    def set_property(prop, value, o):
        assert (prop, value) == ("ASYNC_REG", "TRUE")
        out.append({"cmd": "async_reg", "to": obj(o), "line": f"ASYNC_REG {o}"})
        return ""

    def get_pins(*args):
        args = list(args)
        if "-of_objects" in args:
            return "preset:" + obj(args[args.index("-of_objects") + 1])[1][0]
        return "pins:" + args[-1]

    for name, fn in {"set_max_delay": record("set_max_delay"),
                     "set_false_path": record("set_false_path"), "set_property": set_property,
                     "get_cells": lambda *a: "cells:" + a[-1], "get_ports": lambda p: "port:" + p,
                     "get_clocks": lambda opt, o: "clock:" + obj(o)[1][0], "get_pins": get_pins}.items():
        tcl.createcommand(name, fn)
    tcl.eval(text)
    return out


def covers(c: dict, x: dict) -> bool:
    """Constraint c covers crossing x."""
    def side(ref, sig, clk):
        kind, vals = ref
        if kind == "clock":
            return clk in vals
        return sig in {signal(v) for v in vals}      # cells, port, preset (pins of cells)
    if c["cmd"] == "async_reg":
        return x["rule"] in ("sync", "reset-bridge") and signal(c["to"][1][0]) == x["dest_signal"]
    if c["cmd"] == "set_false_path":
        return x["rule"] == "reset-bridge" and side(c["from"], x["src_signal"], None) \
            and side(c["to"], x["dest_signal"], x["dest_clock"])
    if not (side(c["from"], x["src_signal"], x["src_clock"]) and side(c["to"], x["dest_signal"], x["dest_clock"])):
        return False
    if "through" in c:
        assert c["through"][0] == "pins"
        return bool({signal(v) for v in c["through"][1]} & set(x["through"]))
    return True


def check_xdc(xdc: str, crossings: list[dict]) -> list[str]:
    cons = parse_xdc(xdc)
    problems = []
    for x in crossings:
        timing = [c for c in cons if c["cmd"] in ("set_max_delay", "set_false_path") and covers(c, x)]
        if not timing:
            problems.append(f"no constraint covers {x['src']} ({x['src_clock']}) -> {x['dest']} ({x['dest_clock']})")
        if x["rule"] in ("sync", "reset-bridge") and not any(
                c["cmd"] == "async_reg" and covers(c, x) for c in cons):
            problems.append(f"no ASYNC_REG on {x['dest']}")
    for c in cons:
        if not any(covers(c, x) for x in crossings):
            problems.append(f"constraint matches no crossing: {c['line']}")
    return problems


def test_xdc_cross_check_catches_mismatches():
    """The cross-check itself can fail: a missing constraint, a constraint on nothing."""
    xs = [{"rule": "sync", "src": "u_c.req_l", "src_signal": "u_c.req_l", "src_clock": "a_clk",
           "dest": "u_c.u_s.stage[1]", "dest_signal": "u_c.u_s.stage", "dest_clock": "b_clk", "through": []},
          {"rule": "handshake", "src": "d[0]", "src_signal": "d", "src_clock": "a_clk",
           "dest": "q[0]", "dest_signal": "q", "dest_clock": "b_clk", "through": ["u_c.m_d"]}]
    good = ("set_property ASYNC_REG TRUE [get_cells {u_c/u_s/stage_reg*}]\n"
            "set_max_delay -datapath_only -from [get_cells {u_c/req_l_reg}] -to [get_cells {u_c/u_s/stage_reg[0]*}] 5\n"
            "set_max_delay -datapath_only -from [get_clocks -of_objects [get_ports a_clk]] -through "
            "[get_pins {u_c/m_d[*]}] -to [get_clocks -of_objects [get_ports b_clk]] 5\n")
    assert check_xdc(good, xs) == []
    lines = good.splitlines()
    assert check_xdc("\n".join(lines[:2]), xs) == ["no constraint covers d[0] (a_clk) -> q[0] (b_clk)"]
    extra = good + "set_max_delay -datapath_only -from [get_cells {u_c/other_reg}] -to [get_cells {u_c/x_reg}] 5\n"
    assert check_xdc(extra, xs) == [
        "constraint matches no crossing: set_max_delay -from cells:u_c/other_reg -to cells:u_c/x_reg 5"]
    wrong_pin = good.replace("u_c/m_d[*]", "u_c/m_e[*]")
    assert len(check_xdc(wrong_pin, xs)) == 2          # the data path uncovered, the constraint on nothing


@pytest.mark.parametrize("config", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_config_proven(config, tmp_path):
    res = cdc_check.check_config(config, tmp_path)
    assert res["errors"] == []
    xdc = (tmp_path / "gen" / res["name"] / "ip" / f"{res['name']}.xdc").read_text()
    assert check_xdc(xdc, res["crossings"]) == []
    n_clocks = len(res["clocks"])
    rules = {c["rule"] for c in res["crossings"]}
    # one reset bridge per clock (2 flops each); a second clock brings the bridges' crossings
    assert sum(c["rule"] == "reset-bridge" for c in res["crossings"]) == 2 * n_clocks
    if n_clocks > 1:
        assert {"sync", "handshake"} <= rules
    else:
        assert rules == {"reset-bridge"}
