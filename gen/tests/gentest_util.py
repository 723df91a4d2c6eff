# SPDX-License-Identifier: MIT
"""Shared helpers of the generator tests (gen/tests), imported by the test modules.

Puts gen/ and sim/ on sys.path (jointer_gen; jointer_sim's runner and
reference model) and offers:
  REPO, CONFIGS, EXAMPLES          paths and the example names
  run_cli(args) -> (rc, out, err)  jointer-gen in-process (fast)
  generated(name) -> (design, {path: text})   cached per session
"""
from __future__ import annotations

import contextlib
import io
import sys
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for p in (REPO / "gen", REPO / "sim"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

CONFIGS = REPO / "configs"
EXAMPLES = ["selective_accumulations", "arm_timestamps", "two_clock_bus", "stress_15x4", "bus_utilization",
            "program_monitor", "trace_sink"]


def run_cli(args: list[str]) -> tuple[int, str, str]:
    from jointer_gen.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in args])
    return rc, out.getvalue(), err.getvalue()


@lru_cache(maxsize=None)
def generated(name: str):
    from jointer_gen.cli import generate
    return generate(str(CONFIGS / f"{name}.yaml"))


def _docs() -> str:
    """The README and the user documentation (doc/*.md) as one text."""
    return "\n".join(p.read_text() for p in [REPO / "README.md"] + sorted((REPO / "doc").glob("*.md")))


def readme_yaml(section: str) -> str:
    """The first YAML block after the heading `section` of the README or doc/*.md."""
    import re
    text = _docs()
    start = text.index(section)
    return re.search(r"```yaml\n(.*?)```", text[start:], re.S).group(1)


def readme_section(title: str) -> str:
    """The text of the section `## title` of the README or doc/*.md (up to the next `## `)."""
    text = _docs()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def edge_configs(tmp_path: Path) -> list[Path]:
    """Descriptions beyond configs/: the annotated example of the README (every
    key) and gen/tests/configs/*.yaml (edge cases)."""
    readme = tmp_path / "readme_example.yaml"
    readme.write_text(readme_yaml("## Every key, annotated"))
    return [readme] + sorted((REPO / "gen" / "tests" / "configs").glob("*.yaml"))
