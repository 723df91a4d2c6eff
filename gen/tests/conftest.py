# SPDX-License-Identifier: MIT
"""gen/tests: make jointer_gen (gen/) and jointer_sim (sim/) importable."""
import sys
from pathlib import Path

_REPO = Path(__file__).resolve().parents[2]
for _p in (_REPO / "gen", _REPO / "sim", Path(__file__).resolve().parent):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))
