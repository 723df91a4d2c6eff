# SPDX-License-Identifier: MIT
"""The comparison at the end of a run: every value read through s_axi
(libjointer, in the host's bridge thread) beside the reference model's.

A row: {sniffer, what, expected, got, ok}. `what` is a metric name (its
value; a histogram's buckets; a mean's sum and count), `<trace>.fill`,
`.records` (timestamp and data of every record, oldest first), `.full`,
`.overflow`, `.lost`, or `<sniffer>.valid` / `.overflow` (STATUS bits).
Sink traces are not compared: their records leave through an AXI4 master
the testbench does not serve (noted in the table).
"""

from __future__ import annotations

from jointer_sim.model import TraceModel

from . import reference

TRACE_FULL, TRACE_OVERFLOW = 1, 2          # JOINTER_TRACE_STATUS_* bits


def _row(sn, what, expected, got) -> dict:
    return {"sniffer": sn.name, "what": what, "expected": expected, "got": got, "ok": expected == got}


def _want(dc, m):
    if dc.aggregator == "histogram":
        return list(m.agg.counts)
    if dc.aggregator == "mean":
        return [m.agg.sum.result, m.agg.count.result]
    return m.result


def _got(dc, v):
    if dc.aggregator == "histogram":
        return [c for _, _, c in v]
    if dc.aggregator == "mean":
        return list(v)
    return v


async def trace_rows(tb, sn, dc, m: TraceModel) -> list[dict]:
    mon = tb.host.mon
    if dc.mode == "sink":
        return [_row(sn, f"{dc.name} (sink: not compared)", None, None)]
    fill, st = await tb.host.call(mon.trace_status, dc.name)
    recs = await tb.host.call(mon.trace, dc.name)
    got = [[int(r["timestamp"]), int(r["data"])] for r in recs]
    rows = [_row(sn, f"{dc.name}.fill", m.fill, fill),
            _row(sn, f"{dc.name}.records", [list(r) for r in m.records], got),
            _row(sn, f"{dc.name}.full", m.full, bool(st & TRACE_FULL)),
            _row(sn, f"{dc.name}.overflow", m.overflow, bool(st & TRACE_OVERFLOW))]
    if dc.mode == "relay":
        rows.append(_row(sn, f"{dc.name}.lost", m.lost, await tb.host.call(mon.lost, dc.name)))
    return rows


async def sniffer_rows(tb, sn, status: int) -> list[dict]:
    model = reference.run(sn, tb.drivers[sn.name], tb.dom[sn.clock], tb.bounds)
    tb.coverage[sn.name] = model.coverage
    rows = []
    for dc, (m, _) in zip(sn.dcapfs, model.units):
        if dc.extractor == "trace":
            rows += await trace_rows(tb, sn, dc, m)
        else:
            got = await tb.host.call(tb.host.mon.read, dc.name)
            rows.append(_row(sn, dc.name, _want(dc, m), _got(dc, got)))
    i = tb.host.desc.sniffer(sn.name).index_in_lmic
    rows.append(_row(sn, f"{sn.name}.valid", model.valid, bool(status >> i & 1)))
    rows.append(_row(sn, f"{sn.name}.overflow", model.overflow, bool(status >> (16 + i) & 1)))
    return rows


async def collect(tb) -> list[dict]:
    status = {}
    rows = []
    for sn in tb.spec.sniffers:
        if sn.lmic not in status:
            status[sn.lmic] = await tb.host.call(tb.host.mon.status, sn.lmic)
        rows += await sniffer_rows(tb, sn, status[sn.lmic])
    for dom in tb.dom.values():
        for key, cycle in dom.unresolved[:5]:
            rows.append({"sniffer": key.split(".")[0], "what": f"{key} X/U/Z in cycle {cycle}",
                         "expected": "0/1", "got": "X", "ok": False})
    return rows


def _short(v) -> str:
    s = str(v)
    return s if len(s) <= 40 else s[:37] + "..."


def table(rows) -> str:
    lines = [f"  {'sniffer':<16} {'what':<32} {'expected':>20} {'got':>20}"]
    for r in rows:
        mark = "ok" if r["ok"] else "FAIL"
        lines.append(f"  {r['sniffer']:<16} {r['what']:<32} {_short(r['expected']):>20} "
                     f"{_short(r['got']):>20}  {mark}")
    return "\n".join(lines)


def coverage_lines(tb) -> str:
    lines = []
    for name, cov in tb.coverage.items():
        windows = "; ".join(f"{k} [{v['window'][0]:#x}, {v['window'][1]:#x}]: {v['inside']} in, "
                            f"{v['outside']} out" for k, v in cov.items() if k != "events")
        lines.append(f"  {name:<16} {tb.modes.get(name, '?'):<12} events per lane {cov['events']}"
                     + (f"; {windows}" if windows else ""))
    return "\n".join(lines)


def verdict(log, rows, tb) -> None:
    bad = [r for r in rows if not r["ok"]]
    log.info("traffic (mode, event instances, filter windows):\n%s", coverage_lines(tb))
    log.info("seed %d: %d values compared, %d differ; AXI4-Lite reads %d, writes %d\n%s", tb.seed, len(rows),
             len(bad), tb.host.reads, tb.host.writes, table(rows))
    for r in bad:
        if isinstance(r["expected"], list) and isinstance(r["got"], list):
            diff = next((k for k, (a, b) in enumerate(zip(r["expected"], r["got"])) if a != b),
                        min(len(r["expected"]), len(r["got"])))
            log.error("%s %s: first difference at item %d: expected %s, got %s (lengths %d, %d)", r["sniffer"],
                      r["what"], diff, r["expected"][diff:diff + 3], r["got"][diff:diff + 3],
                      len(r["expected"]), len(r["got"]))
    assert not bad, f"{len(bad)} of {len(rows)} values differ from the reference model (seed {tb.seed})"
