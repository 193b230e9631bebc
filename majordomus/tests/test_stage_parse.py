"""A composed stage is parsed by its own parser alone (`mj_core.cli.Tool.parse_stage`): for
every stage of every tool, and for the fixed arguments every command's pipeline gives a stage,
the namespace is the one the tool's whole parser gives for the same argv."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from majordomus.compose import TOOLS
from mj_core.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]


def _argvs() -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for tool, module in TOOLS.items():
        found += [(tool, [name]) for name in importlib.import_module(module).TABLE]
    declared = json.loads((ROOT / "share" / "commands.json").read_text(encoding="utf-8"))
    for command in declared["commands"]:
        for step in command.get("pipeline") or []:
            tool, *argv = step["stage"]
            if len(argv) > 1 and not any(word.startswith("@") for word in argv):
                found.append((tool, list(argv)))
    return found


def _outcome(parse: Callable[[list[str]], object], argv: list[str]) -> object:
    """The namespace's values, or the usage error's one line (a stage missing its arguments)."""
    try:
        return vars(parse(argv))
    except UsageError as exc:
        return exc.message


@pytest.mark.parametrize(("tool", "argv"), _argvs())
def test_the_stage_alone_parses_as_the_whole_tool_does(tool: str, argv: list[str]) -> None:
    cli = importlib.import_module(TOOLS[tool])
    assert _outcome(cli.parse_stage, argv) == _outcome(cli.parse, argv)


def test_an_argv_that_names_no_stage_is_parsed_by_the_whole_tool() -> None:
    cli = importlib.import_module(TOOLS["mj-state"])
    said = _outcome(cli.parse_stage, ["no-such-stage"])
    assert isinstance(said, str) and said == _outcome(cli.parse, ["no-such-stage"])
