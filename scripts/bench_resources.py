#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Resource figures of make bench (yosys synth_xilinx -family xc7 -flatten
-noiopad after ghdl synth, the path of scripts/hdl_check.py resources).

  bench_resources.py library JSON [--fragment F]
      the fragment of the library table `hdl_check.py resources --json` wrote
  bench_resources.py configs [CONFIG...] [--fragment F] [--jobs 2]
      every configs/*.yaml (or the ones given): generated, its top synthesised
  bench_resources.py all --fragment-configs F --fragment-explore G [--jobs 2]
      both of the below in one pool of jobs (make bench: the biggest top
      first, the other core meanwhile synthesises the rest)
  bench_resources.py explore [--only Y3,...] [--fragment F] [--jobs 2]
      the TECS paper's exploration (section 4.2, Tables 2 and 3): the
      Selective Accumulations coprocessor (sim/cosim/accel) alone (Y0) and
      with each monitor Y1..Y9 of Table 2; the monitors' descriptions are
      derived from configs/selective_accumulations.yaml (Y9) by the table
      VARIANTS below and written to build/bench/explore/; the deltas to Y0
      are printed next to the paper's (Vivado) with the ratio ours / paper

Counts: LUT = LUT1..LUT6 cells; LUT+mem adds the LUTs that LUTRAM and SRL
cells occupy (RAM32M/RAM64M 4, RAM32X1D/RAM64X1D 2, RAM128X1D 4, SRL 1), as
Vivado's "Slice LUTs" do; FF = FD* cells; BRAM in 36 Kb blocks (RAMB18E1 = 0.5).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import copy
import json
import re
import sys
import threading
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "gen"))
import hdl_check  # noqa: E402
from bench_report import figure, write_fragment  # noqa: E402

BUILD = REPO / "build"
ACCEL = REPO / "sim" / "cosim" / "accel"
ACCEL_FILES = [ACCEL / f for f in ("sa_mac16.vhd", "sa_mem.vhd", "sa_accel.vhd", "sa_soc.vhd")]
Y9_CONFIG = REPO / "configs" / "selective_accumulations.yaml"
YOSYS = "yosys synth_xilinx -family xc7 -flatten -noiopad (after ghdl synth)"

LUTRAM_LUTS = {"RAM32M": 4, "RAM64M": 4, "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4,
               "RAM32X1S": 1, "RAM64X1S": 1, "RAM128X1S": 2, "RAM256X1S": 4,
               "SRL16E": 1, "SRLC16E": 1, "SRLC32E": 1}

# The designs of the TECS paper's Table 2: monitor levels; operation level: events and
# bits per event; Table 3: the paper's LUT and FF (Vivado, whole design).
VARIANTS = [
    # name  trans  task   events bits  paper LUT  paper FF
    ("Y0", False, False, 0, 0, 3397, 2864),
    ("Y1", True, False, 0, 0, 3675, 3163),
    ("Y2", False, True, 0, 0, 3497, 3092),
    ("Y3", False, False, 1, 5, 3478, 3043),
    ("Y4", False, False, 2, 10, 3491, 3058),
    ("Y5", False, False, 3, 20, 3516, 3098),
    ("Y6", True, True, 0, 0, 3702, 3217),
    ("Y7", True, False, 2, 10, 3690, 3183),
    ("Y8", False, True, 2, 10, 3512, 3112),
    ("Y9", True, True, 2, 10, 3718, 3237),
]
PAPER = "the TECS paper's Table 3 (Vivado, Zynq XC7Z020)"
# the TECS paper's Table 4: monitoring latency (Mon., us) measured on the board
PAPER_MON_US = {"Y1": 4.617, "Y2": 5.128, "Y3": 4.692, "Y4": 5.207, "Y5": 5.365, "Y6": 5.278,
                "Y7": 5.593, "Y8": 5.685, "Y9": 5.945}
HOST_ACCESS_NS = 221  # PAPI-on-FPGA paper: one AXI-Lite read from a Zynq's Cortex-A9 (raw pointer)
# the operation-level events of the coprocessor: strobes sa_soc outputs
EVENTS = [("forward_fires", "soc_ev_forward"),            # one per input consumed by forward
          ("mac_fires", "soc_ev_mac"),                    # one per token entering a mac_16
          ("result_writes", "ev_result")]                 # one per result word written (W beat)

_print_lock = threading.Lock()


def say(msg: str) -> None:
    with _print_lock:
        print(msg, flush=True)


def summarise(cells: dict) -> dict:
    """LUT, LUT+mem, FF, CARRY4, BRAM (36 Kb), DSP of one hdl_check resources result."""
    cells = {c: n for c, n in cells.items() if isinstance(n, (int, float))}   # not "depth"
    lutram = sum(n * LUTRAM_LUTS.get(c, 0) for c, n in cells.items())
    other_mem = [c for c in cells if re.fullmatch(r"(RAM|SRL)\w+", c) and not c.startswith("RAMB")
                 and c not in LUTRAM_LUTS]
    if other_mem:
        raise ValueError(f"unknown memory cell(s) {other_mem}: add them to LUTRAM_LUTS")
    bram = cells.get("RAMB36E1", 0) + cells.get("RAMB18E1", 0) / 2
    return {"lut": cells["lut"], "lut_mem": cells["lut"] + lutram, "ff": cells["ff"],
            "carry4": cells.get("CARRY4", 0), "bram": bram,
            "dsp": sum(n for c, n in cells.items() if c.startswith("DSP"))}


COLUMNS = ["LUT", "LUT+mem", "FF", "CARRY4", "BRAM36", "DSP"]
DEPTH_GOAL = 4   # LUT levels in every clock domain of a generated top
# timing estimate from LUT levels: a 7-series -1 speed grade path
# costs about clock-to-out + setup (0.6 ns) plus a LUT and its route per level
# (0.6 ns); a first-order model, not a timing analysis
T_FIXED_NS, T_LEVEL_NS = 0.6, 0.6
PERIODS: dict[str, dict[str, float]] = {}   # config -> {clock port: period ns}
BLOCKS: dict[str, dict[str, str]] = {}     # config -> {clock port: the fast blocks (model/timing.py)}


def clock_periods(config: Path) -> dict[str, float]:
    """{clock port of the top: period_ns} from a description (the first clock is s_axi_aclk)."""
    clocks = (yaml.safe_load(Path(config).read_text()).get("monitor") or {}).get("clocks") or []
    out = {}
    for i, c in enumerate(clocks):
        name, period = (c.get("name"), c.get("period_ns")) if isinstance(c, dict) else (c, None)
        if period:
            out["s_axi_aclk" if i == 0 else f"{name}_clk"] = float(period)
    return out


def clock_blocks(design) -> dict[str, str]:
    """{clock port of the top: the fast blocks of its domain} (gen model/timing.py)."""
    from jointer_gen.model import timing
    chosen = timing.summary(design.monitor)
    return {("s_axi_aclk" if i == 0 else f"{c.name}_clk"): chosen.get(c.name, "small")
            for i, c in enumerate(design.monitor.clocks)}


def fmax_mhz(levels: int) -> float:
    return 1000.0 / (T_FIXED_NS + T_LEVEL_NS * levels)


def resource_rows(results: dict[str, dict]) -> tuple[list[list], list[dict], list[str]]:
    """Table rows, detail figures and errors of {name: hdl_check result}."""
    rows, figs, errs = [], [], []
    for name, res in results.items():
        if "error" in res:
            errs.append(f"{name}: {res['error']}")
            rows.append([name, "error", "", "", "", "", ""])
            continue
        s = summarise(res)
        rows.append([name, s["lut"], s["lut_mem"], s["ff"], s["carry4"], s["bram"], s["dsp"]])
        for key, unit in (("lut", "LUT"), ("ff", "FF"), ("carry4", "CARRY4"), ("bram", "BRAM36")):
            figs.append(figure(f"{name} {unit}", s[key], unit, detail=True))
    return rows, figs, errs


# ---- library ----------------------------------------------------------------------------------

def cmd_library(args) -> int:
    results = json.loads(Path(args.json).read_text())
    rows, figs, errs = resource_rows(dict(sorted(results.items())))
    figs.insert(0, figure("library entities synthesised", len(results) - len(errs), "entities",
                          note=f"of {len(results)}", summary=True))
    write_fragment(args.fragment, "Resources: library entities (default generics)", figs, order=10,
                   tables=[{"title": f"{YOSYS}, every entity of hdl/ at its default generics",
                            "columns": ["entity"] + COLUMNS, "rows": rows}],
                   text=["Counted by yosys, not Vivado. " + __doc__.split("Counts: ")[1].strip()])
    for e in errs:
        print(f"bench-resources: error: {e}")
    return 1 if errs else 0


# ---- generated tops ------------------------------------------------------------------------------

def generate(config: Path, out: Path) -> tuple[list[Path], str, object]:
    """Generate config into out/<name>; (VHDL files in compile order, top, design)."""
    from jointer_gen.cli import generate as gen
    from jointer_gen.output import write_tree
    design, rendered = gen(str(config))
    dest = out / design.name
    write_tree(rendered, dest)
    man = json.loads(rendered["manifest.json"])
    return [dest / p for p in man["compile_order"]], man["top"], design


def synth(files: list[Path], top: str, workdir: Path) -> dict:
    """hdl_check's path: the library + files, ghdl synth, repairs, yosys synth_xilinx."""
    files, workdir = [Path(f).resolve() for f in files], Path(workdir).resolve()  # ghdl runs in workdir
    try:
        hdl_check.analyse(workdir, hdl_check.library_files() + files, [top])
        return hdl_check.resources_one(workdir, top)[1]
    except SystemExit as e:  # hdl_check.analyse exits on an analysis error
        return {"error": str(e)[:300]}


def run_jobs(jobs: list[tuple[str, callable]], n: int, tag: str) -> dict[str, dict]:
    results, t0 = {}, time.monotonic()
    with cf.ThreadPoolExecutor(n) as pool:
        futs = {pool.submit(fn): name for name, fn in jobs}
        for i, fut in enumerate(cf.as_completed(futs), 1):
            name = futs[fut]
            res = fut.result()
            results[name] = res
            if "error" in res:
                say(f"[{tag} {i}/{len(jobs)}] {name}: ERROR {res['error'][:200]}")
            else:
                s = summarise(res)
                say(f"[{tag} {i}/{len(jobs)}] {name}: {s['lut']} LUT ({s['lut_mem']} with LUTRAM), "
                    f"{s['ff']} FF, {s['carry4']} CARRY4, {s['bram']:g} BRAM36 "
                    f"({time.monotonic() - t0:.0f} s)")
    return results


def configs_jobs(args) -> tuple[list, dict, list]:
    """(synthesis jobs, {config: top}, {config: generated files}) of every configs/ example."""
    configs = [Path(c) for c in getattr(args, "configs", [])] or sorted((REPO / "configs").glob("*.yaml"))
    out = Path(args.out).resolve() / "configs"
    jobs, tops, sizes = [], {}, {}
    for c in configs:
        files, top, design = generate(c, out)
        name = c.stem
        tops[name] = top
        PERIODS[name] = clock_periods(c)
        BLOCKS[name] = clock_blocks(design)
        sizes[name] = sum(f.stat().st_size for f in files)
        say(f"[configs] {c.name}: generated {top} ({len(files)} files)")
        jobs.append((name, lambda f=files, t=top, n=name: synth(f, t, out / n / "synth")))
    return jobs, tops, sizes


def cmd_configs(args) -> int:
    jobs, tops, _ = configs_jobs(args)
    return configs_finish(args.fragment, tops, run_jobs(jobs, args.jobs, "configs"))


def cmd_all(args) -> int:
    """configs and explore in one pool of --jobs: the biggest top first, the
    others fill the second core meanwhile."""
    cjobs, tops, sizes = configs_jobs(args)
    cjobs.sort(key=lambda j: -sizes[j[0]])
    ejobs, variants, txs = explore_jobs(args)
    results = run_jobs(cjobs[:1] + ejobs + cjobs[1:], args.jobs, "resources")
    rc = configs_finish(args.fragment_configs, tops, {n: results[n] for n, _ in cjobs})
    return explore_finish(args.fragment_explore, variants, txs, {n: results[n] for n, _ in ejobs}) or rc


def configs_finish(fragment: str, tops: dict, results: dict) -> int:
    results = {n: results[n] for n in tops}
    rows, figs, errs = resource_rows(results)
    rows = [[r[0], tops[r[0]]] + r[1:] for r in rows]
    for n, res in results.items():
        if "error" not in res:
            s = summarise(res)
            figs.append(figure(f"{n} top", f"{s['lut']} LUT / {s['ff']} FF", "", summary=True))
    drows = []
    for n, res in results.items():
        for dom, lv in sorted(res.get("depth", {}).items()):
            period = PERIODS.get(n, {}).get(dom)
            fmax = fmax_mhz(lv)
            meets = ("yes" if fmax >= 1000 / period else "NO") if period else ""
            drows.append([n, dom, lv, DEPTH_GOAL, "yes" if lv <= DEPTH_GOAL else "no", round(fmax),
                          round(1000 / period) if period else "", meets, BLOCKS.get(n, {}).get(dom, "")])
            figs.append(figure(f"{n} {dom} logic depth", lv, "LUT levels", DEPTH_GOAL, "goal",
                               detail=True))
    if drows:
        worst = max(drows, key=lambda r: r[2])
        figs.append(figure("deepest clock domain of the configs/ tops", worst[2], "LUT levels", DEPTH_GOAL,
                           "goal", summary=True, note=f"{worst[0]}: {worst[1]}"))
    write_fragment(fragment, "Resources: generated tops of configs/", figs, order=11,
                   tables=[{"title": f"{YOSYS}, the generated top of every configs/*.yaml",
                            "columns": ["config", "top"] + COLUMNS, "rows": rows},
                           {"title": "Logic depth: the longest register-to-register path in LUT levels, per "
                                     "clock domain (scripts/logic_depth.py over the flat netlist)",
                            "columns": ["config", "clock domain", "LUT levels", "goal", "within",
                                        "est. Fmax MHz", "YAML clock MHz", "meets", "blocks"],
                            "rows": drows}],
                   text=["Counted by yosys, not Vivado: LUT+mem adds the LUTs of LUTRAM/SRL cells.",
                         f"Est. Fmax = 1000 / ({T_FIXED_NS} ns + {T_LEVEL_NS} ns x LUT levels): clock-to-out "
                         "and setup plus a LUT and its route per level on a 7-series -1 part; a first-order "
                         "model for comparing designs, not a timing analysis (Vivado's report_timing is). "
                         "The clock is the YAML's period_ns (empty: not given)."])
    for r in drows:
        if r[4] == "no":
            print(f"bench-resources: {r[0]}: {r[1]} has {r[2]} LUT levels (goal {DEPTH_GOAL})")
    for e in errs:
        print(f"bench-resources: error: {e}")
    return 1 if errs else 0


# ---- the paper's exploration ----------------------------------------------------------------------

def variant_config(base: dict, name: str, trans: bool, task: bool, events: int, bits: int) -> dict:
    """The description of design `name` (Table 2), from the Y9 description."""
    cfg = copy.deepcopy(base)
    cfg["monitor"]["name"] = f"sa_{name.lower()}"
    levels = [lv for lv, on in (("transaction", trans), ("task", task), ("operation", events > 0)) if on]
    cfg["monitor"]["description"] = (f"Selective Accumulations, design {name} of the TECS paper's Table 2: "
                                     + ", ".join(levels) + " level"
                                     + (f" ({events} x {bits}-bit events)" if events else ""))
    lmic = cfg["lmics"][0]
    by_name = {s["name"]: s for s in lmic["sniffers"]}
    snif = []
    if trans:
        snif.append(by_name["transaction"])
    if task:
        snif.append(by_name["task"])
    if events:
        op = by_name["operation"]
        op["interfacer"]["width"] = events
        known = {d["name"]: d for d in op["dcapfs"]}
        dcapfs = []
        for i in range(events):
            d = dict(known.get(EVENTS[i][0], {"name": EVENTS[i][0], "extractor": "event",
                                              "filter": "none"}))
            d["event"], d["width"] = i, bits
            dcapfs.append(d)
        op["dcapfs"] = dcapfs
        snif.append(op)
    lmic["sniffers"] = snif
    return cfg


def vhdl_ports(text: str, entity: str) -> list[tuple[str, str, str]]:
    """(name, direction, type) of the ports of entity in text."""
    text = re.sub(r"--[^\n]*", "", text)
    m = re.search(rf"entity\s+{entity}\s+is\s+port\s*\((.*?)\)\s*;\s*end\s+entity", text, re.S | re.I)
    if not m:
        raise ValueError(f"no entity {entity}")
    body = m.group(1)
    ports = []
    for decl in body.split(";"):
        pm = re.match(r"\s*([\w\s,]+?)\s*:\s*(in|out|inout)\s+(.+?)\s*$", decl, re.S | re.I)
        if pm:
            for n in pm.group(1).split(","):
                ports.append((n.strip(), pm.group(2).lower(), " ".join(pm.group(3).split())))
    return ports


def width(vtype: str) -> int | None:
    m = re.search(r"\((\d+)\s+downto\s+(\d+)\)", vtype)
    return int(m.group(1)) - int(m.group(2)) + 1 if m else None


def wrapper(name: str, monitor: str | None, mon_ports: list, events: int) -> str:
    """VHDL of design `name`: sa_soc (every port passed through) + the monitor."""
    soc = vhdl_ports((ACCEL / "sa_soc.vhd").read_text(), "sa_soc")
    top = f"sa_{name.lower()}_top"
    ports = [f"    {n} : {d} {t}" for n, d, t in soc]
    m_map = []
    if monitor:
        for n, d, t in mon_ports:
            if n.startswith("s_axi_") or n == "irq":
                ports.append(f"    mon_{n} : {d} {t}")
                m_map.append(f"{n} => mon_{n}")
            elif n == "accel_clk":
                m_map.append(f"{n} => clk")
            elif n == "accel_resetn":
                m_map.append(f"{n} => resetn")
            elif n.startswith("transaction_"):
                x = n[len("transaction_"):]
                if any(p == f"dma_{x}" for p, _, _ in soc):
                    m_map.append(f"{n} => soc_dma_{x}")
                else:  # AXI4 signals the coprocessor has not: as in sim/cosim/demo_top.vhd
                    w = width(t)
                    const = {"awcache": "0011", "arcache": "0011"}.get(x, "0" * (w or 1))
                    m_map.append(f"{n} => " + (f'"{const}"' if w else "'0'"))
            elif n in ("task_start", "task_done"):
                m_map.append(f"{n} => soc_{n}")
            elif n == "operation_events":
                m_map += [f"operation_events({i}) => {EVENTS[i][1]}" for i in range(events)]
            else:
                raise ValueError(f"{monitor}: unexpected port {n}")
    sigs = [f"  signal soc_{n} : {t};" for n, d, t in soc if d == "out"]
    soc_map = ",\n      ".join(f"{n} => {'soc_' + n if d == 'out' else n}" for n, d, _ in soc)
    lines = [f"-- {top}: design {name} of the TECS paper's Table 2 for make bench (generated by",
             "-- scripts/bench_resources.py): sa_soc, every port passed through, "
             + (f"watched by {monitor}." if monitor else "alone."),
             "library ieee;", "use ieee.std_logic_1164.all;", "",
             f"entity {top} is", "  port (", ";\n".join(ports) + ");", f"end entity {top};", "",
             f"architecture rtl of {top} is", *sigs,
             "  signal resetn, ev_result : std_logic;", "begin",
             f"  soc : entity work.sa_soc\n    port map (\n      {soc_map});"]
    lines += [f"  {n} <= soc_{n};" for n, d, _ in soc if d == "out"]
    lines += ["  resetn <= not rst;", "  ev_result <= soc_dma_wvalid and soc_dma_wready;"]
    if monitor:
        lines.append(f"  monitor : entity work.{monitor}\n    port map (\n      "
                     + ",\n      ".join(m_map) + ");")
    lines += ["end architecture rtl;", ""]
    return "\n".join(lines)


def action_transactions(cfg: dict, design) -> int:
    """AXI-Lite transactions of one monitoring action as the demo does it (sim/cosim/apps/
    demo.c): initialise every filtered DCAPF (3), run (1), stop (1), read every result word."""
    filtered = sum(1 for lm in cfg["lmics"] for sn in lm["sniffers"] for d in sn["dcapfs"]
                   if d.get("filter", "none") != "none")
    words = sum(1 for r in design.register_map if "end" not in r and r["desc"].startswith("result of"))
    return 3 * filtered + 2 + words


def explore_design(v: tuple, out: Path, base: dict) -> tuple[list[Path], str, int | None]:
    """Description, generated monitor and wrapper of one variant: (files, top,
    modeled AXI-Lite transactions of one monitoring action)."""
    name, trans, task, events, bits = v[:5]
    d = out / name.lower()
    d.mkdir(parents=True, exist_ok=True)
    files, monitor, mon_ports, tx = [], None, [], None
    if trans or task or events:
        cfg = variant_config(base, name, trans, task, events, bits)
        ypath = d / f"sa_{name.lower()}.yaml"
        ypath.write_text(f"# design {name} of the TECS paper's Table 2 (scripts/bench_resources.py VARIANTS)\n"
                         + yaml.safe_dump(cfg, sort_keys=False))
        files, monitor, design = generate(ypath, d / "gen")
        tx = action_transactions(cfg, design)
        mon_ports = vhdl_ports(files[-1].read_text(), monitor)
    top = f"sa_{name.lower()}_top"
    wpath = d / f"{top}.vhd"
    wpath.write_text(wrapper(name, monitor, mon_ports, events))
    return ACCEL_FILES + files + [wpath], top, tx


def explore_jobs(args) -> tuple[list, list, dict]:
    """(synthesis jobs, variants, modeled transactions) of the exploration."""
    out = Path(args.out).resolve() / "explore"
    base = yaml.safe_load(Y9_CONFIG.read_text())
    only = set(args.only.split(",")) | {"Y0"} if getattr(args, "only", None) else None
    variants = [v for v in VARIANTS if only is None or v[0] in only]
    jobs, txs = [], {}
    for v in variants:
        files, top, txs[v[0]] = explore_design(v, out, base)
        say(f"[explore] {v[0]}: {top} ({len(files)} files besides the library)")
        jobs.append((v[0], lambda f=files, t=top, n=v[0]: synth(f, t, out / n.lower() / "synth")))
    return jobs, variants, txs


def cmd_explore(args) -> int:
    jobs, variants, txs = explore_jobs(args)
    return explore_finish(args.fragment, variants, txs, run_jobs(jobs, args.jobs, "explore"))


def explore_finish(fragment: str, variants: list, txs: dict, results: dict) -> int:
    if "error" in results["Y0"]:
        print(f"bench-resources: Y0 failed: {results['Y0']['error']}")
        return 1
    y0 = summarise(results["Y0"])
    p0 = VARIANTS[0]
    rows, figs, errs, lat_rows = [], [], [], []
    rows.append(["Y0 (coprocessor alone)", y0["lut"], y0["lut_mem"], y0["ff"], y0["bram"],
                 p0[5], p0[6], "", "", "", ""])
    for v in variants[1:]:
        name, trans, task, events, bits, plut, pff = v
        res = results[name]
        if "error" in res:
            errs.append(f"{name}: {res['error']}")
            continue
        s = summarise(res)
        dl, df = s["lut_mem"] - y0["lut_mem"], s["ff"] - y0["ff"]
        pdl, pdf = plut - p0[5], pff - p0[6]
        levels = "+".join(x for x, on in (("trans", trans), ("task", task),
                                          (f"oper {events}x{bits}b", events)) if on)
        rows.append([f"{name} ({levels})", s["lut"], s["lut_mem"], s["ff"], s["bram"], plut, pff,
                     f"+{dl} / +{pdl}", f"{dl / pdl:.2f}", f"+{df} / +{pdf}", f"{df / pdf:.2f}"])
        figs.append(figure(f"{name} monitor delta LUT", dl, "LUT", pdl, f"{PAPER}: {plut} - {p0[5]}",
                           note=f"{levels}; ours: LUT+mem of {name} minus Y0 (yosys)", summary=True))
        figs.append(figure(f"{name} monitor delta FF", df, "FF", pdf, f"{PAPER}: {pff} - {p0[6]}",
                           note=f"{levels}; ours: FF of {name} minus Y0 (yosys)", summary=True))
        figs.append(figure(f"{name} monitor delta BRAM", s["bram"] - y0["bram"], "BRAM36", 0,
                           f"{PAPER}: 6 - 6", detail=True))
        tx = txs[name]
        figs.append(figure(f"{name} modeled host time per monitoring action", round(tx * HOST_ACCESS_NS / 1000, 3),
                           "us", PAPER_MON_US[name], "the TECS paper's Table 4: Mon. (measured on the board)", detail=True,
                           note=f"model: {tx} AXI-Lite transactions (the demo's sequence on {name}'s register map) "
                                f"x {HOST_ACCESS_NS} ns (PAPI-on-FPGA paper)"))
        lat_rows.append([name, tx, round(tx * HOST_ACCESS_NS / 1000, 3), PAPER_MON_US[name],
                         f"{tx * HOST_ACCESS_NS / 1000 / PAPER_MON_US[name]:.2f}"])
    figs.insert(0, figure("Y0 coprocessor alone", f"{y0['lut_mem']} LUT+mem / {y0['ff']} FF", "",
                          note=f"{y0['lut']} LUT without LUTRAM; paper Y0 {p0[5]} LUT / {p0[6]} FF (Vivado)"))
    text = ["The Selective Accumulations coprocessor of the demo (sim/cosim/accel: sa_soc, its 16 KiB "
            "data memory included) synthesised alone (Y0) and with each monitor of the TECS paper's Table 2 "
            "(Y1..Y9: transaction level = AXI4 written bytes, 23-bit; task level = compute time, 53-bit; "
            "operation level = 1/2/3 events of 5/10/20 bits), through the same ghdl synth -> yosys path. "
            "The operation-level events are forward firings, mac_16 firings and (Y5's third) result "
            "words written. The descriptions are derived from configs/selective_accumulations.yaml (Y9) "
            "and written to build/bench/explore/.",
            "**Ours is yosys (synth_xilinx -family xc7, flattened, no IO pads), the paper's is Vivado "
            "(full implementation on a Zynq XC7Z020, the TECS paper's Table 3).** The deltas are the monitor's "
            "cost: design minus Y0. Our LUT delta counts LUT+mem (LUTRAM and SRL cells as the LUTs they "
            "occupy, as Vivado's Slice LUTs do); ratio = ours / paper. Our Y0 keeps the data memory as "
            "LUTRAM (yosys) where the paper's has BRAM; it cancels in the deltas."]
    write_fragment(fragment, "The paper's exploration: Selective Accumulations Y0..Y9", figs, order=20,
                   tables=[{"title": "Monitor cost, ours (yosys) vs the paper's (Vivado)",
                            "columns": ["design", "LUT", "LUT+mem", "FF", "BRAM36", "paper LUT", "paper FF",
                                        "dLUT ours / paper", "ratio", "dFF ours / paper", "ratio"],
                            "rows": rows},
                           {"title": f"One monitoring action: modeled host time ({HOST_ACCESS_NS} ns per AXI-Lite "
                                     "access, PAPI-on-FPGA paper) vs the paper's measured monitoring latency (Table 4)",
                            "columns": ["design", "transactions (model)", "modeled host time (us)",
                                        "paper Mon. (us)", "ratio"], "rows": lat_rows}], text=text + [
            "Transactions of one monitoring action, modeled as the demo performs it (sim/cosim/apps/demo.c: "
            "initialise each filtered DCAPF, 3; run, 1; stop, 1; one read per result word) on each design's "
            "register map; the co-simulation counts it for Y9 (Co-simulation section). The paper's Mon. "
            "includes its driver's software time, ours only the bus accesses."])
    print("== the paper's exploration: monitor cost = design - Y0; ours (yosys) vs paper (Vivado) ==")
    print(f"  {'design':28} {'dLUT':>6} {'paper':>6} {'ratio':>6}   {'dFF':>6} {'paper':>6} {'ratio':>6}")
    for r in rows[1:]:
        dl, pl = r[7].split(" / ")
        df, pf = r[9].split(" / ")
        print(f"  {r[0]:28} {dl:>6} {pl:>6} {r[8]:>6}   {df:>6} {pf:>6} {r[10]:>6}")
    for e in errs:
        print(f"bench-resources: error: {e}")
    return 1 if errs else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    lib = sub.add_parser("library")
    lib.add_argument("json")
    for p in (lib, sub.add_parser("configs"), sub.add_parser("explore")):
        p.add_argument("--fragment", required=True)
        p.add_argument("--jobs", type=int, default=2)
        p.add_argument("--out", default=str(BUILD / "bench"))
    sub.choices["configs"].add_argument("configs", nargs="*")
    sub.choices["explore"].add_argument("--only", help="comma-separated designs (Y0 always)")
    both = sub.add_parser("all", help="configs and explore in one pool")
    both.add_argument("--fragment-configs", required=True)
    both.add_argument("--fragment-explore", required=True)
    both.add_argument("--jobs", type=int, default=2)
    both.add_argument("--out", default=str(BUILD / "bench"))
    args = ap.parse_args(argv)
    return {"library": cmd_library, "configs": cmd_configs, "explore": cmd_explore,
            "all": cmd_all}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
