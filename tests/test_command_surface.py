"""A small mistake gets one line that points the way; every group's `--help` lists its
actions; `-V` is `--version`."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import Repo
from conftest import exe
from conftest import make_env


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [exe("majordomus"), *args],
        cwd=cwd,
        env=make_env(cwd),
        capture_output=True,
        text=True,
        check=False,
    )


def _groups() -> dict[str, list[str]]:
    """Each command with actions, and its actions, as the declaration lists them."""
    text = (Path(__file__).resolve().parents[1] / "share" / "commands.json").read_text()
    commands = json.loads(text)["commands"]
    return {c["name"]: c["actions"] for c in commands if c.get("actions")}


@pytest.mark.parametrize("form", ["-V", "--version", "version"])
def test_every_version_form_prints_the_version(tmp_path: Path, form: str) -> None:
    result = _run(form, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(r"majordomus \d+\.\d+\.\d+\n", result.stdout)
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("typed", "meant"), [("stat", "start"), ("chekc", "check"), ("histroy", "history")]
)
def test_an_unknown_command_suggests_the_nearest_in_one_line(
    git_repo: Repo, typed: str, meant: str
) -> None:
    result = git_repo.mj(typed)
    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1, result.err
    assert result.err.startswith(f"majordomus: unknown command: {typed}"), result.err
    assert f"did you mean {meant}?" in result.err, result.err


def test_an_unknown_command_with_nothing_near_says_where_the_list_is(git_repo: Repo) -> None:
    result = git_repo.mj("zzzzqqq")
    assert result.code == 2
    assert result.err == "majordomus: unknown command: zzzzqqq (majordomus --help lists them)\n"


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (("knowledge", "nodez"), "nodes"),
        (("knowledge", "bogus"), None),
        (("plan", "redy"), "ready"),
        (("rules", "vendor"), "vendor status, vendor diff or vendor update"),
        (("session", "lsit"), "list"),
        (("mcp", "sevre"), "serve"),
        (("decision", "ad"), "add"),
        (("context", "lst"), "list"),
    ],
)
def test_an_unknown_action_is_a_usage_error_in_one_line(
    layer_repo: Repo, args: tuple[str, ...], meant: str | None
) -> None:
    result = layer_repo.mj(*args, "--json")
    assert result.code == 2, result
    assert result.out == ""
    assert result.err.count("\n") == 1, result.err
    assert result.err.startswith(f"majordomus: {args[0]}: unknown action {args[1]}"), result.err
    if meant is not None:
        assert f"did you mean {meant}?" in result.err, result.err


def test_every_group_help_lists_its_actions(git_repo: Repo) -> None:
    groups = _groups()
    assert {"plan", "mcp", "rules", "knowledge", "session"} <= set(groups)
    for group, actions in groups.items():
        result = git_repo.mj(group, "--help")
        assert result.code == 0, (group, result)
        assert result.out.startswith(f"usage: majordomus {group}"), (group, result.out)
        listed = re.findall(r"^  (\S+(?: status| diff| update)?)  ", result.out, flags=re.M)
        for action in actions:
            assert action in listed, (group, action, result.out)
        # an action's own help is still one word away
        first = git_repo.mj(group, actions[0], "--help")
        assert first.code == 0 and first.out.startswith(f"usage: majordomus {group} {actions[0]}")
