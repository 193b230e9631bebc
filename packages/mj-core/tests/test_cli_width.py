"""Parsers format help as wide as argparse would, without argparse's `import shutil`."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

import pytest
from mj_core.cli import HelpFormatter
from mj_core.cli import Parser
from mj_core.cli import columns

_BUILD_AND_PARSE = """
import sys
from mj_core.cli import Stage, build_parser

declared = {"show": {"help": "show things", "options": [
    {"name": "limit", "flag": "--limit", "kind": "positive", "help": "how many"},
    {"name": "path", "nargs": "?", "help": "where"},
]}}
table = {"show": Stage(lambda options, context: [])}
parser = build_parser("mj-x", table, "a tool", ["show", "--limit", "5"], declared)
options = parser.parse_args(
    ["--repo", ".", "show", "--limit", "5", "here"]
)
assert (options.limit, options.path, options.repo) == (5, "here", "."), options
print("shutil" in sys.modules)
"""

_LONG = "word " * 40


def _parsers() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    ours = Parser(prog="mj-x", description=_LONG, epilog=_LONG)
    theirs = argparse.ArgumentParser(prog="mj-x", description=_LONG, epilog=_LONG)
    for parser in (ours, theirs):
        parser.add_argument("--a-rather-long-option-name", metavar="<value>", help=_LONG)
        parser.add_argument("target", help=_LONG)
    return ours, theirs


def test_building_and_parsing_imports_no_shutil() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _BUILD_AND_PARSE], capture_output=True, text=True, check=True
    )
    assert result.stdout == "False\n", result.stderr


@pytest.mark.parametrize("width", ["40", "60", "100", "200"])
def test_help_width_follows_columns(monkeypatch: pytest.MonkeyPatch, width: str) -> None:
    monkeypatch.setenv("COLUMNS", width)
    ours, theirs = _parsers()
    text = ours.format_help()
    assert text == theirs.format_help()
    prose = [len(line) for line in text.splitlines() if line.startswith("word")]
    assert len(prose) >= 2 and int(width) - 12 < max(prose) <= int(width) - 2


@pytest.mark.parametrize("value", [None, "", "0", "-5", "wide"])
def test_width_rule_is_shutils(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", value)
    assert columns() == shutil.get_terminal_size().columns - 2


def test_an_explicit_width_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    formatter = HelpFormatter("mj-x", width=50)
    formatter.add_text(_LONG)
    assert max(len(line) for line in formatter.format_help().splitlines()) <= 50


def test_subparsers_share_the_formatter() -> None:
    parser = Parser(prog="mj-x")
    sub = parser.add_subparsers().add_parser("show")
    assert sub.formatter_class is HelpFormatter


def test_the_terminal_is_asked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every argument a parser adds builds a formatter; the terminal is asked the first time
    only, while `COLUMNS` is still read each time."""
    from mj_core import cli

    asked: list[int] = []

    def size(fd: int) -> os.terminal_size:
        asked.append(fd)
        return os.terminal_size((123, 40))

    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setattr(cli, "_TERMINAL", [])
    monkeypatch.setattr(os, "get_terminal_size", size)
    parser = Parser(prog="mj-x")
    for number in range(5):
        parser.add_argument(f"--option-{number}")
    assert columns() == 121 and len(asked) == 1
    monkeypatch.setenv("COLUMNS", "60")
    assert columns() == 58 and len(asked) == 1
