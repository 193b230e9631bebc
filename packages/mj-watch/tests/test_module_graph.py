"""mj_watch's modules import each other without a circle, at module level or inside a
function (a function-level import may defer a cost, never hide a cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

import mj_watch

PACKAGE = Path(mj_watch.__file__).parent


def _imports(path: Path) -> set[str]:
    """The mj_watch modules `path` imports, anywhere in it (TYPE_CHECKING blocks aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in ast.walk(block)
    }
    found = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module == "mj_watch":
            found |= {f"mj_watch.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mj_watch."):
            found.add(str(node.module))
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("mj_watch.")}
    return found


def _graph() -> dict[str, set[str]]:
    modules = {
        "mj_watch." + ".".join(p.relative_to(PACKAGE).with_suffix("").parts): p
        for p in PACKAGE.rglob("*.py")
        if p.name != "__init__.py"
    }
    return {name: _imports(path) & set(modules) for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_module_of_mj_watch_is_in_an_import_circle() -> None:
    graph = _graph()
    assert "mj_watch.doctor" in graph and "mj_watch.vendorcheck" in graph["mj_watch.doctor"]
    assert _cycle(graph) is None, " → ".join(_cycle(graph) or [])
