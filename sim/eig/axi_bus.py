# SPDX-License-Identifier: MIT
"""Random drivers for both sides of an observed AXI4 / AXI4-Lite bus.

The taps only watch the bus, so the test bench plays master and slave at
once: one coroutine, one decision per clock cycle, writes only the signals
that change. It produces what cocotbext-axi cannot: W beats before their AW
(by whole bursts), AW and the first W beat in the same cycle, read data of
several IDs interleaved beat by beat, zero and sparse WSTRB, back-pressure
(and idle masters) on every channel, changing from phase to phase. Payload
signals carry garbage while VALID is low, and the B channel carries noise:
a tap must not look at either.

Bounds (what the taps promise to track) are respected by construction:
  aw_lead   AWs handshaken ahead of the end of their W burst
  w_lead    complete W bursts ahead of their AW
  beat_lead W beats not yet reported by a per-beat write tap (held beats
            leave it one per cycle, two cycles after both their AW and the
            beat were seen, so a backlog only shrinks while W idles)
  aw_queue  AWs with beats not yet reported by a per-beat write tap
  max_reads reads in flight (AR handshaken, RLAST not yet)
"""

from __future__ import annotations

from collections import deque

from cocotb.triggers import RisingEdge

WRITE_MODES = ("free", "aw_first", "w_first", "sync")


class _Drive:
    """Shadowed signal writes: a handle is written only when its value changes."""

    def __init__(self, dut, prefix: str, names):
        self.h = {}
        self.v = {}
        for n in names:
            h = getattr(dut, f"{prefix}_{n}", None)
            if h is not None:
                self.h[n] = h
                self.v[n] = None

    def set(self, name: str, value: int):
        if name in self.h and self.v[name] != value:
            self.h[name].value = value
            self.v[name] = value

    def width(self, name: str) -> int:
        return len(self.h[name]) if name in self.h else 1


class Phase:
    """Random channel behaviour, redrawn every `length` cycles."""

    def __init__(self, rng, length: int = 150):
        self.rng = rng
        self.length = length
        self.left = 0
        self.p = {}

    def tick(self):
        if self.left == 0:
            r = self.rng
            self.left = self.length
            for ch in ("aw", "w", "b", "ar", "r"):
                self.p[f"{ch}_ready"] = r.choice([1.0, 1.0, 0.9, 0.6, 0.3, 0.05])
                self.p[f"{ch}_gap"] = r.choice([0.0, 0.0, 0.1, 0.3, 0.7])
            self.p["r_same"] = r.choice([0.0, 0.3, 0.7, 1.0])  # keep the R ID
            self.p["r_eager"] = r.choice([0.0, 1.0])
        self.left -= 1

    def ready(self, ch: str) -> int:
        return int(self.rng.random() < self.p[f"{ch}_ready"])

    def gap(self, ch: str) -> int:
        if self.rng.random() < self.p[f"{ch}_gap"]:
            return self.rng.randint(1, 6)
        return 0


class Axi4Traffic:
    """Plays AXI4 master and slave on the mon_* inputs of a tap test bench.

    add_write(addr, strbs, size, mode, wid) queues a write burst (one WSTRB per
    beat); add_read(addr, length, size, rid) a read burst. `stop()` lets the
    started transactions finish and starts no new one; `idle` tells when all
    is done. `lite=True` drives an AXI4-Lite bus (single beats, no IDs)."""

    AW = ("awid", "awaddr", "awlen", "awsize", "awburst", "awlock", "awcache", "awprot", "awqos")
    AR = ("arid", "araddr", "arlen", "arsize", "arburst", "arlock", "arcache", "arprot", "arqos")

    def __init__(self, dut, clk, rng, prefix="mon", *, aw_lead=8, w_lead=8, beat_lead=250,
                 aw_queue=15, max_reads=8, lite=False):
        names = (list(self.AW) + ["awvalid", "awready", "wdata", "wstrb", "wlast", "wvalid",
                                  "wready", "bid", "bresp", "bvalid", "bready"]
                 + list(self.AR) + ["arvalid", "arready", "rid", "rdata", "rresp", "rlast",
                                    "rvalid", "rready"])
        self.d = _Drive(dut, prefix, names)
        self.clk = clk
        self.rng = rng
        self.lite = lite
        self.aw_lead, self.w_lead, self.beat_lead, self.max_reads = aw_lead, w_lead, beat_lead, max_reads
        self.aw_queue = aw_queue
        self.phase = Phase(rng)
        # write side
        self.wq = []            # bursts: dict(addr, strbs, size, mode, id)
        self.ka = 0             # AW being presented / next
        self.aw_on = False
        self.kw = 0             # W burst being sent
        self.beat = 0
        self.w_on = False
        self.wb_done = 0        # complete W bursts
        self.beats_ahead = 0    # W beats of bursts whose AW is not handshaken
        self.wbeats = []        # W beats handshaken per burst
        self.w_limit = None     # stop(): no burst index >= this starts
        self.aw_gap = self.w_gap = 0
        self.aw_cycle = []      # cycle of each AW handshake
        self.unreported = deque()  # per-beat tap model: (burst, cycle, last) not yet reported
        self.reported = 0       # bursts whose beats are all reported
        self.peak = dict(unreported=0, aw_queue=0)
        # read side
        self.rq = []
        self.kr = 0
        self.ar_on = False
        self.r_limit = None
        self.ar_gap = self.r_gap = 0
        self.inflight = deque()  # accepted ARs in order: dict(..., sent)
        self.pend = {}           # id -> deque of accepted bursts
        self.r_on = False
        self.r_id = None
        self.reads_done = 0
        self.aw_gap = 0
        self.cycles = 0
        self._init_values()

    # -- queueing ----------------------------------------------------------
    def add_write(self, addr, strbs, size, mode="free", wid=0, wait_w=None):
        """wait_w (w_first): the AW waits until this many W bursts are complete
        (default: its own)."""
        assert mode in WRITE_MODES and 1 <= len(strbs) <= 256
        k = len(self.wq)
        wait_w = k + 1 if wait_w is None else wait_w
        assert wait_w > k
        self.wq.append(dict(addr=addr, strbs=list(strbs), size=size, mode=mode, id=wid,
                            wait_w=wait_w))
        self.wbeats.append(0)

    def add_read(self, addr, length, size, rid=0):
        assert 1 <= length <= 256
        self.rq.append(dict(addr=addr, len=length, size=size, id=rid))

    def stop(self):
        self.w_limit = max(self.ka + (1 if self.aw_on else 0), self.kw + (1 if self.beat or self.w_on else 0))
        self.r_limit = self.kr + (1 if self.ar_on else 0)

    def resume(self):
        self.w_limit = self.r_limit = None

    @property
    def idle(self) -> bool:
        wl = len(self.wq) if self.w_limit is None else min(self.w_limit, len(self.wq))
        rl = len(self.rq) if self.r_limit is None else min(self.r_limit, len(self.rq))
        return (self.ka >= wl and self.kw >= wl and not self.aw_on and not self.w_on
                and self.kr >= rl and not self.ar_on and not self.inflight)

    # -- signal helpers ------------------------------------------------------
    def _rand(self, name):
        return self.rng.getrandbits(self.d.width(name))

    def _garbage(self, names):
        for n in names:
            self.d.set(n, self._rand(n))

    def _init_values(self):
        for n in ("awvalid", "wvalid", "arvalid", "rvalid", "bvalid", "awready", "wready",
                  "arready", "rready", "bready", "wlast", "rlast", "awlock", "arlock"):
            self.d.set(n, 0)
        self._garbage([n for n in self.AW + self.AR if n not in ("awlock", "arlock")]
                      + ["wdata", "wstrb", "bid", "bresp", "rid", "rdata", "rresp"])

    # -- one clock cycle -----------------------------------------------------
    async def run(self):
        while True:
            await RisingEdge(self.clk)
            self.step()

    def step(self):
        v = self.d.v
        self.cycles += 1
        self.phase.tick()
        # handshakes at this edge (values driven during the cycle before)
        aw_hs = v["awvalid"] and v["awready"]
        w_hs = v["wvalid"] and v["wready"]
        ar_hs = v["arvalid"] and v["arready"]
        r_hs = v["rvalid"] and v["rready"]
        if aw_hs:
            self.aw_cycle.append(self.cycles)
            self.beats_ahead -= self.wbeats[self.ka]
            self.ka += 1
            self.aw_on = False
            self.aw_gap = self.phase.gap("aw")
        if w_hs:
            self.unreported.append((self.kw, self.cycles,
                                    self.beat == len(self.wq[self.kw]["strbs"]) - 1))
            self.wbeats[self.kw] += 1
            if self.kw >= self.ka:
                self.beats_ahead += 1
            self.beat += 1
            self.w_on = False
            if self.beat == len(self.wq[self.kw]["strbs"]):
                self.beat = 0
                self.kw += 1
                self.wb_done += 1
            self.w_gap = self.phase.gap("w")
        if ar_hs:
            b = dict(self.rq[self.kr], sent=0)
            self.inflight.append(b)
            self.pend.setdefault(b["id"], deque()).append(b)
            self.kr += 1
            self.ar_on = False
            self.ar_gap = self.phase.gap("ar")
        if r_hs:
            b = self.pend[self.r_id][0]
            b["sent"] += 1
            self.r_on = False
            if b["sent"] == b["len"]:
                self.pend[self.r_id].popleft()
                self.inflight.remove(b)
                self.reads_done += 1
            self.r_gap = self.phase.gap("r")
        # the per-beat write tap reports one held beat per cycle
        if self.unreported:
            k, c, last = self.unreported[0]
            if k < len(self.aw_cycle) and max(c, self.aw_cycle[k]) <= self.cycles - 2:
                self.unreported.popleft()
                self.reported += int(last)
        self.peak["unreported"] = max(self.peak["unreported"], len(self.unreported))
        self.peak["aw_queue"] = max(self.peak["aw_queue"], self.ka - self.reported)
        self.d.set("rready", self.phase.ready("r"))
        self._write_side()
        self._read_side()
        # slaves' readies and B noise
        for ch in ("aw", "w", "ar"):
            self.d.set(f"{ch}ready", self.phase.ready(ch))
        if self.rng.random() < 0.2:
            self._garbage(["bvalid", "bready", "bid", "bresp"])

    def _w_limit(self):
        n = len(self.wq)
        return n if self.w_limit is None else min(n, self.w_limit)

    def _aw_ok(self, k):
        b = self.wq[k]
        if self.aw_gap or (self.ka - self.wb_done) >= self.aw_lead:
            return False
        if self.ka - self.reported >= self.aw_queue:
            return False
        # (after stop(), bursts beyond the limit never come)
        return not (b["mode"] == "w_first" and self.wb_done < min(b["wait_w"], self._w_limit()))

    def _w_ok(self, k):
        b = self.wq[k]
        if self.w_gap:
            return False
        if self.beat == 0:
            if b["mode"] == "aw_first" and self.ka <= k:
                return False
            if self.wb_done - self.ka >= self.w_lead:
                return False
        if len(self.unreported) >= self.beat_lead:
            return False
        return not (k >= self.ka and self.beats_ahead >= self.beat_lead)

    def _present_aw(self, k):
        b = self.wq[k]
        d = self.d
        d.set("awaddr", b["addr"])
        d.set("awid", b["id"])
        d.set("awlen", len(b["strbs"]) - 1)
        d.set("awsize", b["size"])
        self._garbage(["awburst", "awcache", "awprot", "awqos"])
        d.set("awvalid", 1)
        self.aw_on = True

    def _present_w(self, k):
        b = self.wq[k]
        self.d.set("wstrb", b["strbs"][self.beat])
        self.d.set("wlast", int(self.beat == len(b["strbs"]) - 1))
        self._garbage(["wdata"])
        self.d.set("wvalid", 1)
        self.w_on = True

    def _write_side(self):
        self.aw_gap = max(0, self.aw_gap - 1) if not self.aw_on else self.aw_gap
        self.w_gap = max(0, self.w_gap - 1) if not self.w_on else self.w_gap
        lim = self._w_limit()
        start_aw = not self.aw_on and self.ka < lim and self._aw_ok(self.ka)
        start_w = not self.w_on and self.kw < lim and self._w_ok(self.kw)
        # sync bursts: AW and the first W beat become valid in the same cycle
        if start_aw and self.wq[self.ka]["mode"] == "sync":
            start_aw = start_w and self.kw == self.ka and self.beat == 0
        if start_w and self.beat == 0 and self.wq[self.kw]["mode"] == "sync":
            start_w = start_aw and self.kw == self.ka
        if start_aw:
            self._present_aw(self.ka)
        elif not self.aw_on:
            self.d.set("awvalid", 0)
            if self.rng.random() < 0.3:
                self._garbage(["awaddr", "awid", "awlen", "awsize"])
        if start_w:
            self._present_w(self.kw)
        elif not self.w_on:
            self.d.set("wvalid", 0)
            if self.rng.random() < 0.3:
                self._garbage(["wstrb", "wlast"])

    def _read_side(self):
        self.ar_gap = max(0, self.ar_gap - 1) if not self.ar_on else self.ar_gap
        self.r_gap = max(0, self.r_gap - 1) if not self.r_on else self.r_gap
        lim = len(self.rq) if self.r_limit is None else min(self.r_limit, len(self.rq))
        d = self.d
        v = d.v
        if not self.r_on:
            ids = [i for i, q in self.pend.items() if q]
            if ids and not self.r_gap:
                if not (self.r_id in ids and self.rng.random() < self.phase.p["r_same"]):
                    self.r_id = self.rng.choice(ids)
                b = self.pend[self.r_id][0]
                d.set("rid", self.r_id)
                d.set("rlast", int(b["sent"] == b["len"] - 1))
                self._garbage(["rdata", "rresp"])
                d.set("rvalid", 1)
                self.r_on = True
            else:
                d.set("rvalid", 0)
                if self.rng.random() < 0.3:
                    self._garbage(["rid", "rlast"])
        # an eager master reuses the place of a read whose RLAST is being
        # accepted in this very cycle (handshake certain: valid, last, ready)
        ending = int(self.r_on and v.get("rlast", 1) == 1 and v["rready"] == 1
                     and self.rng.random() < self.phase.p["r_eager"])
        if (not self.ar_on and self.kr < lim and not self.ar_gap
                and len(self.inflight) - ending < self.max_reads):
            b = self.rq[self.kr]
            d.set("araddr", b["addr"])
            d.set("arid", b["id"])
            d.set("arlen", b["len"] - 1)
            d.set("arsize", b["size"])
            self._garbage(["arburst", "arcache", "arprot", "arqos"])
            d.set("arvalid", 1)
            self.ar_on = True
        elif not self.ar_on:
            d.set("arvalid", 0)
            if self.rng.random() < 0.3:
                self._garbage(["araddr", "arid", "arlen", "arsize"])


B_NAMES = ("bvalid", "bready", "bid", "bresp")


class LatencyTraffic(Axi4Traffic):
    """Axi4Traffic whose slave answers every write burst on B.

    A burst may be answered once its AW and its WLAST beat were handshaken;
    per ID in AW order, across IDs in any order. At most max_writes bursts
    are open (AW handshaken, B not yet)."""

    def __init__(self, *args, max_writes=8, **kw):
        self.b_open = {}          # id -> deque of burst indices (AW handshaken)
        self.b_done = 0
        self.b_on = None          # burst index presented on B
        self.max_writes = max_writes
        self.b_ids = set()
        super().__init__(*args, **kw)
        self.d.set("bvalid", 0)
        self.d.set("bready", 0)

    def _garbage(self, names):
        super()._garbage([n for n in names if n not in B_NAMES])

    def _aw_ok(self, k):
        if self.ka - self.b_done >= self.max_writes:
            return False
        return super()._aw_ok(k)

    @property
    def idle(self):
        return super().idle and self.b_done == self.ka and self.b_on is None

    def step(self):
        v = self.d.v
        b_hs = v["bvalid"] and v["bready"]
        ka = self.ka
        super().step()
        for k in range(ka, self.ka):      # AWs handshaken at this edge
            self.b_open.setdefault(self.wq[k]["id"], deque()).append(k)
        if b_hs:
            k = self.b_on
            self.b_open[self.wq[k]["id"]].popleft()
            self.b_done += 1
            self.b_on = None
        if self.b_on is None:
            heads = [q[0] for q in self.b_open.values() if q and q[0] < self.kw]
            if heads and self.rng.random() < 1 - self.phase.p["aw_gap"]:
                k = self.rng.choice(heads)
                self.b_on = k
                self.b_ids.add(self.wq[k]["id"])
                self.d.set("bid", self.wq[k]["id"])
                self.d.set("bresp", self.rng.getrandbits(2))
                self.d.set("bvalid", 1)
            else:
                self.d.set("bvalid", 0)
                if self.rng.random() < 0.3:
                    super()._garbage(["bid", "bresp"])
        self.d.set("bready", self.phase.ready("b"))
