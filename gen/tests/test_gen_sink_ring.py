# SPDX-License-Identifier: MIT
"""sink: {ring_bytes} -> the largest ring the sink addresses:
jointer_trace_sink_axi's ring_log2_g, <T>_RING_LOG2 and the descriptor's
sink_ring_log2, all ring_bytes rounded up to a power of two (at least 4 KB)."""
import re

import pytest

from gentest_util import CONFIGS

from jointer_gen.cli import generate
from jointer_gen.model.monitor import Sink


def ref_log2(ring_bytes: int) -> int:
    """the smallest L >= 12 with 2^L >= ring_bytes (a loop, not bit_length)"""
    log2 = 12
    while (1 << log2) < ring_bytes:
        log2 += 1
    return log2


@pytest.mark.parametrize("ring_bytes", [4096, 8192, 0x5000, 0xFF000, 0x100000, 0x101000, 0x7FFFF000,
                                        0x80000000])
def test_ring_log2_rounds_up(ring_bytes):
    assert Sink(ring_bytes=ring_bytes).ring_log2 == ref_log2(ring_bytes)


@pytest.mark.parametrize("ring_bytes, log2", [(0x100000, 20), (0x5000, 15), (4096, 12)])
def test_ring_log2_reaches_the_sink_and_the_descriptor(ring_bytes, log2, tmp_path):
    text = (CONFIGS / "trace_sink.yaml").read_text()
    assert "ring_bytes: 0x100000" in text
    cfg = tmp_path / "trace_sink.yaml"
    cfg.write_text(text.replace("ring_bytes: 0x100000", f"ring_bytes: {ring_bytes:#x}"))
    _, files = generate(str(cfg))
    pkg, lmic = files["hdl/trace_sink_config.vhd"], files["hdl/trace_sink_stream_lmic.vhd"]
    assert re.search(rf"constant lm_stream_stream_log_ring_log2_c +: positive := {log2};", pkg)
    assert re.search(r"ring_log2_g +=> lm_stream_stream_log_ring_log2_c", lmic)
    regs = files["c/trace_sink_regs.h"]
    assert re.search(rf"#define TRACE_SINK_STREAM_LOG_RING_LOG2 +{log2}u ", regs)
    assert ".sink_ring_log2 = TRACE_SINK_STREAM_LOG_RING_LOG2," in files["c/trace_sink.c"]


@pytest.mark.parametrize("extra, period, idle", [("", 256, 16),
                                                 (", sync_period: 1000, idle_flush: 3", 1000, 3)])
def test_compact_sync_period_and_idle_flush_reach_the_encoder(extra, period, idle, tmp_path):
    """sink: {encoding: compact, sync_period, idle_flush} -> jointer_trace_compact's
    generics (defaults 256 / 16); they enter the config hash only for compact."""
    text = (CONFIGS / "trace_sink.yaml").read_text()
    cfg = tmp_path / "trace_sink.yaml"
    assert "encoding: raw," in text
    cfg.write_text(text.replace("encoding: raw,", "encoding: compact" + extra + ","))
    _, files = generate(str(cfg))
    lmic = files["hdl/trace_sink_stream_lmic.vhd"]
    m = re.search(r"u_compact_stream_log *: entity work\.jointer_trace_compact\s*generic map \((.*?)\)",
                  lmic, re.S)
    assert m, "no jointer_trace_compact instance"
    assert re.search(rf"sync_period_g *=> {period}\b", m.group(1))
    assert re.search(rf"idle_flush_g *=> {idle}\b", m.group(1))
    assert Sink(encoding="raw").canonical().keys().isdisjoint({"sync_period", "idle_flush"})
    assert Sink(encoding="compact", sync_period=period).canonical()["sync_period"] == period
