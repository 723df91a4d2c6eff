# SPDX-License-Identifier: MIT
"""Make sim/ importable (jointer_sim) for every test module."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
