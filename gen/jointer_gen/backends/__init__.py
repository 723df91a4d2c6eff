# SPDX-License-Identifier: MIT
"""Stage 4: the backends, one per output family, each handed the finished
Design once.

A backend is a module with `emit(design) -> list[OutFile]`: every file it
writes, with its manifest role. backends/render.py runs them in BACKENDS
order, puts the copies after the originals, fills each copy of a generated
file from its original and adds manifest.json. Templates (templates/<target>/,
backends/templates.py) place values the elaborate stage computed; they
compute nothing.

This module is the interface only: it imports no backend, so any stage may
import a backend module without running the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

Content = Union[str, bytes]

# manifest roles of copied files: the VHDL in ip/hdl/, libjointer in the Vitis driver's src/,
# LICENSE in c/ (a recipe's LIC_FILES_CHKSUM), the generated C in the driver's src/ (the IP folder and the C bundle
# are self-contained); golden files leave them out
COPY_ROLES = ("ip-hdl", "ip-hdl-library", "ip-driver-library", "ip-driver-copy", "c-license")


@dataclass(frozen=True)
class OutFile:
    """One output file: its path in OUTDIR/<name>/, its content (text, written
    as UTF-8, or bytes), its manifest role. A copy of another output names it
    in `copy_of` and has no content of its own (render() fills it in)."""
    path: str
    content: Optional[Content]
    role: str
    copy_of: Optional[str] = None

    @property
    def is_copy(self) -> bool:
        return self.role in COPY_ROLES
