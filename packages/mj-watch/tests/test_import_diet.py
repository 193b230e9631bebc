"""Importing mj_watch brings in none of the modules too slow for a hook's start-up.

Each module of mj_watch is imported in a fresh interpreter. A banned module may be present only
when the interpreter's start-up or a module of mj-core, mj-policy or mj-state that mj_watch
imports at module level already brings it in (those are measured first, alone, in the same
process): mj_watch itself adds none.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "mj_watch"
FOREIGN = ("mj_core", "mj_policy", "mj_state")
BANNED = frozenset(
    {
        "typing",
        "dataclasses",
        "shutil",
        "tempfile",
        "inspect",
        "platform",
        "getpass",
        "uuid",
        "random",
        "jsonschema",
        "orjson",
        "_strptime",
        "subprocess",
    }
)
PROBE = """
import json, sys
banned = set(json.loads(sys.argv[1]))
foreign, own = json.loads(sys.argv[2]), json.loads(sys.argv[3])
startup = banned & set(sys.modules)
for module, names in foreign:
    __import__(module, fromlist=names)
before = banned & set(sys.modules)
for module in own:
    __import__(module)
after = banned & set(sys.modules)
imported = [m for m in own if m in sys.modules]
print(json.dumps({"startup": sorted(startup), "foreign": sorted(before),
                  "after": sorted(after), "imported": imported}))
"""


def own_modules() -> list[str]:
    """The package and every module of it but `__main__` (importing that runs the tool)."""
    stems = sorted(p.stem for p in SRC.glob("*.py") if p.stem not in ("__init__", "__main__"))
    return ["mj_watch", *(f"mj_watch.{stem}" for stem in stems)]


def _run_time_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Module-level imports, `if TYPE_CHECKING:` blocks and function bodies left out."""
    return [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]


def foreign_imports() -> list[tuple[str, list[str]]]:
    """(module, names) of each module-level import of mj-core, mj-policy or mj-state."""
    found: list[tuple[str, list[str]]] = []
    for path in sorted(SRC.glob("*.py")):
        for node in _run_time_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                pair = (node.module, [alias.name for alias in node.names])
            elif isinstance(node, ast.Import):
                pair = (node.names[0].name, [])
            else:
                continue
            if pair[0].split(".")[0] in FOREIGN and pair not in found:
                found.append(pair)
    return found


def probe() -> dict[str, list[str]]:
    own, foreign = own_modules(), foreign_imports()
    argv = [json.dumps(sorted(BANNED)), json.dumps(foreign), json.dumps(own)]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True
    )
    result: dict[str, list[str]] = json.loads(done.stdout)
    return result


def test_every_module_is_found_and_foreign_imports_are_seen() -> None:
    own = own_modules()
    assert "mj_watch.doctor" in own and "mj_watch.watch" in own and len(own) >= 25
    modules = {module for module, _ in foreign_imports()}
    assert {"mj_core.findings", "mj_policy", "mj_state"} <= modules


def test_mj_watch_imports_no_banned_module_of_its_own() -> None:
    result = probe()
    assert result["imported"] == own_modules()
    added = sorted(set(result["after"]) - set(result["foreign"]))
    assert added == [], (
        f"importing mj_watch brings in {added}; start-up and the mj-core/mj-policy/mj-state "
        f"modules it imports bring in {result['foreign']} (start-up alone: {result['startup']})"
    )
