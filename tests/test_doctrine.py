"""`majordomus doctrine [status] | list | show <id>`: the rules in force, by what, and whether
what they name is there."""

from __future__ import annotations

from conftest import PROJECT_RULE as RULE
from conftest import Repo

TESTED = (
    "x-majordomus:\n  validator: context_budget\n  category: style\n  enforced_by:\n"
    "    - doctor\n  exit_code: 10\n  tests:\n    - tests/test_tabs.py\n"
)


def _rule(depends: str) -> str:
    return RULE.format(id="project.tabs", klass="advisory", depends=depends, extra=TESTED)


def test_status_counts_the_shipped_doctrines(layer_repo: Repo) -> None:
    result = layer_repo.mj("doctrine")
    assert result.code == 0, result
    assert "doctrines — 22 declared: 20 blocking, 2 advisory; 0 validator(s) missing" in result.out
    listed = layer_repo.mj("doctrine", "list")
    assert listed.code == 0 and listed.out.count("INFO doctrine    majordomus.") == 22, listed


def test_a_missing_test_file_fails_status_and_doctor_until_it_is_there(layer_repo: Repo) -> None:
    layer_repo.write(".ai/repo/rules/project/tabs.v1.md", _rule(""))
    layer_repo.commit("a project rule")
    status = layer_repo.mj("doctrine", "status")
    assert status.code == 10, status
    assert "project.tabs@1 names the test file tests/test_tabs.py, which is not there" in status.out
    assert "1 test file(s) missing" in status.out
    doctor = layer_repo.mj("doctor")
    assert doctor.code == 10 and "tests/test_tabs.py, which is not there" in doctor.out
    layer_repo.write("tests/test_tabs.py", "def test_tabs() -> None:\n    assert True\n")
    assert layer_repo.mj("doctrine").code == 0
    shown = layer_repo.mj("doctrine", "show", "project.tabs")
    assert shown.code == 0 and "tests: tests/test_tabs.py" in shown.out, shown
    assert "defined by: .ai/repo/rules/project/tabs.v1.md" in shown.out


def test_an_unknown_id_is_12_and_an_unresolvable_set_is_10(layer_repo: Repo) -> None:
    unknown = layer_repo.mj("doctrine", "show", "project.nope")
    assert unknown.code == 12 and unknown.err.count("\n") == 1, unknown
    layer_repo.write(".ai/repo/rules/project/tabs.v1.md", _rule("project.gone@1"))
    broken = layer_repo.mj("doctrine")
    assert broken.code == 10 and "depends_on: project.gone@1" in broken.err, broken
