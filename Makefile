# SPDX-License-Identifier: MIT
# jointer: one front door. `make help` lists the targets.
#
# Each area adds its own targets in a fragment (sim/sim.mk, gen/gen.mk,
# drivers/drivers.mk, sim/cosim/cosim.mk) and appends them to TEST_TARGETS
# (run by `make test`) and BENCH_TARGETS (run by `make bench`).

SHELL        := /bin/bash
.SHELLFLAGS  := -eo pipefail -c
JOBS         ?= $(shell nproc 2>/dev/null || echo 2)
BUILD        ?= build
CONFIG       ?= configs/selective_accumulations.yaml
export PYTHONDONTWRITEBYTECODE := 1

# The Python of this checkout: build/venv (scripts/install-deps.sh makes it:
# the system's packages plus this checkout's editable jointer_gen and jointer),
# first on PATH too, so python3 and jointer-gen in recipes and scripts are its.
# JOINTER_SKIP_DEPS=1 skips install-deps; without a venv, python3 as found.
VENV         ?= $(CURDIR)/build/venv
override VENV := $(abspath $(VENV))
ifeq ($(JOINTER_SKIP_DEPS),1)
PYTHON       ?= $(if $(wildcard $(VENV)/bin/python),$(VENV)/bin/python,python3)
else
PYTHON       ?= $(VENV)/bin/python
endif
ifeq ($(filter $(VENV)/bin,$(subst :, ,$(PATH))),)
export PATH  := $(VENV)/bin:$(PATH)
endif
export JOINTER_VENV := $(VENV)

TEST_TARGETS  :=
BENCH_TARGETS :=

.PHONY: help deps env-test test bench bench-report lint synth-check py-test clean distclean cross
.DEFAULT_GOAL := help

help:
	@echo "make demo          build and run the Selective Accumulations demo (co-simulation)"
	@echo "make cosim-test    every co-simulation scenario on both simulators (part of make test)"
	@echo "make cosim-cycle-test  both simulators' AXI handshakes compared cycle by cycle"
	@echo "make test          every test: pytest (generator, cocotb), C (native, ARM/qemu, ASan), co-sim, synth"
	@echo "make bench         every figure: resources, the paper's exploration, generator time, driver"
	@echo "                   size/instructions, simulation speed -> $(BUILD)/bench/report.md + report.json"
	@echo "make gen CONFIG=f  generate a monitor into $(BUILD)/<name>/"
	@echo "make sim CONFIG=f [SEED=n]  its generated cocotb testbench under GHDL: random traffic on every"
	@echo "                   sniffer, every metric vs the reference model (STIM=my_stim.py: your own stimulus)"
	@echo "make sim-all       the same for every configs/ monitor (and the testbench's own), seeds 1 2 3"
	@echo "make cli           build the generic jointer CLI (any monitor: --desc FILE.jdesc, JOINTER_DESC,"
	@echo "                   the device's descriptor ROM, or JOINTER_DESC_PATH by config hash)"
	@echo "make cli CONFIG=f  build the jointer CLI with that monitor's descriptor compiled in"
	@echo "                   (CLI_DESC=file: the generic CLI and f's <name>.jdesc beside it)"
	@echo "make c-test        driver unit tests (mock, fake UIO); cross-test: the same on aarch64/armhf (qemu)"
	@echo "make sanitize-test driver tests under ASan+UBSan; fuzz: libFuzzer on the API (long run)"
	@echo "make lint          VHDL syntax, Python, C static checks"
	@echo "make synth-check   ghdl synth + latch check of every library entity"
	@echo "make cdc-check     every clock crossing of every configs/ top proven (CONFIG=f: one)"
	@echo "make combo-check   every interfacer kind alone and beside every other: generated, ghdl synth,"
	@echo "                   CDC check, Verilator build, formal (singles); combo-check-slice in make test"
	@echo "make formal        the AXI4-Lite slave of every configs/ top against the project's properties"
	@echo "                   (formal-small, in make test: the broken slaves and the 1-clock tops)"
	@echo "make impl          place and route every configs/ monitor on ECP5-85 (CONFIG=f: one): routed Fmax"
	@echo "make py-install-test  the Python package installed as a board installs it (venv, arm64/armhf qemu)"
	@echo "make board-doc-test   doc/integration.md's board walkthrough, run as written"
	@echo "make deps          install what is missing (apt; the Python environment of this checkout,"
	@echo "                   build/venv); every target calls it (JOINTER_SKIP_DEPS=1: none)"
	@echo "make env-test      two clones of this repository each get their own build/venv"

deps:
	@bash scripts/install-deps.sh
	@$(MAKE) --no-print-directory -s py-libjointer

# two local clones, deps in each: each one's venv imports its own jointer_gen
# and jointer (scripts/tests/checkout_env_check.py; slow: run once by make test)
env-test: deps
	@$(PYTHON) -m pytest -q -p no:cacheprovider scripts/tests/checkout_env_check.py
TEST_TARGETS += env-test

# every test, in a fixed order (fragments append to TEST_TARGETS)
test: deps
	@$(MAKE) --no-print-directory lint synth-check py-test $(TEST_TARGETS)
	@echo "make test: all passed"

# every bench target in turn (progress, wall time per step), then one report:
# $(BUILD)/bench/report.md and report.json from $(BUILD)/bench/fragments/*.json
bench: deps
	@rm -rf $(BUILD)/bench/fragments && mkdir -p $(BUILD)/bench/fragments
	@$(PYTHON) scripts/bench_report.py run --build $(BUILD) --make "$(MAKE)" $(BENCH_TARGETS)

# the report again from the fragments already there (after one bench target)
bench-report:
	@$(PYTHON) scripts/bench_report.py build --build $(BUILD)

lint: deps
	@bash scripts/lint.sh
	@$(MAKE) --no-print-directory driver-lint

synth-check: deps
	@$(PYTHON) scripts/hdl_check.py tests
	@$(PYTHON) scripts/hdl_check.py synth --jobs $(JOBS)

# pytest: the generator tests and every cocotb test bench under GHDL
py-test: deps $(BUILD)/drivers/shared/libjointer.so
	@$(PYTHON) -m pytest -q -n $(JOBS) $(PYTEST_ARGS)

cross: cross-test

# clean keeps the Python environment (build/venv); distclean removes it too
clean:
	@if [ -d $(BUILD) ]; then find $(abspath $(BUILD)) -mindepth 1 -maxdepth 1 ! -path '$(VENV)' -exec rm -rf {} +; fi

distclean:
	rm -rf $(BUILD) $(VENV)

include sim/sim.mk
include gen/gen.mk
include drivers/drivers.mk
include sim/cosim/cosim.mk
