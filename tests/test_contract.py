"""One contract applied to every filter tool and every subcommand (csvkit's mixins, as parameters).

`--help` exits 0 and documents the subcommand; no arguments print help and exit 2; bad input of
any kind ends with a contract exit code and at most one line on stderr, never a traceback; every
stdout line is a record that validates against its kind's schema (`share/schemas/pipeline/`).
Every record every stage emits anywhere in the behavioural suite is validated the same way at the
end of the session (`conftest.py`, `streamcontract.py`); `test_stream_sampling.py` shows that the
sampling sees what it must and that the validator fails what it must.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import streamcontract
from conftest import Repo
from conftest import exe
from conftest import make_repo

TOOLS = ["mj-policy", "mj-state", "mj-context", "mj-knowledge", "mj-watch"]
CONTRACT_CODES = {0, 2, 10, 11, 12, 15}


def _help(tool: str) -> str:
    proc = subprocess.run([exe(tool), "--help"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def subcommands(tool: str) -> list[str]:
    """The choices argparse names when refusing an unknown subcommand."""
    proc = subprocess.run([exe(tool), "-"], capture_output=True, text=True, check=False)
    match = re.search(r"choose from ([^)]*)\)", proc.stderr)
    names = match.group(1).replace("'", "").split(", ") if match else []
    return [name for name in names if name]


CASES = [(tool, sub) for tool in TOOLS for sub in subcommands(tool)]
CHECKS = streamcontract.validators()


@pytest.fixture(scope="module")
def shared_layer(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    """One initialised repository for the whole module: these cases only read or are refused."""
    base: Path = tmp_path_factory.mktemp("contract")
    repo = make_repo(base / "repo", base / "home")
    assert repo.mj("init").code == 0
    repo.commit("adopt")
    return repo


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
@pytest.mark.parametrize("stdin", ["", "{not json\n", "\x00\xff garbage"])
def test_any_input_ends_in_a_contract_code(
    layer_repo: Repo, tool: str, sub: str, stdin: str
) -> None:
    result = layer_repo.run(tool, sub, stdin=stdin)
    assert result.code in CONTRACT_CODES, result
    assert "Traceback" not in result.err
    assert result.err.count("\n") <= 1, result.err
    argv = [tool, sub]
    for line in result.out.splitlines():
        sample = streamcontract.Sample(argv, f"{tool} {sub}", json.loads(line))
        assert not streamcontract.problems_of(sample, CHECKS), line
