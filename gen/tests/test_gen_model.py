# SPDX-License-Identifier: MIT
"""Unit tests of validation into the model: defaults, the config hash, names."""
import json
import zlib

import pytest

from jointer_gen.load.diag import InputError
from jointer_gen.netlist.elaborate import config_hash, elaborate
from jointer_gen.load.loader import loads
from jointer_gen.model.identifiers import C_RESERVED, VHDL_RESERVED, reserved_in
from jointer_gen.load.validate import validate

BASE = """
jointer: 1
monitor:
  name: mon
  clocks: [axi, {name: fast, period_ns: 4}]
lmics:
  - name: lm
    clock: fast
    sniffers:
      - name: bus_tap
        interfacer: {type: axi4, direction: read}
        dcapfs:
          - {name: read_bytes, extractor: event}
      - name: task
        interfacer: {type: start_done}
        dcapfs:
          - {name: busy, extractor: time, width: 20}
          - {name: longest, extractor: time, aggregator: max, filter: {low: 0}}
      - name: ops
        interfacer: {type: events, width: 3}
        emit: {increment: bytes}
        dcapfs:
          - {name: op2, extractor: event, event: 2, sample: data, on_overflow: wrap}
  - name: host
    sniffers:
      - name: marks
        interfacer: {type: mark}
        dcapfs:
          - {name: tlog, extractor: trace}
"""


def model(text=BASE):
    return validate(loads(text.lstrip("\n"), "m.yaml"))


def test_defaults():
    m = model()
    assert [c.name for c in m.clocks] == ["axi", "fast"] and m.clocks[0].period_ns is None
    assert m.clocks[0].sim_period_ns == 10.0 and m.clocks[1].period_ns == 4.0
    assert (m.bus.addr_width, m.bus.base_address, m.bus.strict) == (None, 0, False)
    lm, host = m.lmics
    assert host.clock == "axi"                                    # default: the bus clock
    tap, task, ops = lm.sniffers
    assert tap.interfacer.params == {"direction": "read", "addr_width": 32, "data_width": 32,
                                     "id_width": 0, "per_beat": False, "max_outstanding": 8,
                                     "latency_end": "last"}
    assert (tap.increment, tap.data) == ("bytes", "address")      # bus taps count bytes
    assert (task.increment, task.data) == ("one", "state")
    assert ops.increment == "bytes" and ops.interfacer.lanes == 3
    rb = tap.dcapfs[0]
    assert (rb.width, rb.aggregator, rb.sample, rb.event, rb.low, rb.high, rb.wrap, rb.threshold_irq) == \
        (32, "sum", "increment", 0, 0, 0xFFFFFFFF, False, False)
    busy, longest = task.dcapfs
    assert (busy.low, busy.high, busy.sample) == (1, 1, None)    # start/done time: data 1 = busy
    assert (longest.low, longest.high, longest.width) == (0, 1, 32)
    op2 = ops.dcapfs[0]
    assert (op2.event, op2.sample, op2.wrap) == (2, "data", True)
    tlog = host.sniffers[0].dcapfs[0]
    assert (tlog.depth, tlog.mode, tlog.width, tlog.aggregator) == (256, "stop", None, None)


def test_time_filter_default_only_for_start_done():
    m = model(BASE.replace("{name: longest, extractor: time, aggregator: max, filter: {low: 0}}",
                           "{name: longest, extractor: time, aggregator: max, filter: {high: 7}}"))
    longest = m.lmics[0].sniffers[1].dcapfs[1]
    assert (longest.low, longest.high) == (1, 7)
    m = model(BASE.replace("{name: op2, extractor: event, event: 2, sample: data, on_overflow: wrap}",
                           "{name: op2, extractor: time}"))
    assert (m.lmics[0].sniffers[2].dcapfs[0].low, m.lmics[0].sniffers[2].dcapfs[0].high) == (0, 0xFFFFFFFF)


def test_filter_none():
    """`filter: none`: no filter hardware, bounds 0..0xFFFFFFFF (also for a
    time extractor on start_done, whose default would be 1..1); the default
    (no `filter` key) keeps a filter."""
    text = BASE.replace("{name: busy, extractor: time, width: 20}",
                        "{name: busy, extractor: time, width: 20, filter: none}") \
        .replace("{name: read_bytes, extractor: event}", "{name: read_bytes, extractor: event, filter: none}") \
        .replace("{name: tlog, extractor: trace}", "{name: tlog, extractor: trace, filter: none}")
    m = model(text)
    tap, task, _ = m.lmics[0].sniffers
    busy, longest = task.dcapfs
    tlog = m.lmics[1].sniffers[0].dcapfs[0]
    for dc in (tap.dcapfs[0], busy, tlog):
        assert (dc.has_filter, dc.low, dc.high) == (False, 0, 0xFFFFFFFF), dc.name
        assert dc.canonical()["filter"] == "none"
    assert (longest.has_filter, longest.low, longest.high) == (True, 0, 1)
    assert all(dc.has_filter and "filter" not in dc.canonical() for dc in model().dcapfs())
    src = loads(text.lstrip("\n"), "m.yaml")
    d = elaborate(validate(src), src, "m.yaml")
    assert [(x["name"], x["has_filter"]) for x in d.metrics + d.traces] == [
        ("read_bytes", False), ("busy", False), ("longest", True), ("op2", True), ("tlog", False)]


def test_addr_width_default_is_smallest_that_fits():
    src = loads(BASE.lstrip("\n"), "m.yaml")
    d = elaborate(validate(src), src, "m.yaml")
    # trace of 256 records: 512 RAM words -> LMIC window 4 KiB, 3 windows -> 14 bits
    assert d.layout.window == 4096 and d.addr_width == 14
    small = BASE.split("  - name: host")[0]
    src = loads(small.lstrip("\n"), "m.yaml")
    assert elaborate(validate(src), src, "m.yaml").addr_width == 8   # at least 8 (DCI)


def _hash(text):
    return config_hash(model(text))


def test_hash_ignores_formatting_comments_order_and_descriptions():
    h = _hash(BASE)
    reordered = BASE.replace("  name: mon\n  clocks: [axi, {name: fast, period_ns: 4}]\n",
                             "  # the clocks first\n  clocks:\n    - axi\n    - {period_ns: 4, name: fast}\n"
                             "  description: same hardware\n  name: mon\n")
    assert reordered != BASE and _hash(reordered) == h
    explicit_defaults = BASE.replace("{name: read_bytes, extractor: event}",
                                     "{name: read_bytes, extractor: event, width: 32, aggregator: sum}")
    assert _hash(explicit_defaults) == h


@pytest.mark.parametrize("change", [
    ("width: 20", "width: 21"), ("name: busy", "name: busy2"), ("period_ns: 4", "period_ns: 5"),
    ("direction: read", "direction: write"), ("filter: {low: 0}", "filter: {high: 3}"),
    ("{type: mark}", "{type: events}"),
    ("filter: {low: 0}", "filter: none"),
    ("{name: read_bytes, extractor: event}", "{name: read_bytes, extractor: event, filter: none}"),
    ("{name: tlog, extractor: trace}", "{name: tlog, extractor: trace, filter: none}"),
])
def test_hash_follows_the_hardware(change):
    assert _hash(BASE.replace(*change)) != _hash(BASE)


def test_hash_of_filter_none_is_not_the_hash_of_its_bounds():
    """A DCAPF without a filter is other hardware than one with the bounds
    0..0xFFFFFFFF written out; a description without `filter: none` keeps its
    hash (the canonical form marks only the DCAPFs without a filter)."""
    full = BASE.replace("{name: read_bytes, extractor: event}",
                        "{name: read_bytes, extractor: event, filter: {low: 0, high: 0xFFFFFFFF}}")
    none = BASE.replace("{name: read_bytes, extractor: event}",
                        "{name: read_bytes, extractor: event, filter: none}")
    assert _hash(full) == _hash(BASE) != _hash(none)


def test_hash_is_crc32_of_the_canonical_model():
    m = model()
    canonical = json.dumps(m.canonical(), sort_keys=True, separators=(",", ":"))
    assert config_hash(m) == zlib.crc32(canonical.encode()) & 0xFFFFFFFF
    assert '"description"' not in canonical


def test_reserved_words():
    assert {"signal", "entity", "bus", "register", "all", "others", "xnor", "protected"} <= VHDL_RESERVED
    assert {"int", "volatile", "static", "bool", "true", "restrict"} <= C_RESERVED
    assert reserved_in("register") == ["VHDL", "C"] and reserved_in("mac_fires") == []
    assert reserved_in("SIGNAL") == ["VHDL"]     # VHDL is case-insensitive


def test_validate_raises_with_every_error():
    with pytest.raises(InputError) as e:
        model(BASE.replace("width: 20", "width: 0").replace("event: 2", "event: 3"))
    assert len(e.value.diags) == 2
