# SPDX-License-Identifier: MIT
"""Shared helpers for jointer's cocotb test benches (see runner.py)."""
from .runner import run, slv, library_sources, REPO, BUILD  # noqa: F401
