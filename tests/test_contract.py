"""One contract applied to every filter tool and every subcommand (csvkit's mixins, as parameters).

`--help` exits 0 and documents the subcommand; no arguments print help and exit 2; bad input of
any kind ends with a contract exit code and at most one line on stderr, never a traceback; every
stdout line is a JSON object with a `kind`.
"""

from __future__ import annotations

import re
import subprocess

import orjson
import pytest
from conftest import Repo
from conftest import exe

TOOLS = ["mj-policy", "mj-state", "mj-context", "mj-knowledge", "mj-watch"]
CONTRACT_CODES = {0, 2, 10, 11, 12, 15}


def _help(tool: str) -> str:
    proc = subprocess.run([exe(tool), "--help"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def subcommands(tool: str) -> list[str]:
    match = re.search(r"\{([a-z0-9,_-]+)\}", _help(tool))
    return match.group(1).split(",") if match else []


CASES = [(tool, sub) for tool in TOOLS for sub in subcommands(tool)]


@pytest.mark.parametrize("tool", TOOLS)
def test_tool_help_and_usage(tool: str) -> None:
    assert _help(tool).startswith(f"usage: {tool}")
    bare = subprocess.run([exe(tool)], capture_output=True, text=True, check=False)
    assert bare.returncode == 2
    wrong = subprocess.run([exe(tool), "no-such-sub"], capture_output=True, text=True, check=False)
    assert wrong.returncode == 2
    assert wrong.stderr.count("\n") == 1 and wrong.stderr.startswith(f"{tool}: ")


@pytest.mark.parametrize(("tool", "sub"), CASES, ids=[f"{t} {s}" for t, s in CASES])
def test_subcommand_help(tool: str, sub: str) -> None:
    proc = subprocess.run([exe(tool), sub, "--help"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0
    assert proc.stdout.startswith(f"usage: {tool} {sub}")


@pytest.mark.parametrize(("tool", "sub"), CASES, ids=[f"{t} {s}" for t, s in CASES])
@pytest.mark.parametrize("stdin", ["", "{not json\n", "[1, 2]\n", "\x00\xff garbage"])
def test_any_input_ends_in_a_contract_code(
    layer_repo: Repo, tool: str, sub: str, stdin: str
) -> None:
    result = layer_repo.run(tool, sub, stdin=stdin)
    assert result.code in CONTRACT_CODES, result
    assert "Traceback" not in result.err
    assert result.err.count("\n") <= 1, result.err
    for line in result.out.splitlines():
        record = orjson.loads(line)
        assert isinstance(record, dict) and "kind" in record, line
