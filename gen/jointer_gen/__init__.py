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

__version__ = "1.0.0"
