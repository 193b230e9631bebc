"""The import contracts of `.importlinter` (run by `lint-imports` in tox's lint environment):
each one breaks when the code breaks it, and the hook-path contract names every stage module a
hook-path command runs, as `share/commands.json` composes them.
"""

from __future__ import annotations

import configparser
import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*sorted((ROOT / "packages").glob("*/src")), ROOT / "majordomus" / "src"]
LINT = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
    "lint-imports"
)
TOOLS = {
    "mj-policy": "mj_policy.cli",
    "mj-state": "mj_state.cli",
    "mj-context": "mj_context.cli",
    "mj-knowledge": "mj_knowledge.cli",
    "mj-watch": "mj_watch.cli",
}
# the commands a git hook or a client hook runs (README, "Speed"); `finish` only as `--check`
HOOK_COMMANDS = ("check", "finish", "context", "doctor", "history", "update", "watch")
HOOK_ACTIONS = ("session start", "session close")
# the dispatcher's own hook entries, which compose no declared pipeline
HOOK_ENTRIES = {"majordomus.stop_hook", "majordomus.tool_hook_cli"}

needs_linter = pytest.mark.skipif(LINT is None, reason="import-linter is installed by tox")


def contracts() -> configparser.ConfigParser:
    parser = configparser.ConfigParser()
    parser.read(ROOT / ".importlinter", encoding="utf-8")
    return parser


def listed(section: str, key: str) -> set[str]:
    return set(contracts()[section][key].split())


def hook_stage_modules() -> set[str]:
    """The module of every stage a hook-path command runs (`finish` without its writer)."""
    declared = json.loads((ROOT / "share" / "commands.json").read_text(encoding="utf-8"))
    out = set(HOOK_ENTRIES)
    for command in declared["commands"]:
        if command["name"] not in HOOK_COMMANDS + HOOK_ACTIONS:
            continue
        for step in command.get("pipeline") or []:
            if command["name"] == "finish" and step.get("unless") == "check":
                continue
            tool, sub = step["stage"][:2]
            out.add(importlib.import_module(TOOLS[tool]).TABLE._where[sub])
    return out


def test_the_hook_path_contract_names_every_stage_a_hook_runs() -> None:
    assert listed("importlinter:contract:hook-path", "source_modules") == hook_stage_modules()


def test_the_shell_and_the_benchmark_are_kept_from_every_other_part_of_mj_watch() -> None:
    import pkgutil

    import mj_watch

    parts = {m.name for m in pkgutil.iter_modules(mj_watch.__path__, "mj_watch.")}
    kept_from = listed("importlinter:contract:shell-bench", "forbidden_modules")
    apart = {"mj_watch.shell", "mj_watch.bench", "mj_watch.__main__"}
    assert kept_from == parts - apart


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    assert LINT is not None
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(p) for p in tree.iterdir())}
    return subprocess.run(
        [LINT, "--no-cache", str(tree.parent / ".importlinter")],
        capture_output=True,
        text=True,
        cwd=tree.parent,
        env=env,
        check=False,
    )


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sources copied into one folder per package, beside a copy of the contracts."""
    top = tmp_path_factory.mktemp("contracts")
    tree = top / "src"
    for source in SOURCES:
        for package in source.iterdir():
            if package.is_dir() and not package.name.endswith(".egg-info"):
                ignore = shutil.ignore_patterns("__pycache__")
                shutil.copytree(
                    package, tree / package.name / package.name, symlinks=True, ignore=ignore
                )
    shutil.copy(ROOT / ".importlinter", top / ".importlinter")
    return tree


def module_file(tree: Path, dotted: str) -> Path:
    parts = dotted.split(".")
    path = tree / parts[0] / Path(*parts)
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


@needs_linter
def test_the_contracts_hold_on_the_code(copied: Path) -> None:
    result = lint(copied)
    assert result.returncode == 0, result.stdout[-3000:]


@needs_linter
@pytest.mark.parametrize(
    ("module", "imported", "contract"),
    [
        ("mj_core.paths", "mj_policy.layer.loader", "packages in layers"),
        ("mj_state.ledger.store", "mj_watch.doctor.judge", "packages in layers"),
        ("mj_context.build", "mj_knowledge.pointers", "packages in layers"),
        ("mj_state.session.start", "mj_context.build", "packages in layers"),
        ("mj_state.task.check_facts", "mj_knowledge.pointers", "packages in layers"),
        ("mj_policy.knowledge.notes", "mj_state.records.store", "packages in layers"),
        ("mj_state.task.check_facts", "mcp", "the hook path imports"),
        ("mj_watch.finish.judge", "mj_watch.verify.verdict", "the hook path imports"),
        ("mj_watch.shell.parser", "mj_watch.doctor.judge", "know nothing of the judges"),
        ("mj_watch.bench.stats", "mj_watch.shell.lexer", "know nothing of each other"),
    ],
)
def test_each_contract_breaks_when_the_code_breaks_it(
    copied: Path, module: str, imported: str, contract: str
) -> None:
    """An import added inside a function (where a lazy import hides) is found."""
    path = module_file(copied, module)
    kept = path.read_text(encoding="utf-8")
    path.write_text(kept + f"\n\ndef _added() -> None:\n    import {imported}\n", "utf-8")
    try:
        result = lint(copied)
    finally:
        path.write_text(kept, "utf-8")
    assert result.returncode == 1, result.stdout[-2000:]
    assert f"{contract}" in result.stdout and "BROKEN" in result.stdout
