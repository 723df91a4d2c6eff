# SPDX-License-Identifier: MIT
"""The variant of each building block, per clock domain (`timing:`).

A block has a small variant (the default generics: what every monitor got
before) and a fast one (a generic of the same entity). The generator gives a
block its fast variant only where its domain's clock needs it, so a slow
domain keeps its small blocks and generates the same VHDL:

- `timing: small` (monitor or clock): small everywhere; `fast`: fast
  everywhere; `auto` (default): per block, fast when the block's estimated
  register-to-register delay, times IN_CONTEXT, is above the domain's target:
  the YAML period with 10 % margin (period_ns / YAML_MARGIN). A clock without
  period_ns keeps its small blocks. A clock's `timing` wins over the monitor's.
- The estimates are ECP5 speed grade 6 (the slowest grade `make impl`
  routes), nextpnr, each block alone (doc/bench.md "Fast variants" gives the
  runs they come from):
  * a sum/mean counter of w bits, one carry chain: COUNTER_NS + COUNTER_NS_BIT * w
    (32 bits 4.16 ns, 53 bits 5.84 ns); fast: jointer_dcapf_counter split_g
    = ceil(w / 2), two chains of about w / 2, the count from a register
    (53 bits: 4.8 ns alone, and no LUT between it and the read mux or the
    threshold compare);
  * a filter compared in the DCAPF (runtime or constant bounds) in front of the
    counter's enable: FILTER_NS (the 33-bit compare, 32-bit data) + the counter;
    fast: jointer_dcapf smp_reg_g, the decision registered (32-bit sum 6.2 ->
    5.1 ns, 48-bit with split 7.2 -> 6.0 ns);
  * the INIT load of a sniffer that takes INIT data (runtime bounds, the
    program monitor's table): the LMIC's held word and the dispenser's select
    fanned out to every bound register: INIT_NS (routed in two_clock_bus pl,
    6.0 ns at grade 6, once its counter was split, divided by IN_CONTEXT);
    fast: jointer_collect_dispenser init_reg_g, the load registered per
    sniffer (a bound loaded a cycle later);
  * IN_CONTEXT: a block inside a routed monitor is slower than alone
    (longer nets, fan-out of the control signals).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import datapath
from .monitor import Clock, Dcapf, Monitor, Sniffer

YAML_MARGIN = 1.10          # the goal: the YAML clock + 10 %
IN_CONTEXT = 1.2            # routed in a monitor / alone (Y9 accel meets 125 MHz with its
                            # 53-bit counter, two_clock_bus pl misses 156 MHz with a 48-bit one)
COUNTER_NS, COUNTER_NS_BIT = 1.6, 0.08
FILTER_NS = 2.0
INIT_NS = 5.0
SUM_AGGREGATORS = ("sum", "mean")


@dataclass(frozen=True)
class DcapfVariant:
    """The fast variants one result DCAPF gets (0 / False: the small ones)."""
    split: int = 0           # jointer_dcapf split_g: low bits of a split counter
    smp_reg: bool = False    # jointer_dcapf smp_reg_g: the registered filter decision

    @property
    def fast(self) -> bool:
        return bool(self.split or self.smp_reg)

    def blocks(self) -> list[str]:
        """The fast blocks, as the docs and the bench name them."""
        return ([f"split counter ({self.split} + rest)"] if self.split else []) \
            + (["registered filter decision"] if self.smp_reg else [])


def mode(mon: Monitor, clock: Clock) -> str:
    """auto | fast | small for the domain of clock."""
    return clock.timing if clock.timing is not None else mon.timing


def target_ns(clock: Clock) -> float | None:
    """The period a domain's blocks must meet alone (None: no period given)."""
    return None if clock.period_ns is None else clock.period_ns / YAML_MARGIN


def counter_ns(width: int) -> float:
    return COUNTER_NS + COUNTER_NS_BIT * width


def _compares_here(sn: Sniffer, dc: Dcapf) -> bool:
    """A filter the DCAPF itself compares (runtime or constant bounds)."""
    return datapath.filter_mode(sn, dc) in ("filter_runtime_c", "filter_const_c")


def dcapf_variant(mon: Monitor, clock: Clock, sn: Sniffer, dc: Dcapf) -> DcapfVariant:
    """The variants of result DCAPF dc of sniffer sn in the domain of clock."""
    if dc.is_trace:
        return DcapfVariant()
    m, t = mode(mon, clock), target_ns(clock)
    summing = dc.aggregator in SUM_AGGREGATORS and dc.width >= 2
    if m == "small" or (m == "auto" and t is None):
        return DcapfVariant()
    if m == "fast":
        return DcapfVariant(math.ceil(dc.width / 2) if summing else 0, _compares_here(sn, dc))
    split = math.ceil(dc.width / 2) if summing and IN_CONTEXT * counter_ns(dc.width) > t else 0
    chain = counter_ns(split or dc.width)   # the counter, or the max/min compare's chain
    smp_reg = _compares_here(sn, dc) and IN_CONTEXT * (FILTER_NS + chain) > t
    return DcapfVariant(split, smp_reg)


def init_reg(mon: Monitor, clock: Clock, sn: Sniffer) -> bool:
    """The registered INIT load (jointer_collect_dispenser init_reg_g) for sniffer sn."""
    m, t = mode(mon, clock), target_ns(clock)
    if not datapath.takes_init(sn) or m == "small" or (m == "auto" and t is None):
        return False
    return m == "fast" or IN_CONTEXT * INIT_NS > t


def clock_of(mon: Monitor, name: str) -> Clock:
    return next(c for c in mon.clocks if c.name == name)


def domains(mon: Monitor) -> list[dict]:
    """Per clock that runs an LMIC: its mode, period, target and the fast
    blocks of each DCAPF ({dcapf name: [block, ...]}, only those with some;
    a sniffer's registered INIT under "<sniffer> (sniffer)")."""
    out = []
    for c in mon.clocks:
        lmics = [lm for lm in mon.lmics if lm.clock == c.name]
        if not lmics:
            continue
        fast = {}
        for lm in lmics:
            for sn in lm.sniffers:
                if init_reg(mon, c, sn):
                    fast[f"{sn.name} (sniffer)"] = ["registered INIT"]
                for dc in sn.dcapfs:
                    v = dcapf_variant(mon, c, sn, dc)
                    if v.fast:
                        fast[dc.name] = v.blocks()
        t = target_ns(c)
        out.append({"clock": c.name, "mode": mode(mon, c), "period_ns": c.period_ns,
                    "target_ns": None if t is None else round(t, 2), "fast": fast})
    return out


def summary(mon: Monitor) -> dict[str, str]:
    """Per clock name, one line for the bench tables: the kinds of fast blocks
    of its domain and where ("small": none; a clock without LMIC: absent)."""
    out = {}
    for d in domains(mon):
        kinds = sorted({b.split(" (")[0] for bs in d["fast"].values() for b in bs})
        out[d["clock"]] = f"{', '.join(kinds)} (in {len(d['fast'])} DCAPFs and sniffers)" if kinds else "small"
    return out
