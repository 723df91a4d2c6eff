"""jointer-gen: from a YAML monitor description to VHDL, C and docs.

Stages (each its own module, see gen/README.md):
    loader     YAML -> plain data + a source map (line/column of every node)
    validate   JSON Schema (schema/jointer-1.schema.json) + semantic checks
               -> typed model (model.py); every error names file:line:col
    elaborate  the register layout (layout.py), generics, ports, masks
    names      VHDL/C reserved words and collisions after prefixing
    backends   one per output (VHDL, C, docs, manifest), Jinja2 templates
    output     write to a temporary folder, move into place on success
"""

__version__ = "1.0.0"
