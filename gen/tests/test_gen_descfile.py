# SPDX-License-Identifier: MIT
"""The descriptor file <name>.jdesc (doc/descriptor-file.md): header, CRC,
records and strings read back with struct, compared with the macros of the
generated <name>_regs.h (the C compiler's view of the same design).
drivers/tests/test_descfile.c compares the C parser's jointer_cfg with the
compiled-in table field by field."""
import re
import struct
import zlib

import pytest

from gentest_util import EXAMPLES, REPO, generated


def _macros(files, name):
    text = files[f"c/{name}_regs.h"]
    return {m[0]: int(m[1], 0) for m in re.findall(r"#define (\w+)\s+(0x[0-9A-Fa-f]+|\d+)u\b", text)}


def _string(blob, table, off):
    end = blob.index(b"\0", table + off)
    return blob[table + off:end].decode()


TRACE = "<7IHBBBb8BHI"     # format 3: 48 bytes


def _decode(blob):
    h = struct.unpack_from("<4sHHII6IQIBBH4H", blob)
    counts = dict(lmics=h[13], sniffers=h[15], metrics=h[16], traces=h[17], bounds=h[19])
    traces = 64 + 20 * counts["lmics"] + 12 * counts["sniffers"] + 40 * counts["metrics"]
    lanes = sum(blob[traces + 48 * i + 39] for i in range(counts["traces"]))
    spans = sum(blob[traces + 48 * i + 41] for i in range(counts["traces"]))
    counts.update(lanes=lanes, spans=spans)
    table = traces + 48 * counts["traces"] + 4 * counts["bounds"] + 4 * lanes + 8 * spans
    return h, counts, table


@pytest.mark.parametrize("name", EXAMPLES)
def test_header_and_crc(name):
    design, files = generated(name)
    blob = files[f"{name}.jdesc"]
    assert files[f"c/{name}.jdesc"] == blob
    h, counts, table = _decode(blob)
    assert h[0] == b"JDSC" and h[1] == 3 and h[2] == 64 and h[3] == len(blob)
    assert h[4] == zlib.crc32(blob[16:]) & 0xFFFFFFFF
    mac = _macros(files, name)
    N = design.NAME
    assert (h[5], h[6], h[7], h[8], h[9], h[10], h[11]) == (
        mac[f"{N}_CONFIG_HASH"], 0x00020000, mac[f"{N}_INFO"], mac[f"{N}_SPAN"], mac[f"{N}_WINDOW"],
        mac[f"{N}_BUS_CLOCK_HZ"], mac[f"{N}_BASE_ADDRESS"])
    assert _string(blob, table, h[12]) == name
    assert (counts["lmics"], counts["sniffers"], counts["metrics"], counts["traces"], h[18]) == (
        mac[f"{N}_NUM_LMICS"], mac[f"{N}_NUM_SNIFFERS"], mac[f"{N}_NUM_METRICS"], mac[f"{N}_NUM_TRACES"],
        mac[f"{N}_NUM_DCAPFS"])
    assert blob[-1] == 0 and table < len(blob)


@pytest.mark.parametrize("name", EXAMPLES)
def test_metric_and_trace_records(name):
    design, files = generated(name)
    blob = files[f"{name}.jdesc"]
    _, counts, table = _decode(blob)
    mac = _macros(files, name)
    N = design.NAME
    base = 64 + 20 * counts["lmics"] + 12 * counts["sniffers"]
    for i in range(counts["metrics"]):
        r = struct.unpack_from("<3I2QHBBBBBBbBH", blob, base + 40 * i)
        M = f"{N}_{_string(blob, table, r[0]).upper()}"
        assert mac[f"{N}_METRIC_{M[len(N) + 1:]}"] == i
        assert (r[1], r[3], r[4], r[8], r[7]) == (mac[f"{M}_RESULT"], mac[f"{M}_LOW_RESET"],
                                                 mac[f"{M}_HIGH_RESET"], mac[f"{M}_WIDTH"], mac[f"{M}_DCAPF"])
        assert r[2] == mac.get(f"{M}_THRESHOLD", 0xFFFFFFFF)
        assert r[12] == mac.get(f"{M}_IRQ_BIT", -1) and r[13] == mac.get(f"{M}_BUCKETS", 0)
    base += 40 * counts["metrics"]
    for i in range(counts["traces"]):
        r = struct.unpack_from(TRACE, blob, base + 48 * i)
        T = f"{N}_{_string(blob, table, r[0]).upper()}"
        assert (r[1], r[2], r[3]) == (mac[f"{T}_REGS"], mac[f"{T}_RAM"], mac[f"{T}_DEPTH"])
        assert r[14] == mac.get(f"{T}_SINK_BYTES", 0) and r[16] == mac.get(f"{T}_RING_LOG2", 0)
        t = design.traces[i]
        assert (r[17], r[18], r[19]) == (len(t["lanes"]), int(t["sync"]), len(t["spans"]))
        assert _string(blob, table, r[21]) == t["clock"]


def test_histogram_bounds_pool():
    """two_clock_bus or any config with explicit boundaries: the pool holds them in order."""
    for name in EXAMPLES:
        design, files = generated(name)
        blob = files[f"{name}.jdesc"]
        _, counts, table = _decode(blob)
        pool = table - 4 * counts["bounds"] - 4 * counts["lanes"] - 8 * counts["spans"]
        want = [b for m in design.metrics if m["aggregator"] == "histogram" and m["boundaries"] != "pow2"
                for b in m["boundaries"]]
        assert list(struct.unpack_from(f"<{counts['bounds']}I", blob, pool)) == want


def test_compact():
    """Y9's descriptor stays a few hundred bytes; names are stored once."""
    _, files = generated("selective_accumulations")
    blob = files["selective_accumulations.jdesc"]
    assert 200 < len(blob) < 512
    _, _, table = _decode(blob)
    names = blob[table:].split(b"\0")[:-1]
    assert len(names) == len(set(names))


def test_wide_sniffer_records():
    """A 40-bit tap (sim/cosim/scenarios/configs/wide_addresses.yaml): its sniffer record says
    40, its metrics hold 64-bit bounds (a window above 4 GB whole)."""
    from jointer_gen.cli import generate
    design, files = generate(str(REPO / "sim" / "cosim" / "scenarios" / "configs" / "wide_addresses.yaml"))
    blob = files["wide_addresses.jdesc"]
    _, counts, table = _decode(blob)
    base = 64 + 20 * counts["lmics"]
    widths = {_string(blob, table, struct.unpack_from("<I", blob, base + 12 * i)[0]): blob[base + 12 * i + 9]
              for i in range(counts["sniffers"])}
    assert widths == {"dma": 40, "rd": 40}
    base += 12 * counts["sniffers"]
    bounds = {}
    for i in range(counts["metrics"]):
        r = struct.unpack_from("<3I2Q", blob, base + 40 * i)
        bounds[_string(blob, table, r[0])] = (r[3], r[4])
    assert bounds["high_bytes"] == (0x8_0000_0000, 0xFF_FFFF_FFFF)
    assert bounds["run_win"] == (0, 0xFF_FFFF_FFFF)          # the default: the whole 40-bit address


def test_lanes_and_spans():
    """A trace with lanes, a sync and spans (the co-simulation's tiles timeline): its
    record's counts, the lane names in order, the spans with their tag bits and flags."""
    from jointer_gen.cli import generate
    design, files = generate(str(REPO / "sim/cosim/scenarios/configs/tiles_timeline.yaml"))
    blob = files["tiles.jdesc"]
    _, counts, table = _decode(blob)
    traces = 64 + 20 * counts["lmics"] + 12 * counts["sniffers"] + 40 * counts["metrics"]
    r = struct.unpack_from(TRACE, blob, traces)
    assert struct.unpack_from("<IIHBBII", blob, 64)[5] == 200_000_000     # LMIC acc: 5 ns
    assert _string(blob, table, struct.unpack_from("<IIHBBII", blob, 64)[6]) == "acc"
    assert (_string(blob, table, r[0]), r[17], r[18], r[19], _string(blob, table, r[21])) == (
        "timeline", 5, 1, 1, "acc")
    lanes_at = traces + 48 * counts["traces"] + 4 * counts["bounds"]
    names = [_string(blob, table, struct.unpack_from("<I", blob, lanes_at + 4 * k)[0]) for k in range(5)]
    assert names == ["start", "done", "load", "compute", "store"]
    sp = struct.unpack_from("<IBBBx", blob, lanes_at + 4 * 5)
    assert (_string(blob, table, sp[0]),) + sp[1:] == ("tile", 0, 1, 0x01)
