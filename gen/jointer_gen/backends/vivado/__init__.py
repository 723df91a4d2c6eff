# SPDX-License-Identifier: MIT
"""The Vivado outputs: the IP (ip.py: component.xml, xgui, package_ip.tcl;
ipxact_regs.py: its register map), the constraints (xdc.py) and the example
block design (example_bd.py)."""
