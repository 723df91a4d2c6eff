# SPDX-License-Identifier: MIT
"""Stage 3, elaborate: the VHDL netlist of the monitor (sniffer.py, lmic.py,
sink.py, relay.py, top.py; collection.py: the collection layer's options),
the Vivado bus interfaces of the top (bus_interfaces.py), name checks after
prefixing (namecheck.py); elaborate.py runs them once and assembles the
finished Design."""
