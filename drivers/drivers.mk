# SPDX-License-Identifier: MIT
# drivers/: libjointer, the jointer CLI, their tests and benchmarks.
#
#   make c-test          native unit tests (mock) + UIO/devmem port tests (fake sysfs)
#   make cross-test      the same for aarch64 and armhf under qemu-user
#   make sanitize-test   the same under ASan + UBSan (clang)
#   make fuzz-smoke      libFuzzer over the API, the trace-file reader and the descriptor file
#                        parser, bounded (FUZZ_SMOKE_TIME s each)
#   make fuzz            the same, longer (FUZZ_TIME s)
#   make cli-fixture     the CLI over the test monitors (tests/fixtures/*.yaml, generated)
#   make cli-test        the CLI against a fake UIO device
#   make cli             the generic CLI (descriptor files: --desc, JOINTER_DESC, ROM, JOINTER_DESC_PATH)
#   make cli CONFIG=f    the CLI linked with the descriptor generated from f (CLI_DESC=builtin);
#                        CLI_DESC=file: the generic CLI and f's <name>.jdesc beside it
#   make driver-gen-test every configs/*.yaml: generated C + libjointer compile, self-check, run
#   make driver-bench    .text size (armhf -Os) and callgrind instructions per read
#   make driver-lint     cppcheck + a -Wconversion build of the library

DRV          := drivers
DRV_B        := $(BUILD)/drivers
DRV_FIX      := $(DRV)/tests/fixtures
DRV_WARN     := -std=c99 -pedantic -Wall -Wextra -Werror
DRV_INC      := -I$(DRV)/include -I$(DRV)/src -I$(DRV)/tests
# the test descriptors: drivers/tests/fixtures/<name>.yaml through jointer-gen
# into $(DRV_FIXGEN)/<name>/c/ (generated, never committed)
DRV_FIXNAMES := accel_mon trace_mon two_lmic relay_mon sink_mon wide_mon lanes_mon
DRV_FIXGEN   := $(DRV_B)/fixtures
DRV_FIXINC   := $(foreach f,$(DRV_FIXNAMES),-I$(DRV_FIXGEN)/$(f)/c)
GEN_SOURCES  := $(wildcard gen/jointer_gen/*.py gen/jointer_gen/*/*.py gen/jointer_gen/*/*.json \
                           gen/jointer_gen/templates/*/*.j2)
include $(DRV)/sources.mk
DRV_CORE     := $(addprefix $(DRV)/src/,$(DRV_CORE_SRCS))
DRV_PORTABLE := $(addprefix $(DRV)/src/,$(DRV_PORTABLE_SRCS))
DRV_HOSTED   := $(addprefix $(DRV)/src/,$(DRV_HOSTED_SRCS))
DRV_LIB      := $(DRV_PORTABLE) $(DRV_HOSTED)
DRV_EXPORT   := $(addprefix $(DRV)/src/,jointer_export.c jointer_export_fmt.c jointer_export_vcd.c jointer_export_spans.c \
                                       jointer_export_perfetto.c)
DRV_HDRS     := $(wildcard $(DRV)/include/*.h $(DRV)/src/*.h $(DRV)/tests/*.h \
                           $(DRV)/tests/mock/*.h)
DRV_HDRS     += $(wildcard $(DRV)/cli/*.h)
DRV_FIXSRC   := $(foreach f,$(DRV_FIXNAMES),$(DRV_FIXGEN)/$(f)/c/$(f).c)
DRV_T_CORE   := $(DRV_LIB) $(DRV)/tests/mock/jointer_mock.c $(DRV_FIXSRC) $(DRV)/tests/test_core.c
DRV_T_SINK   := $(DRV_PORTABLE) $(DRV)/src/jointer_trace_file.c $(DRV)/tests/mock/jointer_mock.c \
                $(DRV_FIXGEN)/relay_mon/c/relay_mon.c $(DRV)/tests/test_sink.c
DRV_T_PM     := $(DRV_PORTABLE) $(DRV)/tests/mock/jointer_mock.c $(DRV)/tests/test_pm.c
DRV_T_UIO    := $(DRV_LIB) $(DRV_FIXGEN)/accel_mon/c/accel_mon.c $(DRV_FIXGEN)/relay_mon/c/relay_mon.c \
                $(DRV)/tests/test_uio.c
DRV_T_FUZZ   := $(DRV_PORTABLE) $(DRV)/tests/mock/jointer_mock.c $(DRV_FIXSRC) $(DRV)/tests/fuzz_api.c
DRV_CLI_SRC  := $(DRV_LIB) $(wildcard $(DRV)/cli/*.c)
# the fixtures' descriptor files (test_descfile compares them with DRV_FIXSRC)
DRV_FIXDESC  := $(foreach f,$(DRV_FIXNAMES),$(DRV_FIXGEN)/$(f)/$(f).jdesc)
DRV_T_DESC   := $(DRV_LIB) $(DRV_FIXSRC) $(DRV)/tests/test_descfile.c
# the descriptor ROM reader over the mock's ROM: the fixture rom_mon (descriptor: rom)
DRV_ROMFIX   := $(DRV_FIXGEN)/rom_mon
DRV_T_ROM    := $(DRV_PORTABLE) $(DRV)/tests/mock/jointer_mock.c $(DRV_ROMFIX)/c/rom_mon.c \
                $(DRV)/tests/test_descrom.c

FUZZ_SMOKE_TIME ?= 20
FUZZ_TIME       ?= 600

# toolchains per variant: native, aarch64, armhf (qemu-user), san (ASan+UBSan)
DRV_CC_native    := gcc
DRV_CF_native    := -O2 -g
DRV_CC_aarch64   := aarch64-linux-gnu-gcc
DRV_CF_aarch64   := -O2
DRV_CC_armhf     := arm-linux-gnueabihf-gcc
DRV_CF_armhf     := -O2
DRV_CC_san       := clang
DRV_CF_san       := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
                    -fno-sanitize-recover=all
DRV_RUN_native   :=
DRV_RUN_aarch64  := qemu-aarch64 -L /usr/aarch64-linux-gnu
DRV_RUN_armhf    := qemu-arm -L /usr/arm-linux-gnueabihf
DRV_RUN_san      := env ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
                    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: c-test cross-test sanitize-test fuzz-smoke fuzz cli cli-fixture cli-test driver-gen-test driver-bench driver-lint

$(DRV_B)/%/test_core: $(DRV_T_CORE) $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC_$*) $(DRV_WARN) $(DRV_CF_$*) $(DRV_INC) $(DRV_FIXINC) $(DRV_T_CORE) -o $@

$(DRV_B)/%/test_histogram: $(DRV_PORTABLE) $(DRV)/tests/test_histogram.c $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC_$*) $(DRV_WARN) $(DRV_CF_$*) $(DRV_INC) $(DRV_PORTABLE) $(DRV)/tests/test_histogram.c -o $@

$(DRV_B)/%/test_sink: $(DRV_T_SINK) $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC_$*) $(DRV_WARN) $(DRV_CF_$*) $(DRV_INC) $(DRV_FIXINC) $(DRV_T_SINK) -o $@

$(DRV_B)/%/test_pm: $(DRV_T_PM) $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC_$*) $(DRV_WARN) $(DRV_CF_$*) $(DRV_INC) $(DRV_T_PM) -o $@

$(DRV_B)/%/test_uio: $(DRV_T_UIO) $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC_$*) $(DRV_WARN) $(DRV_CF_$*) $(DRV_INC) $(DRV_FIXINC) $(DRV_T_UIO) -o $@ -pthread

$(DRV_B)/%/test_descfile: $(DRV_T_DESC) $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC_$*) $(DRV_WARN) $(DRV_CF_$*) $(DRV_INC) $(DRV_FIXINC) $(DRV_T_DESC) -o $@

$(DRV_B)/%/test_descrom: $(DRV_T_ROM) $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC_$*) $(DRV_WARN) $(DRV_CF_$*) $(DRV_INC) -I$(DRV_ROMFIX)/c $(DRV_T_ROM) -o $@

# the compact decoder against vectors of the Python model (compact_vectors.h)
$(DRV_B)/%/test_compact: $(DRV)/src/jointer_compact.c $(DRV)/tests/test_compact.c $(DRV)/tests/compact_vectors.h $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC_$*) $(DRV_WARN) $(DRV_CF_$*) $(DRV_INC) $(DRV)/src/jointer_compact.c $(DRV)/tests/test_compact.c -o $@

# $(1): variant
define drv_run
	@echo "== $(1): test_core"; $(DRV_RUN_$(1)) $(DRV_B)/$(1)/test_core
	@echo "== $(1): test_uio";  $(DRV_RUN_$(1)) $(DRV_B)/$(1)/test_uio
	@echo "== $(1): test_pm";   $(DRV_RUN_$(1)) $(DRV_B)/$(1)/test_pm
	@echo "== $(1): test_histogram"; $(DRV_RUN_$(1)) $(DRV_B)/$(1)/test_histogram
	@echo "== $(1): test_sink"; $(DRV_RUN_$(1)) $(DRV_B)/$(1)/test_sink
	@echo "== $(1): test_compact"; $(DRV_RUN_$(1)) $(DRV_B)/$(1)/test_compact
	@echo "== $(1): test_descfile"; $(DRV_RUN_$(1)) $(DRV_B)/$(1)/test_descfile $(DRV_FIXDESC)
	@echo "== $(1): test_descrom"; $(DRV_RUN_$(1)) $(DRV_B)/$(1)/test_descrom $(DRV_ROMFIX)/rom_mon.jdesc
endef

c-test: deps $(DRV_B)/native/test_core $(DRV_B)/native/test_uio $(DRV_B)/native/test_pm \
        $(DRV_B)/native/test_histogram $(DRV_B)/native/test_sink $(DRV_B)/native/test_compact \
        $(DRV_B)/native/test_descfile $(DRV_B)/native/test_descrom
	$(call drv_run,native)

cross-test: deps $(DRV_B)/aarch64/test_core $(DRV_B)/aarch64/test_uio \
                 $(DRV_B)/armhf/test_core $(DRV_B)/armhf/test_uio $(DRV_B)/aarch64/test_pm \
                 $(DRV_B)/armhf/test_pm $(DRV_B)/aarch64/test_histogram $(DRV_B)/armhf/test_histogram \
                 $(DRV_B)/aarch64/test_sink $(DRV_B)/armhf/test_sink \
                 $(DRV_B)/aarch64/test_compact $(DRV_B)/armhf/test_compact \
                 $(DRV_B)/aarch64/test_descfile $(DRV_B)/armhf/test_descfile \
                 $(DRV_B)/aarch64/test_descrom $(DRV_B)/armhf/test_descrom
	$(call drv_run,aarch64)
	$(call drv_run,armhf)

sanitize-test: deps $(DRV_B)/san/test_core $(DRV_B)/san/test_uio $(DRV_B)/san/test_pm \
               $(DRV_B)/san/test_histogram $(DRV_B)/san/test_sink $(DRV_B)/san/test_compact \
               $(DRV_B)/san/test_descfile $(DRV_B)/san/test_descrom
	$(call drv_run,san)

$(DRV_B)/fuzz/fuzz_api: $(DRV_T_FUZZ) $(DRV_HDRS)
	@mkdir -p $(@D)
	clang $(DRV_WARN) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    $(DRV_INC) $(DRV_FIXINC) $(DRV_T_FUZZ) -o $@

# the trace-file reader on any bytes: the seeds are trace files the tests write
$(DRV_B)/fuzz/fuzz_tfile: $(DRV)/tests/fuzz_tfile.c $(DRV)/src/jointer_trace_file.c $(DRV)/src/jointer_compact.c \
                          $(DRV_EXPORT) $(DRV_HDRS)
	@mkdir -p $(@D)
	clang $(DRV_WARN) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    $(DRV_INC) $(DRV)/tests/fuzz_tfile.c $(DRV)/src/jointer_trace_file.c $(DRV)/src/jointer_compact.c \
	    $(DRV_EXPORT) -o $@

# the descriptor file parser on any bytes: the seeds are generated .jdesc files
$(DRV_B)/fuzz/fuzz_descfile: $(DRV)/tests/fuzz_descfile.c $(DRV)/src/jointer_descfile.c $(DRV_HDRS)
	@mkdir -p $(@D)
	clang $(DRV_WARN) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    $(DRV_INC) $(DRV)/tests/fuzz_descfile.c $(DRV)/src/jointer_descfile.c -o $@

fuzz-smoke: deps $(DRV_B)/fuzz/fuzz_api $(DRV_B)/fuzz/fuzz_tfile $(DRV_B)/fuzz/fuzz_descfile
	@mkdir -p $(DRV_B)/fuzz/corpus $(DRV_B)/fuzz/corpus_tfile $(DRV_B)/fuzz/corpus_descfile
	$(DRV_B)/fuzz/fuzz_api -max_total_time=$(FUZZ_SMOKE_TIME) -seed=1 -print_final_stats=1 \
	    $(DRV_B)/fuzz/corpus $(DRV)/tests/fuzz_seeds 2>&1 | tail -n 12
	$(DRV_B)/fuzz/fuzz_tfile -max_total_time=$(FUZZ_SMOKE_TIME) -seed=1 -print_final_stats=1 \
	    $(DRV_B)/fuzz/corpus_tfile $(DRV)/tests/fuzz_seeds_tfile 2>&1 | tail -n 12
	$(DRV_B)/fuzz/fuzz_descfile -max_total_time=$(FUZZ_SMOKE_TIME) -seed=1 -print_final_stats=1 \
	    $(DRV_B)/fuzz/corpus_descfile $(DRV)/tests/fuzz_seeds_descfile 2>&1 | tail -n 12

fuzz: deps $(DRV_B)/fuzz/fuzz_api
	@mkdir -p $(DRV_B)/fuzz/corpus
	$(DRV_B)/fuzz/fuzz_api -max_total_time=$(FUZZ_TIME) -print_final_stats=1 \
	    $(DRV_B)/fuzz/corpus $(DRV)/tests/fuzz_seeds 2>&1 | tail -n 12

# the fixtures' C (and the rest of the monitor's output) from their YAML
define drv_fixture
$(DRV_FIXGEN)/$(1)/c/$(1).c: $(DRV_FIX)/$(1).yaml $(GEN_SOURCES)
	@rm -rf $(DRV_FIXGEN)/$(1) && mkdir -p $(DRV_FIXGEN)
	@PYTHONPATH=gen $(PYTHON) -m jointer_gen $$< -o $(DRV_FIXGEN) -q
endef
$(foreach f,$(DRV_FIXNAMES) rom_mon,$(eval $(call drv_fixture,$(f))))
drv-fixtures: $(DRV_FIXSRC)

# the CLI over the fixtures
define drv_cli_fixture
$(DRV_B)/cli-fixture/jointer-$(1): $(DRV_CLI_SRC) $(DRV_HDRS) $(DRV_FIXGEN)/$(1)/c/$(1).c
	@mkdir -p $$(@D)
	gcc $(DRV_WARN) -O2 $(DRV_INC) -I$(DRV_FIXGEN)/$(1)/c -DJOINTER_CLI_CFG=$(1)_cfg \
	    $(DRV_CLI_SRC) $(DRV_FIXGEN)/$(1)/c/$(1).c -o $$@
endef
$(foreach f,accel_mon trace_mon relay_mon sink_mon,$(eval $(call drv_cli_fixture,$(f))))

cli-fixture: deps $(DRV_B)/cli-fixture/jointer-accel_mon $(DRV_B)/cli-fixture/jointer-trace_mon \
             $(DRV_B)/cli-fixture/jointer-relay_mon $(DRV_B)/cli-fixture/jointer-sink_mon
	@echo "built $(DRV_B)/cli-fixture/jointer-accel_mon (Y9), jointer-trace_mon, jointer-relay_mon and jointer-sink_mon"

# the CLI over the generated program monitor example (test_cli_pm.py: pm, profile from a device)
$(DRV_B)/cli-pm/jointer-program_monitor: $(DRV_CLI_SRC) $(DRV_HDRS) configs/program_monitor.yaml \
                                         $(wildcard gen/jointer_gen/*.py gen/jointer_gen/templates/c/*.j2)
	@rm -rf $(DRV_B)/cli-pm && mkdir -p $(DRV_B)/cli-pm
	@PYTHONPATH=gen $(PYTHON) -m jointer_gen configs/program_monitor.yaml -o $(DRV_B)/cli-pm -q
	gcc $(DRV_WARN) -O2 $(DRV_INC) -I$(DRV_B)/cli-pm/program_monitor/c -DJOINTER_CLI_CFG=program_monitor_cfg \
	    $(DRV_CLI_SRC) $(DRV_B)/cli-pm/program_monitor/c/program_monitor.c -o $@

cli-test: cli-fixture $(DRV_B)/cli-pm/jointer-program_monitor $(DRV_B)/cli-generic/jointer
	$(PYTHON) $(DRV)/tests/test_cli.py $(DRV_B)/cli-fixture
	$(PYTHON) $(DRV)/tests/test_cli_desc.py $(BUILD)
	$(PYTHON) $(DRV)/tests/test_cli_pm.py $(DRV_B)/cli-fixture $(DRV_B)/cli-pm
	$(PYTHON) $(DRV)/tests/test_cli_histogram.py $(BUILD)

# the CLI. CLI_DESC=file: the generic `jointer` (no CONFIG: every monitor, its
# descriptor from --desc FILE, JOINTER_DESC, the device's ROM or JOINTER_DESC_PATH);
# with CONFIG=f the descriptor file <name>.jdesc is generated beside it.
# CLI_DESC=builtin: linked with the descriptor generated from CONFIG
# (-DJOINTER_CLI_CFG). Default: builtin when CONFIG is given on the command
# line, file otherwise. CLI_CC=arm-linux-gnueabihf-gcc (or aarch64-linux-gnu-gcc)
# builds it for the board.
CLI_CC   ?= gcc
CLI_DESC ?= $(if $(filter command line environment,$(origin CONFIG)),builtin,file)
cli: deps
ifeq ($(CLI_DESC),builtin)
	@rm -rf $(DRV_B)/cli/gen && mkdir -p $(DRV_B)/cli/gen
	PYTHONPATH=gen $(PYTHON) -m jointer_gen $(CONFIG) -o $(DRV_B)/cli/gen
	@regs=$$(ls $(DRV_B)/cli/gen/*/c/*_regs.h | head -n 1); name=$$(basename $$regs _regs.h); \
	  dir=$$(dirname $$regs); \
	  echo "$(CLI_CC) ... -DJOINTER_CLI_CFG=$${name}_cfg $$dir/$$name.c -o $(DRV_B)/cli/jointer"; \
	  $(CLI_CC) $(DRV_WARN) -O2 $(DRV_INC) -I$$dir -DJOINTER_CLI_CFG=$${name}_cfg \
	      $(DRV_CLI_SRC) $$dir/$$name.c -o $(DRV_B)/cli/jointer && \
	  echo "built $(DRV_B)/cli/jointer for monitor $$name (descriptor compiled in)"
else ifeq ($(CLI_DESC),file)
	@rm -rf $(DRV_B)/cli/gen && mkdir -p $(DRV_B)/cli
	$(CLI_CC) $(DRV_WARN) -O2 $(DRV_INC) $(DRV_CLI_SRC) -o $(DRV_B)/cli/jointer
	@echo "built $(DRV_B)/cli/jointer (generic: --desc FILE.jdesc, JOINTER_DESC, the device's ROM, JOINTER_DESC_PATH)"
	@if [ "$(CLI_WITH_DESC)" = 1 ]; then \
	  PYTHONPATH=gen $(PYTHON) -m jointer_gen $(CONFIG) -o $(DRV_B)/cli/gen -q && \
	  cp $(DRV_B)/cli/gen/*/*.jdesc $(DRV_B)/cli/ && echo "wrote $$(ls $(DRV_B)/cli/*.jdesc)"; fi
else
	$(error CLI_DESC must be file or builtin, not "$(CLI_DESC)")
endif
CLI_WITH_DESC := $(if $(filter command line environment,$(origin CONFIG)),1,0)

# the generic CLI of the tests (test_cli_desc.py)
$(DRV_B)/cli-generic/jointer: $(DRV_CLI_SRC) $(DRV_HDRS)
	@mkdir -p $(@D)
	gcc $(DRV_WARN) -O2 $(DRV_INC) $(DRV_CLI_SRC) -o $@

# the generator's C output for every example config, with the library
driver-gen-test: deps
	@bash $(DRV)/tests/gen_check.sh "$(BUILD)" "$(PYTHON)"

# static checks of the library and the CLI (cppcheck: apt package cppcheck)
driver-lint: deps
	@if command -v cppcheck >/dev/null; then \
	  cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance --std=c99 \
	    --inline-suppr -I$(DRV)/include -I$(DRV)/src $(DRV)/src $(DRV)/cli && echo "driver-lint: cppcheck clean"; \
	else echo "driver-lint: cppcheck not installed, skipped"; fi
	@for f in $(DRV_LIB); do gcc $(DRV_WARN) -Wconversion -Wshadow -Wcast-qual -O2 $(DRV_INC) -c $$f -o /dev/null || exit 1; done
	@echo "driver-lint: library clean under -Wconversion -Wshadow -Wcast-qual"

# size and instructions of libjointer + the generated Y9 driver
driver-bench: deps
	@bash $(DRV)/bench/driver_bench.sh "$(BUILD)" "$(PYTHON)"

TEST_TARGETS  += c-test cross-test sanitize-test fuzz-smoke cli-test driver-gen-test
BENCH_TARGETS += driver-bench

# ---- PAPI export (drivers/papi): metrics as PAPI SDE counters ---------------
#   make papi-test    test_papi (PAPI_add_named_event/start/read/stop against
#                     the mock, wrap extension included), natively and under
#                     ASan+UBSan, then papi_native_avail -sde lists every event
#   make papi-bench   callgrind: instructions per PAPI_read (one event) vs per
#                     jointer_read of the same metric, direct seam
#   make papi-lib CONFIG=f   libjointer_papi_<name>.so for the monitor of f
#                     (descriptor + libjointer + jointer_papi + the listing hook)
# The test and bench monitors are generated at build time: the test monitor
# drivers/papi/tests/papi_mon.yaml (wrap-mode counters of 8/16/32/40 bits) and
# the Y9 monitor configs/selective_accumulations.yaml; the relay_mon fixture
# (drivers/tests/fixtures, a relay trace: its LOST event) comes from DRV_FIXGEN.

PAPI_B      := $(DRV_B)/papi
PAPI_GEN    := $(PAPI_B)/gen
PAPI_LDLIBS := -lpapi -lsde -pthread
PAPI_YAML   := $(DRV)/papi/tests/papi_mon.yaml configs/selective_accumulations.yaml
PAPI_GENC   := $(PAPI_GEN)/papi_mon/c/papi_mon.c \
               $(PAPI_GEN)/selective_accumulations/c/selective_accumulations.c \
               $(DRV_FIXGEN)/relay_mon/c/relay_mon.c
PAPI_GENINC := -I$(PAPI_GEN)/papi_mon/c -I$(PAPI_GEN)/selective_accumulations/c -I$(DRV_FIXGEN)/relay_mon/c
PAPI_INC    := $(DRV_INC) -I$(DRV)/papi -I$(DRV)/tests/mock $(PAPI_GENINC)
PAPI_SRC    := $(DRV)/papi/jointer_papi.c $(DRV)/papi/jointer_papi_names.c
PAPI_LIBSRC := $(DRV_CORE) $(PAPI_SRC) $(PAPI_GENC) $(DRV)/papi/tests/test_hook.c
PAPI_TSRC   := $(DRV)/papi/test_papi.c $(DRV)/tests/mock/jointer_mock.c
PAPI_HDRS   := $(DRV_HDRS) $(wildcard $(DRV)/papi/*.h)

.PHONY: papi-test papi-bench papi-lib

$(PAPI_GEN)/stamp: $(PAPI_YAML) $(wildcard gen/jointer_gen/*.py gen/jointer_gen/*/*.py gen/jointer_gen/templates/*/*.j2)
	@rm -rf $(PAPI_GEN) && mkdir -p $(PAPI_GEN)
	PYTHONPATH=gen $(PYTHON) -m jointer_gen $(DRV)/papi/tests/papi_mon.yaml -o $(PAPI_GEN)
	PYTHONPATH=gen $(PYTHON) -m jointer_gen configs/selective_accumulations.yaml -o $(PAPI_GEN)
	@touch $@

# native: the library (with the papi_native_avail hook) as a shared object,
# as an application would link it; the test binary finds it via $ORIGIN
$(PAPI_B)/native/libjointer_papi_test.so: $(PAPI_GEN)/stamp $(PAPI_LIBSRC) $(PAPI_HDRS)
	@mkdir -p $(@D)
	gcc $(DRV_WARN) -O2 -g -fPIC -shared $(PAPI_INC) $(PAPI_LIBSRC) -o $@ $(PAPI_LDLIBS)

$(PAPI_B)/native/test_papi: $(PAPI_B)/native/libjointer_papi_test.so $(PAPI_TSRC) $(PAPI_HDRS)
	gcc $(DRV_WARN) -O2 -g $(PAPI_INC) $(PAPI_TSRC) -o $@ -L$(@D) -ljointer_papi_test \
	    -Wl,-rpath,'$$ORIGIN' $(PAPI_LDLIBS)

# ASan + UBSan: one static binary (libpapi itself is not instrumented)
$(PAPI_B)/san/test_papi: $(PAPI_GEN)/stamp $(PAPI_LIBSRC) $(PAPI_TSRC) $(PAPI_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC_san) $(DRV_WARN) $(DRV_CF_san) $(PAPI_INC) $(PAPI_LIBSRC) $(PAPI_TSRC) -o $@ $(PAPI_LDLIBS)

papi-test: deps $(PAPI_B)/native/test_papi $(PAPI_B)/san/test_papi
	@echo "== native: test_papi"; $(PAPI_B)/native/test_papi
	@echo "== san: test_papi"; env ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0 \
	    LSAN_OPTIONS=suppressions=$(DRV)/papi/tests/lsan.supp:print_suppressions=0 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $(PAPI_B)/san/test_papi
	@bash $(DRV)/papi/tests/check_listing.sh $(PAPI_B)/native/test_papi
	@for f in $(PAPI_SRC); do gcc $(DRV_WARN) -Wconversion -Wshadow -Wcast-qual -O2 $(DRV_INC) -c $$f -o /dev/null \
	  || exit 1; done && echo "papi-test: $(notdir $(PAPI_SRC)) clean under -Wconversion -Wshadow -Wcast-qual"

$(PAPI_B)/bench/bench_papi: $(PAPI_GEN)/stamp $(DRV)/papi/bench_papi.c $(DRV_CORE) $(PAPI_SRC) $(PAPI_HDRS)
	@mkdir -p $(@D)
	gcc $(DRV_WARN) -O2 -g $(PAPI_INC) $(DRV)/papi/bench_papi.c $(DRV_CORE) $(PAPI_SRC) \
	    $(PAPI_GEN)/selective_accumulations/c/selective_accumulations.c -o $@ $(PAPI_LDLIBS)

papi-bench: deps $(PAPI_B)/bench/bench_papi
	@bash $(DRV)/papi/bench_papi.sh $(PAPI_B)/bench/bench_papi "$(BUILD)"

# libjointer_papi_<name>.so for CONFIG (link it into the application; then
# `papi_native_avail -sde APP` lists the monitor's events)
papi-lib: deps
	@rm -rf $(PAPI_B)/lib && mkdir -p $(PAPI_B)/lib/gen
	PYTHONPATH=gen $(PYTHON) -m jointer_gen $(CONFIG) -o $(PAPI_B)/lib/gen
	@regs=$$(ls $(PAPI_B)/lib/gen/*/c/*_regs.h | head -n 1); name=$$(basename $$regs _regs.h); \
	  dir=$$(dirname $$regs); \
	  gcc $(DRV_WARN) -O2 -fPIC -shared $(DRV_INC) -I$(DRV)/papi -I$$dir -DJOINTER_PAPI_CFG=$${name}_cfg \
	      $(DRV_PORTABLE) $(DRV_HOSTED) $(PAPI_SRC) $(DRV)/papi/jointer_papi_hook.c $$dir/$$name.c \
	      -o $(PAPI_B)/lib/libjointer_papi_$$name.so $(PAPI_LDLIBS) && \
	  echo "built $(PAPI_B)/lib/libjointer_papi_$$name.so (headers: drivers/include, drivers/papi, $$dir)"

TEST_TARGETS  += papi-test
BENCH_TARGETS += papi-bench

# ---- Python package (drivers/python): libjointer as a shared object ---------
#   make py-lib [CONFIG=f]  build/drivers/shared/libjointer.so (DRV_LIB, as the
#                           static builds) and, with CONFIG, the monitor's
#                           generated descriptor as desc/lib<name>.so
#   make py-driver-test     pytest drivers/python/tests: the jointer package over
#                           the C mock, the fake UIO device and the fixture CLIs
PYDRV_B := $(DRV_B)/shared

.PHONY: py-lib py-driver-test

# the checkout's Python package loads this one (jointer/_lib.py): make deps builds it
py-libjointer: $(PYDRV_B)/libjointer.so
.PHONY: py-libjointer

$(PYDRV_B)/libjointer.so: $(DRV_LIB) $(DRV_HDRS)
	@mkdir -p $(@D)
	gcc $(DRV_WARN) -O2 -g -fPIC -shared $(DRV_INC) $(DRV_LIB) -o $@

# the test monitors' descriptors (generated, $(DRV_FIXGEN)) and the C mock (test code) as shared objects
define py_fixture_desc
$(PYDRV_B)/desc/lib$(1).so: $(DRV_FIXGEN)/$(1)/c/$(1).c $(DRV_HDRS)
	@mkdir -p $$(@D)
	gcc $(DRV_WARN) -O2 -fPIC -shared $(DRV_INC) -I$(DRV_FIXGEN)/$(1)/c $$< -o $$@
endef
$(foreach f,$(DRV_FIXNAMES),$(eval $(call py_fixture_desc,$(f))))

$(PYDRV_B)/libjointer_mock.so: $(DRV)/tests/mock/jointer_mock.c $(DRV)/python/tests/mock_shim.c \
                               $(PYDRV_B)/libjointer.so $(DRV_HDRS)
	gcc $(DRV_WARN) -O2 -g -fPIC -shared $(DRV_INC) -I$(DRV)/tests/mock $(DRV)/tests/mock/jointer_mock.c \
	    $(DRV)/python/tests/mock_shim.c -o $@ -L$(PYDRV_B) -ljointer -Wl,-rpath,'$$ORIGIN'

py-lib: $(PYDRV_B)/libjointer.so
	@if [ "$(origin CONFIG)" = "command line" ] || [ "$(origin CONFIG)" = "environment" ]; then \
	  rm -rf $(PYDRV_B)/gen && mkdir -p $(PYDRV_B)/gen $(PYDRV_B)/desc && \
	  PYTHONPATH=gen $(PYTHON) -m jointer_gen $(CONFIG) -o $(PYDRV_B)/gen -q && \
	  regs=$$(ls $(PYDRV_B)/gen/*/c/*_regs.h | head -n 1); name=$$(basename $$regs _regs.h); \
	  dir=$$(dirname $$regs); \
	  gcc $(DRV_WARN) -O2 -fPIC -shared $(DRV_INC) -I$$dir $$dir/$$name.c -o $(PYDRV_B)/desc/lib$$name.so && \
	  echo "built $(PYDRV_B)/libjointer.so and $(PYDRV_B)/desc/lib$$name.so"; \
	else echo "built $(PYDRV_B)/libjointer.so (make py-lib CONFIG=f adds the descriptor of f)"; fi

py-driver-test: deps $(PYDRV_B)/libjointer.so $(PYDRV_B)/libjointer_mock.so \
                $(foreach f,$(DRV_FIXNAMES),$(PYDRV_B)/desc/lib$(f).so) cli-fixture
	$(PYTHON) -m pytest -q -p no:cacheprovider drivers/python/tests

# ---- the package as a board installs it (drivers/python/install_tests) ------
#   make py-install-test   an sdist of drivers/python (it carries libjointer's C,
#                          setup.py compiles it): into a clean venv from a
#                          wheelhouse of pinned wheels (numpy 2.x and 1.x), and
#                          cross-built as a wheel into Debian's python3.11 +
#                          numpy for arm64 and armhf (scripts/board-python-sysroot.sh,
#                          cached in $(BUILD)/board-python) under qemu-user; each
#                          opens a fake UIO device through the .jdesc, reads every
#                          metric, converts a trace file
.PHONY: py-install-test

py-install-test: deps
	JOINTER_BUILD=$(abspath $(BUILD)) $(PYTHON) -m pytest -q -p no:cacheprovider drivers/python/install_tests

TEST_TARGETS += py-driver-test py-install-test

# ---- the trace-file converters (jointer_export.c, drivers/tests/test_export.c) -------
# their C test joins c-test, sanitize-test and cross-test; converter-bench (make
# bench): rate and peak RSS of the C CLI and the Python package on 10 M records
$(DRV_B)/%/test_export: $(DRV_LIB) $(DRV)/tests/test_export.c $(DRV_HDRS)
	@mkdir -p $(@D)
	$(DRV_CC_$*) $(DRV_WARN) $(DRV_CF_$*) $(DRV_INC) $(DRV_LIB) $(DRV)/tests/test_export.c -o $@

.PRECIOUS: $(DRV_B)/%/test_export
test-export-%: $(DRV_B)/%/test_export
	@echo "== $*: test_export"; $(DRV_RUN_$*) $(DRV_B)/$*/test_export

c-test: test-export-native
sanitize-test: test-export-san
cross-test: test-export-aarch64 test-export-armhf

.PHONY: converter-bench
converter-bench: deps $(PYDRV_B)/libjointer.so $(DRV_B)/cli-fixture/jointer-relay_mon \
                 $(PYDRV_B)/desc/librelay_mon.so
	@$(PYTHON) $(DRV)/bench/converter_bench.py --build $(BUILD) --records $(CONVERTER_BENCH_RECORDS) \
	    --fragment $(BUILD)/bench/fragments/converter-bench.json

CONVERTER_BENCH_RECORDS ?= 10000000
BENCH_TARGETS += converter-bench

# ---- doc/integration.md "On the board" run as written (drivers/tests/board_doc) ----
#   make board-doc-test   every command block of the section: the PC's here (the
#                         generator, the C bundle cross-built into rootfs/, the
#                         sdist and the aarch64 wheel, offline from the
#                         py-install-test wheelhouse), the board's under
#                         qemu-aarch64 in Debian's arm64 userland (cached in
#                         $(BUILD)/board-python) whose /dev/uio0 is a register
#                         file, the PYNQ notebook with a stand-in pynq
.PHONY: board-doc-test

board-doc-test: deps
	JOINTER_BUILD=$(abspath $(BUILD)) $(PYTHON) -m pytest -q -p no:cacheprovider drivers/tests/board_doc

TEST_TARGETS += board-doc-test
