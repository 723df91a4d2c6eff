# SPDX-License-Identifier: MIT
"""Every function of the generator fits on a screen: at most MAX_LINES lines
(def to last line, decorators excluded), found by walking every module of
gen/jointer_gen with ast, wherever the modules sit in the package."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "jointer_gen"
MAX_LINES = 60


def function_sizes(root: Path = PACKAGE) -> list[tuple[str, int]]:
    """(file:qualified name, lines) of every function and method under root."""
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))

        def walk(node, prefix):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    name = f"{prefix}{child.name}"
                    out.append((f"{path.relative_to(root)}:{name}",
                                child.end_lineno - child.lineno + 1))
                    walk(child, name + ".")
                elif isinstance(child, ast.ClassDef):
                    walk(child, f"{prefix}{child.name}.")
                else:
                    walk(child, prefix)
        walk(tree, "")
    return out


def test_the_scan_finds_functions():
    sizes = dict(function_sizes())
    assert len(sizes) > 100
    assert all(n >= 2 for n in sizes.values())


def test_a_long_function_is_caught(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    (tmp_path / "m.py").write_text(f"def long():\n{body}\n\ndef short():\n    return 1\n")
    assert dict(function_sizes(tmp_path)) == {"m.py:long": MAX_LINES + 1, "m.py:short": 2}


@pytest.mark.parametrize("limit", [MAX_LINES])
def test_no_function_is_longer_than_a_screen(limit):
    long = sorted(((n, f) for f, n in function_sizes() if n > limit), reverse=True)
    assert not long, "functions over %d lines: %s" % (limit, ", ".join(f"{f} ({n})" for n, f in long))
