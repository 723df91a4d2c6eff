# sim/: the cocotb test benches of the VHDL library run inside `py-test`.

.PHONY: hdl-resources
BENCH_TARGETS += hdl-resources

# LUT/FF of every library entity (yosys synth_xilinx, xc7, flattened, no IO pads)
hdl-resources: deps
	@echo "== library resources (yosys synth_xilinx -family xc7 -flatten -noiopad) =="
	@$(PYTHON) scripts/hdl_check.py resources --jobs $(JOBS) --json $(BUILD)/bench/hdl_resources.json

# LUT/FF of the bus utilization example's sniffers and top (scripts/util_bench.py)
.PHONY: util-bench
BENCH_TARGETS += util-bench
util-bench: deps
	@$(PYTHON) scripts/util_bench.py --out $(BUILD)/bench/fragments/util-bench.json

# LUT/FF of the program monitor example's sniffer and top (scripts/pm_bench.py)
.PHONY: pm-bench
BENCH_TARGETS += pm-bench
pm-bench: deps
	@$(PYTHON) scripts/pm_bench.py --out $(BUILD)/bench/fragments/pm-bench.json
