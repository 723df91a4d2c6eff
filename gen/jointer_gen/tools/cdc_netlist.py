# SPDX-License-Identifier: MIT
"""The netlist cdc_check.py reads: a VHDL top -> ghdl synth -> yosys
`proc; opt_dff; opt_clean; flatten` -> JSON, and the model built from it.

Why this netlist and not synth_xilinx's: yosys techmapping renames every
flip-flop ($auto$...) and merges registers, while `proc; opt_dff` keeps one
word-level cell per VHDL register whose Q net keeps its VHDL name
(u_cdc1.req_l, u_cdc1.u_req_sync.stage: the `hdlname` of the flattened net),
turns enables and synchronous resets into EN/SRST pins (so the first stage of
a synchroniser with a reset has its D straight from the source), and runs in
seconds even for the 4-domain stress top. The clock of a register is the top
input port its CLK pin comes from.

GHDL 2.0 drops the ASYNC_REG attribute ("unhandled attribute"), so it is
recovered from the VHDL sources: `attribute async_reg of SIG : signal is
"TRUE"` in entity E marks register SIG of every instance of E; the instance
path -> entity map comes from the module instantiations of ghdl's Verilog.
"""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ASYNC_RE = re.compile(r'attribute\s+async_reg\s+of\s+(\w+)\s*:\s*signal\s+is\s+"true"', re.I)
ENTITY_RE = re.compile(r"^\s*entity\s+(\w+)\s+is", re.M | re.I)
ARCH_RE = re.compile(r"^\s*architecture\s+\w+\s+of\s+(\w+)\s+is", re.M | re.I)
MODULE_RE = re.compile(r"^module\s+(\w+)", re.M)
INST_RE = re.compile(r"^\s+(\w+)\s+(\w+)\s+\($")
PORT_RE = re.compile(r"^\s*\(?\s*(?:input|output|inout)\s+(?:\[[^\]]*\]\s*)?(\w+)")
GHDL_TMP = re.compile(r"(^|\.)n\d+_[oq]$")

FLOPS = {"$dff", "$dffe", "$sdff", "$sdffe", "$sdffce", "$adff", "$adffe", "$aldff", "$aldffe",
         "$dffsr", "$dffsre"}
# cells whose output bit i depends on input bit i only (and on S for muxes)
BITWISE = {"$and", "$or", "$xor", "$xnor", "$not", "$pos", "$buf", "$mux", "$bwmux", "$_AND_",
           "$_OR_", "$_XOR_", "$_NOT_", "$_MUX_", "$_BUF_"}


def async_regs(vhdl_files: list[Path]) -> set[tuple[str, str]]:
    """{(entity, signal)} of every `attribute async_reg of signal` in the sources."""
    out = set()
    for f in vhdl_files:
        text = re.sub(r"--[^\n]*", "", Path(f).read_text())
        # the architecture names its entity; signals are declared in architectures
        parts = ARCH_RE.split(text)
        for ent, body in zip(parts[1::2], parts[2::2]):
            for sig in ASYNC_RE.findall(body):
                out.add((ent.lower(), sig.lower()))
    return out


def entity_names(vhdl_files: list[Path]) -> set[str]:
    out = set()
    for f in vhdl_files:
        out |= {m.lower() for m in ENTITY_RE.findall(re.sub(r"--[^\n]*", "", Path(f).read_text()))}
    return out


def instance_entities(verilog: str, top: str, entities: set[str]) -> tuple[dict, dict]:
    """({instance path ("" = top, "u_cdc1.u_req_sync"): VHDL entity}, {instance path: its
    port names}) from ghdl's Verilog (one module per entity and generics: the module
    name starts with the entity's)."""
    children: dict[str, list[tuple[str, str]]] = {}
    ports: dict[str, set[str]] = {}
    cur, header = None, False
    for line in verilog.splitlines():
        m = MODULE_RE.match(line)
        if m:
            cur, header = m.group(1), True
            children[cur] = []
            ports[cur] = set()
            continue
        if header:
            m = PORT_RE.match(line)
            if m:
                ports[cur].add(m.group(1).lower())
            if line.rstrip().endswith(");"):
                header = False
            continue
        m = INST_RE.match(line)
        if m and cur is not None and m.group(1) not in ("module", "assign", "always", "wire", "reg"):
            children[cur].append((m.group(2), m.group(1)))

    def entity_of(module: str) -> str:
        best = ""
        for e in entities:
            if (module == e or module.startswith(e + "_")) and len(e) > len(best):
                best = e
        return best or module

    out: dict[str, str] = {}
    inst_ports: dict[str, set[str]] = {}
    stack = [("", top)]
    while stack:
        path, mod = stack.pop()
        out[path] = entity_of(mod)
        inst_ports[path] = ports.get(mod, set())
        for inst, sub in children.get(mod, []):
            if sub in children:
                stack.append((f"{path}.{inst}" if path else inst, sub))
    return out, inst_ports


def repo_script(name: str):
    """A module of the checkout's scripts/ (hdl_check, ghdl_verilog: the project's
    GHDL and yosys flows), which the CDC check runs on, as the library it checks
    (hdl/) is the checkout's."""
    from ..model.vhdl_library import REPO
    scripts = str(REPO / "scripts")
    if scripts not in sys.path:
        sys.path.insert(0, scripts)
    return importlib.import_module(name)


def synthesise(workdir: Path, files: list[Path], top: str, library_files: list[Path]) -> tuple[Path, str]:
    """ghdl synth (the library + files) -> repaired Verilog -> yosys JSON; (json, verilog text)."""
    hdl_check = repo_script("hdl_check")
    ghdl_verilog = repo_script("ghdl_verilog")
    workdir = Path(workdir).resolve()
    files = [Path(f).resolve() for f in files]
    hdl_check.analyse(workdir, library_files + files, [top])
    r = subprocess.run(["ghdl", "synth", "--std=08", f"--work={hdl_check.LIBRARY}",
                        f"--workdir={workdir}", "--out=verilog", top],
                       cwd=workdir, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"ghdl synth {top} failed:\n{r.stderr.strip()}")
    text, _, _ = ghdl_verilog.repair(r.stdout)
    verilog, netlist = workdir / f"{top}.v", workdir / f"{top}.cdc.json"
    verilog.write_text(text)
    r = subprocess.run(["yosys", "-q", "-p", f"read_verilog {verilog}; hierarchy -top {top}; proc; "
                        f"opt_dff; opt_clean; flatten; write_json {netlist}"],
                       cwd=workdir, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"yosys failed on {verilog}:\n{(r.stdout + r.stderr).strip()[-600:]}")
    return netlist, text


@dataclass
class Reg:
    """One bit of a register (or one memory: a state element written on a clock)."""
    id: tuple                       # (cell, bit) or ("mem", memid)
    name: str                       # VHDL path, e.g. u_cdc1.u_req_sync.stage[1]
    signal: str                     # VHDL path without the bit index
    clock: str                      # top input port of its clock ("?" when derived)
    kind: str                       # the yosys cell type
    async_reg: bool = False
    pins: dict = field(default_factory=dict)   # pin -> [net bits] this bit depends on
    q: int | None = None            # its output net bit (flops)


class Netlist:
    """Drivers, loads and registers of the flat top module."""

    def __init__(self, net: dict, top: str, inst_entity: tuple[dict, dict],
                 async_sigs: set[tuple[str, str]]):
        mod = net["modules"][top]
        self.top = top
        self.cells = mod["cells"]
        self.inputs = {n: p["bits"] for n, p in mod["ports"].items() if p["direction"] == "input"}
        self.outputs = {n: p["bits"] for n, p in mod["ports"].items() if p["direction"] == "output"}
        self.driver: dict[int, tuple] = {}
        self.loads: dict[int, list[tuple]] = {}
        for pname, bits in self.inputs.items():
            for i, b in enumerate(bits):
                self.driver[b] = ("<port>", pname, i)
        for cname, c in self.cells.items():
            for pin, bits in c["connections"].items():
                out = c["port_directions"].get(pin) == "output"
                for i, b in enumerate(bits):
                    if not isinstance(b, int):
                        continue
                    if out:
                        self.driver[b] = (cname, pin, i)
                    else:
                        self.loads.setdefault(b, []).append((cname, pin, i))
        # net bit -> VHDL names (best first: VHDL signals before ghdl's nNNN_o/q temporaries)
        self.names: dict[int, list[tuple[str, int]]] = {}
        self.width: dict[str, int] = {}
        for nname, n in mod["netnames"].items():
            if n.get("hide_name"):
                continue
            self.width[nname] = len(n["bits"])
            for i, b in enumerate(n["bits"]):
                if isinstance(b, int):
                    self.names.setdefault(b, []).append((nname, i))
        self.inst_entity, self.inst_ports = inst_entity
        for b, lst in self.names.items():
            lst.sort(key=lambda x: (bool(GHDL_TMP.search(x[0])), self._is_port(x[0]),
                                    -x[0].count("."), len(x[0]), x[0]))
        self.async_sigs = async_sigs
        self.regs: dict[tuple, Reg] = {}
        self.reg_of_q: dict[int, Reg] = {}
        self._build_regs()

    # -- names and clocks ----------------------------------------------------------------------
    def bit_name(self, b) -> tuple[str, str]:
        """(name with index, signal path) of net bit b."""
        lst = self.names.get(b)
        if not lst:
            return f"<net {b}>", f"<net {b}>"
        n, i = lst[0]
        return (f"{n}[{i}]" if self.width[n] > 1 else n), n

    def _is_port(self, name: str) -> bool:
        path, _, sig = name.rpartition(".")
        return sig.lower() in self.inst_ports.get(path, ())

    def is_async(self, signal: str) -> bool:
        path, _, sig = signal.rpartition(".")
        ent = self.inst_entity.get(path)
        return ent is not None and (ent, sig.lower()) in self.async_sigs

    def clock_of(self, bit) -> str:
        seen = 0
        while isinstance(bit, int) and seen < 16:
            d = self.driver.get(bit)
            if d is None:
                return "?"
            if d[0] == "<port>":
                return d[1]
            c = self.cells[d[0]]
            if c["type"] in ("$pos", "$buf", "$_BUF_"):
                bit = c["connections"]["A"][d[2]]
                seen += 1
                continue
            return "?"
        return "?"

    # -- registers -----------------------------------------------------------------------------
    def _build_regs(self):
        memclk: dict[str, str] = {}
        for cname, c in self.cells.items():
            t, con, par = c["type"], c["connections"], c["parameters"]
            if t in FLOPS:
                clk = self.clock_of(con["CLK"][0]) if "CLK" in con else "?"
                shared = {p: con[p] for p in ("EN", "SRST", "ARST", "CE", "AD", "ALOAD") if p in con}
                for i, q in enumerate(con["Q"]):
                    name, sig = self.bit_name(q)
                    pins = {"D": [con["D"][i]], **shared}
                    for p in ("SET", "CLR"):
                        if p in con:
                            pins[p] = [con[p][i]]
                    asy = any(self.is_async(n) for n, _ in self.names.get(q, []))
                    r = Reg((cname, i), name, sig, clk, t, asy, pins, q)
                    self.regs[r.id] = r
                    self.reg_of_q[q] = r
            elif t.startswith("$memwr"):
                memid = par["MEMID"]
                clk = self.clock_of(con["CLK"][0])
                r = self.regs.get(("mem", memid))
                if r is None:
                    nm = memid.lstrip("\\")
                    r = Reg(("mem", memid), nm, nm, clk, "memory")
                    self.regs[r.id] = r
                for p in ("ADDR", "DATA", "EN"):
                    r.pins.setdefault(p, []).extend(con[p])
                memclk[memid] = clk
            elif t.startswith("$memrd") and _int(par.get("CLK_ENABLE", 0)):
                clk = self.clock_of(con["CLK"][0])
                for i, q in enumerate(con["DATA"]):
                    name, sig = self.bit_name(q)
                    pins = {p: con[p] for p in ("ADDR", "EN", "ARST", "SRST") if p in con}
                    pins["MEM"] = []   # the memory (a dependency added by inputs_of)
                    r = Reg((cname, i), name, sig, clk, t, False, pins, q)
                    self.regs[r.id] = r
                    self.reg_of_q[q] = r

    def comb_inputs(self, bit) -> list:
        """Input bits (and ("mem", id) memories) the net bit depends on through one
        combinational cell; [] for a port, a constant or a register output."""
        d = self.driver.get(bit)
        if d is None or d[0] == "<port>" or bit in self.reg_of_q:
            return []
        cname, pin, i = d
        c = self.cells[cname]
        t, con, par = c["type"], c["connections"], c["parameters"]
        if t.startswith("$memrd"):
            return list(con.get("ADDR", [])) + list(con.get("EN", [])) + self.mem_state(par["MEMID"])
        ins = {p: bs for p, bs in con.items() if c["port_directions"].get(p) == "input"}
        if t in ("$mux", "$_MUX_", "$bwmux"):
            s = ins["S"]
            sel = s[i] if t == "$bwmux" else s[0]
            if sel == "0":
                return [ins["A"][i]]
            if sel == "1":
                return [ins["B"][i]]
            return [ins["A"][i], ins["B"][i], sel]
        if t == "$pmux":
            w = len(ins["A"])
            return [ins["A"][i]] + [ins["B"][k * w + i] for k in range(len(ins["S"]))] + list(ins["S"])
        if t in BITWISE and all(len(bs) == len(con[pin]) for bs in ins.values()):
            return [bs[i] for bs in ins.values()]
        return [b for bs in ins.values() for b in bs]

    def reg_inputs(self, r: Reg) -> list:
        out = []
        for p, bs in r.pins.items():
            out.extend(bs)
        if r.kind.startswith("$memrd"):
            out += self.mem_state(self.cells[r.id[0]]["parameters"]["MEMID"])
        return out

    def mem_state(self, memid: str) -> list:
        """[("mem", memid)] for a memory some port writes (state on that port's clock);
        [] for a ROM (no write port: constants, its reads depend on the address only)."""
        return [("mem", memid)] if ("mem", memid) in self.regs else []


def _int(v) -> int:
    if isinstance(v, int):
        return v
    try:
        return int(str(v), 2)
    except ValueError:
        return 0


def load(netlist: Path, verilog: str, top: str, vhdl_files: list[Path]) -> Netlist:
    net = json.loads(Path(netlist).read_text())
    ents = entity_names(vhdl_files)
    return Netlist(net, top, instance_entities(verilog, top, ents), async_regs(vhdl_files))
