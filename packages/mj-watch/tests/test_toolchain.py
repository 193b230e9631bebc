"""`wired_by: toolchain:<file>` (`mj_watch.wiring.toolchain`, `wiring.toolchain_make`): each
toolchain file read in its own syntax; OK only for a call its step runs and whose failure fails
the step, FAIL "unproven" for what decides that beyond the file's plain lines, never OK on a
guess."""

from __future__ import annotations

import json

import pytest
from mj_watch.wiring import toolchain

DECLARED = ["majordomus", "doctor"]
NAMES = ["majordomus"]


def kind(path: str, text: str) -> tuple[str, str]:
    verdict, where = toolchain.judge(path, text, DECLARED, NAMES)
    return verdict.kind, where


TOX = "[tox]\nenv_list = tests, self\n\n[testenv]\ncommands = pytest\n\n[testenv:self]\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (TOX + "commands =\n    majordomus doctor\n", ("ok", "self")),
        (TOX + "commands =\n    - majordomus doctor\n", ("swallow", "self")),
        (TOX + "commands = majordomus doctor\nignore_outcome = true\n", ("swallow", "self")),
        (TOX + "commands = majordomus doctor --prove\n", ("absent", "")),
        (TOX + "commands = majordomus doctor {posargs}\n", ("unproven", "self")),
        (TOX + "commands = self: majordomus doctor\n", ("unproven", "self")),
        (TOX.replace("tests, self", "tests") + "commands = majordomus doctor\n", ("absent", "")),
        ("[tox]\nenv_list = a\n[testenv]\ncommands =\n  python -c 1\n  majordomus doctor\n",
         ("ok", "a")),
        ("[tox]\nenv_list = py{311,312}\n[testenv]\ncommands = majordomus doctor\n",
         ("unproven", "")),
        ("[testenv\ncommands = majordomus doctor\n", ("unproven", "")),
    ],
)  # fmt: skip
def test_tox_ini(text: str, expected: tuple[str, str]) -> None:
    assert kind("tox.ini", text) == expected


def _package(scripts: dict[str, str]) -> str:
    return json.dumps({"name": "x", "scripts": scripts}, indent=2)


@pytest.mark.parametrize(
    ("scripts", "expected"),
    [
        ({"lint": "eslint .", "check": "majordomus doctor"}, ("ok", "scripts.check")),
        ({"check": "majordomus doctor && echo ok"}, ("ok", "scripts.check")),
        ({"check": "majordomus doctor || true"}, ("swallow", "scripts.check")),
        ({"check": "majordomus doctor; echo done"}, ("swallow", "scripts.check")),
        ({"check": "test -f x && majordomus doctor"}, ("unproven", "scripts.check")),
        ({"check": "majordomus doctor | tee log"}, ("unproven", "scripts.check")),
        ({"check": "majordomus doctor --prove"}, ("absent", "")),
    ],
)
def test_package_json(scripts: dict[str, str], expected: tuple[str, str]) -> None:
    assert kind("package.json", _package(scripts)) == expected


def test_package_json_that_does_not_read_is_unproven() -> None:
    assert kind("package.json", "{not json")[0] == "unproven"
    assert kind("package.json", '{"name": "x"}')[0] == "absent"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("check:\n\tmajordomus doctor\n", ("ok", "check")),
        (".PHONY: check\ncheck: lint\n\t@majordomus doctor\n", ("ok", "check")),
        ("check:\n\tmajordomus doctor || exit $$?\n", ("ok", "check")),
        ("check:\n\t-majordomus doctor\n", ("swallow", "check")),
        ("check:\n\t@-majordomus doctor\n", ("swallow", "check")),
        ("check:\n\tmajordomus doctor || true\n", ("swallow", "check")),
        ("MJ = majordomus\ncheck:\n\t$(MJ) doctor\n", ("absent", "")),
        ("check:\n\tmajordomus doctor $(ARGS)\n", ("unproven", "check")),
        ("check:\n\tcd x && \\\n\tmajordomus doctor\n", ("unproven", "check")),
        (".ONESHELL:\ncheck:\n\tmajordomus doctor\n", ("unproven", "")),
        ("SHELL := /bin/zsh\ncheck:\n\tmajordomus doctor\n", ("unproven", "")),
        ("ifdef CI\ncheck:\n\tmajordomus doctor\nendif\n", ("unproven", "")),
        (".IGNORE:\ncheck:\n\tmajordomus doctor\n", ("swallow", "")),
        ("check:\n    majordomus doctor\n", ("absent", "")),  # spaces: not a recipe line
    ],
)
def test_makefile(text: str, expected: tuple[str, str]) -> None:
    assert kind("Makefile", text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("check:\n    majordomus doctor\n", ("ok", "check")),
        ("# lint\ncheck: lint\n  @majordomus doctor\n", ("ok", "check")),
        ("check:\n    -majordomus doctor\n", ("swallow", "check")),
        ("check:\n    majordomus doctor {{args}}\n", ("unproven", "check")),
        ("check:\n    #!/usr/bin/env bash\n    majordomus doctor\n", ("unproven", "check")),
        ("set shell := ['zsh', '-c']\ncheck:\n    majordomus doctor\n", ("unproven", "")),
        ("check:\n    majordomus doctor; true\n", ("swallow", "check")),
    ],
)
def test_justfile(text: str, expected: tuple[str, str]) -> None:
    assert kind("justfile", text) == expected


def test_another_file_is_not_a_toolchain_file() -> None:
    verdict, _ = toolchain.judge("build.gradle", "majordomus doctor\n", DECLARED, NAMES)
    assert verdict.kind == "unproven" and "not a toolchain file" in verdict.reason


def test_the_line_named_is_the_calls() -> None:
    text = "a:\n\techo a\n\ncheck:\n\t-majordomus doctor\n"
    verdict, _ = toolchain.judge("Makefile", text, DECLARED, NAMES)
    assert verdict.line == 5
    verdict, _ = toolchain.judge("tox.ini", TOX + "commands =\n    - majordomus doctor\n",
                                 DECLARED, NAMES)  # fmt: skip
    assert (TOX + "commands =\n    - majordomus doctor\n").splitlines()[
        verdict.line - 1
    ].strip() == ("- majordomus doctor")
