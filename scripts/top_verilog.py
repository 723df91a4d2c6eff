#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The Verilog of a generated monitor's top, for the tools that read only
Verilog (SymbiYosys in scripts/formal.py, yosys + nextpnr in scripts/impl.py):
generate the description, analyse the library + the generated VHDL with GHDL,
`ghdl synth --std=08 --out=verilog` the top, repair GHDL 2.0.0's Verilog
(scripts/ghdl_verilog.py).

  top_verilog.py CONFIG OUT.v     write the top of CONFIG to OUT.v
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO / "gen"))
import ghdl_verilog  # noqa: E402
import hdl_check  # noqa: E402


def top_verilog(config: Path, workdir: Path, edit=None) -> tuple[Path, str, object]:
    """(the top's Verilog file in workdir, the top's name, the design) of config;
    edit(files), when given, may rewrite the generated VHDL before GHDL reads it
    (scripts/formal.py sets a generic's constant there)."""
    from bench_resources import generate
    workdir = Path(workdir).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    files, top, design = generate(Path(config), workdir / "gen")
    if edit:
        edit(files)
    hdl_check.analyse(workdir, hdl_check.library_files() + [Path(f).resolve() for f in files], [top])
    r = subprocess.run(["ghdl", "synth", "--std=08", f"--work={hdl_check.LIBRARY}",
                        f"--workdir={workdir}", "--out=verilog", top],
                       cwd=workdir, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"{config}: ghdl synth {top} failed:\n{r.stderr.strip()[-800:]}")
    text, _, _ = ghdl_verilog.repair(r.stdout)
    out = workdir / f"{top}.v"
    out.write_text(text)
    return out, top, design


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    v, top, _ = top_verilog(Path(argv[0]), Path(argv[1]).parent / "work")
    Path(argv[1]).write_text(v.read_text())
    print(f"top_verilog: {top} -> {argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
