#!/usr/bin/env python3
"""Build and run a co-simulation scenario in Verilator and/or GHDL, compare.

    python3 sim/cosim/run.py SCENARIO.yaml [--sim verilator|ghdl|both] [--waves]
                             [--config CONFIG.yaml] [--quiet]

What it does (sim/cosim/README.md):
  1. jointer-gen CONFIG -> build/cosim/gen/<name>-<key>/ (VHDL, C, manifest.json)
  2. GHDL analysis of the library + generated VHDL (+ the demo top and the
     accelerator for `top: demo`), in manifest order
  3. Verilator: ghdl synth --out=verilog -> latch check (yosys) -> verilator
     -> harness + application -> run
  4. GHDL: the application as a shared library -> cocotb (ghdl/cosim.py) -> run
  5. a table (metric, expected, verilator, ghdl); exit 1 unless every check
     passes and both reports are identical

Everything built is cached under build/cosim/ by the content of its inputs:
one Verilator model per top (+ config), shared by every scenario that uses
it; one application per config and app. Builds are locked (pytest -n).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
COSIM = REPO / "sim" / "cosim"
APP = COSIM / "app"
BUILD = Path(os.environ.get("COSIM_BUILD", REPO / "build" / "cosim"))
DRIVERS = REPO / "drivers"
sys.path.insert(0, str(REPO / "scripts"))
import ghdl_verilog  # noqa: E402  (repairs of GHDL 2.0.0's Verilog)
sys.path.insert(0, str(COSIM))
import soc_top  # noqa: E402  (the demo coprocessor + any monitor)
LIBRARY = "jointer"
ACCEL_SOURCES = ["sa_mac16.vhd", "sa_mem.vhd", "sa_accel.vhd", "sa_soc.vhd"]
import driver_sources  # noqa: E402  (drivers/sources.mk: the one list of driver sources)
DRIVER_SOURCES = [p.name for p in driver_sources.sources("DRV_SIM_SRCS")]
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2"]
VL_INCLUDE = Path("/usr/share/verilator/include")
# compared between the two simulators (wall time and x_reads are not)
COMPARED = ["app_rc", "metrics", "app_expect", "monitor_transactions", "accel_transactions",
            "bus_errors", "sim_time_ps", "cycles"]

QUIET = False


def log(msg: str) -> None:
    if not QUIET:
        print(f"[cosim] {msg}", flush=True)


class BuildError(Exception):
    pass


# ---- small build system: content-hashed stamps, file locks ----------------------------

def digest(*parts) -> str:
    h = hashlib.sha1()
    for p in parts:
        if isinstance(p, Path):
            h.update(str(p).encode())
            h.update(p.read_bytes() if p.exists() else b"<missing>")
        else:
            h.update(repr(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:12]


@contextlib.contextmanager
def locked(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def fresh(stamp: Path, key: str) -> bool:
    return stamp.exists() and stamp.read_text() == key


def sh(cmd: list, cwd: Path | None = None, log_file: Path | None = None, env=None,
       progress: str | None = None) -> str:
    """Run a command; raise BuildError with its output when it fails.

    progress: print the lines of the output that match it (build progress)."""
    t0 = time.monotonic()
    proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = []
    done = threading.Event()

    def heartbeat():  # a long compile prints nothing for a while
        while not done.wait(15):
            log(f"    {time.monotonic() - t0:5.1f}s  still compiling ...")
    if progress:
        threading.Thread(target=heartbeat, daemon=True).start()
    for line in proc.stdout:
        out.append(line)
        if progress and re.search(progress, line):
            m = re.search(r"(\S+\.(?:cpp|c))\b", line)
            log(f"    {time.monotonic() - t0:5.1f}s  compiling {Path(m.group(1)).name if m else line.strip()[:60]}")
    proc.wait()
    done.set()
    text = "".join(out)
    if log_file is not None:
        log_file.write_text(text)
    if proc.returncode:
        tail = "\n".join(text.splitlines()[-40:])
        raise BuildError(f"command failed ({proc.returncode}): {' '.join(map(str, cmd))}\n{tail}")
    return text


# ---- scenario ----------------------------------------------------------------------------

@dataclass
class Scenario:
    path: Path
    data: dict
    name: str
    config: Path
    top: str
    app: str
    app_sources: list[Path] = field(default_factory=list)


def load_scenario(path: Path, config: Path | None = None) -> Scenario:
    path = path.resolve()
    with open(path) as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        raise BuildError(f"{path}: not a scenario (a YAML mapping)")
    unknown = set(data) - {"scenario", "description", "config", "top", "app", "app_sources",
                           "clocks", "run_ns", "irq_ms_ns", "setup", "stimulus", "expect"}
    if unknown:
        raise BuildError(f"{path}: unknown keys {sorted(unknown)}")

    def resolve(p: str) -> Path:
        for base in (REPO, path.parent, Path.cwd()):
            if (base / p).exists():
                return (base / p).resolve()
        raise BuildError(f"{path}: {p} not found")

    cfg = config.resolve() if config else resolve(data.get("config", ""))
    top = data.get("top", "monitor")
    if top not in ("monitor", "demo") and not str(top).endswith(".vhd"):
        raise BuildError(f"{path}: top must be monitor, demo or a .vhd file, not {top!r}")
    if str(top).endswith(".vhd"):      # a demo-like top of its own (accelerator + its monitor)
        top = str(resolve(top))
    app = data.get("app", "scenario")
    srcs = [resolve(s) for s in data.get("app_sources", [])]
    if not data.get("app_sources") and app == "demo" and (APP / "sa_reference.c").exists():
        srcs = [APP / "sa_reference.c"]
    return Scenario(path, data, data.get("scenario", path.stem), cfg, top, app, srcs)


# ---- generation and sources ----------------------------------------------------------------

def generate(config: Path) -> tuple[Path, dict]:
    """jointer-gen CONFIG, cached by the content of the config, the generator and the library."""
    gen_src = sorted(p for p in (REPO / "gen" / "jointer_gen").rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts)
    gen_src += sorted((REPO / "hdl").rglob("*.vhd"))   # the manifest lists the library files a design needs
    key = digest(config, *gen_src)
    out = BUILD / "gen" / f"{config.stem}-{key}"
    with locked(out):
        manifests = list(out.glob("*/manifest.json"))
        if not manifests:
            log(f"jointer-gen {config.relative_to(REPO) if config.is_relative_to(REPO) else config}")
            tmp = out.with_name(out.name + ".tmp")
            shutil.rmtree(tmp, ignore_errors=True)
            env = dict(os.environ, PYTHONPATH=str(REPO / "gen"))
            sh([sys.executable, "-m", "jointer_gen", config, "-o", tmp], env=env)
            shutil.rmtree(out, ignore_errors=True)
            tmp.rename(out)
            manifests = list(out.glob("*/manifest.json"))
        if len(manifests) != 1:
            raise BuildError(f"{out}: expected one manifest.json, found {len(manifests)}")
    gdir = manifests[0].parent
    return gdir, json.loads(manifests[0].read_text())


_ENTITY_RE = re.compile(r"^\s*entity\s+(\w+)\s+is\b", re.M | re.I)


def design(sc: Scenario, gdir: Path, man: dict) -> tuple[list[Path], str]:
    """VHDL sources in compile order and the top entity."""
    srcs = [REPO / p for p in man["library_sources"]] + [gdir / p for p in man["compile_order"]]
    if sc.top == "monitor":
        return srcs, man["top"]
    if sc.top == "demo":              # the demo coprocessor + this monitor, wired by soc_top.py
        mon = next((gdir / p for p in man["compile_order"] if Path(p).stem == man["top"]), None)
        if mon is None:
            raise BuildError(f"{gdir}: no file of the top {man['top']}")
        try:
            top_file, _ = soc_top.write(gdir, man["top"], mon)
        except ValueError as e:
            raise BuildError(f"{sc.path}: top: demo: {e}") from None
    else:                             # a top of its own (.vhd)
        top_file = Path(sc.top)
    if not top_file.exists():
        raise BuildError(f"top: {sc.top} needs {top_file}")
    srcs += [COSIM / "accel" / f for f in ACCEL_SOURCES] + [top_file]
    m = _ENTITY_RE.search(re.sub(r"--[^\n]*", "", top_file.read_text()))
    if not m:
        raise BuildError(f"{top_file}: no entity")
    return srcs, m.group(1).lower()


# ---- the model: GHDL analysis, Verilog, latch check, port table, Verilator ---------------



_PORT_RE = re.compile(r"^\s*\(?\s*(input|output|inout)\s+(?:\[(\d+):(\d+)\]\s+)?(\w+)", re.M)


class Model:
    def __init__(self, sc: Scenario, gdir: Path, man: dict, repair: bool = True):
        self.sc, self.gdir, self.man, self.repair = sc, gdir, man, repair
        self.repairs = 0
        sources, self.top = design(sc, gdir, man)
        # a snapshot of the sources: the model matches its key even when a
        # file is edited meanwhile (GHDL refuses to run a changed file)
        texts = [(p.name, p.read_bytes()) for p in sources]
        if len({n for n, _ in texts}) != len(texts):
            raise BuildError(f"{self.top}: two VHDL files with the same name")
        self.key = digest(self.top, *texts)
        self.dir = BUILD / "model" / f"{self.top}-{self.key}"
        if not repair:  # test_cosim: GHDL's Verilog as it is, to show the difference
            self.key = digest(self.key, "raw")
            self.dir = BUILD / "model" / f"{self.top}-{self.key}-raw"
        self.work = self.dir / "work"
        self.sources = [self.dir / "src" / n for n, _ in texts]
        with locked(self.dir / "src"):
            if not fresh(self.dir / "src.ok", self.key):
                (self.dir / "src").mkdir(parents=True, exist_ok=True)
                for (n, t), f in zip(texts, self.sources):
                    f.write_bytes(t)
                (self.dir / "src.ok").write_text(self.key)

    def analyse(self) -> None:
        stamp = self.work / "analysed"
        with locked(stamp):
            if fresh(stamp, self.key):
                return
            log(f"ghdl: analysing {len(self.sources)} VHDL files for {self.top}")
            shutil.rmtree(self.work, ignore_errors=True)
            self.work.mkdir(parents=True)
            base = ["ghdl", "-i", "--std=08", f"--work={LIBRARY}", f"--workdir={self.work}"]
            sh(base + self.sources, cwd=self.work)
            sh(["ghdl", "-m", "--std=08", f"--work={LIBRARY}", f"--workdir={self.work}", self.top],
               cwd=self.work, log_file=self.work / "analyse.log")
            stamp.write_text(self.key)

    def verilog(self) -> Path:
        """ghdl synth --out=verilog, the null-range workaround, the latch check."""
        self.analyse()
        v = self.dir / f"{self.top}.v"
        stamp = self.dir / "verilog.ok"
        with locked(stamp):
            if fresh(stamp, self.key):
                self.repairs = int((self.dir / "repairs").read_text())
                return v
            log(f"ghdl synth --out=verilog {self.top}")
            r = subprocess.run(["ghdl", "synth", "--std=08", f"--work={LIBRARY}",
                                f"--workdir={self.work}", "--out=verilog", self.top],
                               cwd=self.work, capture_output=True, text=True)
            if r.returncode:
                lines = [l for l in r.stderr.splitlines() if ":note:" not in l and ":warning:" not in l]
                raise BuildError(f"ghdl synth {self.top} failed:\n" + "\n".join(lines[:40]))
            text = r.stdout
            # GHDL 2.0.0 writes a null-range constant (an unused zero-width port
            # of jointer_collect_lmic, e.g. tr_* when an LMIC has no trace) as
            # `localparam x = 0'b;`, which no Verilog parser accepts; the port is
            # declared 1 bit wide, so a 1-bit 0 is what it means.
            text, n = ghdl_verilog.fix_null_constants(text)
            if n:
                log(f"    worked around {n} zero-width constant(s) (0'b) in GHDL's Verilog")
            self.repairs = n
            try:
                fixed, n = ghdl_verilog.fix_string_constants(text)
            except ghdl_verilog.VerilogError as e:
                raise BuildError(str(e)) from None
            if self.repair:
                text = fixed
            if n and self.repair:
                log(f"    worked around {n} constant(s) written as strings in GHDL's Verilog "
                    "(ghdl/ghdl#2002)")
            self.repairs += n
            (self.dir / "repairs").write_text(str(self.repairs))
            v.write_text(text)
            log("latch and loop checks (yosys: select -assert-none t:$dlatch; check -assert)")
            r = subprocess.run(["yosys", "-q", "-p", f"read_verilog {v}; hierarchy -top {self.top}; "
                                "proc; select -assert-none t:$dlatch"],
                               cwd=self.dir, capture_output=True, text=True)
            if r.returncode:
                latches = [l.strip() for l in (r.stdout + r.stderr).splitlines() if "atch" in l]
                raise BuildError(f"latch check failed for {self.top} (a reachable `others` arm?):\n"
                                 + "\n".join(latches[:20]))
            # as scripts/hdl_check.py: GHDL 2.0 can turn an array register written at a
            # computed index into a combinational loop; yosys `check` sees it
            r = subprocess.run(["yosys", "-q", "-p", f"read_verilog {v}; hierarchy -top {self.top}; "
                                "proc; opt_clean; check -assert"],
                               cwd=self.dir, capture_output=True, text=True)
            if r.returncode:
                msgs = [l.strip() for l in (r.stdout + r.stderr).splitlines()
                        if "Warning" in l or "ERROR" in l or "loop" in l.lower()]
                raise BuildError(f"yosys check fails on GHDL's Verilog of {self.top} (a combinational "
                                 "loop or multiple drivers?):\n" + "\n".join(msgs[:20]))
            stamp.write_text(self.key)
        return v

    def ports(self) -> list[dict]:
        """Port list of the top, from its VHDL entity (flat std_logic and
        std_logic_vector(N downto M) ports with literal bounds)."""
        pat = re.compile(rf"\bentity\s+{re.escape(self.top)}\s+is\s+port\s*\((.*?)\)\s*;\s*end\b",
                         re.S | re.I)
        for src in reversed(self.sources):
            m = pat.search(re.sub(r"--[^\n]*", "", src.read_text()))
            if m:
                break
        else:
            raise BuildError(f"no entity {self.top} with a port clause (and no generics) found")
        ports = []
        for item in m.group(1).split(";"):
            pm = re.fullmatch(r"\s*([\w\s,]+?)\s*:\s*(in|out)\s+std_u?logic(?:_vector\s*\(\s*(\d+)"
                              r"\s+downto\s+(\d+)\s*\))?\s*(?::=.*)?", item, re.S | re.I)
            if not pm:
                raise BuildError(f"{self.top}: cannot read port '{item.strip()}' (flat std_logic "
                                 "or std_logic_vector(N downto M) expected)")
            width = int(pm.group(3)) - int(pm.group(4)) + 1 if pm.group(3) else 1
            for name in pm.group(1).split(","):
                ports.append({"name": name.strip().lower(), "width": width,
                              "dir": "in" if pm.group(2).lower() == "in" else "out"})
        return ports

    def verilog_ports(self) -> list[dict]:
        """The same from the module header GHDL wrote (must agree)."""
        text = self.verilog().read_text()
        m = re.search(rf"^module {re.escape(self.top)}\b(.*?)\);", text, re.S | re.M)
        if not m:
            raise BuildError(f"module {self.top} not found in GHDL's Verilog")
        ports = []
        for d, msb, lsb, name in _PORT_RE.findall(m.group(1)):
            width = abs(int(msb) - int(lsb)) + 1 if msb else 1
            ports.append({"name": name, "width": width, "dir": "in" if d == "input" else "out"})
        return ports

    def top_info(self) -> Path:
        """The facts both harnesses need besides the scenario (top.yaml)."""
        ports = self.ports()
        names = {p["name"] for p in ports}
        clocks = []
        for c in self.man["clocks"]:
            clk = f"{c['name']}_clk" if f"{c['name']}_clk" in names else c["port"]
            rst = f"{c['name']}_resetn" if f"{c['name']}_resetn" in names else c["reset"]
            for p in (clk, rst):
                if p not in names:
                    raise BuildError(f"{self.top}: no port {p} for clock {c['name']}")
            clocks.append({"name": c["name"], "clk": clk, "resetn": rst,
                           "period_ns": float(c["period_ns"])})
        info = {
            "top": self.top,
            "kind": self.sc.top,
            "config": self.man["name"],
            "bus_clock": self.man["clocks"][0]["name"],
            "clocks": clocks,
            "irq": "irq",
            "monitor": {"prefix": "s_axi", "base": int(self.man["bus"]["base_address"], 0),
                        "span": int(self.man["bus"]["span"])},
            "ports": ports,
        }
        if "acc_axi_awaddr" in names:
            info["accel"] = {"prefix": "acc_axi", "clock": "accel", "base": 0x43C10000,
                             "span": 0x8000}
        path = self.dir / "top.yaml"
        text = yaml.safe_dump(info, sort_keys=False)
        with locked(path):
            if not path.exists() or path.read_text() != text:
                path.write_text(text)
        return path

    # -- Verilator --

    def vl_dir(self, waves: bool) -> Path:
        return self.dir / ("vl-fst" if waves else "vl")

    def verilated(self, waves: bool) -> Path:
        """The Verilated model library, the runtime and the harness objects."""
        v = self.verilog()
        ports = self.ports()
        if sorted(map(str, ports)) != sorted(map(str, self.verilog_ports())):
            raise BuildError(f"{self.top}: the ports of the VHDL entity and of GHDL's Verilog differ")
        d = self.vl_dir(waves)
        obj = d / "obj"
        harness_src = [COSIM / "verilator" / "harness.cpp", COSIM / "verilator" / "cosim_ports.h",
                       APP / "platform.h", DRIVERS / "include" / "jointer.h",
                       DRIVERS / "include" / "jointer_desc.h"]
        key = digest(self.key, waves, *harness_src, verilator_version())
        stamp = d / "built"
        with locked(stamp):
            if fresh(stamp, key):
                return d
            t0 = time.monotonic()
            log(f"verilator: building the model of {self.top}{' with FST tracing' if waves else ''} "
                f"(a minute or so the first time; cached in {d.relative_to(REPO) if d.is_relative_to(REPO) else d})")
            shutil.rmtree(d, ignore_errors=True)
            obj.mkdir(parents=True)
            jobs = str(os.cpu_count() or 2)
            cmd = ["verilator", "--cc", v, "--top-module", self.top, "--prefix", "Vcosim_top",
                   "-Mdir", obj, "--timescale", "1ps/1ps", "-Wno-fatal", "-Wno-lint",
                   "-Wno-style", "-Wno-UNOPTFLAT", "--output-split", "20000", "-O3"]
            if waves:
                cmd += ["--trace-fst"]
            log("    verilating (Verilog -> C++)")
            sh(cmd, cwd=d, log_file=d / "verilator.log")
            classes = (obj / "Vcosim_top_classes.mk").read_text()
            glob = []
            for var in ("VM_GLOBAL_FAST", "VM_GLOBAL_SLOW"):
                m = re.search(rf"{var} \+= \\\n((?:\t\S+ \\\n)*)", classes)
                if m:
                    glob += [l.strip(" \t\\") + ".o" for l in m.group(1).splitlines() if l.strip(" \t\\")]
            log(f"    compiling the model and the Verilator runtime ({len(glob)} runtime files)")
            sh(["make", "-C", obj, "-f", "Vcosim_top.mk", f"-j{jobs}", "OPT_FAST=-O2",
                "OPT_SLOW=-O1", "OPT_GLOBAL=-O2", "Vcosim_top__ALL.a", *glob],
               log_file=d / "make.log", progress=r"^(ccache )?g\+\+ .* -c ")
            # the port table
            lines = ['#include "Vcosim_top.h"', '#include "cosim_ports.h"', "",
                     "void cosim_bind_ports(Vcosim_top *m, std::vector<CosimPortRef> &v)", "{"]
            for p in ports:
                ref = f"(void *)m->{p['name']}.data()" if p["width"] > 64 else f"(void *)&m->{p['name']}"
                lines.append(f'    v.push_back({{"{p["name"]}", {p["width"]}, '
                             f'{"true" if p["dir"] == "in" else "false"}, {ref}}});')
            lines += ["}", ""]
            (d / "cosim_ports.cpp").write_text("\n".join(lines))
            log("    compiling the harness (C++17, yaml-cpp)")
            defs = [f"-DVM_TRACE={int(waves)}", f"-DVM_TRACE_FST={int(waves)}", "-DVM_TRACE_VCD=0",
                    "-DVM_COVERAGE=0", "-DVM_SC=0"]
            inc = ["-I", obj, "-I", VL_INCLUDE, "-I", VL_INCLUDE / "vltstd", "-I", COSIM / "verilator",
                   "-I", APP, "-I", DRIVERS / "include"]
            for src, o in ((COSIM / "verilator" / "harness.cpp", d / "harness.o"),
                           (d / "cosim_ports.cpp", d / "cosim_ports.o")):
                sh(["g++", "-std=c++17", "-O2", "-faligned-new", "-Wall", "-Wno-unused-parameter",
                    *defs, *inc, "-c", src, "-o", o])
            (d / "link.json").write_text(json.dumps(
                [str(d / "harness.o"), str(d / "cosim_ports.o"), str(obj / "Vcosim_top__ALL.a")]
                + [str(obj / g) for g in glob]))
            stamp.write_text(key)
            log(f"    model built in {time.monotonic() - t0:.0f} s")
        return d

    def vl_exe(self, sc: Scenario, waves: bool) -> Path:
        d = self.verilated(waves)
        csrc = app_sources(sc, self.gdir, self.man)
        objs = json.loads((d / "link.json").read_text())
        key = digest(*csrc, *[Path(o) for o in objs], *c_headers(self.gdir))
        exe = d / "bin" / sc.app
        stamp = exe.with_name(exe.name + ".stamp")
        with locked(stamp):
            if fresh(stamp, key) and exe.exists():
                return exe
            log(f"verilator: linking the harness with app {sc.app} and the {self.man['name']} driver")
            exe.parent.mkdir(parents=True, exist_ok=True)
            cobjs = compile_c(csrc, self.gdir, exe.parent / f"{sc.app}.cobj", pic=False)
            sh(["g++", "-o", exe, *objs[:2], *cobjs, *objs[3:], objs[2], "-lyaml-cpp", "-pthread",
                *(["-lz"] if waves else [])])
            stamp.write_text(key)
        return exe


_VL_VERSION = None


def verilator_version() -> str:
    global _VL_VERSION
    if _VL_VERSION is None:
        _VL_VERSION = subprocess.run(["verilator", "--version"], capture_output=True,
                                     text=True).stdout.strip()
    return _VL_VERSION


# ---- the application -------------------------------------------------------------------

def app_sources(sc: Scenario, gdir: Path, man: dict) -> list[Path]:
    app = APP / f"{sc.app}.c"
    if not app.exists():
        raise BuildError(f"{sc.path}: app {sc.app}: {app.relative_to(REPO)} not found")
    name = man["name"]
    cfgc = gdir / "c" / "cosim_config.c"
    text = (f'/* written by sim/cosim/run.py */\n#include "{name}.h"\n'
            f"const jointer_cfg *const cosim_cfg = &{name}_cfg;\n")
    with locked(cfgc):
        if not cfgc.exists() or cfgc.read_text() != text:
            cfgc.write_text(text)
    drv = [DRIVERS / "src" / f for f in DRIVER_SOURCES]
    return [app, *sc.app_sources, APP / "cosim_app.c", gdir / "c" / f"{name}.c", cfgc, *drv]


def c_headers(gdir: Path) -> list[Path]:
    return sorted([*APP.glob("*.h"), *(DRIVERS / "include").glob("*.h"),
                   *(DRIVERS / "src").glob("*.h"), *(gdir / "c").glob("*.h")])


def compile_c(srcs: list[Path], gdir: Path, outdir: Path, pic: bool) -> list[Path]:
    """C99 -Wall -Wextra -Werror, one object per source."""
    outdir.mkdir(parents=True, exist_ok=True)
    objs = []
    for i, s in enumerate(srcs):
        o = outdir / f"{i:02d}_{s.stem}.o"
        sh(["gcc", *CFLAGS, *(["-fPIC"] if pic else []), "-I", APP, "-I", DRIVERS / "include",
            "-I", DRIVERS / "src", "-I", gdir / "c", "-c", s, "-o", o])
        objs.append(o)
    return objs


def ghdl_lib(sc: Scenario, gdir: Path, man: dict) -> Path:
    csrc = app_sources(sc, gdir, man) + [APP / "platform_ghdl.c"]
    key = digest(*csrc, *c_headers(gdir))
    so = gdir.parent / "so" / f"lib{sc.app}.so"
    stamp = so.with_name(so.name + ".stamp")
    with locked(stamp):
        if fresh(stamp, key) and so.exists():
            return so
        log(f"ghdl: building app {sc.app} as a shared library with the {man['name']} driver")
        objs = compile_c(csrc, gdir, so.parent / f"{sc.app}.cobj", pic=True)
        sh(["gcc", "-shared", "-o", so, *objs])
        stamp.write_text(key)
    return so


# ---- running -------------------------------------------------------------------------------

def run_dir(sc: Scenario, sim: str) -> Path:
    d = BUILD / "run" / sc.name / sim
    d.mkdir(parents=True, exist_ok=True)
    return d


def run_verilator(sc: Scenario, model: Model, waves: bool) -> dict:
    exe = model.vl_exe(sc, waves)
    top = model.top_info()
    d = run_dir(sc, "verilator")
    report = d / "report.json"
    report.unlink(missing_ok=True)
    cmd = [exe, "--scenario", sc.path, "--top", top, "--report", report]
    fst = d / f"{sc.name}.fst"
    if waves:
        cmd += ["--fst", fst]
    log(f"verilator: running {sc.name}")
    r = subprocess.run([str(c) for c in cmd], cwd=d, capture_output=True, text=True)
    (d / "run.log").write_text(r.stdout + r.stderr)
    if not report.exists():
        raise BuildError(f"verilator run of {sc.name} wrote no report (exit {r.returncode}):\n"
                         + (r.stdout + r.stderr)[-3000:])
    rep = json.loads(report.read_text())
    rep["log"] = str(d / "run.log")
    rep["app_output"] = r.stdout + r.stderr
    if waves:
        rep["waves"] = str(fst)
    return rep


def run_ghdl(sc: Scenario, model: Model, waves: bool) -> dict:
    import find_libpython
    import cocotb_tools.config as ccfg

    model.analyse()
    so = ghdl_lib(sc, model.gdir, model.man)
    top = model.top_info()
    d = run_dir(sc, "ghdl")
    report = d / "report.json"
    report.unlink(missing_ok=True)
    env = dict(os.environ)
    env.pop("PYTEST_CURRENT_TEST", None)
    env["PATH"] = env.get("PATH", "") + os.pathsep + str(ccfg.libs_dir)
    env["PYTHONPATH"] = os.pathsep.join([str(COSIM / "ghdl"), *sys.path])
    env["PYGPI_PYTHON_BIN"] = sys.executable
    env["GPI_USERS"] = ";".join([find_libpython.find_libpython(), ccfg.pygpi_entry_point()])
    env.update({"COCOTB_TOPLEVEL": model.top, "COCOTB_TEST_MODULES": "cosim",
                "TOPLEVEL_LANG": "vhdl", "COCOTB_TRUST_INERTIAL_WRITES": "1",
                "COCOTB_RESULTS_FILE": str(d / "results.xml"),
                "COSIM_SCENARIO": str(sc.path), "COSIM_TOP": str(top),
                "COSIM_APP_LIB": str(so), "COSIM_REPORT": str(report)})
    fst = d / f"{sc.name}.fst"
    cmd = ["ghdl", "-r", "--std=08", f"--work={LIBRARY}", f"--workdir={model.work}",
           "--time-resolution=ps", model.top, f"--vpi={ccfg.lib_entry('vpi', 'ghdl')}",
           "--ieee-asserts=disable"] + ([f"--fst={fst}"] if waves else [])
    log(f"ghdl: running {sc.name} (cocotb)")
    r = subprocess.run(cmd, cwd=d, env=env, capture_output=True, text=True)
    (d / "run.log").write_text(r.stdout + r.stderr)
    if not report.exists():
        raise BuildError(f"ghdl run of {sc.name} wrote no report (exit {r.returncode}):\n"
                         + (r.stdout + r.stderr)[-4000:])
    rep = json.loads(report.read_text())
    rep["log"] = str(d / "run.log")
    rep["app_output"] = r.stdout + r.stderr
    if waves:
        rep["waves"] = str(fst)
    return rep


def compare(reports: dict[str, dict]) -> list[str]:
    """Differences between the reports of the simulators (empty: identical)."""
    sims = list(reports)
    diffs = []
    for a, b in zip(sims, sims[1:]):
        ra, rb = reports[a], reports[b]
        for k in COMPARED:
            va, vb = ra.get(k), rb.get(k)
            if va == vb:
                continue
            if isinstance(va, dict) and isinstance(vb, dict):
                for n in list(va) + [n for n in vb if n not in va]:
                    if va.get(n) != vb.get(n):
                        diffs.append(f"{k}.{n}: {a} {va.get(n)} != {b} {vb.get(n)}")
            else:
                diffs.append(f"{k}: {a} {va} != {b} {vb}")
    return diffs


def fmt(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, int) and v > 9:
        return f"{v} (0x{v:X})" if v > 0xFFFF else str(v)
    return str(v)


def table(sc: Scenario, reports: dict[str, dict], diffs: list[str]) -> str:
    sims = list(reports)
    any_rep = next(iter(reports.values()))
    expect = any_rep.get("expect", {})
    app_exp = {}
    for r in reports.values():
        app_exp.update(r.get("app_expect", {}))
    names = []
    for r in reports.values():
        names += [n for n in r.get("metrics", {}) if n not in names]
    names += [n for n in expect if n not in names]
    rows = [("metric", "expected", *sims, "")]
    for n in names:
        e = expect.get(n, app_exp.get(n))
        vals = [reports[s].get("metrics", {}).get(n) for s in sims]
        if e is not None:
            mark = "ok" if all(v == e for v in vals) else "FAIL"
        else:
            mark = "" if len(set(map(str, vals))) == 1 else "DIFF"
        rows.append((n, fmt(e) if e is not None else "", *map(fmt, vals), mark))
    rows.append(("", "", *[""] * len(sims), ""))
    rows.append(("AXI-Lite transactions (monitor)", "", *[str(reports[s].get("monitor_transactions")) for s in sims], ""))
    if any(r.get("accel_transactions") for r in reports.values()):
        rows.append(("AXI-Lite transactions (accel)", "", *[str(reports[s].get("accel_transactions")) for s in sims], ""))
    rows.append(("simulated time (ns)", "", *[f"{reports[s].get('sim_time_ps', 0) / 1000:.1f}" for s in sims], ""))
    for c in any_rep.get("cycles", {}):
        rows.append((f"cycles of clock {c}", "", *[str(reports[s].get("cycles", {}).get(c)) for s in sims], ""))
    rows.append(("wall time (s)", "", *[f"{reports[s].get('wall_s', 0):.3g}" for s in sims], ""))
    rows.append(("app exit code", "0", *[str(reports[s].get("app_rc")) for s in sims], ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = [f"scenario {sc.name}: {sc.path.relative_to(REPO) if sc.path.is_relative_to(REPO) else sc.path}"
           f" (config {sc.config.name}, top {any_rep.get('top')}, app {sc.app})"]
    for i, r in enumerate(rows):
        out.append("  " + "  ".join(c.ljust(widths[j]) if j == 0 else c.rjust(widths[j])
                                    for j, c in enumerate(r)).rstrip())
        if i == 0:
            out.append("  " + "  ".join("-" * w for w in widths))
    vl = reports.get("verilator", {}).get("app_output", "").strip()
    if vl:  # the application's own output (Verilator runs it on the harness' stdout)
        out.append("  application output (verilator):")
        out += ["    " + l for l in vl.splitlines()[-15:]]
    for s in sims:
        for e in reports[s].get("errors", []):
            out.append(f"  {s}: error: {e}")
        if reports[s].get("x_reads"):
            out.append(f"  {s}: note: {reports[s]['x_reads']} reads of non-0/1 values (read as 0)")
        if reports[s].get("waves"):
            out.append(f"  {s}: waveform: {reports[s]['waves']}")
    for dline in diffs:
        out.append(f"  MISMATCH between simulators: {dline}")
    return "\n".join(out)


def run_scenario(path: Path, sims=("verilator", "ghdl"), waves: bool = False,
                 config: Path | None = None, show: bool = True,
                 repair: bool = True) -> tuple[bool, dict, list[str]]:
    """Build and run one scenario; returns (passed, reports by simulator, differences).
    repair=False: GHDL's Verilog without the repairs (a test that they matter)."""
    sc = load_scenario(Path(path), config)
    gdir, man = generate(sc.config)
    model = Model(sc, gdir, man, repair)
    reports = {}
    for s in sims:
        reports[s] = run_verilator(sc, model, waves) if s == "verilator" else run_ghdl(sc, model, waves)
    diffs = compare(reports) if len(reports) > 1 else []
    ok = all(r.get("pass") for r in reports.values()) and not diffs
    if show:
        for s, r in reports.items():
            if not r.get("pass") and r.get("app_output"):
                print(f"--- {s} output (last lines) ---")
                print("\n".join(r["app_output"].splitlines()[-25:]))
        print(table(sc, reports, diffs))
        print(f"result: {'PASS' if ok else 'FAIL'}" + (" (both simulators identical)" if ok and len(sims) > 1 else ""))
    return ok, reports, diffs


BENCH_SCENARIOS = [COSIM / "scenarios" / "demo.yaml", COSIM / "scenarios" / "bench" / "demo_1024.yaml"]
HOST_ACCESS_NS = 221   # seeds/000: one AXI-Lite read from a Zynq's Cortex-A9 (raw pointer)
PAPER_Y9_MON_US = 5.945  # seeds/004 Table 4: Y9 monitoring latency (Mon.)


def bench(json_out: Path | None, repeat: int = 5, fragment: Path | None = None) -> int:
    """Simulated cycles per second, Verilator vs GHDL (median of runs taken in
    turn, one simulator then the other), the AXI4-Lite transactions of one Y9
    monitoring action (the demo's own count), and those of the generic app's
    whole flow on every configs/ example (smoke scenario, Verilator)."""
    rows, ok, result = [], True, {}
    for path in BENCH_SCENARIOS:
        # warm-up (builds) in both, then the runs side by side: Verilator, GHDL, Verilator, ...
        good, reports, diffs = run_scenario(path, show=False)
        ok &= good
        runs = {"verilator": [], "ghdl": []}
        for k in range(repeat):
            for sim in ("verilator", "ghdl"):
                if sim == "ghdl" and k >= 3:   # GHDL: 3 runs (a run is seconds of cocotb start-up)
                    continue
                runs[sim].append(run_scenario(path, (sim,), show=False)[1][sim])
        med = {sim: statistics.median(r["wall_s"] for r in rs) for sim, rs in runs.items()}
        sc = load_scenario(path)
        cycles = sum(reports["verilator"]["cycles"].values())
        entry = {"scenario": sc.name, "sim_time_ns": reports["verilator"]["sim_time_ps"] / 1000,
                 "cycles": reports["verilator"]["cycles"], "identical": not diffs,
                 "monitoring_transactions": reports["verilator"]["metrics"].get("monitoring_transactions")}
        for sim in ("verilator", "ghdl"):
            wall = max(med[sim], 1e-9)
            entry[sim] = {"wall_s": med[sim], "runs": len(runs[sim]), "cycles_per_s": cycles / wall,
                          "wall_s_runs": [r["wall_s"] for r in runs[sim]]}
        entry["ratio"] = entry["verilator"]["cycles_per_s"] / entry["ghdl"]["cycles_per_s"]
        result[sc.name] = entry
        rows.append(entry)

    # every configs/ example: the generic app (open + self-test, NO_FILTERING, run, stop,
    # read every metric, STATUS and trace FILL) on the smoke scenario, Verilator
    examples = {}
    for cfg in sorted((REPO / "configs").glob("*.yaml")):
        good, reports, _ = run_scenario(COSIM / "scenarios" / "smoke" / "smoke.yaml", ("verilator",),
                                        config=cfg, show=False)
        rep = reports["verilator"]
        # the count is the figure; the smoke checks (every metric at its reset value) do not
        # hold for a monitor that counts time on its own (e.g. idle cycles): reported, not fatal
        ok &= rep.get("app_rc") == 0 and rep.get("monitor_transactions") is not None
        examples[cfg.stem] = {"transactions": rep.get("monitor_transactions"), "pass": good,
                              "app_rc": rep.get("app_rc"), "metrics": len(rep.get("metrics", {}))}
    result["examples"] = examples

    def si(v: float) -> str:
        for unit, f in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
            if v >= f:
                return f"{v / f:.2f} {unit}"
        return f"{v:.0f}"

    print("co-simulation speed: simulated clock cycles (every domain) per second of wall time,")
    print("the application's run only (builds and simulator start-up excluded); median of runs taken in turn")
    hdr = f"  {'scenario':12} {'sim time':>10} {'cycles':>8} {'verilator':>14} {'ghdl':>14} {'ratio':>8}"
    print(hdr)
    print("  " + "-" * (len(hdr) - 2))
    for e in rows:
        print(f"  {e['scenario']:12} {e['sim_time_ns'] / 1000:8.1f} us {sum(e['cycles'].values()):8d} "
              f"{si(e['verilator']['cycles_per_s']) + 'c/s':>14} {si(e['ghdl']['cycles_per_s']) + 'c/s':>14} "
              f"{e['ratio']:7.0f}x")
    tx = rows[0]["monitoring_transactions"]
    print(f"AXI4-Lite transactions for one monitoring action on Y9 (initialise the filter, run, stop, "
          f"read every metric): {tx} (goal <= 10){'' if tx is not None and tx <= 10 else '  ** over the goal **'}")
    if tx is not None:
        print(f"  modeled host time at {HOST_ACCESS_NS} ns per access (seeds/000): {tx * HOST_ACCESS_NS / 1000:.3f} us; "
              f"the paper's Y9 monitoring latency (seeds/004 Table 4): {PAPER_Y9_MON_US} us")
    print("AXI4-Lite transactions of the generic app's whole flow (open + self-test, NO_FILTERING, run, "
          "stop, read everything), smoke scenario, Verilator:")
    for n, e in examples.items():
        print(f"  {n:28} {e['transactions']:>5}  ({e['metrics']} values read; idle checks "
              f"{'pass' if e['pass'] else 'differ: the monitor counts without traffic'}; app exit {e['app_rc']})")
    if not all(e["identical"] for e in rows):
        print("** the simulators' reports differ **")
    if json_out:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"written: {json_out}")
    if fragment:
        bench_fragment(fragment, rows, examples)
    return 0 if ok and tx is not None and tx <= 10 else 1


def bench_fragment(path: Path, rows: list[dict], examples: dict) -> None:
    """The figures of bench() as a make bench report fragment (scripts/bench_report.py)."""
    figs = []
    for e in rows:
        n = e["scenario"]
        for sim in ("verilator", "ghdl"):
            figs.append({"name": f"{n}: {sim} cycles/s", "value": round(e[sim]["cycles_per_s"]),
                         "unit": "cycles/s", "anchor": None, "anchor_source": None, "summary": n == "demo",
                         "note": f"median of {e[sim]['runs']} runs ({sum(e['cycles'].values())} cycles, "
                                 f"{e['sim_time_ns'] / 1000:.1f} us simulated); wall s: "
                                 + " ".join(f"{w:.3g}" for w in e[sim]["wall_s_runs"])})
        figs.append({"name": f"{n}: Verilator / GHDL", "value": round(e["ratio"], 1), "unit": "x",
                     "anchor": None, "anchor_source": None, "summary": n == "demo",
                     "note": "same scenario, runs taken in turn" + ("" if e["identical"] else
                                                                    "; the simulators' reports DIFFER")})
    tx = rows[0]["monitoring_transactions"]
    if tx is not None:
        figs.append({"name": "Y9: AXI-Lite transactions per monitoring action", "value": tx, "unit": "transactions",
                     "anchor": 10, "anchor_source": "goal: <= 10 (co-simulation issue)", "summary": True,
                     "note": "demo app, counted by the co-simulation: initialise the filter, run, stop, read "
                             "every metric"})
        figs.append({"name": "Y9: modeled host time per monitoring action", "value": round(tx * HOST_ACCESS_NS / 1000, 3),
                     "unit": "us", "anchor": PAPER_Y9_MON_US,
                     "anchor_source": "seeds/004 Table 4: Y9 Mon. (measured on a Zynq)", "summary": True,
                     "note": f"{tx} transactions x {HOST_ACCESS_NS} ns (seeds/000: one AXI-Lite read, raw pointer)"})
    ex_rows = []
    for n, e in examples.items():
        t = e["transactions"]
        figs.append({"name": f"{n}: AXI-Lite transactions, generic app flow", "value": t, "unit": "transactions",
                     "anchor": None, "anchor_source": None, "detail": True,
                     "note": f"modeled host time {t * HOST_ACCESS_NS / 1000:.3f} us at {HOST_ACCESS_NS} ns each"})
        ex_rows.append([n, t, round(t * HOST_ACCESS_NS / 1000, 3), e["metrics"],
                        "pass" if e["pass"] else "some metrics count without traffic"])
    text = ["Co-simulation (sim/cosim): the real C driver against the RTL. Speed: simulated clock cycles "
            "(every clock domain) per second of wall time of the application's run (builds and simulator "
            "start-up excluded), median of runs taken in turn in both simulators.",
            f"Host time is modeled as transactions x {HOST_ACCESS_NS} ns, the time of one AXI-Lite access "
            "from a Zynq's Cortex-A9 measured in seeds/000; the paper's Table 4 (seeds/004) monitoring "
            "latencies, measured on the board: Y1 4.617, Y2 5.128, Y3 4.692, Y4 5.207, Y5 5.365, Y6 5.278, "
            "Y7 5.593, Y8 5.685, Y9 5.945 us (Y9 is the demo's monitor)."]
    frag = {"section": "Co-simulation: speed and bus transactions", "order": 50, "text": text, "figures": figs,
            "tables": [{"title": "Every configs/ example: AXI-Lite transactions of the generic app's whole flow "
                                 "(open + self-test: ID, VERSION, CONFIG_HASH, SCRATCH; NO_FILTERING; run; stop; "
                                 "read every metric, STATUS, trace FILL), smoke scenario, Verilator",
                        "columns": ["config", "transactions", f"modeled host time (us, {HOST_ACCESS_NS} ns each)",
                                    "values read", "smoke checks (every metric at reset value)"],
                        "rows": ex_rows}]}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(frag, indent=1) + "\n")
    print(f"written: {path}")


def main() -> int:
    global QUIET
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario", type=Path, nargs="*")
    ap.add_argument("--bench", action="store_true", help="cycles/s in both simulators (demo) and "
                    "the transactions of one Y9 monitoring action")
    ap.add_argument("--json", type=Path, help="--bench: write the figures here")
    ap.add_argument("--fragment", type=Path, help="--bench: write them as a make bench report fragment")
    ap.add_argument("--sim", choices=["verilator", "ghdl", "both"], default="both")
    ap.add_argument("--waves", action="store_true", help="write an FST waveform per simulator")
    ap.add_argument("--config", type=Path, help="use this monitor instead of the scenario's")
    ap.add_argument("--quiet", action="store_true", help="no build progress")
    args = ap.parse_args()
    QUIET = args.quiet
    if args.bench:
        try:
            return bench(args.json, fragment=args.fragment)
        except BuildError as e:
            print(f"cosim: bench: {e}", file=sys.stderr)
            return 1
    if not args.scenario:
        ap.error("a scenario is required (or --bench)")
    sims = ("verilator", "ghdl") if args.sim == "both" else (args.sim,)
    ok = True
    for s in args.scenario:
        try:
            ok &= run_scenario(s, sims, args.waves, args.config)[0]
        except BuildError as e:
            print(f"cosim: {s}: {e}", file=sys.stderr)
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
