# SPDX-License-Identifier: MIT
"""The stimulus entries of a co-simulation scenario on the GHDL side
(sim/cosim/README.md, `stimulus:`): pulses, task (start/done), axi4lite (a
slave's handshakes), reset, and axi4 / axis (seeded random bursts and
packets, axi_stim.py), driven on the top's ports cycle for cycle as
harness/verilator/stimulus.cpp drives them; defaults and the axi4lite response
delay from the contract (bus_timing.yaml). Used by cosim.py (one Stim per entry)."""

from __future__ import annotations

from cocotb.triggers import ClockCycles, RisingEdge, Timer

from axi_stim import Axi4Stim, AxisStim
from bus_timing import BusTiming, to_int


class Stim:
    """One stimulus entry; edge n = 0 is the first rising edge after the start."""

    def __init__(self, dut, spec: dict, clk, shadows: dict, widths: dict, where: str, timing: BusTiming):
        self.dut, self.s, self.clk, self.shadows, self.where = dut, spec, clk, shadows, where
        self.widths, self.t = widths, timing
        self.n = 0
        self.resetn = None  # kind reset: the clock's resetn (Harness)

    def num(self, key: str) -> int:
        """A key of this entry, else the contract's default for its kind."""
        return self.t.stim(self.s, self.s.get("kind"), key)

    def port(self, key: str):
        name = self.s.get(key)
        if name not in self.widths:
            raise ValueError(f"{self.where}.{key}: the top has no port {name!r}")
        return getattr(self.dut, name), name, self.widths[name]

    async def goto(self, m: int):
        if m > self.n:
            await ClockCycles(self.clk, m - self.n)
            self.n = m

    async def run(self):
        await Timer(self.t.offset_ps, "ps")
        await RisingEdge(self.clk)
        kind = self.s.get("kind")
        if kind == "pulses":
            await self.pulses()
        elif kind == "task":
            await self.task()
        elif kind == "axi4lite":
            await self.axi4lite()
        elif kind == "reset":
            await self.reset()
        elif kind in ("axi4", "axis"):
            await self.random_bus(kind)
        else:
            raise ValueError(f"{self.where}: unknown kind {kind!r} (pulses, task, axi4lite, reset, axi4, axis)")

    async def reset(self):
        """resetn low from offset_ps after edge start to offset_ps after edge
        start + cycles (odd ps, like the initial reset: stimulus.cpp ResetStim)."""
        start, cycles = self.num("start"), self.num("cycles")
        if cycles < 1:
            raise ValueError(f"{self.where}: cycles must be >= 1")
        await self.goto(start)
        await Timer(self.t.offset_ps, "ps")
        self.resetn.value = 0
        await ClockCycles(self.clk, cycles)
        self.n = start + cycles
        await Timer(self.t.offset_ps, "ps")
        self.resetn.value = 1

    async def pulses(self):
        port, name, width = self.port("port")
        bit = self.num("bit")
        start, every, count = self.num("start"), self.num("every"), self.num("count")
        value, step = self.num("value"), self.num("value_step")
        vport, _, vwidth = self.port("value_port") if self.s.get("value_port") else (None, "", 0)
        if every < 1:
            raise ValueError(f"{self.where}: every must be >= 1")
        if bit >= width or bit >= 64:
            raise ValueError(f"{self.where}: bit {bit} outside port {name}")
        sh = self.shadows
        sh.setdefault(name, 0)
        for k in range(count):
            e = start + k * every
            await self.goto(e)
            sh[name] |= 1 << bit
            port.value = sh[name]
            if vport is not None:
                vport.value = (value + k * step) & ((1 << vwidth) - 1)
            if every > 1 or k == count - 1:
                await self.goto(e + 1)
                sh[name] &= ~(1 << bit)
                port.value = sh[name]

    async def task(self):
        sp, dp = self.port("start_port")[0], self.port("done_port")[0]
        start, length = self.num("start"), self.num("length")
        gap, count = self.num("gap"), self.num("count")
        if length < 1 or gap < 1:
            raise ValueError(f"{self.where}: length and gap must be >= 1")
        for k in range(count):
            s = start + k * (length + gap)
            await self.goto(s)
            sp.value = 1
            await self.goto(s + 1)
            sp.value = 0
            await self.goto(s + length)
            dp.value = 1
            await self.goto(s + length + 1)
            dp.value = 0

    async def axi4lite(self):
        pre = self.s.get("prefix", "")
        p, w = {}, {}
        for sig in ["awaddr", "awvalid", "awready", "wdata", "wstrb", "wvalid", "wready",
                    "bvalid", "bready", "araddr", "arvalid", "arready", "rdata", "rvalid",
                    "rready"]:
            if f"{pre}_{sig}" not in self.widths:
                raise ValueError(f"{self.where}: the top has no port {pre}_{sig}")
            p[sig] = getattr(self.dut, f"{pre}_{sig}")
            w[sig] = self.widths[f"{pre}_{sig}"]
        write = bool(self.s.get("write", True))
        start, every, count = self.num("start"), self.num("every"), self.num("count")
        addr, astep = self.num("addr"), self.num("addr_step")
        data, dstep = self.num("data"), self.num("data_step")
        wstrb = self.s.get("wstrb")
        wstrb = (1 << min(w["wstrb"], 64)) - 1 if wstrb is None else to_int(wstrb)
        rd = self.t.get("stimulus", "axi4lite_resp_edges")
        if every < 1:
            raise ValueError(f"{self.where}: every must be >= 1")

        def index_at(m: int) -> int:
            if m < start or (m - start) % every:
                return -1
            k = (m - start) // every
            return k if k < count else -1

        def mask(sig: str, v: int) -> int:
            return v & ((1 << min(w[sig], 64)) - 1)

        edges = sorted({start + k * every + d for k in range(count) for d in range(rd + 2)})
        for m in edges:
            await self.goto(m)
            kreq, kresp = index_at(m), index_at(m - rd) if m >= rd else -1
            req, resp = int(kreq >= 0), int(kresp >= 0)
            if write:
                if req:
                    p["awaddr"].value = mask("awaddr", addr + kreq * astep)
                    p["wdata"].value = mask("wdata", data + kreq * dstep)
                    p["wstrb"].value = mask("wstrb", wstrb)
                for sig in ("awvalid", "awready", "wvalid", "wready"):
                    p[sig].value = req
                p["bvalid"].value = resp
                p["bready"].value = resp
            else:
                if req:
                    p["araddr"].value = mask("araddr", addr + kreq * astep)
                if resp:
                    p["rdata"].value = mask("rdata", data + kresp * dstep)
                p["arvalid"].value = req
                p["arready"].value = req
                p["rvalid"].value = resp
                p["rready"].value = resp

    # -- axi4 / axis: axi_stim.py's values, on every port group of the entry ------------------
    def check_prefixes(self, pre: list[str], signals: list[str]) -> None:
        """Each port group (`prefix`, or the list `prefixes`) has some of the kind's signals."""
        for p in pre:
            if not any(f"{p}_{sig}" in self.widths for sig in signals):
                raise ValueError(f"{self.where}: the top has no port {p}_{signals[0]} (nor any other "
                                 f"{self.s.get('kind')} signal of prefix {p!r})")

    def width_of(self, pre: list[str], sig: str) -> int:
        return next((self.widths[f"{p}_{sig}"] for p in pre if f"{p}_{sig}" in self.widths), 0)

    def random_params(self, kind: str, pre: list[str]) -> dict:
        keys = ("start", "count", "seed", "max_len", "valid_stall", "ready_stall", "gap")
        keys += ("addr", "addr_span", "resp_delay", "id", "alias") if kind == "axi4" else ("dest",)
        p = {k: self.num(k) for k in keys}
        if kind == "axi4":
            p["write"] = bool(self.s.get("write", True))
            nbytes = self.width_of(pre, "wstrb") if p["write"] else self.width_of(pre, "rdata") // 8
            p["size"] = to_int(self.s["size"]) if self.s.get("size") is not None else max(nbytes, 1).bit_length() - 1
            p["strb"] = (1 << nbytes) - 1
            if p["addr_span"] < 1 or (1 << p["size"]) > max(nbytes, 1):
                raise ValueError(f"{self.where}: addr_span must be >= 1, 2^size <= the data bytes ({nbytes})")
        else:
            p["keep"] = (1 << self.width_of(pre, "tkeep")) - 1
        if not 1 <= p["max_len"] <= 256 or max(p["valid_stall"], p["ready_stall"]) > self.t.get("memory", "max_stall"):
            raise ValueError(f"{self.where}: max_len must be 1..256, valid_stall and ready_stall "
                             f"0..{self.t.get('memory', 'max_stall')}")
        return p

    async def random_bus(self, kind: str):
        cls = Axi4Stim if kind == "axi4" else AxisStim
        pre = self.s.get("prefixes", [self.s.get("prefix", "")])
        lcg = {k: self.t.get("memory", "lcg", k) for k in ("mul", "inc", "mask", "shift", "percent")}
        stim = cls(self.random_params(kind, pre), lcg)
        self.check_prefixes(pre, list(stim.out))
        shadow = {}
        while True:
            for sig, v in stim.edge().items():
                for p in pre:
                    name = f"{p}_{sig}"
                    if name in self.widths and shadow.get(name) != v:
                        shadow[name] = v
                        getattr(self.dut, name).value = v & ((1 << min(self.widths[name], 64)) - 1)
            if stim.done:
                return
            await RisingEdge(self.clk)
            self.n += 1
