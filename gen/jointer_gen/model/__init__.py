# SPDX-License-Identifier: MIT
"""Stage 2, model: the typed description of a monitor (monitor.py) and what is
derived from it before any netlist: the register layout (layout.py, the only
place addresses are computed), datapath widths (datapath.py), the design view
records the backends read (views.py), C macros and the register map
(regmap.py), identifier rules (identifiers.py) and the VHDL library files a
design needs (vhdl_library.py)."""
