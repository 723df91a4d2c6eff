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
