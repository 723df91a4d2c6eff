#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make compact-bench: compression ratio of the compact trace
encoding, measured on the VHDL encoder (jointer_trace_compact under GHDL).

    compact_bench.py [--out build/bench] [--fragment FILE]

1. The demo's traces: the coprocessor of `make demo` (sim/cosim/accel,
   sa_soc under GHDL) runs the demo's data set (app/demo.c: 256 inputs,
   LCG seed 1); the records a trace extractor of the Y9 monitor would take
   are captured cycle by cycle (timestamp = accelerator cycle): the
   operation level's two event lanes (ev_forward, ev_mac: events without a
   data word, data 0) and the transaction level's AXI4 write beats (data =
   the beat's address, as `emit: {data: address}`).
2. A bursty synthetic trace: bursts of records on consecutive or near cycles
   with small data steps (low bits), a new data value now and then, idle
   gaps of 100 to 10^6 cycles between bursts.
Each trace goes through jointer_trace_compact (a sink always ready), cycle
by cycle; idle gaps longer than the flush time are shortened in simulation
(the timestamps keep the real gap: past the flush the encoder only sees
them). The units must equal the Python model's (sim/jointer_sim/compact.py)
and decode to the records. Ratio = raw bytes / compact bytes = records /
units (8 bytes each). Figures in unit `x`, named `compression ...`.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIM = HERE.parent
REPO = SIM.parent
sys.path.insert(0, str(SIM))
sys.path.insert(0, str(REPO / "scripts"))

ACCEL = SIM / "cosim" / "accel"
FLUSH = 16
GOAL = 2.0

# ---- cocotb side (runs inside the simulator) ------------------------------------------------
try:
    import cocotb
    from cocotb.clock import Clock
    from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, RisingEdge
except ImportError:  # main() only
    cocotb = None


def demo_inputs(n: int = 256, seed: int = 1) -> list[int]:
    """app/demo.c make_inputs: values in -20..20 from an LCG."""
    out = []
    for _ in range(n):
        seed = (seed * 1664525 + 1013904223) & 0xFFFFFFFF
        out.append(((seed >> 16) % 41) - 20)
    return out


if cocotb is not None:
    @cocotb.test()
    async def demo_capture(dut):
        """sa_soc on the demo's data set: the records of the Y9 traces."""
        from cocotbext.axi import AxiLiteBus, AxiLiteMaster
        d = dut
        for name in ("awaddr", "awprot", "awvalid", "wdata", "wstrb", "wvalid", "bready",
                     "araddr", "arprot", "arvalid", "rready"):
            getattr(d, f"s_axi_{name}").value = 0
        cocotb.start_soon(Clock(d.clk, 8, unit="ns").start())
        d.rst.value = 1
        await ClockCycles(d.clk, 4)
        d.rst.value = 0
        host = AxiLiteMaster(AxiLiteBus.from_prefix(d, "s_axi"), d.clk)
        inputs = demo_inputs()
        for i, x in enumerate(inputs):
            await host.write_dword(0x4000 + 4 * i, x & 0xFFFFFFFF)
        await host.write_dword(0x08, len(inputs))
        await host.write_dword(0x0C, 0x0000)
        await host.write_dword(0x10, 0x1000)
        traces = {"forward": [], "mac": [], "dma_write": []}
        state = {"cycle": 0, "addr": 0, "stop": False}

        async def watch():
            while not state["stop"]:
                await RisingEdge(d.clk)
                await ReadOnly()
                c = state["cycle"] = state["cycle"] + 1
                if int(d.ev_forward.value):
                    traces["forward"].append((c, c, 0))
                if int(d.ev_mac.value):
                    traces["mac"].append((c, c, 0))
                if int(d.dma_awvalid.value) and int(d.dma_awready.value):
                    state["addr"] = int(d.dma_awaddr.value)
                if int(d.dma_wvalid.value) and int(d.dma_wready.value):
                    traces["dma_write"].append((c, c, state["addr"]))
                    state["addr"] = (state["addr"] + 4) & 0xFFFFFFFF

        w = cocotb.start_soon(watch())
        await host.write_dword(0x00, 1)
        while (await host.read_dword(0x04)) & 1:
            pass
        state["stop"] = True
        await w
        Path(os.environ["COMPACT_BENCH_OUT"]).write_text(json.dumps(traces))

    @cocotb.test()
    async def encode(dut):
        """The records of COMPACT_BENCH_IN through the encoder: the units."""
        from jointer_sim.compact import CompactEncoder
        d = dut
        recs = json.loads(Path(os.environ["COMPACT_BENCH_IN"]).read_text())
        cocotb.start_soon(Clock(d.clk, 10, unit="ns").start())
        d.rst.value, d.clear.value, d.rec_valid.value, d.unit_ready.value = 1, 0, 0, 1
        d.rec_ts.value, d.rec_data.value = 0, 0
        model = CompactEncoder(256, FLUSH)
        model.step(None, rst=True)
        await ClockCycles(d.clk, 3)
        await FallingEdge(d.clk)
        d.rst.value = 0
        # the schedule: each record at its cycle, idle runs cut to FLUSH + 4 cycles
        sched, prev = [], None
        for cyc, ts, data in recs:
            if prev is not None:
                sched += [None] * (min(cyc - prev, FLUSH + 5) - 1)
            sched.append((ts, data))
            prev = cyc
        sched += [None] * (FLUSH + 8)
        units, mismatches = [], 0
        for rec in sched:
            d.rec_valid.value = int(rec is not None)
            if rec is not None:
                d.rec_ts.value, d.rec_data.value = rec
            await FallingEdge(d.clk)
            want = model.step(rec)
            if int(d.unit_valid.value):
                word = (int(d.unit_hi.value) << 32) | int(d.unit_lo.value)
                units.append([word, int(d.unit_n.value)])
                if want is None or (word, int(d.unit_n.value)) != (want.word, want.n):
                    mismatches += 1
            elif want is not None:
                mismatches += 1
        assert mismatches == 0, f"{mismatches} units differ from the model"
        Path(os.environ["COMPACT_BENCH_OUT"]).write_text(json.dumps(units))


# ---- the driver (outside the simulator) ------------------------------------------------------

def bursty(seed: int = 15, n: int = 20000) -> list[tuple[int, int, int]]:
    rnd = random.Random(seed)
    out, cyc, data = [], 1000, 0x80001000
    while len(out) < n:
        for _ in range(rnd.randint(4, 64)):  # a burst
            cyc += rnd.choice([1, 1, 1, 1, 2, 3])
            if rnd.random() < 0.03:
                data = rnd.getrandbits(32)  # a new value now and then
            else:
                data = (data & ~0xFF) | rnd.getrandbits(8)
            out.append((cyc, cyc & 0xFFFFFFFF, data))
        cyc += rnd.choice([100, 500, 2000, 10000, 100000, 1000000])
    return out[:n]


def sim(module_test: str, entity: str | None, extra_env: dict, **kw) -> None:
    from jointer_sim import run
    sys.modules.setdefault("compact_bench", sys.modules[__name__])
    if entity is None:
        run("sa_soc", "compact_bench", extra_sources=kw["sources"], testcase=module_test,
            test_dir=HERE, name="compact_bench_demo", extra_env=extra_env)
    else:
        run(entity, "compact_bench", {"sync_period_g": 256, "idle_flush_g": FLUSH}, testcase=module_test,
            test_dir=HERE, name="compact_bench", extra_env=extra_env)


def encode_hdl(recs, work: Path, name: str) -> list[list[int]]:
    from jointer_sim.compact import decode
    src, dst = work / f"{name}_records.json", work / f"{name}_units.json"
    src.write_text(json.dumps(recs))
    sim("encode", "jointer_trace_compact", {"COMPACT_BENCH_IN": str(src), "COMPACT_BENCH_OUT": str(dst)})
    units = json.loads(dst.read_text())
    got = decode(w for w, _ in units)
    want = [(ts, data) for _, ts, data in recs]
    # the first SYNC carries timestamp bits 29..0
    if [(t & 0x3FFFFFFF, dd) for t, dd in got] != [(t & 0x3FFFFFFF, dd) for t, dd in want] \
            or sum(n for _, n in units) != len(recs):
        raise SystemExit(f"compact-bench: {name}: the units do not decode to the records")
    return units


def resources(work: Path) -> dict | None:
    """LUT/FF/levels of the encoder (scripts/hdl_check.py resources)."""
    import subprocess
    out = work / "resources.json"
    r = subprocess.run([sys.executable, str(REPO / "scripts" / "hdl_check.py"), "resources", "--top",
                        "jointer_trace_compact", "--jobs", "1", "--workdir", str(work / "synth"), "--json", str(out)],
                       capture_output=True, text=True)
    if r.returncode or not out.exists():
        print("compact-bench: resources failed:", r.stdout[-500:], r.stderr[-500:])
        return None
    return json.loads(out.read_text()).get("jointer_trace_compact")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(REPO / "build" / "bench"))
    ap.add_argument("--fragment", default=None)
    a = ap.parse_args(argv)
    work = Path(a.out).resolve() / "compact"
    work.mkdir(parents=True, exist_ok=True)
    demo = work / "demo_traces.json"
    sources = [ACCEL / f for f in ("sa_mac16.vhd", "sa_accel.vhd", "sa_mem.vhd", "sa_soc.vhd")]
    sim("demo_capture", None, {"COMPACT_BENCH_OUT": str(demo)}, sources=sources)
    traces = json.loads(demo.read_text())
    traces = {k: [tuple(r) for r in v] for k, v in traces.items()}
    cases = [("demo forward events", traces["forward"]), ("demo mac events", traces["mac"]),
             ("demo DMA write beats", traces["dma_write"]), ("bursty synthetic", bursty())]
    rows, figs = [], []
    from bench_report import figure, write_fragment
    for name, recs in cases:
        units = encode_hdl(recs, work, name.replace(" ", "_"))
        kinds = [0, 0, 0, 0]
        for w, _ in units:
            kinds[w >> 62] += 1
        ratio = round(len(recs) / len(units), 3)
        rows.append([name, len(recs), len(units), *kinds, ratio])
        figs.append(figure(f"compression ratio, {name}", ratio, "x", GOAL, "goal (>= 2x)",
                           f"{len(recs)} records in {len(units)} units (SYNC/LONG/PAIR/TRIPLE "
                           f"{'/'.join(map(str, kinds))}), jointer_trace_compact under GHDL",
                           summary=name in ("demo DMA write beats", "bursty synthetic")))
    demo_recs = sum(r[1] for r in rows[:3])
    demo_units = sum(r[2] for r in rows[:3])
    figs.insert(0, figure("compression ratio, demo traces (all three)", round(demo_recs / demo_units, 3), "x",
                          GOAL, "goal (>= 2x)",
                          f"{demo_recs} records, {demo_units} units: the Y9 demo's forward, mac and DMA write "
                          "traces, 256 inputs", summary=True))
    cost = resources(work)
    if cost:
        figs.append(figure("jointer_trace_compact LUT", cost["lut"], "LUT", 150, "goal (well under 150)",
                           f"yosys synth_xilinx xc7, {cost['ff']} FF, {cost['depth'].get('clk')} LUT levels"))
        figs.append(figure("jointer_trace_compact FF", cost["ff"], "FF", note="yosys synth_xilinx xc7"))
        figs.append(figure("jointer_trace_compact LUT levels", cost["depth"].get("clk"), "levels", 4,
                           "goal (<= 4)", "register to register, scripts/logic_depth.py"))
    for r in rows:
        print(f"{r[0]:24s} {r[1]:6d} records {r[2]:6d} units  SYNC/LONG/PAIR/TRIPLE {r[3:7]}  {r[7]:.2f}x")
    print(f"demo traces (all three): {demo_recs / demo_units:.2f}x")
    if a.fragment:
        write_fragment(a.fragment, "Compact trace encoding: compression ratio", figs,
                       tables=[{"title": "jointer_trace_compact under GHDL: records -> 64-bit units",
                                "columns": ["trace", "records", "units", "SYNC", "LONG", "PAIR", "TRIPLE",
                                            "ratio (x)"], "rows": rows}],
                       text=["Ratio = raw bytes / compact bytes (8-byte records vs 8-byte units). The demo's "
                             "traces are what trace extractors on the Y9 monitor's operation and transaction "
                             "sniffers would record while the coprocessor of `make demo` runs its 256 inputs."])
    return 0


if __name__ == "__main__":
    sys.exit(main())
