#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The cost of a monitor follows from its description, for make bench.

    bench_cost.py --fragment F [--out build/bench] [--jobs 2] [--no-before]

In one run, with the project's flow (ghdl synth -> ghdl_verilog.py -> yosys
synth_xilinx -family xc7 -flatten -noiopad, no abc9), side by side:
- the budgets: the Y9 top (configs/selective_accumulations.yaml)
  <= 257 LUT / 298 FF, the one-counter monitor (sim/bench/budget/
  one_counter.yaml) <= 100 / 120, the byte counter behind the CDC bridge
  (sim/bench/budget/byte_counter.yaml) <= 250 / 300;
- "before": the same descriptions through the generator and library of
  BEFORE_COMMIT (the tree before pay-for-what-you-use, from `git archive`), synthesised
  in the same run;
- the monitors of the paper's Table 2 (Y1..Y9, derived from Y9 as
  bench_resources.py explore does) synthesised alone, next to the paper's
  monitor deltas (Vivado, Table 3): the exploration figures subtract the
  coprocessor, whose yosys mapping moves by tens of LUTs from one design to
  the next; a monitor alone has no such noise;
- where every LUT and flip-flop of the Y9 top goes (scripts/attribution.py);
- the price of an optional register: the Y9 top with its descriptor ROM
  (`monitor.global.descriptor: rom`) against the Y9 top, the delta.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
import attribution  # noqa: E402
import bench_resources as br  # noqa: E402
from bench_report import figure, write_fragment  # noqa: E402

BEFORE_COMMIT = "02dba4b"   # the last tree before pay-for-what-you-use
BUDGET = REPO / "sim" / "bench" / "budget"
DESIGNS = [  # name, description, budget (LUT, FF)
    ("Y9 top", REPO / "configs" / "selective_accumulations.yaml", (257, 298)),
    ("one-counter monitor", BUDGET / "one_counter.yaml", (100, 120)),
    ("byte-counter monitor (CDC, run-time filter)", BUDGET / "byte_counter.yaml", (250, 300)),
]


def synth_netlist(files: list[Path], top: str, workdir: Path) -> tuple[dict, Path]:
    """hdl_check's synthesis, plus the flat JSON netlist for the attribution."""
    res = br.synth(files, top, workdir)
    net = workdir.resolve() / f"{top}.json"
    if "error" not in res:
        v = workdir.resolve() / f"{top}.v"
        subprocess.run(["yosys", "-q", "-p", f"read_verilog {v}; synth_xilinx -family xc7 -flatten -noiopad "
                        f"-top {top}; write_json {net}"], cwd=workdir, check=True, capture_output=True)
    return res, net


def before_tree(out: Path) -> Path | None:
    """The repository at BEFORE_COMMIT (hdl, gen, scripts), or None without git history."""
    dest = out / "before"
    if (dest / "scripts" / "bench_resources.py").exists():
        return dest
    try:
        blob = subprocess.run(["git", "archive", BEFORE_COMMIT, "hdl", "gen", "scripts"], cwd=REPO,
                              capture_output=True, check=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):
        return None
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile() as f:
        f.write(blob)
        f.seek(0)
        tarfile.open(fileobj=f).extractall(dest)
    return dest


def synth_before(tree: Path, configs: list[Path], out: Path, jobs: int) -> dict[str, tuple[int, int]]:
    """{config stem: (LUT, FF)} of the old generator + library (its own bench script)."""
    frag = out / "before-fragment.json"
    r = subprocess.run([sys.executable, str(tree / "scripts" / "bench_resources.py"), "configs",
                        *map(str, configs), "--fragment", str(frag), "--jobs", str(jobs),
                        "--out", str(out / "before-out")], capture_output=True, text=True)
    if r.returncode:
        print(f"bench-cost: the before synthesis failed: {r.stdout[-400:]}{r.stderr[-400:]}")
        return {}
    rows = json.loads(frag.read_text())["tables"][0]["rows"]
    return {row[0]: (row[2], row[4]) for row in rows}     # config, top, LUT, LUT+mem, FF


ROM_DESIGN = "Y9 + descriptor ROM"


def rom_design(out: Path) -> Path:
    """The Y9 description with `global: {descriptor: rom}`, written to out."""
    cfg = yaml.safe_load((REPO / "configs" / "selective_accumulations.yaml").read_text())
    cfg["monitor"].setdefault("global", {})["descriptor"] = "rom"
    out.mkdir(parents=True, exist_ok=True)
    path = out / "sa_desc_rom.yaml"
    path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return path


def rom_table(results: dict, rom_bytes: int) -> tuple[dict | None, list]:
    """The table of the ROM's price (Y9 top vs Y9 + ROM, the delta) and its figures."""
    base, rom = results["Y9 top"][1], results[ROM_DESIGN][1]
    if "error" in base or "error" in rom:
        return None, []
    cols = [("LUT", lambda c, s: s["lut"]), ("LUT+mem", lambda c, s: s["lut_mem"]), ("FF", lambda c, s: s["ff"]),
            ("RAMB18", lambda c, s: c.get("RAMB18E1", 0)), ("RAMB36", lambda c, s: c.get("RAMB36E1", 0)),
            ("LUTRAM cells", lambda c, s: sum(n for k, n in c.items() if k.startswith("RAM") and
                                              not k.startswith("RAMB") and isinstance(n, int)))]
    a = [f(base, br.summarise(base)) for _, f in cols]
    b = [f(rom, br.summarise(rom)) for _, f in cols]
    delta = [y - x for x, y in zip(a, b)]
    table = {"title": f"The descriptor ROM (monitor.global.descriptor: rom): Y9 with its {rom_bytes}-byte "
                      "descriptor file in a ROM of the global block, against Y9",
             "columns": ["design"] + [c for c, _ in cols],
             "rows": [["Y9 top"] + a, [ROM_DESIGN] + b, ["delta (the ROM, DESC_INDEX/DESC_DATA)"] + delta]}
    figs = [figure("descriptor ROM on Y9 LUT", delta[0], "LUT", note=f"{rom_bytes}-byte .jdesc, yosys"),
            figure("descriptor ROM on Y9 FF", delta[2], "FF"),
            figure("descriptor ROM on Y9 RAMB18", delta[3], "RAMB18")]
    return table, figs


def y_designs(out: Path) -> list[tuple[str, Path, int, int]]:
    """(name, description, paper delta LUT, paper delta FF) of Y1..Y9, written to out."""
    base = yaml.safe_load((REPO / "configs" / "selective_accumulations.yaml").read_text())
    p0 = br.VARIANTS[0]
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for v in br.VARIANTS[1:]:
        cfg = br.variant_config(base, *v[:5])
        path = out / f"sa_{v[0].lower()}.yaml"
        path.write_text(yaml.safe_dump(cfg, sort_keys=False))
        rows.append((v[0], path, v[5] - p0[5], v[6] - p0[6]))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fragment", required=True)
    ap.add_argument("--out", default=str(REPO / "build" / "bench"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-before", action="store_true", help="skip the synthesis of the earlier tree (BEFORE_COMMIT)")
    a = ap.parse_args(argv)
    out = Path(a.out).resolve() / "cost"
    out.mkdir(parents=True, exist_ok=True)

    ys = y_designs(out / "y")
    jobs = []
    for name, cfg, _ in DESIGNS:
        files, top, _ = br.generate(cfg, out / "gen")
        jobs.append((name, top, files))
    for name, cfg, _, _ in ys:
        files, top, _ = br.generate(cfg, out / "gen")
        jobs.append((name, top, files))
    files, top, rom_d = br.generate(rom_design(out / "rom"), out / "gen-rom")   # Y9's name: another folder
    jobs.append((ROM_DESIGN, top, files))
    from jointer_gen.backends.descfile import encode
    rom_bytes = len(encode(rom_d))
    print(f"[cost] synthesising {len(jobs)} monitors", flush=True)
    results = {}
    with cf.ThreadPoolExecutor(a.jobs) as pool:
        futs = {pool.submit(synth_netlist, f, t, out / "synth" / (t + ("-rom" if n == ROM_DESIGN else ""))): (n, t)
                for n, t, f in jobs}
        for fut in cf.as_completed(futs):
            n, t = futs[fut]
            results[n] = (t,) + fut.result()
            res = results[n][1]
            print(f"[cost] {n}: " + (res.get("error", "")[:200] if "error" in res else
                                      f"{br.summarise(res)['lut']} LUT, {res['ff']} FF"), flush=True)
    before = {}
    if not a.no_before:
        tree = before_tree(out)
        if tree is None:
            print(f"bench-cost: no git history: the before figures ({BEFORE_COMMIT}) are left out")
        else:
            print(f"[cost] the same descriptions through the tree of {BEFORE_COMMIT}", flush=True)
            before = synth_before(tree, [c for _, c, _ in DESIGNS], out, a.jobs)

    errors = [f"{n}: {r[1]['error']}" for n, r in results.items() if "error" in r[1]]
    figs, rows = [], []
    for name, cfg, (blut, bff) in DESIGNS:
        res = results[name][1]
        if "error" in res:
            continue
        s = br.summarise(res)
        old = before.get(cfg.stem)
        rows.append([name, old[0] if old else "", old[1] if old else "", s["lut"], s["ff"], blut, bff,
                     "yes" if s["lut"] <= blut and s["ff"] <= bff else "no"])
        figs.append(figure(f"{name} LUT", s["lut"], "LUT", blut, "budget", summary=True,
                           note=f"before ({BEFORE_COMMIT}): {old[0]}" if old else ""))
        figs.append(figure(f"{name} FF", s["ff"], "FF", bff, "budget", summary=True,
                           note=f"before ({BEFORE_COMMIT}): {old[1]}" if old else ""))
    yrows = []
    for name, cfg, plut, pff in ys:
        res = results[name][1]
        if "error" in res:
            continue
        s = br.summarise(res)
        yrows.append([name, s["lut"], s["lut_mem"], s["ff"], plut, pff, f"{s['lut_mem'] / plut:.2f}",
                      f"{s['ff'] / pff:.2f}"])
        figs.append(figure(f"{name} monitor alone LUT", s["lut_mem"], "LUT", plut,
                           f"{br.PAPER}: monitor delta", summary=True, note="LUT+mem, yosys"))
        figs.append(figure(f"{name} monitor alone FF", s["ff"], "FF", pff, f"{br.PAPER}: monitor delta",
                           summary=True))
    tables = [{"title": "Budgets: before and after, same flow, same run",
               "columns": ["design", f"LUT {BEFORE_COMMIT}", f"FF {BEFORE_COMMIT}", "LUT", "FF",
                           "budget LUT", "budget FF", "within"], "rows": rows},
              {"title": "The monitors of the TECS paper's Table 2 synthesised alone vs the paper's monitor deltas",
               "columns": ["design", "LUT", "LUT+mem", "FF", "paper dLUT", "paper dFF", "ratio LUT+mem",
                           "ratio FF"], "rows": yrows}]
    y9 = results["Y9 top"]
    if "error" not in y9[1]:
        v = (y9[2].parent / f"{y9[0]}.v").read_text()
        att = attribution.attribute(json.loads(y9[2].read_text()), y9[0], v, f"{y9[0]}.v")
        tables.append({"title": "Where the Y9 top's cells go (every cell charged to the registers it feeds, "
                                "scripts/attribution.py)",
                       "columns": ["block", "LUT", "LUT+mem", "FF"],
                       "rows": attribution.table(att) + [["total", att["total"][0],
                                                          att["total"][0] + att["total"][2], att["total"][1]]]})
    rom_t, rom_figs = rom_table(results, rom_bytes)
    if rom_t is not None:
        tables.append(rom_t)
        figs += rom_figs
    write_fragment(a.fragment, "Cost of a monitor", figs, order=12, tables=tables, text=[
        "Counted by yosys (synth_xilinx -family xc7 -flatten -noiopad, no abc9), not Vivado. "
        f"Before = the tree of {BEFORE_COMMIT} (the generator and library before pay-for-what-you-use), synthesised "
        "in the same run. The Y1..Y9 monitors alone are the generated tops of the paper's Table 2 designs; "
        "the paper's figures are its Vivado monitor deltas (design minus Y0)."])
    print("== cost of a monitor: before / after / budget ==")
    for r in rows:
        print(f"  {r[0]:46} {str(r[1]):>5}/{str(r[2]):<5} -> {r[3]:5}/{r[4]:<5} budget {r[5]}/{r[6]}  "
              f"{'ok' if r[7] == 'yes' else 'OVER'}")
    for r in yrows:
        print(f"  {r[0]} alone: {r[2]} LUT+mem / {r[3]} FF  (paper delta {r[4]} / {r[5]}: {r[6]} / {r[7]})")
    if rom_t is not None:
        for r in rom_t["rows"]:
            print(f"  {r[0]:46} " + ", ".join(f"{v} {c}" for c, v in zip(rom_t["columns"][1:], r[1:])))
    for e in errors:
        print(f"bench-cost: error: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
