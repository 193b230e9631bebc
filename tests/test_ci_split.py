"""CI runs every behavioural test exactly once: the real-client tests on the editable install
(`tox -e tests`), the rest on the wheels (`tox -e wheels`). A new real-client module that the
`tests` environment does not name would run nowhere, so this test names the ones it misses."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _commands(section: str) -> list[list[str]]:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(ROOT / "tox.ini")
    lines = parser[section]["commands"].strip().splitlines()
    return [shlex.split(line.replace("{posargs:", "").replace("}", "")) for line in lines]


def test_every_real_client_module_runs_in_the_tests_environment() -> None:
    named = {word for words in _commands("testenv:tests") for word in words}
    modules = sorted(
        p.relative_to(ROOT).as_posix() for p in ROOT.glob("tests/test_real_client*.py")
    )
    assert modules, "no real-client test modules found"
    missing = [m for m in modules if m not in named]
    assert missing == []


def test_the_wheels_environment_runs_the_rest_of_the_behavioural_suite_once() -> None:
    pytest_lines = [w for w in _commands("testenv:wheels") if w[:1] == ["pytest"]]
    assert len(pytest_lines) == 1
    words = pytest_lines[0]
    assert "tests" in words
    assert "--ignore-glob=tests/test_real_client*.py" in words
