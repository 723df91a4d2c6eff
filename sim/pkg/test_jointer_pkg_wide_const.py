# SPDX-License-Identifier: MIT
"""jointer_pkg_wide_const: q = value_g for narrow and wide constants, in
simulation and in the netlist `ghdl synth` makes of it: GHDL 2.0.0's synth
zeroes a constant wider than 32 bits whose low word is 0 (x"0000000800000000"),
the entity keeps its 32-bit words apart so the value reaches the netlist whole."""
import json
import os
import sys
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import Timer

from jointer_sim import run, slv

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "eig"))
from axi_netlist import synth_netlist  # noqa: E402

VALUES = [(64, 0x8_0000_0000), (64, 0xFFFF_FFFF_0000_0000), (40, 0x80_0000_0000), (64, 0x1_0000_0001),
          (33, 0x1_0000_0000), (32, 0xDEAD_BEEF), (12, 0xABC), (96, 1 << 64), (64, 0)]


@cocotb.test()
async def constant_value(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    await Timer(1, unit="ns")
    assert int(dut.q.value) == p["value"], f"q = {int(dut.q.value):#x}, expected {p['value']:#x}"


@pytest.mark.parametrize("width,value", VALUES, ids=lambda v: f"{v:#x}" if v > 128 else str(v))
def test_wide_const(width, value):
    run("jointer_pkg_wide_const", __name__, {"width_g": width, "value_g": slv(value, width)},
        extra_env={"JOINTER_PARAMS": json.dumps({"value": value})})


@pytest.mark.parametrize("width,value", VALUES[:3] + VALUES[-2:], ids=lambda v: f"{v:#x}" if v > 128 else str(v))
def test_wide_const_netlist(width, value):
    name = f"wide_const_net_{width}_{value:x}"
    src = Path(__file__).resolve().parents[2] / "hdl" / "pkg" / "jointer_pkg_wide_const.vhd"
    net = synth_netlist("jointer_pkg_wide_const", [src], {"width_g": width, "value_g": slv(value, width)}, name)
    run(name, __name__, {}, extra_sources=[net], toplevel=name, name="jointer_pkg_wide_const_netlist",
        extra_env={"JOINTER_PARAMS": json.dumps({"value": value})})
