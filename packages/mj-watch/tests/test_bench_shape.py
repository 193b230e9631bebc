"""The benchmark harness's shape: small modules, no import circle, nothing from the dispatcher.

Imports are read from the source with `ast`, at every depth (one inside a function counts), so
a circle hidden by a function-level import is found as well as a module-level one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import mj_watch.bench

PACKAGE = "mj_watch.bench"
HERE = Path(mj_watch.bench.__file__).parent


def modules() -> dict[str, Path]:
    return {path.stem: path for path in sorted(HERE.glob("*.py"))}


def imported(path: Path) -> set[str]:
    """Every module name `path` imports, anywhere in its body."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def graph() -> dict[str, set[str]]:
    """Module stem → the stems of the harness modules it imports."""
    stems = set(modules())
    return {
        stem: {name.rpartition(".")[2] for name in imported(path) if _inside(name, stems)} - {stem}
        for stem, path in modules().items()
    }


def _inside(name: str, stems: set[str]) -> bool:
    return name.startswith(PACKAGE + ".") and name.removeprefix(PACKAGE + ".") in stems


def circle(edges: dict[str, set[str]]) -> list[str]:
    """One import circle of `edges` as the path around it, or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_circle_finder_finds_a_circle_and_only_a_circle() -> None:
    assert circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_no_import_circle_in_the_harness_even_through_a_function_level_import() -> None:
    edges = graph()
    assert edges["session"] >= {"fixture", "markdown", "sampling", "targets"}  # graph is read
    assert circle(edges) == []


def test_every_harness_module_is_under_300_lines() -> None:
    long = {
        stem: count
        for stem, path in modules().items()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > 300
    }
    assert long == {}


def test_the_harness_imports_nothing_from_the_dispatcher() -> None:
    found = {
        stem: sorted(n for n in imported(path) if n.split(".")[0] == "majordomus")
        for stem, path in modules().items()
    }
    assert {stem: names for stem, names in found.items() if names} == {}
