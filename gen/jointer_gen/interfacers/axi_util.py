# SPDX-License-Identifier: MIT
"""`interfacer: {type: axi_util}` (bus utilization, as in PMTS): the VALID/READY
pair of each watched channel of an AXI4 or AXI4-Lite bus (`channels`, a
subset of aw, w, b, ar, r, kept in that order) into jointer_eig_activity:
every observed cycle of each channel is a transfer, a stall or idle.

Lanes, by name or number: `cycles`, then per channel `<ch>_transfer`,
`<ch>_stall`, `<ch>_idle` (the entity's order, doc/internals/eig.md, mirrored by
sim/jointer_sim/activity_model.py). Top-level ports `<sniffer>_<ch>valid`,
`<sniffer>_<ch>ready` (a Vivado aximm monitor interface). The event data is
the stall bitmap of the channels; an event DCAPF's sum is a number of cycles.
"""

from __future__ import annotations

from .base import InterfacerNet, Kind

AXI_CHANNELS = ("aw", "w", "b", "ar", "r")
CLASSES = ("transfer", "stall", "idle")


def channels(params: dict) -> list[str]:
    """The watched channels in bus order (aw, w, b, ar, r), each once."""
    chosen = params.get("channels") or []
    return [c for c in AXI_CHANNELS if c in chosen]


class AxiUtil(Kind):
    name = "axi_util"
    entity = "jointer_eig_activity"
    emit_data = ("stalls",)
    bus_tap = "aximm"               # only the VALID/READY ports of its channels

    def check_params(self, b, raw: dict, path: tuple, params: dict) -> None:
        """Repeated channels; the list is kept in bus order."""
        chosen = raw.get("channels") if isinstance(raw, dict) else None
        seen = set()
        if isinstance(chosen, list):
            for i, c in enumerate(chosen):
                if isinstance(c, str) and c in seen:
                    b.err(path + ("channels", i), f"channel '{c}' listed twice in "
                          f"{b.where(path)}.channels (expected each of aw, w, b, ar, r at most once)")
                if isinstance(c, str):
                    seen.add(c)
        raw_list = chosen if isinstance(chosen, list) else None
        if raw_list is not None and (not raw_list or any(c not in AXI_CHANNELS for c in raw_list)):
            params["channels"] = None      # reported by the schema: no lane checks on it
        else:
            params["channels"] = channels(params)

    def lane_names(self, params: dict) -> list[str]:
        return ["cycles"] + [f"{c}_{k}" for c in channels(params) for k in CLASSES]

    def lanes(self, params: dict) -> int:
        return len(self.lane_names(params))

    def lanes_unknown(self, params: dict) -> bool:
        return params.get("channels") is None

    def unknown_lane(self, b, path: tuple, lane: str, params: dict) -> bool:
        if lane not in self.lane_names({**params, "channels": AXI_CHANNELS}):
            return False
        ch = lane.split("_")[0]
        b.err(path + ("event",), f"lane '{lane}' in {b.where(path)} is on channel {ch}, "
              f"which the axi_util interfacer does not watch (expected a lane of its channels "
              f"{', '.join(channels(params))}, or {ch} added to its channels)")
        return True

    def data_width(self, sn) -> int:
        return len(channels(sn.interfacer.params))          # the stall bitmap

    def summary(self, p: dict) -> str:
        proto = "AXI4" if p["protocol"] == "axi4" else "AXI4-Lite"
        return f"{proto} utilization, channels {' '.join(channels(p))}: transfer/stall/idle cycles"

    def elaborate(self, sn, net: InterfacerNet) -> None:
        chans = channels(sn.interfacer.params)
        net.generic("channels_g", "positive", str(len(chans)),
                    "channels, bit i: " + " ".join(f"{i}={c}" for i, c in enumerate(chans)))
        for c in chans:
            net.observed.append(_observed(f"{c}valid", f"{c.upper()} channel VALID"))
            net.observed.append(_observed(f"{c}ready", f"{c.upper()} channel READY"))

        def vec(kind: str) -> str:
            sigs = [f"mon_{c}{kind}" for c in reversed(chans)]   # bit 0 = first channel
            return f"(0 => {sigs[0]})" if len(sigs) == 1 else " & ".join(sigs)
        net.tie("mon_valid", vec("valid"))
        net.tie("mon_ready", vec("ready"))


def _observed(sig: str, comment: str):
    from .base import Observed
    return Observed(sig, None, comment)


KIND = AxiUtil()
