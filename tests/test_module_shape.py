"""The shape every package keeps (ARCHITECTURE.md): no import circle inside a package, counting
the imports made inside functions (a lazy import is for start-up time, never to hide a circle)
and those made for the type checker only (a reader follows them as any other); every module
importable on its own; none over 300 lines; no folder over 25 modules; and no module name that
two packages use for different things.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [
    *sorted((ROOT / "packages").glob("*/src/*/")),
    ROOT / "majordomus" / "src" / "majordomus",
]
MOST_LINES = 300
MOST_IN_A_FOLDER = 25
# Names every package may hold for its own entry points; the dispatcher's command modules are
# named after the command they show, which is the stage they show.
SHARED_NAMES = {"__init__", "__main__", "cli"}


def modules() -> dict[str, Path]:
    found = {}
    for source in SOURCES:
        for path in sorted(source.rglob("*.py")):
            parts = path.relative_to(source.parent).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imported(path: Path, name: str, known: set[str]) -> set[str]:
    """The modules of `known` that `path` (module `name`) imports anywhere: at module level,
    inside functions, or for the type checker only."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                out.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                out.add(base)
                out.update(f"{base}.{alias.name}" for alias in child.names)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {module for module in out if module in known and module != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each strongly connected group of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(groups)


def package_graph() -> dict[str, set[str]]:
    """Imports between modules of the same top-level package (a parent package's `__init__`
    is imported by every child and counts only when imported by name)."""
    found = modules()
    known = set(found)
    graph = {}
    for name, path in found.items():
        top = name.split(".")[0]
        graph[name] = {m for m in imported(path, name, known) if m.split(".")[0] == top}
    return graph


def test_the_cycle_finder_finds_a_circle_hidden_in_a_function(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text(
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from pkg import c\n"
        "def later():\n    from pkg import a\n"
    )
    (pkg / "c.py").write_text("from pkg import b\n")
    known = {"pkg", "pkg.a", "pkg.b", "pkg.c"}
    graph = {n: imported(pkg / f"{n.split('.')[-1]}.py", n, known) for n in known - {"pkg"}}
    graph["pkg"] = set()
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]  # b→c, for the type checker, counts
    graph["pkg.b"] = {"pkg.c"}
    assert cycles(graph) == [["pkg.b", "pkg.c"]]


def test_no_import_circle_inside_any_package() -> None:
    graph = package_graph()
    assert len(graph) > 150  # every package's modules were read
    assert cycles(graph) == []


def test_no_module_over_300_lines() -> None:
    long = {
        name: count
        for name, path in modules().items()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}


def test_no_two_packages_use_one_module_name() -> None:
    """A module is named by its place below its package (`ledger.chain` in `mj_state`,
    `context.chain` in `mj_policy`); a concept's folder may stand in several packages (`plan`),
    a module's name below the package in one only."""
    owners: dict[str, list[str]] = {}
    for name, path in modules().items():
        parts = name.split(".")
        if parts[-1] in SHARED_NAMES or parts[:2] == ["majordomus", "commands"]:
            continue
        if path.name != "__init__.py":
            owners.setdefault(".".join(parts[1:]), []).append(name)
    assert {short: names for short, names in owners.items() if len(names) > 1} == {}


def test_no_folder_holds_more_than_25_modules() -> None:
    """A folder is one concept a reader can take in: at most 25 modules, `__init__` counted."""
    folders: dict[Path, int] = {}
    for path in modules().values():
        folders[path.parent] = folders.get(path.parent, 0) + 1
    crowded = {str(f.relative_to(ROOT)): n for f, n in folders.items() if n > MOST_IN_A_FOLDER}
    assert len(folders) > 30  # every folder was read
    assert crowded == {}


def _imports_alone(name: str) -> tuple[str, int, str]:
    # the installed interpreter: `$MJ_BIN` in the wheels environment, else the one running
    python = Path(os.environ.get("MJ_BIN") or Path(sys.executable).parent) / "python"
    proc = subprocess.run(
        [str(python), "-c", f"import {name}"], capture_output=True, text=True, check=False
    )
    return name, proc.returncode, proc.stderr[-400:]


def test_every_module_imports_on_its_own() -> None:
    names = [n for n in modules() if not n.endswith("__main__")]
    with ThreadPoolExecutor(max_workers=4) as pool:
        failed = [(n, code, err) for n, code, err in pool.map(_imports_alone, names) if code]
    assert failed == []
