# SPDX-License-Identifier: MIT
"""Gate-level check of the taps: simulate what `ghdl synth` makes of them.

The RTL tests prove the VHDL; they cannot see a synthesis slip. GHDL 2.0.0
has real ones: an array register written only at a computed index comes out
of `ghdl synth` as a combinational loop (no flip-flop at all), and `others`
arms get lost in the Verilog. `synth_netlist()` synthesises a whole test
bench (taps included, generics fixed) with `ghdl synth --out=vhdl` into a
flat netlist entity; the test module then runs its cocotb tests against that
netlist unchanged.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from jointer_sim.runner import BUILD, LIBRARY, library_sources, needed_sources


def _ghdl(args, cwd):
    r = subprocess.run(["ghdl", *args], cwd=cwd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"ghdl {' '.join(args[:2])} failed:\n{r.stderr}")
    return r.stdout


def synth_netlist(top: str, tb_sources: list[Path], generics: dict, name: str) -> Path:
    """Netlist of entity `top` (in tb_sources + the library) as entity `name`."""
    work = BUILD / "netlist" / name
    work.mkdir(parents=True, exist_ok=True)
    for f in work.glob("*.cf"):
        f.unlink()
    srcs = needed_sources(list(tb_sources), library_sources() + list(tb_sources))
    opts = ["--std=08", f"--work={LIBRARY}", f"--workdir={work}"]
    _ghdl(["-i", *opts, *map(str, srcs)], work)
    _ghdl(["-m", *opts, top], work)
    gen = [f"-g{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in generics.items()]
    text = _ghdl(["synth", *opts, *gen, "--out=vhdl", top], work)
    text = re.sub(rf"\b{top}\b", name, text)
    # ghdl writes a 1-bit vector port from its std_logic wrapper as an illegal
    # conversion: `x <= std_ulogic_vector(wrap_x);`
    scalars = set(re.findall(r"signal (wrap_\w+): std_logic;", text))
    text = re.sub(r"(\w+) <= std_ulogic_vector\((wrap_\w+)\);",
                  lambda m: f"{m.group(1)}(0) <= {m.group(2)};" if m.group(2) in scalars else m.group(0),
                  text)
    out = work / f"{name}.vhd"
    out.write_text(text)
    return out
