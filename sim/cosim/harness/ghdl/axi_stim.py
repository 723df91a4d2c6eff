# SPDX-License-Identifier: MIT
"""The `axi4` and `axis` stimulus kinds of the co-simulation, edge by edge
(sim/cosim/README.md, "Scenario files"): seeded random bursts or packets
with random VALID gaps and READY back-pressure, both sides of the tapped
bus played by the harness. Pure Python: ghdl/stimulus.py drives the values
this module computes, harness/verilator/stimulus.cpp computes the same
values in C++ (the same draws in the same order), and the reference counts
of a scenario come from the same sequence (tests/test_axi_stimulus.py).

Random numbers: one LCG per entry, the contract's (bus_timing.yaml
memory.lcg: x = (x * mul + inc) & mask; raw = x >> shift; a percent =
raw % percent), seeded with the entry's `seed`. From edge `start` on, every
edge draws first the VALID odds, then the READY odds (a percent each: VALID
may rise when it is >= valid_stall, READY is high when it is >= ready_stall),
then what starts at that edge draws its own numbers (a burst: length, then
address; a wait: its length).

`edge()` is one rising edge n (0 = the first after platform_stimulus_start):
it sees the handshakes of the cycle that ended there (the values it drove
after edge n - 1: it plays both sides, so it knows them), then returns the
values to drive until edge n + 1. A VALID, once high, stays high until its
handshake; a READY is redrawn every edge; payloads hold their value.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1


class Lcg:
    def __init__(self, seed: int, lcg: dict):
        self.x, self.lcg = seed & lcg["mask"], lcg

    def raw(self) -> int:
        c = self.lcg
        self.x = (self.x * c["mul"] + c["inc"]) & c["mask"]
        return self.x >> c["shift"]

    def pct(self) -> int:
        return self.raw() % self.lcg["percent"]


class _Stim:
    """What the two kinds share: the edge count, the odds, the waits."""

    def __init__(self, p: dict, lcg: dict, signals: tuple[str, ...]):
        self.p = p
        self.rng = Lcg(p["seed"], lcg)
        self.out = {s: 0 for s in signals}
        self.n = -1
        self.phase, self.wait, self.k, self.beat, self.len = "gap", 0, 0, 0, 0
        self.done = p["count"] == 0

    def odds(self) -> tuple[bool, bool]:
        v, r = self.rng.pct(), self.rng.pct()
        return v >= self.p["valid_stall"], r >= self.p["ready_stall"]

    def next_wait(self, key: str) -> int:
        return self.rng.raw() % (self.p[key] + 1)

    def edge(self) -> dict:
        """One rising edge: the values to drive until the next one."""
        self.n += 1
        if self.n >= self.p["start"] and not self.done:
            self.step(*self.odds())
        return self.out

    def step(self, v_ok: bool, r_ok: bool) -> None:
        raise NotImplementedError

    def next_starts(self) -> bool:
        """In a gap: True when the next burst or packet starts at this edge (its draws
        follow); the gap's wait runs down first, and after the last one the entry ends."""
        if self.wait:
            self.wait -= 1
            return False
        if self.k < self.p["count"]:
            return True
        self.phase, self.done = "end", True
        return False


class Axi4Stim(_Stim):
    """`count` bursts one after the other (one ID) in one direction. Write:
    AW, then the W beats (WSTRB all ones), then B `resp_delay` edges at most
    after WLAST; read: AR, the first R beat `resp_delay` edges at most after
    it, then the beats. Between bursts `gap` idle edges at most. Each burst:
    length 1 + raw % max_len beats, address addr + (raw << size) % addr_span,
    plus `alias` for every odd burst (1, 3, ...: the same offsets above 4 GB).
    `bursts`: (address, beats, address-handshake edge, last-beat edge, B edge)."""

    WRITE = ("awvalid", "awready", "awaddr", "awlen", "awsize", "awburst", "awid", "wvalid", "wready",
             "wlast", "wstrb", "wdata", "bvalid", "bready", "bresp", "bid")
    READ = ("arvalid", "arready", "araddr", "arlen", "arsize", "arburst", "arid", "rvalid", "rready",
            "rlast", "rdata", "rresp", "rid")

    def __init__(self, p: dict, lcg: dict):
        super().__init__(p, lcg, self.WRITE if p["write"] else self.READ)
        self.a, self.d = ("aw", "w") if p["write"] else ("ar", "r")
        self.bursts: list[tuple] = []
        self.cur: list = []

    def step(self, v_ok: bool, r_ok: bool) -> None:
        self._handshakes()
        self._advance()
        self._drive(v_ok)
        for ch, ph in ((self.a, "addr"), (self.d, "data"), ("b", "resp")):
            if ch + "ready" in self.out:
                self.out[ch + "ready"] = int(r_ok and self.phase == ph)

    def _handshakes(self) -> None:
        o, a, d = self.out, self.a, self.d
        if o[a + "valid"] and o[a + "ready"]:
            o[a + "valid"] = 0
            self.cur.append(self.n)
            self.phase, self.beat = "data", 0
            if not self.p["write"]:
                self.phase, self.wait = "delay", self.next_wait("resp_delay")
        elif o[d + "valid"] and o[d + "ready"]:
            o[d + "valid"] = 0
            self.beat += 1
            if self.beat == self.len:
                self.cur.append(self.n)
                if self.p["write"]:
                    self.phase, self.wait = "delay", self.next_wait("resp_delay")
                else:
                    self._burst_done(self.n)
        elif o.get("bvalid") and o["bready"]:
            o["bvalid"] = 0
            self._burst_done(self.n)

    def _burst_done(self, b_edge: int) -> None:
        self.bursts.append((*self.cur, b_edge))
        self.k += 1
        self.phase, self.wait = "gap", self.next_wait("gap")

    def _advance(self) -> None:
        p = self.p
        if self.phase == "gap" and self.next_starts():
            self.len = 1 + self.rng.raw() % p["max_len"]
            addr = p["addr"] + ((self.rng.raw() << p["size"]) % p["addr_span"])
            addr += p.get("alias", 0) if self.k % 2 else 0
            self.cur = [addr, self.len]
            self.phase = "addr"
        if self.phase == "delay":
            if self.wait:
                self.wait -= 1
            else:
                self.phase = "resp" if p["write"] else "data"

    def _drive(self, v_ok: bool) -> None:
        p, o, a, d = self.p, self.out, self.a, self.d
        if self.phase == "addr" and not o[a + "valid"] and v_ok:
            o.update({a + "valid": 1, a + "addr": self.cur[0], a + "len": self.len - 1, a + "size": p["size"],
                      a + "burst": 1, a + "id": p["id"]})
        elif self.phase == "data" and not o[d + "valid"] and v_ok:
            o.update({d + "valid": 1, d + "last": int(self.beat == self.len - 1),
                      d + "data": ((self.k << 16) | self.beat) & MASK64})
            o.update({"wstrb": p["strb"]} if p["write"] else {"rresp": 0, "rid": p["id"]})
        elif self.phase == "resp" and not o["bvalid"]:
            o.update({"bvalid": 1, "bresp": 0, "bid": p["id"]})


class AxisStim(_Stim):
    """`count` packets of 1 + raw % max_len beats (TKEEP all ones, TDEST
    `dest`, TDATA packet << 16 | beat), `gap` idle edges at most between
    them; TREADY drawn every edge from `start` until the last packet ends.
    `packets`: (beats, first-beat edge, last-beat edge)."""

    SIGNALS = ("tvalid", "tready", "tdata", "tkeep", "tlast", "tdest")

    def __init__(self, p: dict, lcg: dict):
        super().__init__(p, lcg, self.SIGNALS)
        self.packets: list[tuple] = []
        self.first = 0

    def step(self, v_ok: bool, r_ok: bool) -> None:
        p, o = self.p, self.out
        if o["tvalid"] and o["tready"]:
            o["tvalid"] = 0
            self.first = self.n if self.beat == 0 else self.first
            self.beat += 1
            if self.beat == self.len:
                self.packets.append((self.len, self.first, self.n))
                self.k += 1
                self.phase, self.wait = "gap", self.next_wait("gap")
        if self.phase == "gap" and self.next_starts():
            self.len, self.beat, self.phase = 1 + self.rng.raw() % p["max_len"], 0, "data"
        if self.phase == "data" and not o["tvalid"] and v_ok:
            o.update({"tvalid": 1, "tlast": int(self.beat == self.len - 1), "tkeep": p["keep"],
                      "tdata": ((self.k << 16) | self.beat) & MASK64, "tdest": p["dest"]})
        o["tready"] = int(r_ok and not self.done)


def counts(stim, edges: int) -> dict:
    """Run a stimulus for `edges` edges (until done, then to the end): per-cycle
    classes of its VALID/READY pair (the cycles after each edge), the list of
    bursts or packets."""
    valid, ready = ("tvalid", "tready") if isinstance(stim, AxisStim) else \
        ((stim.d + "valid", stim.d + "ready"))
    c = {"transfer": 0, "stall": 0, "idle": 0}
    for _ in range(edges):
        o = stim.edge()
        c["transfer" if o[valid] and o[ready] else "stall" if o[valid] else "idle"] += 1
    return c
