# SPDX-License-Identifier: MIT
"""C backend, its files: <name>_regs.h, <name>.h, <name>.c and
<name>_selfcheck.c from templates/c/ over the tables c.py prepares
(c.context: descriptor rows, self-check relations).
"""

from __future__ import annotations

from ..model.views import Design
from . import OutFile
from . import c as c_tables
from .templates import render_file


def emit(d: Design) -> list[OutFile]:
    c = c_tables.context(d)
    return [render_file(d, "c/regs.h.j2", f"c/{d.name}_regs.h", "c-regs"),
            render_file(d, "c/desc.h.j2", f"c/{d.name}.h", "c-header", c=c),
            render_file(d, "c/desc.c.j2", f"c/{d.name}.c", "c-source", c=c),
            render_file(d, "c/selfcheck.c.j2", f"c/{d.name}_selfcheck.c", "c-selfcheck", c=c)]
