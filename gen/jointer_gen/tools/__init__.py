# SPDX-License-Identifier: MIT
"""Tools around the generator, installed with it: `jointer-topology`
(topology.py), `jointer-cdc-check` (cdc_check.py, cdc_netlist.py), the
library's FuseSoC core writer (library_core.py) and the generator benchmark
(bench.py)."""
