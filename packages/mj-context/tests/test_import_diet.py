"""Import diet: importing any mj_context module pulls in none of the slow standard modules.

Every command is a fresh process run from git hooks, so what a module imports at load time is
paid on every commit. The check runs in a fresh interpreter: it first imports the mj_core
modules mj_context imports at module level (what they bring in is mj_core's to shed, and is
reported, not asserted), then every mj_context module (and with them the mj_policy modules they
use), and fails naming the module that added a banned one.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import mj_context

BANNED = (
    *("typing", "dataclasses", "shutil", "tempfile", "inspect", "platform", "getpass"),
    *("uuid", "random", "jsonschema", "orjson", "_strptime", "subprocess", "hashlib"),
)
PROBE = """
import importlib, json, sys
banned, core, ours = json.loads(sys.argv[1])
for name in core:
    importlib.import_module(name)
inherited = sorted(m for m in banned if m in sys.modules)
added = {}
for name in ours:
    importlib.import_module(name)
    for m in banned:
        if m in sys.modules and m not in inherited:
            added.setdefault(m, name)
print(json.dumps({"inherited": inherited, "added": added}))
"""


PACKAGE = "mj_context"
FIRST_PARTY = ("mj_policy", "mj_context")
SOURCE = Path(mj_context.__file__).parent


def modules() -> list[str]:
    found = pkgutil.iter_modules([str(SOURCE)], PACKAGE + ".")
    return [m.name for m in found if not m.name.endswith(".__main__")]


def core_imports() -> list[str]:
    """The mj_core modules imported at module level (not under TYPE_CHECKING) by the package's
    modules and by the other Majordomus modules they import in turn."""
    found: set[str] = set()
    pending = [str(p) for p in SOURCE.glob("*.py")]
    seen: set[str] = set()
    while pending:
        path = pending.pop()
        seen.add(path)
        for name in _imported(Path(path)):
            if name.startswith("mj_core"):
                found.add(name)
                continue
            spec = importlib.util.find_spec(name) if name.startswith(FIRST_PARTY) else None
            if spec is not None and spec.origin and spec.origin not in seen:
                pending.append(spec.origin)
    return sorted(found)


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names if _is_module(node, a))
    return names


def _is_module(node: ast.ImportFrom, alias: ast.alias) -> bool:
    """`from mj_core import git`: a module; `from os import path` or a class: not followed."""
    if node.module not in ("mj_core", *FIRST_PARTY):
        return False
    return importlib.util.find_spec(f"{node.module}.{alias.name}") is not None


def probe(core: list[str], ours: list[str]) -> dict[str, object]:
    argument = json.dumps([BANNED, core, ours])
    done = subprocess.run(
        [sys.executable, "-c", PROBE, argument], capture_output=True, text=True, check=True
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_probe_sees_a_banned_import() -> None:
    added = probe([], ["tempfile"])["added"]
    assert isinstance(added, dict) and added.get("tempfile") == "tempfile", added


def test_the_modules_and_their_core_imports_are_found() -> None:
    assert {"mj_core.cli", "mj_core.clock", "mj_core.findings"} <= set(core_imports())
    assert {f"{PACKAGE}.build", f"{PACKAGE}.sections", f"{PACKAGE}.render"} <= set(modules())


def test_no_module_imports_a_banned_module() -> None:
    result = probe(core_imports(), modules())
    assert result["added"] == {}, f"banned at import (module: first importer): {result}"
