# SPDX-License-Identifier: MIT
"""jointer_eig_check_range: match = (low_g <= data <= high_g) unsigned, random
data concentrated around the bounds, against a Python expression. With
ev_w_g 64 (an address wider than 32 bits): bounds and data around 2^32 and
at the top bit of a 40-bit address too."""
import json
import os
import random

import cocotb
import pytest
from cocotb.triggers import Timer

from jointer_sim import run, slv


@cocotb.test()
async def random_data(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    low, high, ev = p["low"], p["high"], p["ev"]
    full = (1 << ev) - 1
    matches = 0
    n = 5000
    for i in range(n):
        r = random.random()
        if r < 0.6:  # near a bound, including both bounds exactly
            data = (random.choice([low, high]) + random.randint(-2, 2)) & full
        elif r < 0.7:
            data = random.choice([0, 0xFFFFFFFF, 1 << 32, (1 << 32) + 1, 1 << 39, (1 << 40) - 1, full]) & full
        else:
            data = random.getrandbits(random.choice([32, ev]))
        dut.data.value = data
        await Timer(1, unit="ns")
        exp = int(low <= data <= high)
        assert int(dut.match.value) == exp, f"data {data:#x}: match {int(dut.match.value)}, expected {exp}"
        matches += exp
    dut._log.info("checked %d random data words (%d matches)", n, matches)


@pytest.mark.parametrize("low,high,ev", [(0x0, 0xFFFF, 32), (0x1000, 0x1000, 32), (0x80000000, 0xFFFFFFFF, 32),
                                         (0x20, 0x10, 32), (0x12345678, 0x9ABCDEF0, 32),
                                         (0x1_0000_0000, 0x1_FFFF_FFFF, 64), (0x8_1000_0000, 0xFF_FFFF_FFFF, 64),
                                         (0x1000_0000, 0x1FFF_FFFF, 64)])
def test_check_range(low, high, ev):
    generics = {"low_g": slv(low, ev), "high_g": slv(high, ev)} | ({"ev_w_g": ev} if ev > 32 else {})
    run("jointer_eig_check_range", __name__, generics,
        extra_env={"JOINTER_PARAMS": json.dumps({"low": low, "high": high, "ev": ev})})


def test_check_range_wide_netlist():
    """What `ghdl synth` makes of a wide check: bounds whose low 32 bits are all
    zero (a DDR base above 4 GB) come out of GHDL 2.0.0's synth as 0 unless they
    pass through jointer_pkg_wide_const; the same random test runs on the netlist."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent))
    from axi_netlist import synth_netlist
    low, high = 0x8_0000_0000, 0xFFFF_FFFF_0000_0000
    src = Path(__file__).resolve().parents[2] / "hdl" / "eig" / "jointer_eig_check_range.vhd"
    net = synth_netlist("jointer_eig_check_range", [src], {"ev_w_g": 64, "low_g": slv(low, 64),
                                                         "high_g": slv(high, 64)}, "check_range_wide_net")
    run("check_range_wide_net", __name__, {}, extra_sources=[net], toplevel="check_range_wide_net",
        name="jointer_eig_check_range_netlist",
        extra_env={"JOINTER_PARAMS": json.dumps({"low": low, "high": high, "ev": 64})})
