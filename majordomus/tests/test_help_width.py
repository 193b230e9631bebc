"""`majordomus <command> --help` is as wide as argparse makes it, and the run imports no shutil."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

import pytest
from majordomus.cli import parser_for

IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", re.M)


def stock_help(name: str) -> str:
    """The help argparse's own formatter gives the same parser (it reads COLUMNS itself)."""
    parser = parser_for(name)
    parser.formatter_class = argparse.HelpFormatter
    return parser.format_help()


@pytest.mark.parametrize("width", ["50", "120"])
@pytest.mark.parametrize("name", ["check", "context", "start"])
def test_help_follows_columns_without_shutil(
    monkeypatch: pytest.MonkeyPatch, name: str, width: str
) -> None:
    monkeypatch.setenv("COLUMNS", width)
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "majordomus", name, "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # a command with actions (`context`) lists them after its own help
    assert done.stdout.startswith(stock_help(name).rstrip() + "\n")
    prose = [line for line in done.stdout.splitlines() if line.startswith("exit codes")]
    assert prose and all(len(line) <= int(width) - 2 for line in prose)
    imported = set(IMPORTED.findall(done.stderr))
    assert "argparse" in imported and "shutil" not in imported
