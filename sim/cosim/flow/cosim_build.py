# SPDX-License-Identifier: MIT
"""Co-simulation (run.py): what a scenario needs built: the scenario file, the
generated monitor (cached), its design (a generated top, or the demo
coprocessor + the monitor), the model (GHDL analysis, Verilog, latch check,
port table, Verilator) and the application."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from cosim_common import (ACCEL_SOURCES, APP, BUILD, CFLAGS, COSIM, DRIVER_SOURCES, DRIVERS, HARNESS, LIBRARY, REPO,
                          VL_INCLUDE, BuildError, digest, fresh, ghdl_verilog, locked, log, sh, soc_top)


# ---- scenario ----------------------------------------------------------------------------

@dataclass
class Scenario:
    path: Path
    data: dict
    name: str
    config: Path
    top: str
    app: str                        # its name (the file's stem): the binary's name
    app_sources: list[Path] = field(default_factory=list)
    app_path: Path | None = None    # its C file: apps/<app>.c, or a path the scenario gives


def load_scenario(path: Path, config: Path | None = None) -> Scenario:
    path = path.resolve()
    with open(path) as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        raise BuildError(f"{path}: not a scenario (a YAML mapping)")
    unknown = set(data) - {"scenario", "description", "config", "top", "app", "app_sources",
                           "clocks", "run_ns", "irq_ms_ns", "setup", "stimulus", "expect", "memories"}
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
    app_path = _app_path(str(data.get("app", "scenario")), path)
    app = app_path.stem
    srcs = [resolve(s) for s in data.get("app_sources", [])]
    if not data.get("app_sources") and app == "demo" and (APP / "sa_reference.c").exists():
        srcs = [APP / "sa_reference.c"]
    return Scenario(path, data, data.get("scenario", path.stem), cfg, top, app, srcs, app_path)


def _app_path(app: str, scenario: Path) -> Path:
    """The C file of `app:`: a name of sim/cosim/apps/ (without .c), or the path of
    a .c file (relative to the scenario, the repository or the current directory)."""
    if not app.endswith(".c") and "/" not in app:
        if (APP / f"{app}.c").exists():
            return APP / f"{app}.c"
        names = ", ".join(sorted(p.stem for p in APP.glob("*.c") if p.name not in _LIBRARY_APPS))
        raise BuildError(f"{scenario}: app {app}: no sim/cosim/apps/{app}.c (expected one of {names}, or the "
                         "path of your application's .c file)")
    for base in (scenario.parent, REPO, Path.cwd()):
        if (base / app).is_file():
            return (base / app).resolve()
    raise BuildError(f"{scenario}: app {app}: no such file (a path is taken relative to the scenario, "
                     f"{scenario.parent}, the repository or the current directory)")


# files of apps/ that are helpers, not applications
_LIBRARY_APPS = {"cosim_app.c", "cosim_tfile.c", "cosim_traces.c", "platform_ghdl.c", "sa_reference.c"}


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
        for src in reversed(self.sources):      # the last file that declares it
            try:
                found = soc_top.vhdl_ports(src.read_text(), self.top)
            except ValueError as e:
                if str(e).startswith("no entity"):
                    continue
                raise BuildError(f"{e} (flat std_logic or std_logic_vector(N downto M) expected)") from None
            return [{"name": n, "width": w or 1, "dir": d} for n, d, w in found]
        raise BuildError(f"no entity {self.top} with a port clause (and no generics) found")

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
        """The Verilated model library, the runtime objects and the port table
        (keyed by the model alone: a change of the harness does not rebuild it)."""
        v = self.verilog()
        ports = self.ports()
        if sorted(map(str, ports)) != sorted(map(str, self.verilog_ports())):
            raise BuildError(f"{self.top}: the ports of the VHDL entity and of GHDL's Verilog differ")
        d = self.vl_dir(waves)
        obj = d / "obj"
        key = digest(self.key, waves, verilator_version())
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
            (d / "link.json").write_text(json.dumps(
                {"model": str(obj / "Vcosim_top__ALL.a"), "runtime": [str(obj / g) for g in glob]}))
            stamp.write_text(key)
            log(f"    model built in {time.monotonic() - t0:.0f} s")
        return d

    def harness_objs(self, waves: bool) -> list[Path]:
        """The harness objects: those that include the model's header (and the
        port table) per model, the others once for every model."""
        d = self.verilated(waves)
        common = harness_common()
        srcs = [HARNESS_VL / s for s in VL_MODEL_SRCS] + [d / "cosim_ports.cpp"]
        key = digest(self.key, waves, *harness_sources(), verilator_version(), *srcs)
        out = d / "harness"
        stamp = out / "built"
        with locked(stamp):
            if not fresh(stamp, key):
                log(f"    compiling the harness for {self.top} (C++17, yaml-cpp)")
                out.mkdir(parents=True, exist_ok=True)
                defs = [f"-DVM_TRACE={int(waves)}", f"-DVM_TRACE_FST={int(waves)}", "-DVM_TRACE_VCD=0",
                        "-DVM_COVERAGE=0", "-DVM_SC=0"]
                for s in srcs:
                    compile_cxx(s, out / f"{s.stem}.o", ["-I", d / "obj", "-I", VL_INCLUDE,
                                                         "-I", VL_INCLUDE / "vltstd", *defs])
                stamp.write_text(key)
        return [out / f"{s.stem}.o" for s in srcs] + common

    def vl_exe(self, sc: Scenario, waves: bool) -> Path:
        hobjs = self.harness_objs(waves)
        d = self.vl_dir(waves)
        csrc = app_sources(sc, self.gdir, self.man)
        link = json.loads((d / "link.json").read_text())
        vobjs = [Path(o) for o in link["runtime"]] + [Path(link["model"])]
        key = digest(*csrc, *hobjs, *vobjs, *c_headers(self.gdir))
        exe = d / "bin" / sc.app
        stamp = exe.with_name(exe.name + ".stamp")
        with locked(stamp):
            if fresh(stamp, key) and exe.exists():
                return exe
            log(f"verilator: linking the harness with app {sc.app} and the {self.man['name']} driver")
            exe.parent.mkdir(parents=True, exist_ok=True)
            cobjs = compile_c(csrc, self.gdir, exe.parent / f"{sc.app}.cobj", pic=False)
            sh(["g++", "-o", exe, *hobjs, *cobjs, *vobjs, "-lyaml-cpp", "-pthread",
                *(["-lz"] if waves else [])])
            stamp.write_text(key)
        return exe


# ---- the harness (harness/verilator) ------------------------------------------------------

HARNESS_VL = HARNESS / "verilator"
# the sources that include the model's header (Vcosim_top.h): compiled per model
VL_MODEL_SRCS = ["scenario_runner.cpp", "main.cpp"]


def harness_sources() -> list[Path]:
    """What every harness object depends on: its sources and headers, the
    headers of apps/ and of the driver it includes."""
    return sorted([*HARNESS_VL.glob("*.cpp"), *HARNESS_VL.glob("*.h"), APP / "platform.h",
                   DRIVERS / "include" / "jointer.h", DRIVERS / "include" / "jointer_desc.h"])


def compile_cxx(src: Path, obj: Path, extra: list) -> None:
    sh(["g++", "-std=c++17", "-O2", "-faligned-new", "-Wall", "-Wextra", "-Wno-unused-parameter",
        "-I", HARNESS_VL, "-I", APP, "-I", DRIVERS / "include", *extra, "-c", src, "-o", obj])


def harness_common() -> list[Path]:
    """The harness objects that do not depend on the model, built once."""
    srcs = sorted(s for s in HARNESS_VL.glob("*.cpp") if s.name not in VL_MODEL_SRCS)
    key = digest(*harness_sources())
    out = BUILD / "harness" / f"vl-{key}"
    stamp = out / "built"
    with locked(stamp):
        if not fresh(stamp, key):
            log("verilator: compiling the model-independent harness (C++17, yaml-cpp)")
            out.mkdir(parents=True, exist_ok=True)
            for s in srcs:
                compile_cxx(s, out / f"{s.stem}.o", [])
            stamp.write_text(key)
    return [out / f"{s.stem}.o" for s in srcs]


_VL_VERSION = None


def verilator_version() -> str:
    global _VL_VERSION
    if _VL_VERSION is None:
        _VL_VERSION = subprocess.run(["verilator", "--version"], capture_output=True,
                                     text=True).stdout.strip()
    return _VL_VERSION


# ---- the application -------------------------------------------------------------------

def app_sources(sc: Scenario, gdir: Path, man: dict) -> list[Path]:
    """The application, its app_sources, the helpers of apps/, the monitor's driver
    and libjointer (with the trace-file writer: every app may write trace files)."""
    app = sc.app_path or APP / f"{sc.app}.c"
    name = man["name"]
    cfgc = gdir / "c" / "cosim_config.c"
    text = (f'/* written by sim/cosim/run.py */\n#include "{name}.h"\n'
            f"const jointer_cfg *const cosim_cfg = &{name}_cfg;\n")
    with locked(cfgc):
        if not cfgc.exists() or cfgc.read_text() != text:
            cfgc.write_text(text)
    drv = [DRIVERS / "src" / f for f in DRIVER_SOURCES + ["jointer_trace_file.c"]]
    out = [app, *sc.app_sources, APP / "cosim_app.c", APP / "cosim_traces.c", gdir / "c" / f"{name}.c", cfgc, *drv]
    return list(dict.fromkeys(p.resolve() for p in out))    # a file listed twice is compiled once


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
