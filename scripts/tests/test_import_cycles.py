"""No import cycle inside the project's Python packages.

The graph is built with ast from every import statement of a package,
function-local ones included (a cycle hidden inside a function is still a
cycle: the two modules cannot be read, tested or moved apart). An edge goes
from a module to each module of the same package it imports; `from . import x`
names a submodule when one exists. Any strongly connected component of more
than one module, or a module importing itself, fails the test.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGES = [REPO / "gen" / "jointer_gen", REPO / "sim" / "jointer_sim",
            REPO / "drivers" / "python" / "jointer"]


def module_name(pkg_root: Path, path: Path) -> str:
    rel = path.relative_to(pkg_root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules_of(pkg_root: Path) -> dict[str, Path]:
    return {module_name(pkg_root, p): p for p in sorted(pkg_root.rglob("*.py"))
            if "__pycache__" not in p.parts}


def resolve(current: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = current.split(".")
    if not is_pkg:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imported(current: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that `current` imports, anywhere in its body."""
    is_pkg = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = resolve(current, is_pkg, node)
            subs = [f"{target}.{a.name}" for a in node.names]
            # `from pkg import sub` needs the module sub; `from pkg import f`
            # needs pkg itself
            names = subs if all(s in known for s in subs) else subs + [target]
        else:
            continue
        for name in names:
            # the longest known prefix: `pkg.mod.func` imports `pkg.mod`
            parts = name.split(".")
            for i in range(len(parts), 0, -1):
                cand = ".".join(parts[:i])
                if cand in known:
                    out.add(cand)
                    break
    return out


def import_graph(pkg_root: Path) -> dict[str, set[str]]:
    mods = modules_of(pkg_root)
    known = set(mods)
    graph = {}
    for name, path in mods.items():
        graph[name] = imported(name, path, known) - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


@pytest.mark.parametrize("pkg", PACKAGES, ids=lambda p: p.name)
def test_no_import_cycle(pkg: Path) -> None:
    found = cycles(import_graph(pkg))
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_detects_a_cycle(tmp_path: Path) -> None:
    pkg = tmp_path / "demo"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from .b import g\n    return g\n")
    (pkg / "b.py").write_text("from demo import a\n")
    (pkg / "c.py").write_text("from . import a\n")
    assert cycles(import_graph(pkg)) == [["demo.a", "demo.b"]]
