"""`wired_by: pre-commit:<id>`: the configured hook, its stages, and the framework's script."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from mj_watch.wiring import facts as hookfacts
from mj_watch.wiring import precommit
from mj_watch.wiring.check import Entry

REPOSITORY = Path(__file__).resolve().parents[3]
ENV = {
    **os.environ,
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}
ALL = list(precommit.HOOK_TYPES)


def types(hook: dict[str, object], config: dict[str, object] | None = None) -> list[str]:
    settings = precommit.effective(hook, "https://example.invalid/majordomus")
    assert settings is not None
    return precommit.hook_types(hook, settings, config or {})


def local(hook: dict[str, object], config: dict[str, object] | None = None) -> list[str]:
    settings = precommit.effective(hook, "local")
    assert settings is not None
    return precommit.hook_types(hook, settings, config or {})


def test_shipped_ids_are_this_repositorys_manifest() -> None:
    manifest = yaml.safe_load((REPOSITORY / ".pre-commit-hooks.yaml").read_text())
    read = {h.pop("id"): h for h in manifest}
    for hook in read.values():
        del hook["name"], hook["description"]
    assert read == precommit.SHIPPED


def test_stages_come_from_the_config_then_the_manifest_then_default_stages_then_all() -> None:
    assert types({"id": "majordomus-finish-check"}) == ["pre-push"]
    assert types({"id": "majordomus-doctor"}) == ["pre-commit"]
    assert types({"id": "majordomus-finish-check", "stages": ["pre-commit"]}) == ["pre-commit"]
    assert types({"id": "majordomus-finish-check", "stages": ["push"]}) == ["pre-push"]  # legacy
    assert types(
        {"id": "majordomus-finish-check", "stages": []}, {"default_stages": ["commit"]}
    ) == ["pre-commit"]
    assert local({"id": "x"}, {"default_stages": ["pre-push", "manual"]}) == ["pre-push"]
    assert local({"id": "x"}) == ALL
    assert local({"id": "x", "stages": ["manual"]}) == []


def test_the_hook_must_run_exactly_the_command_every_time() -> None:
    good = {"entry": "majordomus doctor", "language": "system", "pass_filenames": False}
    good["always_run"] = True
    declared, names = ["majordomus", "doctor"], ["majordomus"]
    assert precommit.runs({**precommit.effective({}, "local"), **good}, declared, names) is None  # type: ignore[dict-item]
    for change, why in [
        ({"entry": "majordomus check"}, "not `majordomus doctor`"),
        ({"args": ["--json"]}, "not `majordomus doctor`"),
        ({"entry": "majordomus 'doctor"}, "not"),
        ({"language": "script"}, "language"),
        ({"pass_filenames": True}, "pass_filenames"),
        ({"always_run": False}, "always_run"),
    ]:
        settings = {**precommit.effective({}, "local"), **good, **change}  # type: ignore[dict-item]
        problem = precommit.runs(settings, declared, names)
        assert problem is not None and why in problem, (change, problem)


def pre_commit(root: Path, *args: str) -> None:
    tool = Path(sys.executable).parent / "pre-commit"
    if not tool.exists():
        pytest.skip("the pre-commit framework is not installed")
    env = {**ENV, "PRE_COMMIT_HOME": str(root.parent / "pre-commit-home")}
    subprocess.run([str(tool), *args], cwd=root, env=env, check=True, capture_output=True)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The framework's own scripts, installed once (the install takes seconds)."""
    root = tmp_path_factory.mktemp("framework") / "repo"
    root.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=root, env=ENV, check=True)
    (root / precommit.CONFIG).write_text("repos: []\n")
    pre_commit(root, "install", "--hook-type", "pre-commit", "--hook-type", "pre-push")
    return root / ".git/hooks"


@pytest.fixture
def framework(installed: Path, tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(root)], env=ENV, check=True)
    for name in ("pre-commit", "pre-push"):
        target = root / ".git/hooks" / name
        target.write_text((installed / name).read_text())
        target.chmod(0o755)
    return root / ".git/hooks"


def test_the_generated_script_is_recognised_for_its_own_hook_type(framework: Path) -> None:
    text = (framework / "pre-push").read_text()
    assert precommit.script(text, "pre-push").ok
    assert precommit.script((framework / "pre-commit").read_text(), "pre-commit").ok
    other = precommit.script(text, "pre-commit")
    assert not other.ok and "--hook-type=pre-commit" in other.reason


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("# end templated", "exit 0\n# end templated", "exit 0"),
        ("exit 1", "exit 0", "exit 0"),
        ('-- "$@")', '--hook-type=post-commit -- "$@")', "extended"),
        ("--config=.pre-commit-config.yaml", "--config=other.yaml", "--config"),
        ("# end templated", "ARGS+=(--hook-dir x -- y)\n# end templated", "extended"),
        ("# end templated", "ARGS=(hook-impl)\n# end templated", "--hook-type"),
        ('HERE="', 'unset ARGS\nHERE="', "changes the framework"),
        ("# File generated by pre-commit", "# a hand-written hook", "marker"),
        ("#!/usr/bin/env bash", "#!/bin/true", "sh, bash or dash"),
    ],
)
def test_a_changed_script_is_not_the_framework(
    framework: Path, old: str, new: str, why: str
) -> None:
    text = (framework / "pre-commit").read_text()
    assert old in text
    verdict = precommit.script(text.replace(old, new, 1), "pre-commit")
    assert not verdict.ok and why in verdict.reason, verdict


def test_judge_names_the_hook_type_to_install(framework: Path) -> None:
    root = framework.parent.parent
    (root / precommit.CONFIG).write_text(
        "repos:\n  - repo: https://example.invalid/majordomus\n    rev: v1\n    hooks:\n"
        "      - id: majordomus-finish-check\n"
    )
    declared, names = ["majordomus", "finish", "--check"], ["majordomus"]
    assert framework == root / ".git" / "hooks"
    problem, detail = precommit.judge(_told(root), "majordomus-finish-check", declared, names)
    assert problem is None and "pre-push" in detail
    (framework / "pre-push").unlink()
    problem, _ = precommit.judge(_told(root), "majordomus-finish-check", declared, names)
    assert problem is not None and "pre-push hook is not installed" in problem
    assert "--hook-type pre-push" in problem


def _told(root: Path) -> dict[str, Any]:
    """The `hooks` fact of `root`, as `mj-watch facts --for doctor` gathers it."""
    entry = Entry({"name": "e", "wired_by": "pre-commit:majordomus-finish-check"})
    return hookfacts.gather(root, [entry])
