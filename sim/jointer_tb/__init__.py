# SPDX-License-Identifier: MIT
"""The testbench of a generated monitor (jointer-gen's tb/ output): traffic,
recording, host and reference, for any monitor. README.md beside this file
describes it, and how to add one's own stimulus.

  bench.py      one run: clocks, resets, programming, traffic, drain, check
  host.py       the jointer package over s_axi (cocotb.task bridge/resume)
  record.py     per clock domain, every watched signal as its changes
  reference.py  jointer_sim's model fed with the recording
  check.py      every value read back vs the model; the table
  kinds/        a driver per interfacer kind: stimulus + interfacer reference
  runner.py     build (GHDL, cocotb's runner) and run; __main__: generate first
  spec.py       tb/<name>_tb.json as objects
"""
