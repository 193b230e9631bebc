"""The composition is real: `majordomus <cmd> --pipeline` run as a shell pipeline of the mj-*
executables gives the same stdout and exit code as `majordomus <cmd>` composing in-process."""

from __future__ import annotations

import re

import pytest
from conftest import Repo
from test_context import prepare

STAMPS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ|\d+[smhd] ago")

CASES = [
    ("context", "--json"),
    ("context", "--json", "--budget-lines", "30"),
    ("context",),
    ("context", "--budget-lines", "30"),
    ("context", "--for", "claude-code", "--prompt", "debug"),
    ("context", "validate", "--json"),
    ("context", "resolve", "lib", "--json"),
    ("context", "explain", "lib/a", "--json"),
    ("context", "list", "--json"),
    ("prompt", "list", "--json"),
    ("prompt", "render", "resume"),
]


def normalise(text: str) -> str:
    return STAMPS.sub("<time>", text)


@pytest.mark.parametrize("args", CASES, ids=" ".join)
def test_printed_pipeline_equals_in_process(layer_repo: Repo, args: tuple[str, ...]) -> None:
    prepare(layer_repo)
    printed = layer_repo.mj(*args, "--pipeline")
    assert printed.code == 0, printed
    assert printed.out.startswith("set -o pipefail; mj-")
    piped = layer_repo.shell(printed.out.strip())
    direct = layer_repo.mj(*args)
    assert piped.code == direct.code, (piped, direct)
    expected = direct.out
    if args[1:2] == ("validate",):  # the dispatcher adds its summary line to the findings
        *expected_lines, summary = direct.out.splitlines(keepends=True)
        assert '"kind":"summary"' in summary
        expected = "".join(expected_lines)
    assert normalise(piped.out) == normalise(expected)
