# SPDX-License-Identifier: MIT
"""Stage 1, load: the YAML file into plain data with a source map (loader.py),
checked against the JSON Schema (schema_check.py) and the semantic rules
(validate.py) into the typed model (model/monitor.py); every problem is a
diagnostic with file:line:col (diag.py)."""
