# SPDX-License-Identifier: MIT
"""Private helpers of the collection-layer test benches (sim/collect/).

- `layout`: the generator's address layout (gen/jointer_gen/model/layout.py), the
  only place where addresses are computed; fixtures below feed it.
- `Fixture*`: tiny duck-typed monitor descriptions for `layout.compute`.
- `lmic_generics()`: the jointer_collect_lmic generics of one LmicLayout,
  exactly as the generator passes them.
- `start_clock()`, `settle()`: small cocotb conveniences.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO / "gen") not in sys.path:
    sys.path.insert(0, str(REPO / "gen"))

from jointer_gen.model import layout  # noqa: E402  (after the sys.path line)

MASK32 = 0xFFFFFFFF
OKAY, SLVERR = 0, 2


@dataclass
class FDcapf:
    name: str
    width: int = 32
    extractor: str = "event"
    threshold_irq: bool = False
    depth: int = 0
    buckets: int = 1
    mode: str = "stop"


@dataclass
class FSniffer:
    name: str
    dcapfs: list = field(default_factory=list)


@dataclass
class FLmic:
    name: str
    sniffers: list = field(default_factory=list)


def lmic_generics(ll: "layout.LmicLayout", addr_w: int, strict: bool) -> dict:
    """jointer_collect_lmic generics for one LMIC of a Layout."""
    d, t = ll.dcapfs, ll.traces
    dummy = [0]
    return {
        "addr_w_g": addr_w,
        "strict_g": strict,
        "num_sniffers_g": ll.num_sniffers,
        "num_dcapfs_g": len(d),
        "num_traces_g": len(t),
        "dcapf_sniffer_g": [x.sniffer for x in d] or dummy,
        "dcapf_width_g": [x.width for x in d] or [1],
        "dcapf_result_word_g": [x.result_word for x in d] or dummy,
        "dcapf_threshold_word_g": [x.threshold_word for x in d] or [-1],
        "dcapf_irq_bit_g": [x.irq_bit for x in d] or [-1],
        **({"dcapf_buckets_g": [x.buckets for x in d]} if any(x.buckets > 1 for x in d) else {}),
        "trace_sniffer_g": [x.sniffer for x in t] or dummy,
        "trace_reg_word_g": [x.reg_word for x in t] or dummy,
        "trace_ram_word_g": [x.ram_word for x in t] or dummy,
        "trace_depth_log2_g": [x.depth_log2 for x in t] or [1],
        "trace_irq_bit_g": [x.irq_bit for x in t] or dummy,
        **({"trace_relay_g": [int(x.relay) for x in t]} if any(x.relay for x in t) else {}),
        "num_irq_g": ll.num_irq,
    }


def start_clock(sig, period_ns: float):
    """Start a clock; returns the Clock (its .stop() stops it)."""
    from cocotb.clock import Clock
    clk = Clock(sig, period_ns, unit="ns")
    clk.start()
    return clk


def bits(value: int, n: int) -> list[int]:
    return [(value >> i) & 1 for i in range(n)]


PARAMS_ENV = "JOINTER_TB_PARAMS"


def params_env(**kw) -> dict:
    """extra_env for run(): test parameters the cocotb side reads with params().

    (GHDL's VPI cannot read boolean or std_logic_vector generics, so the
    pytest side hands its parameters over through the environment.)
    """
    import json
    return {PARAMS_ENV: json.dumps(kw)}


def params() -> dict:
    import json
    import os
    return json.loads(os.environ.get(PARAMS_ENV, "{}"))


REG_READ_MIN = 8   # jointer_pkg lmic_pipelined_min_c


def result_words_mapped(ll: "layout.LmicLayout") -> int:
    """Words of the LMIC window the results block maps (RESULT, histogram, THRESHOLD)."""
    n = 0
    for d in ll.dcapfs:
        w = (d.width + 31) // 32
        if d.result_word >= 0:
            n += w * max(1, getattr(d, "buckets", 1) or 1)
        if d.threshold_word >= 0:
            n += w
    return n


def results_registered(ll: "layout.LmicLayout") -> bool:
    """Whether the results block registers its read in the read's first cycle
    (and snapshots then); else it answers and snapshots in the second."""
    return result_words_mapped(ll) > REG_READ_MIN
