# SPDX-License-Identifier: MIT
"""The generator's per-user cache folder, ~/.cache/jointer-gen/<version>
($XDG_CACHE_HOME honoured): compiled templates (backends/templates.py) and
the keys of descriptions that passed the JSON Schema (load/schema_check.py).
Only speed depends on it: no folder (not creatable, not writable, or
JOINTER_GEN_NO_CACHE=1) means no cache, same outputs."""

from __future__ import annotations

import os
from typing import Optional

from . import __version__


def folder(*sub: str) -> Optional[str]:
    """The cache folder (or a subfolder of it), created; None when there is none."""
    if os.environ.get("JOINTER_GEN_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "jointer-gen", __version__, *sub)
    try:
        os.makedirs(path, exist_ok=True)
        if not os.access(path, os.W_OK):
            return None
    except OSError:
        return None
    return path
