# SPDX-License-Identifier: MIT
"""Tests of the generated constraints ip/<name>.xdc (gen/jointer_gen/backends/vivado/xdc.py):
the exact constraints of the two-clock example (instance names under u_core, the
monitor's instance in the IP's top, the VHDL-93 wrapper; the smaller period
from the YAML, clocks only from the IP's ports), a single-clock monitor (reset
bridges only), a clock without period_ns (Vivado's period, read in the XDC), and one
section per crossing instance of the 4-clock stress top. The cross-check against the
netlist's crossings is scripts/tests/test_cdc_check.py.
"""
import re

import yaml

from gentest_util import CONFIGS, generated


def xdc(files, name):
    return [l for l in files[f"ip/{name}.xdc"].splitlines() if l and not l.startswith("#")]


def test_two_clock_bus_exact():
    _, files = generated("two_clock_bus")
    clk = "[get_clocks -of_objects [get_ports {}]]"
    s, m = clk.format("s_axi_aclk"), clk.format("pl_clk")
    assert xdc(files, "two_clock_bus") == [
        "set_property ASYNC_REG TRUE [get_cells {u_core/u_rst_bus/stage_reg*}]",
        "set_false_path -from [get_ports s_axi_aresetn] -to [get_pins -filter {IS_PRESET || IS_CLEAR} "
        "-of_objects [get_cells {u_core/u_rst_bus/stage_reg*}]]",
        "set_property ASYNC_REG TRUE [get_cells {u_core/u_rst_pl/stage_reg*}]",
        "set_false_path -from [get_ports pl_resetn] -to [get_pins -filter {IS_PRESET || IS_CLEAR} "
        "-of_objects [get_cells {u_core/u_rst_pl/stage_reg*}]]",
        "set_property ASYNC_REG TRUE [get_cells {u_core/u_cdc1/u_req_sync/stage_reg*}]",
        "set_property ASYNC_REG TRUE [get_cells {u_core/u_cdc1/u_ack_sync/stage_reg*}]",
        "set_max_delay -datapath_only -from [get_cells {u_core/u_cdc1/req_l_reg}] "
        "-to [get_cells {u_core/u_cdc1/u_req_sync/stage_reg[0]*}] 6.4",
        "set_max_delay -datapath_only -from [get_cells {u_core/u_cdc1/ack_m_reg}] "
        "-to [get_cells {u_core/u_cdc1/u_ack_sync/stage_reg[0]*}] 6.4",
        f"set_max_delay -datapath_only -from {s} -through [get_pins {{u_core/u_cdc1/m_we u_core/u_cdc1/m_addr[*] "
        f"u_core/u_cdc1/m_wdata[*]}}] -to {m} 6.4",
        f"set_max_delay -datapath_only -from {m} -through [get_pins {{u_core/u_cdc1/s_rdata[*] u_core/u_cdc1/s_err}}] "
        f"-to {s} 6.4",
        f"set_max_delay -datapath_only -from [get_cells {{u_core/u_cdc1/commit_l_reg}}] -to {m} 6.4",
        "set_property ASYNC_REG TRUE [get_cells {u_core/u_irq_sync1/stage_reg*}]",
        f"set_max_delay -datapath_only -from {m} -to [get_cells {{u_core/u_irq_sync1/stage_reg[0]*}}] 6.4",
    ]
    # the IP never creates a clock
    assert "create_clock" not in files["ip/two_clock_bus.xdc"]


def test_single_clock_has_reset_bridge_only():
    _, files = generated("arm_timestamps")
    lines = xdc(files, "arm_timestamps")
    assert len(lines) == 2 and lines[0] == "set_property ASYNC_REG TRUE [get_cells {u_core/u_rst_bus/stage_reg*}]"
    assert lines[1].startswith("set_false_path -from [get_ports s_axi_aresetn]")


def test_stress_one_section_per_crossing_instance():
    design, files = generated("stress_15x4")
    text = files["ip/stress_15x4.xdc"]
    cdcs = [i.label for i in design.top["instances"] if i.entity == "jointer_collect_cdc"]
    assert len(cdcs) == 3
    for lab in cdcs:
        assert text.count(f"{{u_core/{lab}/req_l_reg}}") == 1 and text.count(f"{{u_core/{lab}/commit_l_reg}}") == 1
    # periods ps 10, c1 8, c2 5, c3 12.5: each crossing uses the smaller of its two clocks
    got = sorted(set(re.findall(r"u_cdc(\d)/req_l_reg\}\] -to .* (\S+)$", text, re.M)))
    assert got == [("1", "8"), ("2", "5"), ("3", "10")]
    assert text.count("set_false_path") == 4


def test_clock_without_period(tmp_path):
    from jointer_gen.cli import generate
    cfg = yaml.safe_load((CONFIGS / "two_clock_bus.yaml").read_text())
    del cfg["monitor"]["clocks"][1]["period_ns"]
    p = tmp_path / "two_clock_bus.yaml"
    p.write_text(yaml.safe_dump(cfg, sort_keys=False))
    _, files = generate(str(p))
    per = "[get_property PERIOD [get_clocks -of_objects [get_ports {}]]]"
    a, b = per.format("s_axi_aclk"), per.format("pl_clk")
    want = {f" [expr {{min({a}, {b})}}]", f" [expr {{min({b}, {a})}}]"}
    lines = [l for l in xdc(files, "two_clock_bus") if l.startswith("set_max_delay")]
    assert len(lines) == 6 and all(any(l.endswith(w) for w in want) for l in lines)
