"""start/check/history/question compose `mj-state` stages: the printed pipeline, run by a shell,
gives the same JSON Lines as the in-process composition (the dispatcher's summary aside)."""

from __future__ import annotations

import re

import pytest
from conftest import Repo

STAMPS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ|\d+[smhd] ago")

CASES = [
    ("check", "--json"),
    ("check", "--overlap", "--json"),
    ("check", "--explain", "--json"),
    ("history", "--validate", "--json"),
    ("question", "list", "--all", "--json"),
]


@pytest.mark.parametrize("args", CASES, ids=" ".join)
def test_printed_pipeline_equals_in_process(layer_repo: Repo, args: tuple[str, ...]) -> None:
    assert layer_repo.mj("start", "compose", "--scope", "lib").code == 0
    assert layer_repo.mj("question", "add", "which one?").code == 0
    layer_repo.write("outside.txt", "x\n")
    printed = layer_repo.mj(*args, "--pipeline")
    assert printed.code == 0 and printed.out.startswith("set -o pipefail; mj-state "), printed
    piped = layer_repo.shell(printed.out.strip())
    direct = layer_repo.mj(*args)
    assert piped.code == direct.code, (piped, direct)
    expected = direct.out
    if '"kind":"summary"' in expected.splitlines()[-1]:
        expected = "".join(expected.splitlines(keepends=True)[:-1])
    assert STAMPS.sub("<t>", piped.out) == STAMPS.sub("<t>", expected)
