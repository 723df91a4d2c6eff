# SPDX-License-Identifier: MIT
# sim/cosim/: co-simulation and the demo (sim/cosim/README.md).
#
#   make demo                          the Selective Accumulations demo, Verilator and GHDL
#   make demo WAVES=1                  ... and an FST waveform per simulator (paths printed)
#   make demo SCENARIO=s.yaml          another scenario (sim/cosim/scenarios/*.yaml)
#   make demo CONFIG=c.yaml [SCENARIO=s.yaml]
#                                      another monitor: with SCENARIO, instead of the
#                                      scenario's config; alone, the generic smoke scenario
#   make demo SIM=verilator|ghdl       one simulator only
#   make cosim-test                    every scenario in both simulators, reports and handshake
#                                      logs compared (py-test runs it too: sim/cosim/tests/)
#   make cosim-cycle-test              the cycle-by-cycle comparison alone (tests/test_cycle_compare.py)
#   make soak                          10^6 torn-free reads across 2^32, three clock ratios (Verilator)
#   make cosim-bench                   simulated cycles/s, Verilator vs GHDL, on the demo (median);
#                                      AXI4-Lite transactions of one Y9 monitoring action and of
#                                      the generic app on every configs/ example (report fragment)
#   make relay-bench                   the trace relay: sustained lossless records/s, drain
#                                      throughput, LUT/FF stop vs relay (a bench fragment)
#
# Builds are cached in $(BUILD)/cosim/ (one Verilator model per top + config). Layout:
# harness/ (the two harnesses and their timing contract bus_timing.yaml), apps/,
# scenarios/, benches/, flow/ (run.py's machinery), tests/.

COSIM_DIR      := sim/cosim
COSIM_DEFAULT  := $(COSIM_DIR)/scenarios/demo.yaml
COSIM_SMOKE    := $(COSIM_DIR)/scenarios/smoke/smoke.yaml
SIM            ?= both
# CONFIG has a default in the top Makefile: only a CONFIG given by the user
# (command line or environment) replaces the scenario's monitor
COSIM_USER_CONFIG := $(filter command line environment environment override,$(origin CONFIG))
ifdef SCENARIO
  COSIM_SCENARIO := $(SCENARIO)
else ifneq ($(COSIM_USER_CONFIG),)
  COSIM_SCENARIO := $(COSIM_SMOKE)
else
  COSIM_SCENARIO := $(COSIM_DEFAULT)
endif
COSIM_ARGS := --sim $(SIM) $(if $(filter 1 yes true,$(WAVES)),--waves) \
              $(if $(COSIM_USER_CONFIG),--config $(CONFIG))

.PHONY: demo cosim-test cosim-cycle-test cosim-bench relay-bench soak
BENCH_TARGETS += cosim-bench relay-bench soak

demo: deps
	@$(PYTHON) $(COSIM_DIR)/run.py $(COSIM_SCENARIO) $(COSIM_ARGS) --html $(BUILD)/demo/report.html

cosim-test: deps
	@$(PYTHON) -m pytest -q -n $(JOBS) $(COSIM_DIR)/tests $(PYTEST_ARGS)

cosim-cycle-test: deps
	@$(PYTHON) -m pytest -q -n $(JOBS) $(COSIM_DIR)/tests/test_cycle_compare.py $(PYTEST_ARGS)

cosim-bench: deps
	@mkdir -p $(BUILD)/bench
	@$(PYTHON) $(COSIM_DIR)/run.py --bench --json $(BUILD)/bench/cosim.json \
	    --fragment $(BUILD)/bench/fragments/cosim-bench.json

# 10^6 torn-free reads across 2^32 at three clock ratios (Verilator), in the bench report
soak: deps
	@$(PYTHON) $(COSIM_DIR)/benches/soak.py --fragment $(BUILD)/bench/fragments/soak.json

relay-bench: deps
	@$(PYTHON) $(COSIM_DIR)/benches/relay_bench.py $(BUILD)/bench/fragments/relay-bench.json
