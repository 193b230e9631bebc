"""Options are accepted after the subcommand everywhere: every action the declaration lists
takes the common options (`--json`, `--repo`) after its words, as every command does, and
never answers 2 for where an option stands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Repo


def _declared() -> list[dict[str, Any]]:
    text = (Path(__file__).resolve().parents[1] / "share" / "commands.json").read_text()
    commands: list[dict[str, Any]] = json.loads(text)["commands"]
    return commands


def _argv(spec: dict[str, Any]) -> list[str]:
    """The command's words, a stand-in for each required argument, then the common options."""
    words = str(spec["name"]).split()
    for option in spec.get("options") or []:
        if not option.get("required"):
            continue
        if "flag" in option:
            choices = option.get("choices")
            stand_in = choices[0] if isinstance(choices, list) else "x"
            words += [option["flag"], stand_in]
        else:
            words.append("x")
    return [*words, "--json", "--repo", "."]


ACTIONS = [spec for spec in _declared() if " " in spec["name"] and spec.get("pipeline")]


@pytest.mark.parametrize("spec", ACTIONS, ids=[s["name"] for s in ACTIONS])
def test_an_action_takes_the_common_options_after_its_words(
    layer_repo: Repo, spec: dict[str, Any]
) -> None:
    argv = _argv(spec)
    result = layer_repo.mj(*argv)
    assert result.code != 2, (argv, result)
    assert result.code in spec["exits"], (argv, result)
    for line in result.out.splitlines():  # --json was honoured: every line is JSON
        assert isinstance(json.loads(line), dict), (argv, line)
    assert result.out or result.err.count("\n") == 1, (argv, result)
