# SPDX-License-Identifier: MIT
"""Cycle-accurate Python reference models of jointer's event path and DCAPFs.

Written from the contract (doc/design.md; doc/internals/eig.md, dcapf.md,
trace.md, collect.md), not from the RTL: the cocotb test benches compare the
VHDL against these models, and the higher-level test benches (sniffers, LMIC,
generated monitors) build their expectations from them. Pure Python, no cocotb import.

Timing convention (every model)
-------------------------------
`step(...)` is ONE clock cycle. Its arguments are the values the block's
inputs hold during cycle n (what the rising edge ending cycle n samples).

- Registered outputs: after `step()` for cycle n, the model's properties show
  what the DUT shows during cycle n+1 (after that edge). So a test drives
  cycle-n inputs, awaits the rising edge, and then compares the DUT outputs
  with the model properties.
- Combinational outputs (dispenser run_en/use_filter/clear, the event
  extractor) are RETURNED by `step()` for cycle n itself.
- Hard reset (`reset()`, also done by the constructor) puts every register to
  its reset value.

Latencies in a sniffer, from an observed occurrence at cycle n:
  interfacer (inputs registered)   cand_* in cycle n+1
  emitter (registered)             ev_*   in cycle n+2
  DCAPF (registered result)        result in cycle n+3
An interval-mode time DCAPF (max/min/last) shows an interval one cycle later
than a sum of the same cycles would (see the time extractor below). A bound written to INIT at LMIC cycle n is
on the dispenser's init_* outputs in cycle n+1 and used by the filter from
cycle n+2.

Semantics the RTL must match (and that this module implements)
--------------------------------------------------------------
Event extractor: sample valid = good and run_en and (not use_filter or
  low <= data <= high); value = inc (sample "increment") or data (sample
  "data"). The filter looks at the event data.

Time extractor: cur_data = data in a cycle with good, else the data of the
  last event (a register, reset 0, tracked whatever run_en/use_filter are,
  and NOT touched by clear: it mirrors the observed IP). A cycle is active
  when run_en and (use_filter ? low <= cur_data <= high : cur_data != 0).
  With a start event (data 1) at cycle s and a done event (data 0) at cycle d,
  cycles s..d-1 are active: exactly d - s cycles.
  - aggregator sum: a sample of 1 per active cycle (result after the edge
    ending active cycle k includes k).
  - aggregator max/min/last ("interval" mode): one sample per active
    interval = its length, emitted in the first inactive cycle (RUN dropping
    ends an interval too): for start at s and done at d the sample d - s is
    in cycle d and the result shows it from cycle d+1 (the sum shows d - s
    from cycle d already). `clear` abandons the interval in progress:
    the cycles counted so far are dropped (no sample); if the cycles after
    the clear are active they start a new interval.

Aggregators (M = 2**width - 1):
  sum  : result += sample; a true sum above M saturates at M and sets the
         sticky overflow; with wrap=True the result wraps modulo 2**width and
         the sticky overflow is still set. Reaching exactly M is no overflow.
  max  : result = max(result, clip(sample))
  min  : result = min(result, clip(sample))
  last : result = clip(sample)
         clip(v) = min(v, M); a sample above M sets the sticky overflow.
         `wrap` has no effect on max/min/last.
  Reset and clear values: sum/max/last 0, min all ones (M). `caught` is
  sticky, set by every sample (whether or not it changed the result).
  clear (one-cycle pulse) wins over a sample of the same cycle: result,
  overflow and caught go to their reset values and the sample is lost.
  Bounds (low/high) are not touched by clear, only by hard reset (back to
  their reset values) and by INIT loads.

Trace extractor (TraceModel): a record {timestamp, data} for each event with
  good and run_en and (not use_filter or low <= data <= high). Record i is
  words 2i (timestamp) and 2i+1 (data) of the trace window. `wptr` (0..depth-1)
  is the slot the next record goes to; `fill` saturates at depth; `full` =
  (fill == depth). Stop mode: records go to slots 0..depth-1 (wptr wraps to
  0 as the last slot is written), later events are dropped and set the
  sticky overflow. Ring mode: slots are reused, overwriting the oldest
  record; the first overwrite sets the sticky overflow. In both modes the
  host reads the records oldest first from slot (wptr if full else 0),
  `fill` records, modulo depth. clear (wins over a record of the same cycle)
  resets wptr, fill, full, overflow; the memory keeps its words. The host
  read port returns in cycle n+1 the word at tr_rd_addr of cycle n, as it
  was BEFORE the write of cycle n (read-first). Memory starts all zeros.

No filter (has_filter=False, the VHDL has_filter_g = false; YAML
  `filter: none`): the DCAPF or trace has no bounds. use_filter is ignored
  (FILTERING behaves exactly as NO_FILTERING: an event DCAPF counts every
  good event while run_en, a time DCAPF is active while cur_data != 0, a
  trace records every good event while run_en) and INIT loads addressed to
  it are ignored (load() does nothing; low/high keep 0/0xFFFFFFFF). The
  dispenser still counts 2 INIT words per DCAPF.

Dispenser (DispenserModel): run_en = run and PROG in {FILTERING,
  NO_FILTERING}; use_filter = (PROG == FILTERING); clear = soft_reset and
  PROG != IDLE (all three combinational). The INIT write pointer restarts at
  0 on every ctrl_we with PROG == INIT; an init_we while PROG == INIT with
  pointer k < 2 * num_dcapfs loads bound k % 2 (0 low, 1 high) of DCAPF
  k // 2 and advances the pointer; other init_we are ignored. The load
  appears on init_we_o/init_sel/init_hi/init_data_o in the same cycle
  (combinational: init_data_o is init_data, the LMIC's held word;
  the DCAPF loads it at the end of that cycle).

Interfacers and emitter (EventsModel, StartDoneModel, EmitterModel): see
  their docstrings; every observed input is registered once (cand_* in cycle
  n+1 for inputs of cycle n), the emitter adds one more cycle.

Public API (kept stable; other test benches import it)
-----------------------------------------------------
  EXTRACTORS, AGGREGATORS, SAMPLES, MASK32
  Aggregator(aggregator, width, wrap)           .step(valid, value, clear)
  DcapfModel(extractor, aggregator, width, wrap, sample, low, high, has_filter=True, bits=32)
      (bits: the event data and bound width, 32 or 64: ev_w_g)
      .step(good, data, inc, run_en, use_filter, clear, init=None)
          -> (smp_valid, smp_value) of the extractor in that cycle (the time
             extractor gives no sample in a clear cycle)
      .result .overflow .caught .low .high .cur_data
      .load_bounds(low, high)   .load(hi, value, word=0)   .reset()
  TraceModel(depth, ring, low, high, has_filter=True)
      .step(good, data, timestamp, run_en, use_filter, clear, init=None,
            rd_addr=None)
      .records .wptr .fill .full .overflow .rd_data .word(addr)
      .load_bounds(low, high)   .load(hi, value)   .reset()
  DispenserModel(num_dcapfs, words=1)
      .step(prog, run, soft_reset, ctrl_we, init_we, init_data) -> DispenserOut
      .init_out (the load of the last step: (sel, hi, data), with words=2
                 (sel, hi, data, word), or None)
  SnifferModel(units, lanes)   units: list of (model, lane) in DCAPF index
      order (DcapfModel or TraceModel, each with or without a filter)
      .step(prog, run, soft_reset, ctrl_we, init_we, init_data,
            ev_good, ev_data, ev_inc, timestamp=0)
      .step_units(..., events, timestamp=0)   events: (good, data, inc) per unit
      .results .overflows .caughts .valid .overflow
  EventsModel(width, data_w, edge)   .step(strobe, value)  .cand_valid ...
  StartDoneModel(mode)               .step(start, done, busy) ...
  EmitterModel(lanes, num_cond, increment, bits=32) .step(cand_valid, data, bytes, cond)
  Candidate / Event namedtuples; PROG_* constants.
"""

from __future__ import annotations

from collections import namedtuple

from .aggregate_model import (  # noqa: F401  (public API of this module)
    AGGREGATORS, MASK64, Aggregator, HistogramModel, MeanModel, _bit, histogram_boundaries,
    histogram_buckets)
from .interfacer_model import Candidate, EmitterModel, Event, EventsModel, StartDoneModel  # noqa: F401

MASK32 = 0xFFFFFFFF
EXTRACTORS = ("event", "time")
SAMPLES = ("increment", "data")

PROG_IDLE, PROG_INIT, PROG_FILTERING, PROG_NO_FILTERING = 0, 1, 2, 3

# package constants (jointer_pkg), for tests that pass generics
EXTRACTOR_CODE = {"event": 0, "time": 1}
AGGREGATOR_CODE = {"sum": 0, "max": 1, "min": 2, "last": 3, "histogram": 4, "mean": 5}
SAMPLE_CODE = {"increment": 0, "data": 1}


class _Bounds:
    """jointer_dcapf_init: low/high registers with reset values.

    has_filter=False: no Init DCAPF, no comparator: the bounds stay at
    0..all ones, loads are ignored and use_filter() is always False.
    runtime=False (filter_const_c): the reset values are constant
    bounds; loads are ignored, the filter applies.
    bits: width of the event data and of a bound (ev_w_g): 32, or 64 for
    data wider than 32 bits, whose bounds take two INIT words (word 0: bits
    31..0, word 1: bits 63..32).
    """

    def _init_bounds(self, low: int, high: int, has_filter: bool = True, runtime: bool = True,
                     bits: int = 32) -> None:
        if bits not in (32, 64):
            raise ValueError("bits must be 32 or 64")
        self.bits, self.mask = bits, (1 << bits) - 1
        self.has_filter = bool(has_filter)
        self.runtime = bool(runtime)
        if not self.has_filter:
            low, high = 0, self.mask
        self.low_reset, self.high_reset = low & self.mask, high & self.mask
        self.low, self.high = self.low_reset, self.high_reset

    def load_bounds(self, low: int, high: int) -> None:
        """Set both bounds at once (between cycles); ignored without a filter
        or with constant bounds."""
        if self.has_filter and self.runtime:
            self.low, self.high = low & self.mask, high & self.mask

    def load(self, hi, value: int, word: int = 0) -> None:
        """One INIT load (between cycles): 32-bit word `word` of bound hi (0 low,
        1 high); ignored without a filter or with constant bounds."""
        if not (self.has_filter and self.runtime):
            return
        old = self.high if _bit(hi) else self.low
        shift = 32 * (word if self.bits > 32 else 0)
        new = (old & ~(MASK32 << shift) | (value & MASK32) << shift) & self.mask
        if _bit(hi):
            self.high = new
        else:
            self.low = new

    def in_range(self, data: int) -> bool:
        return self.low <= (data & self.mask) <= self.high

    def filtering(self, use_filter: bool) -> bool:
        """Whether the filter applies in a cycle with this use_filter."""
        return use_filter and self.has_filter


class DcapfModel(_Bounds):
    """The composed DCAPF (jointer_dcapf) as seen at its ports.

    step(good, data, inc, run_en, use_filter, clear, init=None, in_range=None):
    one cycle. `init` = (hi, value) is an INIT load addressed to this DCAPF
    in this cycle (init_we with init_sel = index); it is used from the next
    cycle on (ignored with has_filter=False or runtime=False). capture=True
    (filter_capture_c: the interfacer compared where it captured
    the data): the event's in-range bit is `in_range`, not a comparison.
    Returns (smp_valid, smp_value) of the cycle (what reaches the aggregator).
    After the call, result/overflow/caught are the DUT outputs of the next
    cycle.
    """

    def __init__(self, extractor: str = "event", aggregator: str = "sum", width: int = 32,
                 wrap: bool = False, sample: str = "increment", low: int = 0,
                 high: int = MASK32, has_filter: bool = True, buckets: int = 1,
                 boundaries="pow2", runtime: bool = True, capture: bool = False, bits: int = 32):
        if extractor not in EXTRACTORS:
            raise ValueError(f"extractor must be one of {EXTRACTORS}")
        if sample not in SAMPLES:
            raise ValueError(f"sample must be one of {SAMPLES}")
        self.extractor, self.sample = extractor, sample
        self.interval = extractor == "time" and aggregator != "sum"
        if aggregator == "histogram":       # one counter per bucket
            self.agg = HistogramModel(buckets, width, boundaries, wrap)
        elif aggregator == "mean":          # sum and count
            self.agg = MeanModel(width, wrap)
        else:
            self.agg = Aggregator(aggregator, width, wrap)
        self.aggregator, self.width, self.wrap = aggregator, width, bool(wrap)
        self._init_bounds(low, high, has_filter, runtime, bits)
        self.capture = bool(capture)
        self.reset()

    def reset(self) -> None:
        """Hard reset: bounds back to their reset values, everything cleared."""
        self.low, self.high = self.low_reset, self.high_reset
        self.agg.reset()
        self.cur_data = 0      # time extractor: data of the last event
        self.length = 0        # time extractor, interval mode: cycles so far

    result = property(lambda self: self.agg.result)
    overflow = property(lambda self: self.agg.overflow)
    caught = property(lambda self: self.agg.caught)

    def step(self, good, data: int, inc: int, run_en, use_filter, clear, init=None, in_range=None):
        good, run_en, use_filter, clear = map(_bit, (good, run_en, use_filter, clear))
        use_filter = self.filtering(use_filter)
        data &= self.mask
        if self.extractor == "event":
            inr = _bit(in_range) if self.capture else self.in_range(data)
            valid = good and run_en and (not use_filter or inr)
            value = data if self.sample == "data" else inc & 0xFFFF
        else:
            cur = data if good else self.cur_data
            self.cur_data = cur
            active = run_en and (self.in_range(cur) if use_filter else cur != 0)
            if not self.interval:
                valid, value = active and not clear, 1
            else:
                valid, value = False, 0
                if clear:
                    self.length = 0
                elif active:
                    self.length += 1
                elif self.length:
                    valid, value = True, self.length
                    self.length = 0
        self.agg.step(valid, value, clear)
        if init is not None:
            self.load(*init)
        return valid, value


class TraceModel(_Bounds):
    """jointer_trace_extractor: records {timestamp, data} into a trace RAM.

    step(good, data, timestamp, run_en, use_filter, clear, init=None,
    rd_addr=None, ack=None): one cycle. After it, wptr/fill/full/overflow/
    records (and in relay mode rptr/lost) are the DUT state of the next cycle
    and rd_data is what tr_rd_data shows in the next cycle for tr_rd_addr =
    rd_addr in this cycle (read-first).

    relay=True: the relay mode (a ring the host drains): records are written
    while not full, else dropped and counted in `lost` (saturating at
    2**32-1); ack = n (a tr_ack pulse with tr_ack_n = n) releases min(n,
    fill) records from `rptr` on; the write decision uses the fill before
    the ack; clear zeroes rptr and lost.

    lanes=n > 0 (the extractor's lanes_g): `good` is a mask of n lanes and a
    record's data is (data << t) | tag, t = n (+1 with sync=True) tag bits:
    the lanes that fired and passed run_en and the filter, and bit n the
    `sync_pulse` of step() (recorded whatever run_en and the filter say).
    """

    def __init__(self, depth: int, ring: bool = False, low: int = 0, high: int = MASK32,
                 has_filter: bool = True, relay: bool = False, lanes: int = 0, sync: bool = False):
        if depth < 2 or depth & (depth - 1):
            raise ValueError("depth must be a power of two >= 2")
        if ring and relay:
            raise ValueError("ring and relay exclude each other")
        if sync and not lanes:
            raise ValueError("sync needs lanes > 0 (the sync is a tag bit)")
        self.depth, self.ring, self.relay = depth, bool(ring), bool(relay)
        self.lanes, self.sync = lanes, bool(sync)
        self.tag_bits = lanes + int(bool(sync))
        self._init_bounds(low, high, has_filter)
        self.mem = [(0, 0)] * depth  # the RAM survives resets and clears
        self.rd_data = 0
        self.reset()

    def reset(self) -> None:
        self.low, self.high = self.low_reset, self.high_reset
        self.wptr, self.fill, self.overflow = 0, 0, False
        self.rptr, self.lost = 0, 0

    @property
    def full(self) -> bool:
        return self.fill == self.depth

    def word(self, addr: int) -> int:
        """Current content of word `addr` of the trace window."""
        ts, data = self.mem[(addr >> 1) % self.depth]
        return data if addr & 1 else ts

    @property
    def records(self) -> list[tuple[int, int]]:
        """(timestamp, data) records in the order the host reads them."""
        start = self.rptr if self.relay else self.wptr if self.full else 0
        return [self.mem[(start + k) % self.depth] for k in range(self.fill)]

    def record_word(self, good, data: int, run_en, use_filter, sync_pulse=0) -> int | None:
        """The data word the trace records for this cycle's inputs, None when it
        records nothing (clear and rst aside)."""
        ok = _bit(run_en) and (not self.filtering(_bit(use_filter)) or self.in_range(data & MASK32))
        if not self.lanes:
            return data & MASK32 if _bit(good) and ok else None
        tag = (int(good) & ((1 << self.lanes) - 1)) if ok else 0
        if self.sync and _bit(sync_pulse):
            tag |= 1 << self.lanes
        return ((data << self.tag_bits) | tag) & MASK32 if tag else None

    def step(self, good, data: int, timestamp: int, run_en, use_filter, clear, init=None,
             rd_addr=None, ack=None, sync_pulse=0) -> bool:
        """Returns whether a record was written in this cycle."""
        word = self.record_word(good, data, run_en, use_filter, sync_pulse)
        good, clear = (word is not None), _bit(clear)
        data = word if word is not None else 0
        if rd_addr is not None:
            self.rd_data = self.word(rd_addr)
        wrote = False
        released = min(ack & MASK32, self.fill) if ack is not None and self.relay else 0
        if clear:
            self.wptr, self.fill, self.overflow = 0, 0, False
            self.rptr, self.lost = 0, 0
            released = 0
        elif good:
            if self.full and not self.ring:
                self.overflow = True
                if self.relay:
                    self.lost = min(self.lost + 1, MASK32)
            else:
                if self.full:
                    self.overflow = True
                self.mem[self.wptr] = (timestamp & MASK32, data)
                self.wptr = (self.wptr + 1) % self.depth
                self.fill = min(self.fill + 1, self.depth)
                wrote = True
        self.fill -= released
        self.rptr = (self.rptr + released) % self.depth
        if init is not None:
            self.load(*init)
        return wrote


DispenserOut = namedtuple("DispenserOut", "run_en use_filter clear init")
DispenserOut.__doc__ = """Dispenser outputs of one cycle: run_en, use_filter, clear
(combinational) and init = (sel, hi, data) or None (registered init_we_o)."""


class DispenserModel:
    """jointer_collect_dispenser: PROG/RUN/SOFT_RESET/INIT fan-out of a sniffer.

    step(prog, run, soft_reset, ctrl_we, init_we, init_data) is one cycle and
    returns DispenserOut for that cycle: run_en, use_filter, clear and init =
    the INIT load (sel, hi, data) of this cycle's init_we (or None), all from
    this cycle's inputs. ctrl_we and init_we never share a cycle through the
    LMIC; if they do, the write takes the pointer before the restart and the
    pointer restarts at 0.
    """

    def __init__(self, num_dcapfs: int, words: int = 1):
        if not 1 <= num_dcapfs <= 128 or words not in (1, 2):
            raise ValueError("num_dcapfs must be 1..128, words 1 or 2")
        self.num_dcapfs, self.words = num_dcapfs, words
        self.reset()

    def reset(self) -> None:
        self.ptr = 0
        self.init_out = None

    def step(self, prog: int, run, soft_reset, ctrl_we, init_we, init_data: int) -> DispenserOut:
        prog = int(prog) & 3
        run, soft_reset, ctrl_we, init_we = map(_bit, (run, soft_reset, ctrl_we, init_we))
        nxt = None
        if init_we and prog == PROG_INIT and self.ptr < 2 * self.words * self.num_dcapfs:
            w = self.words
            nxt = (self.ptr // (2 * w), self.ptr // w % 2, init_data & MASK32) + ((self.ptr % 2,) if w > 1 else ())
            self.ptr += 1
        if ctrl_we and prog == PROG_INIT:
            self.ptr = 0
        self.init_out = nxt
        return DispenserOut(run and prog in (PROG_FILTERING, PROG_NO_FILTERING),
                            prog == PROG_FILTERING,
                            soft_reset and prog != PROG_IDLE,
                            nxt)


class SnifferModel:
    """A dispenser + the DCAPFs/traces of one sniffer, fed with event instances.

    units: list of (model, lane) in DCAPF index order (index = position, the
    index INIT writes address); model is a DcapfModel or a TraceModel, lane
    the event lane (ev_good bit) it watches. All units share ev_data/ev_inc.
    A unit built with has_filter=False still takes its 2 INIT words (the
    dispenser's pointer counts every unit); the loads addressed to it are
    dropped, and it counts in FILTERING as in NO_FILTERING.

    step(prog, run, soft_reset, ctrl_we, init_we, init_data, ev_good, ev_data,
    ev_inc, timestamp=0): one cycle of the sniffer's DCAPF-side inputs
    (ev_* as they leave the emitter, control as the LMIC drives it). ev_good
    is an int bit mask (bit i = lane i) or a sequence of bits. Returns the
    DispenserOut of the cycle. Results afterwards = DUT outputs next cycle.
    """

    def __init__(self, units, lanes: int = 1, words: int = 1):
        self.units = [(m, int(lane)) for m, lane in units]
        if not self.units:
            raise ValueError("a sniffer needs at least one DCAPF")
        self.lanes = lanes
        self.dispenser = DispenserModel(len(self.units), words)

    def reset(self) -> None:
        self.dispenser.reset()
        for m, _ in self.units:
            m.reset()

    def step(self, prog, run, soft_reset, ctrl_we, init_we, init_data, ev_good, ev_data,
             ev_inc, timestamp: int = 0) -> DispenserOut:
        if not isinstance(ev_good, int):
            ev_good = sum(int(b) << i for i, b in enumerate(ev_good))
        events = [((ev_good >> lane) & 1, ev_data, ev_inc) for _, lane in self.units]
        return self.step_units(prog, run, soft_reset, ctrl_we, init_we, init_data, events, timestamp)

    def step_units(self, prog, run, soft_reset, ctrl_we, init_we, init_data, events,
                   timestamp: int = 0) -> DispenserOut:
        """One cycle with each unit's own event: events[idx] = (good, data, inc) (a
        sniffer of several event sources: one tap per bus)."""
        d = self.dispenser.step(prog, run, soft_reset, ctrl_we, init_we, init_data)
        for idx, ((m, _), (good, data, inc)) in enumerate(zip(self.units, events)):
            init = d.init[1:] if d.init is not None and d.init[0] == idx else None
            if isinstance(m, TraceModel):
                m.step(good, data, timestamp, d.run_en, d.use_filter, d.clear, init)
            else:
                m.step(good, data, inc, d.run_en, d.use_filter, d.clear, init)
        return d

    @property
    def dcapfs(self):
        return [m for m, _ in self.units if isinstance(m, DcapfModel)]

    @property
    def traces(self):
        return [m for m, _ in self.units if isinstance(m, TraceModel)]

    results = property(lambda self: [m.result for m in self.dcapfs])
    overflows = property(lambda self: [m.overflow for m in self.dcapfs])
    caughts = property(lambda self: [m.caught for m in self.dcapfs])
    valid = property(lambda self: any(self.caughts))
    overflow = property(lambda self: any(self.overflows))
