# SPDX-License-Identifier: MIT
"""Self-checks of jointer_sim.model (pure Python, no simulator): the
documented semantics other test benches rely on, each checked against a
simpler, independent formulation on random traffic."""
import random

from jointer_sim.model import (DcapfModel, DispenserModel, PROG_FILTERING, PROG_IDLE, PROG_INIT,
                               PROG_NO_FILTERING, SnifferModel, TraceModel)


def test_time_start_done_counts_d_minus_s():
    rng = random.Random(1)
    for _ in range(200):
        s = rng.randrange(1, 50)
        d = s + rng.randrange(1, 100)
        m_sum, m_last = DcapfModel("time", "sum", 53), DcapfModel("time", "last", 53)
        seen_at = None
        for c in range(d + 5):
            good = c in (s, d) or (rng.random() < 0.2 and s < c < d)  # repeated starts keep data 1
            data = 1 if s <= c < d else 0
            for m in (m_sum, m_last):
                m.step(good, data, 1, 1, 0, 0)
            if seen_at is None and m_last.result:
                seen_at = c
        assert m_sum.result == d - s
        assert m_last.result == d - s and seen_at == d  # reported in the first inactive cycle


def test_trace_records_oldest_first():
    rng = random.Random(2)
    for ring in (False, True):
        for depth in (2, 8):
            m = TraceModel(depth, ring)
            accepted = []  # every event that passed run_en
            for c in range(100):
                good = rng.random() < 0.5
                if good:
                    accepted.append((c, c * 7))
                m.step(good, c * 7, c, 1, 0, 0)
                exp = accepted[-depth:] if ring else accepted[:depth]
                assert m.records == exp
                assert m.fill == len(exp) and m.overflow == (len(accepted) > depth)
                assert m.wptr == len(accepted) % depth if ring or len(accepted) <= depth else m.wptr == 0


def test_dispenser_init_pointer():
    rng = random.Random(3)
    for n in (1, 3):
        d = DispenserModel(n)
        d.step(PROG_INIT, 0, 0, 1, 0, 0)
        writes = [rng.getrandbits(32) for _ in range(2 * n + 2)]
        loads = []
        for w in writes:
            out = d.step(PROG_INIT, 0, 0, 0, 1, w)
            if out.init:
                loads.append(out.init)
        out = d.step(PROG_INIT, 0, 0, 0, 0, 0)
        if out.init:
            loads.append(out.init)
        assert loads == [(k // 2, k % 2, writes[k]) for k in range(2 * n)]
        for prog in (PROG_IDLE, PROG_INIT, PROG_FILTERING, PROG_NO_FILTERING):
            for run in (0, 1):
                o = d.step(prog, run, 1, 0, 0, 0)
                assert o.run_en == (run == 1 and prog >= 2)
                assert o.use_filter == (prog == PROG_FILTERING)
                assert o.clear == (prog != PROG_IDLE)


def test_sniffer_routes_bounds_and_lanes():
    units = [(DcapfModel("event", "sum", 32), 0), (DcapfModel("event", "sum", 32), 1)]
    sn = SnifferModel(units, lanes=2)
    sn.step(PROG_INIT, 0, 0, 1, 0, 0, 0, 0, 0)
    for v in (10, 20, 30, 40):  # DCAPF0 [10, 20], DCAPF1 [30, 40]
        sn.step(PROG_INIT, 0, 0, 0, 1, v, 0, 0, 0)
    sn.step(PROG_FILTERING, 1, 0, 1, 0, 0, 0, 0, 0)  # the last load lands here
    assert [(m.low, m.high) for m, _ in units] == [(10, 20), (30, 40)]
    rng = random.Random(4)
    exp = [0, 0]
    for _ in range(200):
        good, data, inc = rng.getrandbits(2), rng.randrange(50), rng.randrange(5)
        sn.step(PROG_FILTERING, 1, 0, 0, 0, 0, good, data, inc)
        exp[0] += inc if good & 1 and 10 <= data <= 20 else 0
        exp[1] += inc if good & 2 and 30 <= data <= 40 else 0
    assert sn.results == exp


def test_filterless_units_ignore_bounds_and_count_as_no_filtering():
    """has_filter=False: the INIT words addressed to a unit without a filter
    are dropped (the pointer still counts them), and FILTERING gives exactly
    the NO_FILTERING results, for event, time and trace units."""
    units = [(DcapfModel("event", "sum", 32), 0),
             (DcapfModel("event", "sum", 32, has_filter=False), 0),
             (DcapfModel("time", "sum", 32, has_filter=False), 0),
             (TraceModel(8, True, has_filter=False), 0),
             (DcapfModel("event", "max", 32, sample="data"), 0)]
    sn = SnifferModel(units, lanes=1)
    sn.step(PROG_INIT, 0, 0, 1, 0, 0, 0, 0, 0)
    for v in (10, 20, 1, 2, 3, 4, 5, 6, 30, 40):
        sn.step(PROG_INIT, 0, 0, 0, 1, v, 0, 0, 0)
    sn.step(PROG_FILTERING, 1, 0, 1, 0, 0, 0, 0, 0)  # the last load lands here
    assert [(m.low, m.high) for m, _ in units] == [(10, 20), (0, 0xFFFFFFFF), (0, 0xFFFFFFFF),
                                                   (0, 0xFFFFFFFF), (30, 40)]
    # the same traffic through FILTERING and through NO_FILTERING
    ref = [DcapfModel("event", "sum", 32, has_filter=False), DcapfModel("time", "sum", 32),
           TraceModel(8, True)]
    rng = random.Random(5)
    exp0 = exp4 = 0
    for c in range(300):
        good, data, inc = rng.getrandbits(1), rng.choice([0, 0, 1, 15, 35, 99]), rng.randrange(5)
        sn.step(PROG_FILTERING, 1, 0, 0, 0, 0, good, data, inc, timestamp=c)
        ref[0].step(good, data, inc, 1, 0, 0)
        ref[1].step(good, data, inc, 1, 0, 0)
        ref[2].step(good, data, c, 1, 0, 0)
        exp0 += inc if good and 10 <= data <= 20 else 0
        exp4 = max(exp4, data) if good and 30 <= data <= 40 else exp4
    assert sn.results == [exp0, ref[0].result, ref[1].result, exp4]
    assert ref[0].result > exp0 and ref[1].result > 0
    assert units[3][0].records == ref[2].records and len(ref[2].records) == 8
