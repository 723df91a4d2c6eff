# SPDX-License-Identifier: MIT
"""CDC check: every clock-domain crossing of a generated top is proven, without Vivado.

    jointer-cdc-check                      every configs/*.yaml and every fixture with two clocks
    jointer-cdc-check CONFIG...            those monitor descriptions
    jointer-cdc-check --files F... --top T a VHDL top of your own (the library + F...)
    options: --jobs N, --json OUT (the crossings found, for the XDC cross-check), -v

Exit status 0 only when every crossing of every design is proven.

The netlist (cdc_netlist.py): ghdl synth -> yosys `proc; opt_dff;
opt_clean; flatten`; registers keep their VHDL names and their enables and
synchronous resets sit on EN/SRST pins. A register's clock domain is the top
input port its clock comes from. For every register F (and every memory's
write side) the input cone (D, EN, SRST, ARST...; through combinational
cells, bit-accurate for bitwise cells and muxes) is searched for registers of
other domains and for reset inputs. Each register S of another domain in the
cone of F is a crossing S -> F, accepted only as:

(a) synchroniser: F carries ASYNC_REG (recovered from the VHDL: `attribute
    async_reg of SIG` of F's entity), F's D is S's Q with no cell between, no
    other pin of F sees another domain, and F's Q drives exactly one load: the
    D of the next ASYNC_REG register of the chain, on F's clock (a single bit,
    nothing between the two flops). Why enough: one bit has no skew to get
    wrong; the first flop may go metastable and has a full period, with no
    logic, to resolve before the second samples it.
(b) handshake data: F is not a synchroniser flop, and
    - F's input cone holds a register of its own domain that is, or is at most
      QUAL_DEPTH register stages after, the output of a synchroniser of type
      (a) whose source is in S's domain (the handshake that says "the data is
      there"), and
    - S holds its value: a register with an enable (EN pin; a memory: its
      write enable) or a hold path (its own Q in its D cone), whose enable
      logic is, in the same sense, downstream of a synchroniser coming from
      F's domain (the handshake that says "the data was taken", which
      releases S). A register loaded every cycle, or a counter that no
      handshake from F's domain stops, is not held.
    Why enough, with the constraints of the generated XDC: S changes only when
    the other side's handshake allowed it and stays put until it is allowed
    again; F loads only after the synchronised handshake arrived, which takes
    at least two F cycles after S settled; the XDC bounds the S -> F data path
    to the smaller clock period (set_max_delay -datapath_only), which also
    bounds the skew between its bits, so every bit has settled before F's
    enable rises. That S is held for the whole window (from before the
    request to after the answer) is the protocol's part (jointer_collect_cdc,
    doc/internals/collect.md "CDC rules"), checked in simulation by
    sim/collect/test_jointer_collect_cdc.py; this check proves the structure
    that protocol needs. The AXI4-Lite payload inputs (AXI_HELD: addresses,
    write data, strobes, prot) are held sources of s_axi_aclk: the master
    keeps them stable from VALID until READY (AXI4 spec A3.2.1), and the DCI
    withholds READY until the answer; F must still be qualified as above.
The top's outputs are end points too: s_axi_* belong to s_axi_aclk (the AXI
master samples RDATA when RVALID, which the DCI raises after the answer), any
other output to the one clock of its cone (two clocks: an error).
Resets (one scheme per domain, doc/internals/collect.md "CDC rules"): an input port
named X_resetn belongs to clock X_clk (s_axi_aresetn to s_axi_aclk); it may
reach a register only (1) at the asynchronous reset pin of an ASYNC_REG
register clocked by its own clock (a reset bridge: asynchronous assertion,
synchronous de-assertion), or (2) for the AXI reset s_axi_aresetn, whose
de-assertion is synchronous to s_axi_aclk by the AXI specification, as a
synchronous input of a register of the s_axi_aclk domain. The reset of
another domain (a reset bridge's output) is a register of that domain, so the
rule above rejects it unless it is synchronised. Any other input port must be
read in one clock domain only.
Everything else fails, naming both registers (VHDL path) and their clocks.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import sys
import time
from pathlib import Path

from ..model.vhdl_library import REPO
from . import cdc_netlist

BUILD = REPO / "build" / "cdc"
QUAL_DEPTH = 2          # register stages after a synchroniser that still count as the handshake
                        # (the generated tops need 2: sync -> req_o -> the LMIC port's capture)
AXI_RESETS = {"s_axi_aresetn": "s_axi_aclk"}
AXI_CLOCK = "s_axi_aclk"
# the AXI4-Lite payload the master holds from VALID until READY (AXI4 spec A3.2.1); the DCI
# keeps READY low until the target answered, so the LMIC may capture them on its own clock
AXI_HELD = {f"s_axi_{n}" for n in ("awaddr", "awprot", "wdata", "wstrb", "araddr", "arprot")}
# monitor descriptions outside configs/ that tests co-simulate or compile (two clocks or more)
FIXTURE_DIRS = ["sim/cosim/scenarios/configs", "sim/bench/budget", "drivers/papi/tests",
                "gen/tests/configs"]


def reset_clock(port: str) -> str | None:
    if port in AXI_RESETS:
        return AXI_RESETS[port]
    if port.endswith("_resetn"):
        return port[: -len("_resetn")] + "_clk"
    return None


class Checker:
    def __init__(self, nl: cdc_netlist.Netlist):
        self.nl = nl
        self.clocks = {r.clock for r in nl.regs.values()}
        self._src: dict = {}
        self._qual: dict = {}
        self.errors: list[str] = []
        self.crossings: list[dict] = []
        self.axi_reset_users = 0

    # -- cones -----------------------------------------------------------------------------------
    def _leaf(self, node):
        """Sources of a node that is not combinational: frozenset or None (walk further)."""
        nl = self.nl
        if isinstance(node, tuple):                       # ("mem", id)
            return frozenset([node])
        if not isinstance(node, int):
            return frozenset()                            # a constant
        r = nl.reg_of_q.get(node)
        if r is not None:
            return frozenset([r.id])
        d = nl.driver.get(node)
        if d is None:
            return frozenset()
        if d[0] == "<port>":
            return frozenset([("port", d[1])])
        return None

    def sources(self, node) -> frozenset:
        """Registers (ids), memories and ("port", name) in the combinational cone of a net bit."""
        memo = self._src
        if node in memo:
            return memo[node]
        stack = [(node, False)]
        while stack:
            n, done = stack.pop()
            if n in memo and not done:
                continue
            leaf = self._leaf(n)
            if leaf is not None:
                memo[n] = leaf
                continue
            ins = self.nl.comb_inputs(n)
            if done:
                acc = frozenset()
                for i in ins:
                    acc |= memo.get(i, frozenset())
                memo[n] = acc
            else:
                memo[n] = frozenset()                     # a loop reads as empty, not forever
                stack.append((n, True))
                stack.extend((i, False) for i in ins if i not in memo)
        return memo[node]

    def reg_sources(self, r, pins=None) -> frozenset:
        acc = frozenset()
        for p, bs in r.pins.items():
            if pins is None or p in pins:
                for b in bs:
                    acc |= self.sources(b)
        if r.kind.startswith("$memrd"):
            acc |= frozenset(self.nl.mem_state(self.nl.cells[r.id[0]]["parameters"]["MEMID"]))
        return acc - {r.id}

    def clock(self, sid) -> str:
        if sid[0] == "port":
            return "?"
        return self.nl.regs[sid].clock

    def name(self, sid) -> str:
        return f"input {sid[1]}" if sid[0] == "port" else self.nl.regs[sid].name

    # -- synchronisers and handshakes --------------------------------------------------------------
    def find_chains(self):
        """sync_from[reg id] = source clock, for every stage >= 2 of a synchroniser chain."""
        nl = self.nl
        self.sync_from: dict = {}
        self.first_stage: dict = {}
        for r in nl.regs.values():
            if not r.async_reg or "D" not in r.pins:
                continue
            s = nl.reg_of_q.get(r.pins["D"][0])
            if s is None or s.clock == r.clock:
                continue
            self.first_stage[r.id] = s.id
            cur = r
            while True:
                nxt = [nl.reg_of_q.get(self._q_of_load(ld)) for ld in nl.loads.get(cur.q, [])]
                nxt = [x for x in nxt if x is not None and x.async_reg and x.clock == r.clock]
                if len(nxt) != 1 or nxt[0].id in self.sync_from:
                    break
                cur = nxt[0]
                self.sync_from[cur.id] = s.clock

    def _q_of_load(self, ld):
        cname, pin, i = ld
        c = self.nl.cells[cname]
        if pin == "D" and "Q" in c["connections"]:
            return c["connections"]["Q"][i]
        return None

    def qualified(self, rid, from_clock: str, depth: int = QUAL_DEPTH, pins=None) -> bool:
        """rid's cone (of pins, default all) holds, up to depth register stages back, a
        synchroniser output from from_clock."""
        key = (rid, from_clock, depth, pins)
        if key in self._qual:
            return self._qual[key]
        self._qual[key] = False
        r = self.nl.regs[rid]
        own = [s for s in self.reg_sources(r, pins) if s[0] != "port" and self.clock(s) == r.clock]
        ok = any(self.sync_from.get(s) == from_clock for s in own)
        if not ok and depth > 0:
            ok = any(self.qualified(s, from_clock, depth - 1) for s in own if s not in self.sync_from)
        self._qual[key] = ok
        return ok

    def held(self, sid, by_clock: str) -> bool:
        """S keeps its value unless enabled, and what enables it comes from a handshake from
        by_clock: a register with an EN pin (yosys opt_dff finds it in `if en then r <= x`)
        or a memory whose enable cone is downstream of a synchroniser from by_clock, or a
        register with a hold path (its own Q in its D cone: a state machine's output) whose
        D cone is."""
        r = self.nl.regs[sid]
        if any(isinstance(b, int) for b in r.pins.get("EN", [])):
            return self.qualified(sid, by_clock, pins=("EN",))
        if "D" not in r.pins or sid not in self.sources(r.pins["D"][0]):
            return False                  # loaded every cycle: never held
        return self.qualified(sid, by_clock)

    # -- the check -------------------------------------------------------------------------------
    def add_outputs(self):
        """Output ports as end points: the AXI slave's outputs (s_axi_*) belong to its clock
        (the master samples them); any other output to the one clock of its cone."""
        nl = self.nl
        for port, bits in nl.outputs.items():
            for i, b in enumerate(bits):
                clk = AXI_CLOCK if port.startswith("s_axi_") else None
                if clk is None:
                    clks = {self.clock(s) for s in self.sources(b) if s[0] != "port"}
                    if len(clks) > 1:
                        self.errors.append(f"output {port} combines registers of clocks "
                                           f"{', '.join(sorted(clks))}")
                        continue
                    if not clks:
                        continue
                    clk = clks.pop()
                name = f"{port}[{i}]" if len(bits) > 1 else port
                r = cdc_netlist.Reg(("out", port, i), name, port, clk, "output", False, {"D": [b]}, None)
                nl.regs[r.id] = r

    def run(self):
        nl = self.nl
        self.find_chains()
        self.add_outputs()
        port_domains: dict[str, set] = {}
        for r in nl.regs.values():
            srcs = self.reg_sources(r)
            for s in srcs:
                if s[0] == "port":
                    self._check_port(r, s[1], port_domains)
                    continue
                sc = self.clock(s)
                if sc == r.clock:
                    continue
                self._check_crossing(r, s)
        for p, doms in sorted(port_domains.items()):
            if len(doms) > 1:
                self.errors.append(f"input {p} is read in clock domains {', '.join(sorted(doms))}: "
                                   "an input belongs to one clock")
        if "?" in self.clocks:
            bad = sorted(r.name for r in nl.regs.values() if r.clock == "?")[:5]
            self.errors.append("registers whose clock is not a top input port (derived or gated "
                               f"clock): {', '.join(bad)}")

    def _record(self, r, s, rule, src_clock=None):
        port = s[0] == "port"
        self.crossings.append({"dest": r.name, "dest_signal": r.signal, "dest_clock": r.clock,
                               "src": self.name(s), "src_signal": s[1] if port else self.nl.regs[s].signal,
                               "src_clock": src_clock or (reset_clock(s[1]) if port else self.clock(s)),
                               "rule": rule, "dest_kind": r.kind,
                               "through": self.path_ports(r, s) if rule == "handshake" else []})

    def path_ports(self, r, s) -> list[str]:
        """Instance ports (VHDL paths, e.g. u_cdc1.m_wdata) on the paths from s to r: what
        an XDC -through names."""
        nl, names, seen = self.nl, set(), set()
        stack = [b for bs in r.pins.values() for b in bs]
        while stack:
            b = stack.pop()
            if not isinstance(b, int) or b in seen:
                continue
            seen.add(b)
            if s not in self.sources(b):
                continue
            names |= {n for n, _ in nl.names.get(b, []) if nl._is_port(n) and "." in n}
            if b not in nl.reg_of_q:
                stack.extend(nl.comb_inputs(b))
        return sorted(names)

    def _check_port(self, r, port, port_domains):
        rc = reset_clock(port)
        if rc is None and port in AXI_HELD:
            if r.clock == AXI_CLOCK:
                return
            if r.async_reg or not self.qualified(r.id, AXI_CLOCK):
                self.errors.append(f"input {port} (clock {AXI_CLOCK}) -> {r.name} (clock {r.clock}): "
                                   "sampled without a synchronised handshake")
            else:
                self._record(r, ("port", port), "handshake", AXI_CLOCK)
            return
        if rc is None:
            port_domains.setdefault(port, set()).add(r.clock)
            return
        arst = set()
        for p in ("ARST", "SET", "CLR"):
            for b in r.pins.get(p, []):
                arst |= self.sources(b)
        other = set()
        for p, bs in r.pins.items():
            if p not in ("ARST", "SET", "CLR"):
                for b in bs:
                    other |= self.sources(b)
        via_async, via_sync = ("port", port) in arst, ("port", port) in other
        if via_async:
            if not r.async_reg or r.clock != rc:
                self.errors.append(
                    f"reset input {port} (clock {rc}) is the asynchronous reset of {r.name} "
                    f"(clock {r.clock}), which is not an ASYNC_REG reset bridge flop of {rc}")
            else:
                self._record(r, ("port", port), "reset-bridge")
        if via_sync:
            if port in AXI_RESETS and r.clock == rc:
                self.axi_reset_users += 1     # synchronous use in its own domain: no crossing
            else:
                self.errors.append(
                    f"reset input {port} (clock {rc}) used by {r.name} (clock {r.clock}) without a "
                    "reset bridge (jointer_collect_reset)")

    def _check_crossing(self, r, s):
        nl = self.nl
        sreg = nl.regs[s]
        what = (f"{sreg.name} (clock {sreg.clock}) -> {r.name} (clock {r.clock})")
        is_reset = sreg.async_reg and "ARST" in sreg.pins
        if r.async_reg:
            d = r.pins.get("D", [None])[0]
            if nl.reg_of_q.get(d) is not sreg:
                self.errors.append(f"{what}: logic between the source register and the "
                                   "synchroniser's first flop (its D must be the source's Q)")
                return
            others = [x for x in self.reg_sources(r) if x != s and x[0] != "port"
                      and self.clock(x) != r.clock]
            if others:
                self.errors.append(f"{what}: the synchroniser's first flop also sees "
                                   f"{self.name(others[0])} (clock {self.clock(others[0])})")
                return
            loads = nl.loads.get(r.q, [])
            nxt = [nl.reg_of_q.get(self._q_of_load(ld)) for ld in loads]
            if len(loads) != 1 or nxt[0] is None or not nxt[0].async_reg or nxt[0].clock != r.clock:
                into = ", ".join(sorted({self._load_name(ld) for ld in loads})) or "nothing"
                self.errors.append(f"{what}: the synchroniser's first flop drives {into}, not only "
                                   "the D of a second ASYNC_REG flop (logic between its flops)")
                return
            self._record(r, s, "sync")
            return
        if is_reset:
            self.errors.append(f"{what}: the reset of clock {sreg.clock} used in clock {r.clock} "
                               "without a synchroniser")
            return
        if not self.qualified(r.id, sreg.clock):
            self.errors.append(f"{what}: sampled without a synchroniser or a synchronised handshake "
                               f"(no synchroniser from {sreg.clock} enables {r.signal})")
            return
        if not self.held(s, r.clock):
            self.errors.append(f"{what}: the source is not held by a handshake (it may change while "
                               f"{r.signal} captures it)")
            return
        self._record(r, s, "handshake")

    def _load_name(self, ld) -> str:
        cname, pin, i = ld
        q = self._q_of_load(ld)
        if q is not None and q in self.nl.reg_of_q:
            return self.nl.reg_of_q[q].name
        c = self.nl.cells[cname]
        outs = [bs for p, bs in c["connections"].items() if c["port_directions"].get(p) == "output"]
        if outs and outs[0] and isinstance(outs[0][0], int):
            return f"logic ({c['type']} -> {self.nl.bit_name(outs[0][0])[0]})"
        return f"logic ({c['type']})"


# ---- designs -------------------------------------------------------------------------------------

def fixtures() -> list[Path]:
    import yaml
    out = []
    for d in FIXTURE_DIRS:
        for f in sorted((REPO / d).glob("*.yaml")):
            doc = yaml.safe_load(f.read_text())
            clocks = (doc or {}).get("monitor", {}).get("clocks", []) if isinstance(doc, dict) else []
            if isinstance(clocks, list) and len(clocks) >= 2:
                out.append(f)
    return out


def check_design(files: list[Path], top: str, workdir: Path) -> dict:
    hdl_check = cdc_netlist.repo_script("hdl_check")
    t0 = time.monotonic()
    lib = hdl_check.library_files()
    netlist, verilog = cdc_netlist.synthesise(workdir, files, top, lib)
    nl = cdc_netlist.load(netlist, verilog, top, lib + [Path(f) for f in files])
    ck = Checker(nl)
    ck.run()
    return {"top": top, "errors": ck.errors, "crossings": ck.crossings,
            "axi_reset_users": ck.axi_reset_users,
            "clocks": sorted(ck.clocks), "seconds": round(time.monotonic() - t0, 1)}


def check_config(config: Path, out: Path = BUILD) -> dict:
    from ..cli import generate as gen
    from ..output import write_tree
    design, rendered = gen(str(config))
    dest = out / "gen" / design.name
    write_tree(rendered, dest)
    man = json.loads(rendered["manifest.json"])
    res = check_design([dest / p for p in man["compile_order"]], man["top"], out / "work" / design.name)
    res["name"] = design.name
    res["config"] = str(config)
    return res


def summary(res: dict) -> str:
    by = {}
    for c in res["crossings"]:
        by[c["rule"]] = by.get(c["rule"], 0) + 1
    parts = ", ".join(f"{n} {k}" for k, n in sorted(by.items())) or "none"
    state = "FAIL" if res["errors"] else "ok"
    return (f"cdc-check: {state} {res.get('name', res['top'])}: clocks {', '.join(res['clocks'])}; "
            f"crossings proven: {parts}; {len(res['errors'])} error(s) ({res['seconds']} s)")


def group(crossings: list[dict]) -> list[str]:
    g: dict = {}
    for c in crossings:
        k = (c["rule"], c["src_signal"], c["src_clock"], c["dest_signal"], c["dest_clock"])
        g[k] = g.get(k, 0) + 1
    return [f"  {rule:12} {src} ({sc}) -> {dst} ({dc}) x{n}" for (rule, src, sc, dst, dc), n in sorted(g.items())]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="jointer-cdc-check", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("configs", nargs="*", type=Path)
    ap.add_argument("--files", nargs="+", type=Path)
    ap.add_argument("--top")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--out", type=Path, default=BUILD)
    ap.add_argument("-v", "--verbose", action="store_true", help="list every crossing")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    if a.files:
        if not a.top:
            ap.error("--files needs --top")
        results = [check_design(a.files, a.top, a.out / "work" / a.top)]
    else:
        configs = a.configs or sorted((REPO / "configs").glob("*.yaml")) + fixtures()
        with cf.ProcessPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            # the biggest description first: the other workers take the small ones meanwhile
            futs = {c: ex.submit(check_config, c, a.out)
                    for c in sorted(configs, key=lambda c: -Path(c).stat().st_size)}
            results = [futs[c].result() for c in configs]
    bad = 0
    for res in results:
        print(summary(res))
        if a.verbose:
            print("\n".join(group(res["crossings"])))
        for e in res["errors"]:
            print(f"  error: {e}")
        bad += bool(res["errors"])
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(results, indent=1) + "\n")
    print(f"cdc-check: {len(results) - bad}/{len(results)} designs proven "
          f"({time.monotonic() - t0:.1f} s wall)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
