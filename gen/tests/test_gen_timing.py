# SPDX-License-Identifier: MIT
"""`timing:` and the blocks' variants per clock domain (model/timing.py).

The expected choices are worked out here from the documented rule (a block
goes fast when IN_CONTEXT x its estimated delay is above period / 1.1), with
the figures written out, not taken from the module; the generated VHDL
carries the generics only where a block is fast."""
from __future__ import annotations

import math
import re

import pytest

from gentest_util import CONFIGS, run_cli
from jointer_gen.load.loader import load, loads
from jointer_gen.load.validate import validate
from jointer_gen.model import timing


def monitor(name: str):
    return validate(load(CONFIGS / f"{name}.yaml"))


def fast_of(mon) -> dict:
    return {d["clock"]: d["fast"] for d in timing.domains(mon)}


# every configs/ domain: what auto gives it (grade 6, YAML + 10 %)
EXPECTED_FAST_DCAPFS = {
    ("two_clock_bus", "ps"): set(), ("two_clock_bus", "pl"): {"dma_read_bytes", "dma_reads (sniffer)", "dma_writes (sniffer)"},
    ("selective_accumulations", "accel"): set(), ("arm_timestamps", "ps"): set(),
    ("axi_latency", "axi"): set(), ("program_monitor", "cpu"): set(), ("trace_sink", "ps"): set(),
    ("stress_15x4", "ps"): set(), ("stress_15x4", "c3"): set(),
}


@pytest.mark.parametrize("name,clock", list(EXPECTED_FAST_DCAPFS))
def test_configs_domains(name, clock):
    assert set(fast_of(monitor(name))[clock]) == EXPECTED_FAST_DCAPFS[(name, clock)]


def test_two_clock_bus_pl_by_hand():
    # pl: 6.4 ns -> target 6.4 / 1.1 = 5.818 ns; dma_read_bytes, a 48-bit sum:
    # 1.2 x (1.6 + 0.08 x 48) = 6.528 > 5.818: split at 24; its filter is the
    # interfacer's (a condition), so no registered decision. dma_aligned_writes,
    # 8 bits: 1.2 x 2.24 = 2.69 ns, small. dma_max_addr: a max, no counter; its
    # filter is compared in the emitter (capture): small. Both sniffers load INIT
    # data (runtime bounds): 1.2 x 5.0 = 6.0 > 5.818, registered INIT.
    mon = monitor("two_clock_bus")
    assert fast_of(mon)["pl"] == {"dma_read_bytes": ["split counter (24 + rest)"],
                                  "dma_reads (sniffer)": ["registered INIT"],
                                  "dma_writes (sniffer)": ["registered INIT"]}
    pl = timing.clock_of(mon, "pl")
    assert timing.target_ns(pl) == pytest.approx(6.4 / 1.1)


def test_bus_utilization_mem_splits_wide_counters():
    # mem: 6 ns -> 5.4545 ns; a counter splits above (5.4545 / 1.2 - 1.6) / 0.08 = 36.8 bits
    mon = monitor("bus_utilization")
    wide = {dc.name: dc.width for lm in mon.lmics if lm.clock == "mem"
            for sn in lm.sniffers for dc in sn.dcapfs
            if dc.aggregator in ("sum", "mean") and not dc.is_trace}
    limit = (6.0 / 1.1 / 1.2 - 1.6) / 0.08
    split = {n for n, v in fast_of(mon)["mem"].items() if any(b.startswith("split") for b in v)}
    assert split == {n for n, w in wide.items() if w > limit}
    assert split   # the config has such counters


BASE = """
jointer: 1
monitor:
  name: mon
  {mtiming}
  clocks: [axi, {{name: fast, period_ns: {period}{ctiming}}}]
lmics:
  - name: lm
    clock: fast
    sniffers:
      - name: ev
        interfacer: {{type: events, width: 32}}
        dcapfs:
          - {{name: wide_sum, extractor: event, sample: data, width: 53}}
          - {{name: narrow_sum, extractor: event, width: 6}}
          - {{name: biggest, extractor: event, sample: data, aggregator: max, width: 32}}
"""


def mon_of(period=10, mtiming="", ctiming=""):
    text = BASE.format(period=period, mtiming=f"timing: {mtiming}" if mtiming else "",
                       ctiming=f", timing: {ctiming}" if ctiming else "")
    return validate(loads(text, "t.yaml"))


def variants(mon) -> dict:
    clock = timing.clock_of(mon, "fast")
    sn = mon.lmics[0].sniffers[0]
    return {dc.name: timing.dcapf_variant(mon, clock, sn, dc) for dc in sn.dcapfs}


def test_slow_clock_small():
    # 100 MHz: 53 bits alone 1.2 x 5.84 = 7.0 ns < 9.09; with the filter 1.2 x 7.84 = 9.4 > 9.09
    v = variants(mon_of(10))
    assert v["wide_sum"] == timing.DcapfVariant(0, True)
    assert not v["narrow_sum"].fast and not v["biggest"].fast


def test_250_mhz():
    # 4 ns -> 3.636 ns: 6 bits 1.2 x 2.08 = 2.5 (small); 53 bits split at 27, the
    # halves 1.2 x (1.6 + 0.08 x 27) = 4.5 with the filter 2.0 more: registered too
    v = variants(mon_of(4))
    assert v["wide_sum"] == timing.DcapfVariant(27, True)
    assert v["narrow_sum"] == timing.DcapfVariant(0, True)     # 1.2 x (2 + 2.08) = 4.9 > 3.636
    assert v["biggest"] == timing.DcapfVariant(0, True)


def test_forced():
    fast = variants(mon_of(1000, mtiming="fast"))
    assert fast["wide_sum"] == timing.DcapfVariant(27, True)
    assert fast["narrow_sum"] == timing.DcapfVariant(3, True)
    assert fast["biggest"] == timing.DcapfVariant(0, True)
    assert not any(v.fast for v in variants(mon_of(2, mtiming="small")).values())
    # a clock's timing wins over the monitor's
    assert not any(v.fast for v in variants(mon_of(2, mtiming="fast", ctiming="small")).values())
    assert variants(mon_of(1000, mtiming="small", ctiming="fast"))["narrow_sum"].split == 3


def test_hash_unchanged_by_default():
    assert "timing" not in mon_of(10).canonical()
    assert "timing" not in str(mon_of(10).canonical()["clocks"])
    assert mon_of(10, mtiming="auto").canonical() == mon_of(10).canonical()
    assert mon_of(10, mtiming="fast").canonical()["timing"] == "fast"


def test_generated_generics(tmp_path):
    for mt in ("small", "fast"):
        (tmp_path / f"{mt}.yaml").write_text(BASE.format(period=4, mtiming=f"timing: {mt}", ctiming=""))
        rc, _, err = run_cli([tmp_path / f"{mt}.yaml", "-o", tmp_path / mt, "-q"])
        assert rc == 0, err
    hdl = lambda mt: "".join(p.read_text() for p in (tmp_path / mt).rglob("mon_*.vhd"))  # noqa: E731
    assert "split_g" not in hdl("small") and "smp_reg_g" not in hdl("small")
    fast = hdl("fast")
    assert re.search(r"dc_wide_sum_split_c\s*: natural := 27;", fast)
    assert re.search(r"dc_narrow_sum_split_c\s*: natural := 3;", fast)
    assert set(re.findall(r"dc_(\w+)_smp_reg_c\s*: boolean := true;", fast)) == {"wide_sum", "narrow_sum", "biggest"}
    doc = next((tmp_path / "fast").rglob("mon.md")).read_text()
    assert "| fast | fast | 3.64 ns | ev (sniffer): registered INIT; wide_sum: split counter (27 + rest), " \
        "registered filter decision;" in doc
    assert re.search(r"init_reg_g\s*=> true", fast) and "init_reg_g" not in hdl("small")
    assert math.ceil(53 / 2) == 27
