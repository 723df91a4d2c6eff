# SPDX-License-Identifier: MIT
"""jointer_dcapf, the composed DCAPF.

random_traffic: every extractor x aggregator combination (event DCAPFs with
increment and data samples, time DCAPFs, wrapping sums) side by side in
dcapf_matrix_tb.vhd, one width per build (1, 10, 23, 32, 53, 64), fed with
random events, random run_en / use_filter / clear, random INIT loads to
random DCAPF indices and rare hard resets. Four DCAPFs have no filter
(filter_g = filter_none_c: event sum, event max of data, time sum, time last):
the INIT loads addressed to them must change nothing, and in FILTERING they
must count as in NO_FILTERING (their models have has_filter=False; their
reset bounds, which would filter, are ignored). Constant bounds
(filter_const_c: INIT loads change nothing, the reset bounds filter),
capture-time filters (filter_capture_c / _const_c: the in-range bit comes
from the interfacer, a random bit here; low/high show the bounds), and data
and increments narrower than 32/16 bits (data_w_g, inc_w_g: 1 for start/done
and events weighing one, 5, 11, 16), with INIT bounds whose upper bits are
set (a narrow bound must compare like the full 32-bit one). After every clock
edge each DCAPF's result, overflow and caught (and the bounds a capture
DCAPF shows) are compared with its jointer_sim.model.DcapfModel. Saturation and wrap are reached by counting on
the narrow widths; for 53 and 64 bits the test checks exact sums of large
data samples (saturating a 53/64-bit sum with 32-bit samples takes 2^21+
events; jointer_dcapf_counter's own test saturates 64 bits with 64-bit
increments).

wide_traffic: one DCAPF with 64-bit event data ports (ev_w_g 64: an address
of 33..64 bits, data_w_g 33, 36, 40, 64) per build: a window below 4 GB, a
constant one above it, the max of the address, a capture-time filter, a busy
time, a full 64-bit range; data around the bounds, 2^32 and the address's
top bit; each bound loaded as two INIT words (init_word) in random order.

task_durations: jointer_eig_start_done -> jointer_eig_emitter -> time DCAPFs
(task_chain_tb.vhd): after every task the sum equals the number of cycles
from each start to its done (d - s), last/max the lengths of the busy runs,
computed from the cycle numbers of the stimulus alone (no model).
"""
import json
from collections import deque
import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge
from pathlib import Path

from jointer_sim import run
from jointer_sim.model import AGGREGATOR_CODE, EXTRACTOR_CODE, SAMPLE_CODE, DcapfModel

HERE = Path(__file__).resolve().parent

# filter modes: jointer_pkg filter_g codes
FILTER_CODE = {"none": 0, "runtime": 1, "const": 2, "capture": 3, "capture_const": 4}
# (extractor, aggregator, sample, wrap, low_reset, high_reset, filter, data_w, inc_w); -1 = all ones
CONFIGS = [
    ("event", "sum", "increment", False, 0, -1, "runtime", 32, 16),
    ("event", "max", "increment", False, 2, 9, "runtime", 32, 16),
    ("event", "min", "increment", False, 0, -1, "runtime", 32, 16),
    ("event", "last", "increment", False, 1, 3, "runtime", 32, 16),
    ("event", "sum", "data", False, 0, 12, "runtime", 32, 16),
    ("event", "max", "data", False, 0, -1, "runtime", 32, 16),
    ("event", "min", "data", False, 3, -1, "runtime", 32, 16),
    ("event", "last", "data", False, 0, -1, "runtime", 32, 16),
    ("time", "sum", "increment", False, 0, -1, "runtime", 32, 16),
    ("time", "max", "increment", False, 1, 1, "runtime", 32, 16),
    ("time", "min", "increment", False, 0, -1, "runtime", 32, 16),
    ("time", "last", "increment", False, 2, 7, "runtime", 32, 16),
    ("event", "sum", "increment", True, 0, -1, "runtime", 32, 16),
    ("event", "sum", "data", True, 0, -1, "runtime", 32, 16),
    ("time", "sum", "increment", True, 0, -1, "runtime", 32, 16),
    # no filter: reset bounds that would filter, to show they are not used
    ("event", "sum", "increment", False, 2, 9, "none", 32, 16),
    ("event", "max", "data", False, 0, 12, "none", 32, 16),
    ("time", "sum", "increment", False, 1, 1, "none", 32, 16),
    ("time", "last", "increment", False, 2, 7, "none", 32, 16),
    # constant bounds (INIT loads ignored, the reset bounds filter)
    ("event", "sum", "increment", False, 2, 9, "const", 32, 16),
    ("time", "sum", "increment", False, 1, 1, "const", 32, 16),
    # the interfacer compares (a random in-range bit per event)
    ("event", "sum", "increment", False, 0, 12, "capture", 32, 11),
    ("event", "max", "data", False, 3, -1, "capture", 32, 16),
    ("event", "sum", "increment", True, 1, 3, "capture_const", 32, 16),
    # narrow data and increments (bounds with their upper bits set by INIT)
    ("event", "sum", "increment", False, 0, -1, "runtime", 5, 1),
    ("event", "sum", "increment", False, 2, 30, "runtime", 5, 11),
    ("event", "max", "data", False, 0, -1, "runtime", 5, 16),
    ("event", "sum", "data", False, 1, 20, "runtime", 16, 16),
    ("time", "sum", "increment", False, 1, 1, "runtime", 1, 16),
    ("time", "last", "increment", False, 0, -1, "runtime", 1, 16),
    ("time", "max", "increment", False, 3, 9, "runtime", 5, 16),
    ("event", "sum", "increment", True, 0, -1, "none", 1, 1),
]
MASK = lambda n: (1 << n) - 1    # noqa: E731


def lag_of(config, params) -> int:
    """Cycles the fast variants delay a DCAPF's result: the registered sample
    (smp_reg_g) 1, the split counter (sum and mean) 1. A clear or a reset still
    shows in the next cycle: the model's result is then the reset value until
    lag cycles have passed."""
    return int(params.get("smp_reg", False)) + int(params.get("split", 0) > 0 and config[1] == "sum")


def make_models(width):
    return [DcapfModel(e, a, width, w, s, lo & 0xFFFFFFFF, hi & 0xFFFFFFFF, has_filter=f != "none",
                       runtime=f in ("runtime", "capture"), capture=f.startswith("capture"))
            for e, a, s, w, lo, hi, f, _, _ in CONFIGS]


@cocotb.test()
async def random_traffic(dut):
    params = json.loads(os.environ["JOINTER_PARAMS"])
    width = params["width"]
    models = make_models(width)
    lags = [lag_of(c, params) for c in CONFIGS]
    held = [deque([(0, 0, 0)] * lag, maxlen=lag) if lag else None for lag in lags]
    since_clear = [0] * len(models)   # cycles since the last clear or reset
    at_reset = [(m.result, int(m.overflow), int(m.caught)) for m in models]
    n_dcapf = len(models)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for sig in (dut.run_en, dut.use_filter, dut.clear, dut.init_we, dut.init_sel, dut.init_hi,
                dut.init_data, dut.ev_good, dut.ev_data, dut.ev_inc, dut.ev_in_range):
        sig.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    run_en = use_filter = 0
    cycles = 20000 if width <= 10 else 6000
    events = samples = loads = clears = resets = 0
    filterless_loads = filterless_filtering = 0
    overflowed = [False] * n_dcapf
    for cycle in range(cycles):
        if cycle % 300 == 0:  # a phase: event rate, data mix, clear rate
            p_good = random.choice([0.05, 0.3, 0.9])
            p_clear = random.choice([0.0, 0.002, 0.02])
            big = random.choice([0.0, 0.15, 0.6])
        if random.random() < 0.02:
            run_en ^= 1
        if random.random() < 0.01:
            use_filter ^= 1
        rst = int(random.random() < 0.0005)
        clear = int(random.random() < p_clear)
        good = int(random.random() < p_good)
        r = random.random()
        data = random.getrandbits(32) if r < big else random.choice([0, 0, 0, 1, 1, 2, 3, 5, 8, 13])
        inc = random.getrandbits(16) if random.random() < big else random.randrange(4)
        init_we = int(random.random() < 0.03)
        init_sel = random.randrange(n_dcapf + 3)  # a few indices match no DCAPF
        init_hi = random.getrandbits(1)
        init_data = (random.getrandbits(32) if random.random() < 0.2
                     else random.randrange(64) | (random.getrandbits(1) << random.randrange(5, 32)))
        in_range = random.getrandbits(n_dcapf)
        for sig, v in ((dut.rst, rst), (dut.run_en, run_en), (dut.use_filter, use_filter),
                       (dut.clear, clear), (dut.init_we, init_we), (dut.init_sel, init_sel),
                       (dut.init_hi, init_hi), (dut.init_data, init_data), (dut.ev_good, good),
                       (dut.ev_data, data), (dut.ev_inc, inc), (dut.ev_in_range, in_range)):
            sig.value = v
        for k, m in enumerate(models):
            if held[k] is not None:   # a fast variant: what the model held lags cycles ago
                held[k].append((m.result, int(m.overflow), int(m.caught)))
            since_clear[k] = 0 if rst or clear else since_clear[k] + 1
            if rst:
                m.reset()
                continue
            dw, iw = CONFIGS[k][7], CONFIGS[k][8]
            init = (init_hi, init_data) if init_we and init_sel == k else None
            valid, _ = m.step(good, data & MASK(dw), inc & MASK(iw), run_en, use_filter, clear, init,
                              in_range=(in_range >> k) & 1)
            samples += valid and not clear
        events += good
        loads += init_we and init_sel < n_dcapf
        filterless_loads += init_we and init_sel < n_dcapf and CONFIGS[init_sel][6] != "runtime"
        filterless_filtering += run_en and use_filter and good
        clears += clear
        resets += rst
        await FallingEdge(dut.clk)
        res = int(dut.result.value)
        ovf = int(dut.overflow.value)
        cau = int(dut.caught.value)
        lows, highs = int(dut.lows.value), int(dut.highs.value)
        for k, m in enumerate(models):
            got = ((res >> (64 * k)) & ((1 << 64) - 1), (ovf >> k) & 1, (cau >> k) & 1)
            exp = (m.result, int(m.overflow), int(m.caught))
            if lags[k]:
                exp = held[k][0] if since_clear[k] >= lags[k] else at_reset[k]
            assert got == exp, (f"cycle {cycle}, DCAPF {k} {CONFIGS[k]} width {width}: "
                                f"got (result, overflow, caught) {got}, expected {exp}")
            if m.capture:   # the bounds it gives the interfacer: full 32-bit ones (data_w_g 32)
                shown = ((lows >> (32 * k)) & 0xFFFFFFFF, (highs >> (32 * k)) & 0xFFFFFFFF)
                assert shown == (m.low, m.high), (f"cycle {cycle}, DCAPF {k} {CONFIGS[k]}: bounds "
                                                  f"shown {shown}, expected {(m.low, m.high)}")
            overflowed[k] |= m.overflow
    dut._log.info("width %d: checked %d random cycles x %d DCAPFs: %d events, %d samples, "
                  "%d INIT loads (%d to DCAPFs without a filter), %d events while FILTERING, "
                  "%d clears, %d hard resets; overflow reached by %d DCAPFs",
                  width, cycles, n_dcapf, events, samples, loads, filterless_loads,
                  filterless_filtering, clears, resets, sum(overflowed))
    assert filterless_loads > 0 and filterless_filtering > 0


FAST = [(10, 5, False), (32, 16, False), (53, 27, True), (64, 32, True), (1, 0, True), (53, 27, False), (53, 0, True)]


@pytest.mark.parametrize("width,split,smp_reg", FAST, ids=[f"{w}s{s}{'r' if r else ''}" for w, s, r in FAST])
def test_dcapf_fast(width, split, smp_reg):
    """The fast variants against the same model, lagged (lag_of)."""
    test_dcapf(width, split, smp_reg)


@pytest.mark.parametrize("width", [1, 10, 23, 32, 53, 64])
def test_dcapf(width, split=0, smp_reg=False):
    cols = list(zip(*CONFIGS))
    generics = {
        "width_g": width,
        "extractors_g": [EXTRACTOR_CODE[e] for e in cols[0]],
        "aggregators_g": [AGGREGATOR_CODE[a] for a in cols[1]],
        "samples_g": [SAMPLE_CODE[s] for s in cols[2]],
        "wraps_g": [int(w) for w in cols[3]],
        "lows_g": list(cols[4]),
        "highs_g": list(cols[5]),
        "filters_g": [FILTER_CODE[f] for f in cols[6]],
        "data_ws_g": list(cols[7]),
        "inc_ws_g": list(cols[8]),
    }
    if split or smp_reg:
        generics.update(split_g=split, smp_reg_g=smp_reg)
    run("dcapf_matrix_tb", __name__, generics, extra_sources=[HERE / "dcapf_matrix_tb.vhd"],
        testcase="random_traffic", name="jointer_dcapf_matrix",
        extra_env={"JOINTER_PARAMS": json.dumps({"width": width, "split": split, "smp_reg": smp_reg})})


@cocotb.test()
async def task_durations(dut):
    busy_mode = json.loads(os.environ["JOINTER_PARAMS"])["mode"] == 1
    # schedule: tasks [s, d), start pulse at s, done pulse at d; back-to-back
    # tasks (next s = d) merge into one busy run
    tasks, c = [], 3
    while len(tasks) < 400:
        s = c + random.choice([0, 0, 1, 2, 5, random.randrange(30)]) if tasks else c
        d = s + random.choice([1, 1, 2, 3, random.randrange(1, 60)])
        tasks.append((s, d))
        c = d
    n = c + 10
    busy = [0] * n
    for s, d in tasks:
        for k in range(s, d):
            busy[k] = 1
    starts = {s for s, _ in tasks}
    dones = {d for _, d in tasks}
    runs, k = [], 0  # maximal busy runs (start, end)
    while k < n:
        if busy[k]:
            j = k
            while busy[j]:
                j += 1
            runs.append((k, j))
            k = j
        k += 1
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.sd_start.value, dut.sd_done.value, dut.sd_busy.value = 0, 0, 0
    dut.run_en.value = 1
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    total = 0
    for c in range(n):
        if busy_mode:
            dut.sd_busy.value = busy[c]
        else:
            dut.sd_start.value, dut.sd_done.value = int(c in starts), int(c in dones)
        await FallingEdge(dut.clk)
        # now the outputs of cycle c+1: the busy cycle k is active in the
        # DCAPF in cycle k+2 (interfacer + emitter), counted from cycle k+3;
        # a run [s, d) is reported in cycle d+2, visible from d+3
        seen = c - 2
        total = sum(busy[:seen + 1]) if seen >= 0 else 0
        ended = [e - b for b, e in runs if e <= seen]
        exp = (total, ended[-1] if ended else 0, max(ended, default=0))
        got = (int(dut.result_sum.value), int(dut.result_last.value), int(dut.result_max.value))
        assert got == exp, f"cycle {c}: (sum, last, max) = {got}, expected {exp}"
    dut._log.info("%s mode: %d random tasks (%d busy runs), %d busy cycles, checked every one of %d cycles",
                  "busy" if busy_mode else "pulses", len(tasks), len(runs), sum(busy), n)


@pytest.mark.parametrize("mode", [0, 1], ids=["pulses", "busy"])
def test_task_durations(mode):
    run("task_chain_tb", __name__, {"mode_g": mode}, extra_sources=[HERE / "task_chain_tb.vhd"],
        testcase="task_durations", name="jointer_dcapf_task_chain",
        extra_env={"JOINTER_PARAMS": json.dumps({"mode": mode})})


# -- wide event data: an address of 33..64 bits (ev_w_g 64) --------------------------
# (extractor, aggregator, sample, filter, data_w, low_reset, high_reset): one DCAPF per build
WIDE = {
    "window": ("event", "sum", "increment", "runtime", 40, 0x1000_0000, 0x1FFF_FFFF),
    "above_4g": ("event", "sum", "increment", "const", 40, 0x8_1000_0000, 0x8_1FFF_FFFF),
    "max_addr": ("event", "max", "data", "runtime", 40, 0, (1 << 40) - 1),
    "capture": ("event", "sum", "increment", "capture", 36, 0x1_0000_0000, 0xF_FFFF_FFFF),
    "busy_time": ("time", "sum", "increment", "runtime", 33, 0x1_0000_0000, 0x1_FFFF_FFFF),
    "full_64": ("event", "sum", "increment", "runtime", 64, 1 << 63, (1 << 64) - 1),
    "narrow_source": ("event", "max", "data", "runtime", 32, 0x100, 0xFFFF_FFFF),  # a latency in a wide sniffer
}


def wide_data(dw: int, low: int, high: int) -> int:
    """Event data near what matters: the bounds, 2^32, the top bit of a dw-bit address."""
    top = (1 << dw) - 1
    r = random.random()
    if r < 0.5:
        v = random.choice([low, high, low, high, 1 << 32, (1 << 32) - 1, top, 1 << (dw - 1), 0])
        v += random.randint(-1, 1)
    else:
        v = random.getrandbits(random.choice([32, dw]))
    return v & top


@cocotb.test()
async def wide_traffic(dut):
    p = json.loads(os.environ["JOINTER_PARAMS"])
    ext, agg, smp, flt, dw, lo, hi = p["config"]
    m = DcapfModel(ext, agg, 48, False, smp, lo, hi, has_filter=flt != "none",
                   runtime=flt in ("runtime", "capture"), capture=flt == "capture", bits=64)
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    for sig in (dut.run_en, dut.use_filter, dut.clear, dut.init_we, dut.init_sel, dut.init_hi,
                dut.init_word, dut.init_data, dut.ev_good, dut.ev_data, dut.ev_inc, dut.ev_in_range):
        sig.value = 0
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    run_en, use_filter, loads, samples = 1, 1, 0, 0
    for cycle in range(6000):
        if random.random() < 0.01:
            run_en ^= 1
        if random.random() < 0.01:
            use_filter ^= 1
        good, data = int(random.random() < 0.4), wide_data(dw, lo, hi)
        clear, in_range = int(random.random() < 0.002), random.getrandbits(1)
        init_we = int(random.random() < 0.02)
        init_hi, init_word = random.getrandbits(1), random.getrandbits(1)
        # a word that moves a bound across 2^32 or to the data's top, or anywhere
        init_data = random.choice([0, 1, 0xFFFFFFFF, random.getrandbits(32), (1 << max(dw - 32, 1)) - 1])
        for sig, v in ((dut.run_en, run_en), (dut.use_filter, use_filter), (dut.clear, clear),
                       (dut.init_we, init_we), (dut.init_sel, 0), (dut.init_hi, init_hi),
                       (dut.init_word, init_word), (dut.init_data, init_data), (dut.ev_good, good),
                       (dut.ev_data, data), (dut.ev_inc, 3), (dut.ev_in_range, in_range)):
            sig.value = v
        init = (init_hi, init_data, init_word) if init_we else None
        valid, _ = m.step(good, data, 3, run_en, use_filter, clear, init, in_range=in_range)
        samples += valid and not clear
        loads += init_we
        await FallingEdge(dut.clk)
        got = (int(dut.result.value), int(dut.overflow.value), int(dut.caught.value))
        assert got == (m.result, int(m.overflow), int(m.caught)), \
            f"cycle {cycle} {p['config']}: got {got}, expected {(m.result, int(m.overflow), int(m.caught))}"
    dut._log.info("%s: 6000 random cycles, %d samples, %d INIT word loads", p["config"], samples, loads)
    assert samples > 50


@pytest.mark.parametrize("case", list(WIDE))
def test_dcapf_wide(case):
    ext, agg, smp, flt, dw, lo, hi = WIDE[case]
    run("jointer_dcapf", __name__,
        {"extractor_g": EXTRACTOR_CODE[ext], "aggregator_g": AGGREGATOR_CODE[agg], "sample_g": SAMPLE_CODE[smp],
         "width_g": 48, "filter_g": FILTER_CODE[flt], "ev_w_g": 64, "data_w_g": dw,
         "low_reset_g": f'x"{lo:016X}"', "high_reset_g": f'x"{hi:016X}"'},
        testcase="wide_traffic", name=f"jointer_dcapf_wide_{case}",
        extra_env={"JOINTER_PARAMS": json.dumps({"config": WIDE[case]})})
