# SPDX-License-Identifier: MIT
"""Build a generated monitor under GHDL and run its testbench (cocotb's runner).

`main(tb_dir, argv)` is what a generated tb/run.py calls; `python3 -m
jointer_tb CONFIG.yaml` (sim/jointer_tb/__main__.py, `make sim`) generates
the monitor first. The VHDL: the library files the manifest lists (from the
checkout) and the generated ones in compile order, into library `jointer`;
the test module test_<name>.py beside the spec; sim/ and sim/eig on the
Python path (the runtime, the reference model, the AXI4 traffic model).
Exit status 0 only when the test passed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

SIM = Path(__file__).resolve().parents[1]
REPO = SIM.parent


def options(argv: list[str], prog: str = "run.py") -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog=prog, description="Run the monitor's cocotb testbench under GHDL.")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: a new one, printed)")
    ap.add_argument("--cycles", type=int, default=2000, help="cycles of random traffic per sniffer (2000)")
    ap.add_argument("--stim", type=Path, default=None,
                    help="a stimulus module of your own (async def stimulus(tb); sim/jointer_tb/README.md)")
    ap.add_argument("--waves", action="store_true", help="write a waveform (GHDL: FST) into the build folder")
    ap.add_argument("--build", type=Path, default=None, help="build folder (default: <tb>/sim_build)")
    return ap.parse_args(argv)


def sources(spec: dict, tb_dir: Path) -> list[Path]:
    man = json.loads((tb_dir / spec["manifest"]).read_text())
    gen = (tb_dir / spec["manifest"]).parent
    return [REPO / p for p in man["library_sources"]] + [gen / p for p in man["compile_order"]]


def check_library() -> None:
    """The jointer package needs libjointer.so (make py-lib in the checkout)."""
    try:
        from jointer import _lib
        _lib.lib()
    except Exception as e:  # the package names what is missing
        raise SystemExit(f"jointer-tb: the jointer package cannot load libjointer ({e}); "
                         f"run `make py-lib` in {REPO}") from None


def environment(tb_dir: Path, build: Path, args) -> dict:
    """The test's environment; its Python path is this process's sys.path (cocotb's runner
    passes sys.path on as PYTHONPATH): the test module's folder, sim/ and sim/eig go there."""
    for p in (SIM / "eig", SIM, tb_dir):
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))
    env = {"JOINTER_TB_CYCLES": str(args.cycles), "JOINTER_TB_REPORT": str(build / "report.json")}
    if args.stim:
        env["JOINTER_TB_STIM"] = str(args.stim.resolve())
    return env


def passed(xml: Path) -> bool:
    cases = list(ET.parse(xml).iter("testcase"))
    return bool(cases) and not any(c.find("failure") is not None or c.find("error") is not None for c in cases)


def main(tb_dir: Path, argv: list[str]) -> int:
    args = options(argv)
    tb_dir = Path(tb_dir).resolve()
    spec_path = next(tb_dir.glob("*_tb.json"))
    spec = json.loads(spec_path.read_text())
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    build = (args.build or tb_dir / "sim_build").resolve()
    build.mkdir(parents=True, exist_ok=True)
    check_library()
    from cocotb_tools.runner import get_runner

    runner = get_runner("ghdl")
    runner.build(sources=sources(spec, tb_dir), hdl_library="jointer", hdl_toplevel=spec["top"], build_dir=build,
                 build_args=["--std=08"], always=True, log_file=build / "build.log")
    (build / "report.json").unlink(missing_ok=True)
    xml = build / "results.xml"
    runner.test(test_module=f"test_{spec['name']}", hdl_toplevel=spec["top"], hdl_toplevel_library="jointer",
                seed=seed, build_dir=build, test_dir=build, extra_env=environment(tb_dir, build, args),
                test_args=["--std=08"], plusargs=["--ieee-asserts=disable"], waves=args.waves,
                results_xml=str(xml))
    ok = xml.exists() and passed(xml)
    print(f"jointer-tb: {spec['name']}: {'PASS' if ok else 'FAIL'} (seed {seed}; again: --seed {seed}, "
          f"make sim SEED={seed}); report {build / 'report.json'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), sys.argv[2:]))
