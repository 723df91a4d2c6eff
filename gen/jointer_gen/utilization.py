"""Bus utilization and contention interfacers (seed 003: BUM, BCM, BGM).

Two interfacer types, kept in this module so validate.py, elaborate.py and
the docs backend only hook into it:

- `axi_util`: the VALID/READY pair of each watched channel of an AXI4 or
  AXI4-Lite bus (`channels`, a subset of aw, w, b, ar, r, kept in that
  order) into `jointer_eig_activity`: every observed cycle of each channel
  is a transfer, a stall or idle. Lanes: `cycles`, then per channel
  `<ch>_transfer`, `<ch>_stall`, `<ch>_idle`. Top-level ports
  `<sniffer>_<ch>valid`, `<sniffer>_<ch>ready` (a Vivado aximm monitor
  interface).
- `contention`: `masters` VALID/READY pairs into `jointer_eig_contention`.
  Lanes: `cycles`, `contention`, `single_wait`, `no_wait`, `busy`, `idle`,
  then per master `grant_<i>`, `wait_<i>`. Ports `<sniffer>_valid`,
  `<sniffer>_ready` (one bit per master).

A DCAPF picks a lane by name (`event: r_stall`) or by number; an event
DCAPF's sum is a number of cycles. The lane order is the entities' (doc/
internals.md), mirrored by sim/jointer_sim/activity_model.py.
"""

from __future__ import annotations

TYPES = ("axi_util", "contention")
AXI_CHANNELS = ("aw", "w", "b", "ar", "r")
CLASSES = ("transfer", "stall", "idle")
CONTENTION_LANES = ("cycles", "contention", "single_wait", "no_wait", "busy", "idle")

DEFAULTS = {
    "axi_util": {"protocol": "axi4", "channels": list(AXI_CHANNELS)},
    "contention": {"masters": 2},
}
# emit.data: what the event data is (documentation): the stall bitmap of the
# channels / the number of waiting masters
EMIT_DATA = {"axi_util": ["stalls"], "contention": ["waiting"]}
ENTITY = {"axi_util": "jointer_eig_activity", "contention": "jointer_eig_contention"}


def channels(params: dict) -> list[str]:
    """The watched channels in bus order (aw, w, b, ar, r), each once."""
    chosen = params.get("channels") or []
    return [c for c in AXI_CHANNELS if c in chosen]


def lane_names(itype: str, params: dict) -> list[str]:
    if itype == "axi_util":
        return ["cycles"] + [f"{c}_{k}" for c in channels(params) for k in CLASSES]
    n = params["masters"]
    return list(CONTENTION_LANES) + [f"{k}_{i}" for i in range(n) for k in ("grant", "wait")]


def lanes(itype: str, params: dict) -> int:
    return len(lane_names(itype, params))


def summary(itype: str, params: dict) -> str:
    if itype == "axi_util":
        proto = "AXI4" if params["protocol"] == "axi4" else "AXI4-Lite"
        return f"{proto} utilization, channels {' '.join(channels(params))}: transfer/stall/idle cycles"
    n = params["masters"]
    return f"contention of {n} master{'s' if n != 1 else ''}: waiting, granted, busy/idle cycles"


def lane_label(itype: str, params: dict, lane: int) -> str:
    names = lane_names(itype, params)
    return names[lane] if 0 <= lane < len(names) else str(lane)


def duplicate_channels(params_raw) -> list[tuple[int, str]]:
    """(index, channel) of every repeated channel of a `channels` list."""
    seen, out = set(), []
    if isinstance(params_raw, list):
        for i, c in enumerate(params_raw):
            if isinstance(c, str) and c in seen:
                out.append((i, c))
            seen.add(c)
    return out


def interfacer(itype: str, params: dict):
    """(observed signals as (sig, width, comment), generics as (formal,
    vhdl type, value, comment), port map as (formal, actual))."""
    if itype == "axi_util":
        chans = channels(params)
        observed = []
        for c in chans:
            observed.append((f"{c}valid", None, f"{c.upper()} channel VALID"))
            observed.append((f"{c}ready", None, f"{c.upper()} channel READY"))
        generics = [("channels_g", "positive", str(len(chans)),
                     "channels, bit i: " + " ".join(f"{i}={c}" for i, c in enumerate(chans)))]

        def vec(kind: str) -> str:
            sigs = [f"mon_{c}{kind}" for c in reversed(chans)]   # bit 0 = first channel
            return f"(0 => {sigs[0]})" if len(sigs) == 1 else " & ".join(sigs)
        pmap = [("mon_valid", vec("valid")), ("mon_ready", vec("ready"))]
        return observed, generics, pmap
    n = params["masters"]
    observed = [("valid", n, "VALID of each master (bit i = master i)"),
                ("ready", n, "READY of each master")]
    generics = [("masters_g", "positive", str(n), "masters sharing the bus")]
    return observed, generics, [("mon_valid", "mon_valid"), ("mon_ready", "mon_ready")]
