"""Import diet: importing any mj_policy module pulls in none of the slow standard modules.

Every command is a fresh process run from git hooks, so what a module imports at load time is
paid on every commit. The check runs in a fresh interpreter: it first imports the mj_core
modules mj_policy imports at module level (what they bring in is mj_core's to shed, and is
reported, not asserted), then every mj_policy module, and fails naming the module that added a
banned one. `hashlib` is banned here: stamps and rule packages import it where they hash.
"""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import mj_policy

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


PACKAGE = "mj_policy"
SOURCE = Path(mj_policy.__file__).parent


def modules() -> list[str]:
    found = pkgutil.iter_modules([str(SOURCE)], PACKAGE + ".")
    return [m.name for m in found if not m.name.endswith(".__main__")]


def core_imports() -> list[str]:
    """The mj_core modules the package's modules import at module level (not TYPE_CHECKING)."""
    found: set[str] = set()
    for path in SOURCE.glob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.startswith("mj_core"))
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mj_core"):
                found.add(str(node.module))
                if node.module == "mj_core":
                    found.update(f"mj_core.{a.name}" for a in node.names)
    return sorted(found)


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
    assert {"mj_core.errors", "mj_core.yamlstrict", "mj_core.git"} <= set(core_imports())
    assert {f"{PACKAGE}.layer", f"{PACKAGE}.contextdocs", f"{PACKAGE}.stamps"} <= set(modules())


def test_no_module_imports_a_banned_module() -> None:
    result = probe(core_imports(), modules())
    assert result["added"] == {}, f"banned at import (module: first importer): {result}"
