# SPDX-License-Identifier: MIT
"""The AXI4-Lite property set (axil_props.v) checked on broken slaves
(broken_slaves.v) with SymbiYosys: the correct slave is proven (abc pdr), and
each protocol error is caught (a counterexample: FAIL). The proofs of the
generated tops run in `make formal-small` / `make formal` (scripts/formal.py).
"""
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))

import formal  # noqa: E402


@pytest.mark.skipif(shutil.which("yowasp-sby") is None, reason="yowasp-sby not installed (make deps)")
def test_broken_slaves_are_caught():
    results = {r["proof"]: r["status"] for r in formal.toys(timeout=300)}
    assert len(results) == len(formal.TOY_BUGS)
    for bug, what in formal.TOY_BUGS.items():
        want = "PASS" if bug == 0 else "FAIL"
        assert results[f"toy BUG {bug} ({what})"] == want, (bug, what, results)


def test_cdc_timeout_edit(tmp_path):
    """Every bridge's timeout constant of the generated VHDL is set; a design without one is refused."""
    cfg = tmp_path / "x_config.vhd"
    cfg.write_text("  constant lmic1_cdc_timeout_c : positive := 64;  -- LMIC a\n"
                   "  constant lmic3_cdc_timeout_c : positive := 128;  -- LMIC b\n"
                   "  constant other_c : positive := 64;\n")
    formal.set_cdc_timeout(16)([cfg])
    assert cfg.read_text() == ("  constant lmic1_cdc_timeout_c : positive := 16;  -- LMIC a\n"
                               "  constant lmic3_cdc_timeout_c : positive := 16;  -- LMIC b\n"
                               "  constant other_c : positive := 64;\n")
    none = tmp_path / "y.vhd"
    none.write_text("constant other_c : positive := 64;\n")
    with pytest.raises(SystemExit):
        formal.set_cdc_timeout(16)([none])


def test_response_bound():
    # T counting edges + 8 more samples at most: the stall counter stays below T + 9
    assert formal.response_bound(16) == 25
    assert formal.response_bound(64) == 73
    assert formal.response_bound(0) == formal.BOUND_1CLK


def test_props_instance_multiclock():
    text = formal.with_props("module t (input a);\nendmodule\n", "t", 8, 25, hold=2)
    assert ".BOUND(25)" in text and ".FIRST_IDLE(0)" in text
    assert "clock_env #(.HOLD(2)) u_clock_env (.clk(s_axi_aclk));" in text
    assert text.rstrip().endswith("endmodule")
    assert "clock_env" not in formal.with_props("module t (input a);\nendmodule\n", "t", 8, 12)


def test_contract_goes_into_every_bridge():
    import formal_split
    text = ("module jointer_collect_cdc_8_16 (input s_clk);\n  reg req_l;\nendmodule\n"
            "module other (input a);\nendmodule\n"
            "module jointer_collect_cdc_8_128 (input s_clk);\nendmodule\n")
    out = formal_split.with_contract(text, guarantee=False)
    assert out.count("cdc_contract #(.GUARANTEE(0), .RFLAG_MASKS(1)) u_cdc_contract") == 2
    assert out.index("u_cdc_contract") < out.index("module other")
    assert "u_cdc_contract" not in out[out.index("module other"):out.index("module jointer_collect_cdc_8_128")]
    with pytest.raises(SystemExit):
        formal_split.with_contract("module other (input a);\nendmodule\n", guarantee=True)

