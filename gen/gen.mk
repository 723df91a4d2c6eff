# SPDX-License-Identifier: MIT
# gen/: the generator, jointer-gen (gen/README.md). Its tests (gen/tests) run
# inside `py-test`.
#
#   make gen CONFIG=configs/x.yaml [OUT=build]   generate into $(OUT)/<name>/
#   make gen-golden                               rewrite gen/tests/golden/ from configs/, and
#                                                 jointer.core (the library's FuseSoC core) from hdl/
#   make gen-bench                                generator wall time, Y9 top LUT/FF (in `make bench`)
#
# The generator runs with bytecode caching on (PYTHONDONTWRITEBYTECODE unset for
# it): a warm start is part of its 0.5 s budget.

OUT          ?= $(BUILD)
JOINTER_GEN  := env -u PYTHONDONTWRITEBYTECODE PYTHONPATH=gen $(PYTHON) -m jointer_gen
GEN_EXAMPLES := $(sort $(wildcard configs/*.yaml))

.PHONY: gen gen-golden gen-bench
BENCH_TARGETS += gen-bench

gen: deps
	@$(JOINTER_GEN) $(CONFIG) -o $(OUT)

gen-golden: deps
	@for c in $(GEN_EXAMPLES); do $(JOINTER_GEN) $$c --regen-golden || exit 1; done
	@env -u PYTHONDONTWRITEBYTECODE PYTHONPATH=gen $(PYTHON) -m jointer_gen.tools.library_core

gen-bench: deps
	@env -u PYTHONDONTWRITEBYTECODE PYTHONPATH=gen $(PYTHON) -m jointer_gen.tools.bench --out $(BUILD)/bench \
	    --fragment $(BUILD)/bench/fragments/gen-bench.json
