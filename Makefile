# jointer: one front door. `make help` lists the targets.
#
# Each area adds its own targets in a fragment (sim/sim.mk, gen/gen.mk,
# drivers/drivers.mk, sim/cosim/cosim.mk) and appends them to TEST_TARGETS
# (run by `make test`) and BENCH_TARGETS (run by `make bench`).

SHELL        := /bin/bash
.SHELLFLAGS  := -eo pipefail -c
PYTHON       ?= python3
JOBS         ?= $(shell nproc 2>/dev/null || echo 2)
BUILD        ?= build
CONFIG       ?= configs/selective_accumulations.yaml
export PYTHONDONTWRITEBYTECODE := 1

TEST_TARGETS  :=
BENCH_TARGETS :=

.PHONY: help deps test bench bench-report lint synth-check py-test clean cross
.DEFAULT_GOAL := help

help:
	@echo "make demo          build and run the Selective Accumulations demo (co-simulation)"
	@echo "make test          every test: pytest (generator, cocotb), C (native, ARM/qemu, ASan), co-sim, synth"
	@echo "make bench         every figure: resources, the paper's exploration, generator time, driver"
	@echo "                   size/instructions, simulation speed -> $(BUILD)/bench/report.md + report.json"
	@echo "make gen CONFIG=f  generate a monitor into $(BUILD)/<name>/"
	@echo "make cli           build the generic jointer CLI (any monitor: --desc FILE.jdesc, JOINTER_DESC,"
	@echo "                   the device's descriptor ROM, or JOINTER_DESC_PATH by config hash)"
	@echo "make cli CONFIG=f  build the jointer CLI with that monitor's descriptor compiled in"
	@echo "                   (CLI_DESC=file: the generic CLI and f's <name>.jdesc beside it)"
	@echo "make c-test        driver unit tests (mock, fake UIO); cross-test: the same on aarch64/armhf (qemu)"
	@echo "make sanitize-test driver tests under ASan+UBSan; fuzz: libFuzzer on the API (long run)"
	@echo "make lint          VHDL syntax, Python, C static checks"
	@echo "make synth-check   ghdl synth + latch check of every library entity"
	@echo "make cdc-check     every clock crossing of every configs/ top proven (CONFIG=f: one)"
	@echo "make formal        the AXI4-Lite slave of every configs/ top against the project's properties"
	@echo "                   (formal-small, in make test: the broken slaves and the 1-clock tops)"
	@echo "make impl          place and route every configs/ monitor on ECP5-85 (CONFIG=f: one): routed Fmax"
	@echo "make py-install-test  the Python package installed as a board installs it (venv, arm64/armhf qemu)"
	@echo "make board-doc-test   doc/integration.md's board walkthrough, run as written"
	@echo "make deps          install what is missing (apt + pip); every target calls it"

deps:
	@bash scripts/install-deps.sh

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
py-test: deps
	@$(PYTHON) -m pytest -q -n $(JOBS) $(PYTEST_ARGS)

cross: cross-test

clean:
	rm -rf $(BUILD)

include sim/sim.mk
include gen/gen.mk
include drivers/drivers.mk
include sim/cosim/cosim.mk
