#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make relay-bench: figures of the lossless trace relay,
as a bench fragment ($(BUILD)/bench/fragments/relay-bench.json).

- sustained lossless rate: scenarios/bench/relay_sustained.yaml in Verilator
  (1000 events at a steady 2.5 M/s; the scenario must pass: every record in
  the file, in order, LOST 0, each record 80 trace-clock cycles after the
  previous one); the figure is that producer's rate;
- drain throughput: scenarios/relay_slow.yaml (one drain of a full 64-record
  buffer, timed in bus cycles by the app);
- yosys xc7 LUT/FF of jointer_trace_extractor, depth 256, no filter: stop
  mode vs relay mode;
- the trace sink, side by side: scenarios/bench/sink_sustained.yaml
  (4000 events at 100 M records/s through the 64-bit AXI4 master into a
  16 KB ring the host drains; memory ready 75 % of the cycles: 150 M beats/s),
  its ratio to the relay's rate, and jointer_trace_sink_axi's LUT/FF/LUTRAM
  (64-bit, FIFO 32, bursts of 16, ring_log2_g 20: the generator's value for
  the default sink: {ring_bytes: 1 MB}).

    python3 sim/cosim/benches/relay_bench.py OUT.json
"""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

COSIM = Path(__file__).resolve().parents[1]
REPO = COSIM.parents[1]
_spec = importlib.util.spec_from_file_location("cosim_run", COSIM / "run.py")
cosim_run = importlib.util.module_from_spec(_spec)
sys.modules["cosim_run"] = cosim_run
_spec.loader.exec_module(cosim_run)

WRAPPER = """library ieee;
use ieee.std_logic_1164.all;
use work.jointer_pkg.all;
entity relay_bench_mode{m} is
  port (clk, rst, run_en, use_filter, clear, init_we, init_hi, ev_good, tr_ack : in std_logic;
        init_sel : in std_logic_vector(7 downto 0);
        init_data, ev_data, timestamp, tr_rd_addr, tr_ack_n : in std_logic_vector(31 downto 0);
        tr_wptr, tr_fill, tr_rd_data, tr_rptr, tr_lost : out std_logic_vector(31 downto 0);
        tr_full, tr_overflow : out std_logic);
end entity;
architecture rtl of relay_bench_mode{m} is
begin
  u : entity work.jointer_trace_extractor
    generic map (depth_log2_g => 8, mode_g => {m}, has_filter_g => false)
    port map (clk => clk, rst => rst, run_en => run_en, use_filter => use_filter, clear => clear,
      init_we => init_we, init_sel => init_sel, init_hi => init_hi, init_data => init_data,
      ev_good => ev_good, ev_data => ev_data, timestamp => timestamp, tr_wptr => tr_wptr,
      tr_fill => tr_fill, tr_full => tr_full, tr_overflow => tr_overflow, tr_ack => tr_ack,
      tr_ack_n => tr_ack_n, tr_rptr => tr_rptr, tr_lost => tr_lost, tr_rd_addr => tr_rd_addr,
      tr_rd_data => tr_rd_data);
end architecture;
"""


SINK_WRAPPER = """library ieee;
use ieee.std_logic_1164.all;
entity sink_bench is
  port (clk, rst, rec_valid, enable, clear, m_axi_awready, m_axi_wready, m_axi_bvalid : in std_logic;
        rec_n : in std_logic_vector(1 downto 0); m_axi_bid : in std_logic_vector(0 downto 0);
        m_axi_bresp : in std_logic_vector(1 downto 0);
        rec_ts, rec_data, ring_base, ring_size, rptr_in, watermark : in std_logic_vector(31 downto 0);
        wptr, lost, m_axi_awaddr : out std_logic_vector(31 downto 0); status : out std_logic_vector(2 downto 0);
        irq_wm, rec_ready, m_axi_awvalid, m_axi_wlast, m_axi_wvalid, m_axi_bready : out std_logic;
        m_axi_awid : out std_logic_vector(0 downto 0); m_axi_awlen : out std_logic_vector(7 downto 0);
        m_axi_awsize : out std_logic_vector(2 downto 0); m_axi_awburst : out std_logic_vector(1 downto 0);
        m_axi_wdata : out std_logic_vector(63 downto 0); m_axi_wstrb : out std_logic_vector(7 downto 0));
end entity;
architecture rtl of sink_bench is
begin
  u : entity work.jointer_trace_sink_axi
    generic map (data_w_g => 64, fifo_depth_log2_g => 5, max_burst_g => 16, flush_timeout_g => 64,
                 ring_log2_g => 20)
    port map (clk => clk, rst => rst, rec_valid => rec_valid, rec_ts => rec_ts, rec_data => rec_data,
      rec_n => rec_n, rec_ready => rec_ready, ring_base => ring_base, ring_size => ring_size,
      enable => enable, clear => clear, rptr_in => rptr_in, watermark => watermark, wptr => wptr,
      lost => lost, status => status, irq_wm => irq_wm, m_axi_awid => m_axi_awid,
      m_axi_awaddr => m_axi_awaddr, m_axi_awlen => m_axi_awlen, m_axi_awsize => m_axi_awsize,
      m_axi_awburst => m_axi_awburst, m_axi_awvalid => m_axi_awvalid, m_axi_awready => m_axi_awready,
      m_axi_wdata => m_axi_wdata, m_axi_wstrb => m_axi_wstrb, m_axi_wlast => m_axi_wlast,
      m_axi_wvalid => m_axi_wvalid, m_axi_wready => m_axi_wready, m_axi_bid => m_axi_bid,
      m_axi_bresp => m_axi_bresp, m_axi_bvalid => m_axi_bvalid, m_axi_bready => m_axi_bready);
end architecture;
"""


def scenario(path):
    ok, reports, _ = cosim_run.run_scenario(path, sims=("verilator",), show=False)
    rep = reports["verilator"]
    if not ok:
        raise SystemExit(f"relay-bench: {path.name} failed: {[c for c in rep['checks'] if not c['ok']]}")
    return rep


def resources(work: Path):
    work.mkdir(parents=True, exist_ok=True)
    files = []
    for m in (0, 2):
        f = work / f"relay_bench_mode{m}.vhd"
        f.write_text(WRAPPER.format(m=m))
        files.append(str(f))
    f = work / "sink_bench.vhd"
    f.write_text(SINK_WRAPPER)
    files.append(str(f))
    out = work / "res.json"
    subprocess.run([sys.executable, str(REPO / "scripts" / "hdl_check.py"), "resources", "--files", *files,
                    "--top", "relay_bench_mode0", "--top", "relay_bench_mode2", "--top", "sink_bench",
                    "--workdir", str(work / "w"),
                    "--json", str(out)], check=True, capture_output=True, text=True)
    return json.loads(out.read_text())


def main() -> int:
    out = Path(sys.argv[1])
    sus = scenario(COSIM / "scenarios" / "bench" / "relay_sustained.yaml")
    slow = scenario(COSIM / "scenarios" / "relay_slow.yaml")
    sink = scenario(COSIM / "scenarios" / "bench" / "sink_sustained.yaml")
    sink_rate = sink["metrics"]["rate_records_per_s"]
    every_ns = 80 * 5.0                                   # the scenario: every 80 cycles of 5 ns
    rate = 1e9 / every_ns
    drain = slow["metrics"]["drain_records_per_s"]
    res = resources(REPO / "build" / "relay_bench")
    def lutff(top):
        return res[top]["lut"], res[top]["ff"]
    stop_lut, stop_ff = lutff("relay_bench_mode0")
    relay_lut, relay_ff = lutff("relay_bench_mode2")
    sink_lut, sink_ff = lutff("sink_bench")
    sink_ram = {k: v for k, v in res["sink_bench"].items() if k.startswith(("RAM", "SRL")) and v}
    sink_levels = max(res["sink_bench"]["depth"].values())
    frag = {"section": "Lossless trace relay and sink (jointer trace --follow)", "figures": [
        {"name": "sustained lossless relay rate", "value": rate, "unit": "records per simulated second",
         "anchor": None, "anchor_source": None,
         "note": f"co-simulation (Verilator) relay_sustained: 1000 events, one every {every_ns:.0f} ns, "
                 "LMIC at 200 MHz behind the clock crossing, bus 100 MHz; every record in the file, "
                 "in order, LOST 0"},
        {"name": "relay drain throughput", "value": drain, "unit": "records per simulated second",
         "anchor": None, "anchor_source": None,
         "note": f"relay_slow: one jointer_trace_drain of a full 64-record buffer took "
                 f"{slow['metrics']['drain_bus_cycles']} bus cycles (2 + 2 x 64 reads + 1 ACK write "
                 "through the CDC bridge)"},
        {"name": "trace extractor, stop mode (depth 256, no filter)", "value": f"{stop_lut} LUT / {stop_ff} FF",
         "unit": "yosys xc7", "anchor": None, "anchor_source": None, "note": "+ 1 RAMB36"},
        {"name": "trace extractor, relay mode (depth 256, no filter)", "value": f"{relay_lut} LUT / {relay_ff} FF",
         "unit": "yosys xc7", "anchor": None, "anchor_source": None,
         "note": "+ RPTR, the 32-bit LOST counter, the release comparator; + 1 RAMB36"},
        {"name": "sustained lossless sink rate", "value": sink_rate, "unit": "records/s",
         "anchor": 50e6, "anchor_source": "goal: >= 50 M records/s",
         "note": "co-simulation (Verilator) sink_sustained: 4000 events at 100 M/s (one every 2 cycles of "
                 "the 200 MHz LMIC clock), 64-bit AXI4 master into a 16 KB ring drained by the host "
                 "(jointer_trace_relay), memory ready on 75 % of the cycles at random (150 M beats/s, "
                 f"a 64-bit port at 150 MHz), {sink['metrics']['mem.m_axi_ev_sink.bursts']} bursts; "
                 "every record in the file, in order, LOST 0"},
        {"name": "sink rate / relay rate", "value": round(sink_rate / rate, 1), "unit": "x",
         "anchor": 20, "anchor_source": "goal: 20x the relay", "note": "same run"},
        {"name": "trace sink jointer_trace_sink_axi (64-bit, FIFO 32, bursts of 16)",
         "value": f"{sink_lut} LUT / {sink_ff} FF", "unit": "yosys xc7", "anchor": "300 LUT / 400 FF",
         "anchor_source": "goal, plus its FIFO",
         "note": "ring_log2_g 20 (rings up to 1 MB, the default sink: {ring_bytes}); LUTRAM: "
                 + (", ".join(f"{v} {k}" for k, v in sink_ram.items()) or "none")
                 + f" (the FIFO and the burst queue); {sink_levels} LUT levels"},
    ]}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(frag, indent=2) + "\n")
    for f in frag["figures"]:
        print(f"{f['name']}: {f['value']} {f['unit']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
