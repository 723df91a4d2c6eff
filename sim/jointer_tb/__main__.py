# SPDX-License-Identifier: MIT
"""python3 -m jointer_tb CONFIG.yaml [run.py options] [--out DIR]: generate the
monitor (jointer-gen CONFIG -o DIR) and run its testbench (`make sim`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .runner import REPO, main


def generate(config: Path, out: Path) -> Path:
    """jointer-gen into out; the monitor's tb/ folder (errors: jointer-gen's, file:line)."""
    import yaml

    out.mkdir(parents=True, exist_ok=True)
    r = subprocess.run([sys.executable, "-m", "jointer_gen", str(config), "-o", str(out), "-q"],
                       env={**os.environ, "PYTHONPATH": str(REPO / "gen")})
    if r.returncode:                    # jointer-gen said what is wrong (file:line)
        raise SystemExit(r.returncode)
    tb = out / yaml.safe_load(config.read_text())["monitor"]["name"] / "tb"
    if not tb.is_dir():
        raise SystemExit(f"jointer-tb: jointer-gen wrote no {tb}")
    return tb


def cli(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print("usage: python3 -m jointer_tb CONFIG.yaml [--out DIR] [--seed N] [--cycles N] "
              "[--stim FILE.py] [--waves]", file=sys.stderr)
        return 2
    config, rest = Path(argv[0]), argv[1:]
    out = Path("build/tb")
    if "--out" in rest:
        i = rest.index("--out")
        out = Path(rest[i + 1])
        del rest[i:i + 2]
    tb = generate(config, out / "gen")
    return main(tb, rest + ["--build", str(out / "run" / tb.parent.name)])


sys.exit(cli(sys.argv[1:]))
