"""The import diet: importing mj_state loads none of the modules a start-up path cannot afford.

Every command is a fresh process, so what a module imports at load time is paid on every run.
Two checks: no mj_state module imports a banned module at module level (outside
`if TYPE_CHECKING:`), and importing every mj_state module in a fresh interpreter adds no banned
module (through the standard library modules it imports) to what the other packages it imports
(mj_core, mj_policy) already load — those are measured first, as the baseline, and named in the
failure message, not judged here.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import mj_state

BANNED = frozenset(
    {
        "typing",
        "dataclasses",
        "shutil",
        "tempfile",
        "subprocess",
        "inspect",
        "platform",
        "getpass",
        "uuid",
        "random",
        "jsonschema",
        "orjson",
        "_strptime",
    }
)
SOURCE = Path(mj_state.__file__).parent
# `python -m mj_state` runs the tool on import; it imports only mj_state.cli, checked below.
SKIPPED = {"__main__"}


def _modules() -> list[Path]:
    found = sorted(path for path in SOURCE.glob("*.py") if path.stem not in SKIPPED)
    assert len(found) > 20  # the package's modules, not an empty glob
    return found


def _top_level_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import run when `path` is loaded (not those in functions)."""
    found: list[tuple[int, str]] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
    return found


def test_no_module_imports_a_banned_module_at_load_time() -> None:
    offending = [
        f"{path.name}:{line}: {module}"
        for path in _modules()
        for line, module in _top_level_imports(path)
        if module.split(".")[0] in BANNED
    ]
    assert offending == []


_PROBE = """
import importlib, json, sys
banned, dependencies, modules = json.loads(sys.argv[1])
for name in dependencies:
    importlib.import_module(name)
baseline = sorted(set(sys.modules) & set(banned))
for name in modules:
    importlib.import_module(name)
print(json.dumps({"baseline": baseline, "after": sorted(set(sys.modules) & set(banned))}))
"""


def test_importing_every_module_adds_no_banned_module() -> None:
    modules = [f"mj_state.{path.stem}" for path in _modules()]
    dependencies = sorted(
        {
            module
            for path in _modules()
            for _, module in _top_level_imports(path)
            if module.startswith("mj_") and not module.startswith("mj_state")
        }
    )
    argv = json.dumps([sorted(BANNED), dependencies, modules])
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, argv], capture_output=True, text=True, check=True
    )
    seen = json.loads(out.stdout)
    added = sorted(set(seen["after"]) - set(seen["baseline"]))
    loaded = seen["baseline"]
    assert added == [], f"mj_state brings in {added} (mj_core, mj_policy already load {loaded})"
    assert "mj_state.finishing" in modules and "mj_state.cli" in modules
