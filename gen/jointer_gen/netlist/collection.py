# SPDX-License-Identifier: MIT
"""The collection layer of a generated monitor: what it has and
where it lives, decided once from the model.

- The global block's optional registers (TIMESTAMP, MARK, SCRATCH, the
  descriptor ROM's DESC_INDEX/DESC_DATA) follow from the description
  (model.Monitor.has_timestamp / has_mark / scratch / descriptor) and are
  stated in INFO[20:17].
- The CDC bridge's timeout, from the clock periods.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..model import layout
from ..model.monitor import Lmic, Monitor

CDC_TIMEOUT_UNKNOWN = 4096   # bus cycles, when a period is not given


@dataclass
class Collect:
    timestamp: bool
    mark: bool
    scratch: bool
    info: int               # the INFO register
    desc_rom: bool = False  # the descriptor ROM (DESC_INDEX/DESC_DATA)


def collect(mon: Monitor, window_log2: int) -> Collect:
    ts, mark, scratch = mon.has_timestamp, mon.has_mark, mon.scratch
    rom = mon.descriptor == "rom"
    info = (len(mon.lmics) | (window_log2 << 8) | (layout.INFO_STRICT * mon.bus.strict)
            | (layout.INFO_TIMESTAMP * ts) | (layout.INFO_MARK * mark) | (layout.INFO_SCRATCH * scratch)
            | (layout.INFO_DESC_ROM * rom))
    return Collect(timestamp=ts, mark=mark, scratch=scratch, info=info, desc_rom=rom)


def info_text(c: Collect, mon: Monitor, window: int) -> str:
    opt = [n for n, on in (("TIMESTAMP", c.timestamp), ("MARK", c.mark), ("SCRATCH", c.scratch),
                           ("descriptor ROM", c.desc_rom)) if on]
    return (f"INFO: {len(mon.lmics)} LMIC(s), {window}-byte windows, "
            f"{'strict' if mon.bus.strict else 'lenient'} decoding, "
            + (", ".join(opt) if opt else "no optional global register"))


def cdc_timeout(mon: Monitor, lm: Lmic) -> int:
    """Bus cycles before the bridge to a silent LMIC answers SLVERR: eight times
    a handshake's round trip (about 5 LMIC cycles and 4 bus cycles), a power of
    two (the counter's top bit ends it), at least 64; 4096 when a period is
    unknown."""
    bus = mon.bus_clock.period_ns
    own = next((c.period_ns for c in mon.clocks if c.name == lm.clock), None)
    if not bus or not own:
        return CDC_TIMEOUT_UNKNOWN
    cycles = 8 * math.ceil(5 * own / bus + 4)
    return max(64, 1 << (cycles - 1).bit_length())
