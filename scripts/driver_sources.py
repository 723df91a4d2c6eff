#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The driver's source lists, from drivers/sources.mk (their one source).

    driver_sources.py [GROUP]      print GROUP's files (default DRV_PORTABLE_SRCS)

`sources(group)` gives the paths (drivers/src/...) of a group; make reads the
same file with `include`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCES_MK = REPO / "drivers" / "sources.mk"


def groups(text: str | None = None) -> dict[str, list[str]]:
    """{NAME: [file names]} of sources.mk, $(NAME) references expanded."""
    text = SOURCES_MK.read_text() if text is None else text
    text = re.sub(r"\\\n", " ", text)
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([A-Z_]+)\s*:=\s*(.*)$", line)
        if not m:
            continue
        words = []
        for w in m.group(2).split():
            ref = re.fullmatch(r"\$\(([A-Z_]+)\)", w)
            if ref:
                words += out[ref.group(1)]
            else:
                words.append(w)
        out[m.group(1)] = words
    return out


def sources(group: str = "DRV_PORTABLE_SRCS") -> list[Path]:
    return [REPO / "drivers" / "src" / f for f in groups()[group]]


if __name__ == "__main__":
    print(" ".join(str(p.relative_to(REPO)) for p in sources(*sys.argv[1:2])))
