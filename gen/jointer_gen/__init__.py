# SPDX-License-Identifier: MIT
"""jointer-gen: from a YAML monitor description to VHDL, C and docs.

Stages, one subpackage each (gen/README.md "How it is built"):
    load/      YAML -> plain data + a source map; JSON Schema
               (schema/jointer-1.schema.json) and semantic checks -> the typed
               model; every error names file:line:col
    model/     the typed model, the register layout, datapath widths, the
               records the backends read
    netlist/   elaborate once: the VHDL netlist, name checks, the Design
    backends/  one per output family, each handed the Design once; Jinja2
               templates (templates/)
    output.py  write to a temporary folder, move into place on success
    tools/     installed with the generator: jointer-cdc-check; developer tools
"""

import re as _re
from pathlib import Path as _Path


def _release() -> str:
    """jointer's release, from its one place: drivers/include/jointer_version.h
    (libjointer, the .pc files, the Python package and the IP use it too)."""
    header = _Path(__file__).resolve().parents[2] / "drivers" / "include" / "jointer_version.h"
    try:
        text = header.read_text()
    except OSError:
        return "0+unknown"        # not in a checkout: the generator refuses to run there anyway
    parts = [_re.search(rf"#define JOINTER_VERSION_{k}\s+(\d+)", text) for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(m.group(1) for m in parts) if all(parts) else "0+unknown"


__version__ = _release()
