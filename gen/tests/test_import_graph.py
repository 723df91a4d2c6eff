# SPDX-License-Identifier: MIT
"""The import graphs of the project's Python packages have no cycle: the
generator (jointer_gen), the simulation models (sim/jointer_sim) and the host
package (drivers/python/jointer).

The graph is built from the source with ast, every import counted wherever
it sits (module level, inside a function or a method): a function-local
import only delays a cycle, it does not remove it. Only imports under
`if TYPE_CHECKING:` are left out (they never run). Importing `a.b.c` runs
the `__init__` of `a` and `a.b` first, so each is an edge too, except the
importing module's own enclosing packages (already running).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = "jointer_gen"
ROOT = Path(__file__).resolve().parents[1] / PKG
REPO = Path(__file__).resolve().parents[2]
PACKAGES = {"jointer_gen": (ROOT, 40), "jointer_sim": (REPO / "sim" / "jointer_sim", 5),
            "jointer": (REPO / "drivers" / "python" / "jointer", 10),
            "jointer_tb": (REPO / "sim" / "jointer_tb", 10)}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_only(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Every Import / ImportFrom node, TYPE_CHECKING blocks left out."""
    todo = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_only(child):
                todo.extend(child.orelse)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child
            todo.append(child)


def _targets(mod: str, is_pkg: bool, node, modules: set[str]) -> set[str]:
    """The package modules an import statement runs (the imported module and its packages)."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = mod.split(".") if is_pkg else mod.split(".")[:-1]
            base = base[:len(base) - (node.level - 1)]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        names = [prefix] + [f"{prefix}.{a.name}" for a in node.names]   # `from p import submodule`
    out = set()
    for name in names:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            out.add(".".join(parts[:i]))
    own = mod.split(".")
    ancestors = {".".join(own[:i]) for i in range(1, len(own) + (1 if is_pkg else 0))}
    return {t for t in out if t in modules and t not in ancestors and t != mod}


def _registered(mod: str, is_pkg: bool, tree: ast.Module, modules: set[str]) -> set[str]:
    """Modules named in a module-level `..._MODULES = ("a", "b.c", ...)` table:
    the registries (interfacer kinds, backends) import them by name, relative
    to the module's package."""
    base = mod if is_pkg else mod.rpartition(".")[0]
    out = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple) and any(
                isinstance(t, ast.Name) and t.id.endswith("MODULES") for t in node.targets):
            out |= {f"{base}.{e.value}" for e in node.value.elts
                    if isinstance(e, ast.Constant) and f"{base}.{e.value}" in modules}
    return out


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph = {}
    for mod, path in files.items():
        tree = ast.parse(path.read_text(), str(path))
        is_pkg = path.name == "__init__.py"
        graph[mod] = _registered(mod, is_pkg, tree, set(files))
        for node in _imports(tree):
            graph[mod] |= _targets(mod, is_pkg, node, set(files))
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as [a, b, ..., a], or None (iterative depth-first search)."""
    state: dict[str, int] = {}          # 1: on the stack, 2: done
    for start in sorted(graph):
        if state.get(start):
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, iter(sorted(graph[nxt]))))
                path.append(nxt)
    return None


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_no_import_cycle(name):
    root, at_least = PACKAGES[name]
    graph = import_graph(root)
    assert len(graph) > at_least and name in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = root / PKG / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return root / PKG


@pytest.mark.parametrize("files, cycle", [
    # a function-local import closes the cycle
    ({"__init__.py": "", "a.py": "from .b import x\n",
      "b.py": "def f():\n    from . import a\n"}, ["jointer_gen.a", "jointer_gen.b", "jointer_gen.a"]),
    # through a package __init__ that imports its submodule
    ({"__init__.py": "", "m.py": "from .p.q import y\n",
      "p/__init__.py": "from .. import m\n", "p/q.py": ""}, ["jointer_gen.m", "jointer_gen.p", "jointer_gen.m"]),
    # through a registry that imports its modules by name
    ({"__init__.py": "", "reg.py": "MODULES = (\"k\",)\n", "k.py": "from .reg import x\n"},
     ["jointer_gen.k", "jointer_gen.reg", "jointer_gen.k"]),
    # absolute import, in a method
    ({"__init__.py": "", "a.py": "import jointer_gen.b\n",
      "b.py": "class C:\n    def f(self):\n        import jointer_gen.a\n"},
     ["jointer_gen.a", "jointer_gen.b", "jointer_gen.a"]),
])
def test_cycle_found(tmp_path, files, cycle):
    assert find_cycle(import_graph(_write(tmp_path, files))) == cycle


def test_no_cycle_found(tmp_path):
    """A type-only import back, a submodule importing its package's sibling and
    the package above: no cycle."""
    root = _write(tmp_path, {
        "__init__.py": "", "a.py": "from .b import x\nfrom typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .c import C\n",
        "b.py": "from . import c\n", "c.py": "import os\n",
        "p/__init__.py": "", "p/q.py": "from . import r\nfrom .. import a\n", "p/r.py": ""})
    graph = import_graph(root)
    assert graph["jointer_gen.a"] == {"jointer_gen.b"}
    assert graph["jointer_gen.c"] == set()
    assert graph["jointer_gen.p.q"] == {"jointer_gen.p.r", "jointer_gen.a"}
    assert find_cycle(graph) is None
