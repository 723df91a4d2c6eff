# SPDX-License-Identifier: MIT
"""Co-simulation (run.py --handshakes): the cycle-by-cycle comparison of the
two simulators' handshake logs (harness/verilator/handshake_log.h,
harness/ghdl/handshakes.py), one line per AXI handshake of a bus model:

    <time ps> <clock> <cycle> <bus> <channel> <fields>

Handshakes at the same edge may be logged in any order (GHDL runs each agent
as its own coroutine), so both logs are sorted by time, then text. Only the
handshakes before the end of the shorter run are compared: at the edge where
the application returns, GHDL may stop before every agent of that edge ran."""

from __future__ import annotations

from pathlib import Path

MAX_SHOWN = 5


def read_log(path: Path, end_ps: int | None = None) -> list[tuple[int, str]]:
    """(time, line) of every handshake before end_ps, sorted; a bad line is a ValueError."""
    out = []
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        f = line.split(" ", 1)
        if len(f) != 2 or not f[0].isdigit() or len(f[1].split()) < 4:
            raise ValueError(f"{path}:{n}: not a handshake line: {line!r}")
        t = int(f[0])
        if end_ps is None or t < end_ps:
            out.append((t, line))
    return sorted(out)


def compare_logs(a: Path, b: Path, names=("verilator", "ghdl"), end_ps: int | None = None) -> list[str]:
    """The first differences between two handshake logs (empty: identical)."""
    la, lb = read_log(a, end_ps), read_log(b, end_ps)
    diffs = []
    for i in range(max(len(la), len(lb))):
        x = la[i][1] if i < len(la) else "(none)"
        y = lb[i][1] if i < len(lb) else "(none)"
        if x != y:
            diffs.append(f"handshake {i + 1}: {names[0]} {x} != {names[1]} {y}")
            if len(diffs) == MAX_SHOWN:
                break
    if len(la) != len(lb):
        diffs.append(f"handshakes: {names[0]} {len(la)} != {names[1]} {len(lb)}")
    return diffs


def compare(reports: dict[str, dict]) -> list[str]:
    """The handshake logs of the simulators' reports (key "handshakes"), pairwise."""
    sims = [s for s in reports if reports[s].get("handshakes")]
    diffs = []
    for a, b in zip(sims, sims[1:]):
        end = min(reports[a].get("sim_time_ps", 0), reports[b].get("sim_time_ps", 0))
        diffs += compare_logs(reports[a]["handshakes"], reports[b]["handshakes"], (a, b), end)
    return diffs
