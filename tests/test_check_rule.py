"""`majordomus check --rule <id>`: one doctrine of the effective rule set, run by its validator
over doctor's facts and routed by its class, whichever command enforces it; and `check
--explain` naming every doctrine in force with its class and enforcing commands."""

from __future__ import annotations

from conftest import PROJECT_RULE as RULE
from conftest import Repo
from conftest import failures


def _started(repo: Repo) -> None:
    repo.write("lib/a.py", "a = 1\n")
    repo.write("b.txt", "b\n")
    repo.commit("files")
    assert repo.mj("start", "narrow the parser", "--scope", "lib").code == 0


def _project(repo: Repo, klass: str, validator: str | None) -> None:
    extra = ""
    if validator is not None:
        extra = f"x-majordomus:\n  validator: {validator}\n  category: scope\n"
        extra += "  enforced_by:\n    - check\n  exit_code: 10\n"
        extra += "  tests:\n    - tests/test_scope.py\n"
        repo.write("tests/test_scope.py", "def test_scope() -> None:\n    assert True\n")
    text = RULE.format(id="project.scope-advice", klass=klass, depends="", extra=extra)
    repo.write(".ai/repo/rules/project/scope-advice.v1.md", text)


def test_a_check_doctrine_runs_alone_and_fails_on_what_it_judges(layer_repo: Repo) -> None:
    _started(layer_repo)
    assert layer_repo.mj("check", "--rule", "majordomus.scope-integrity").code == 0
    layer_repo.write("b.txt", "b changed\n")
    result = layer_repo.mj("check", "--rule", "majordomus.scope-integrity")
    assert result.code == 10, result
    assert [f[:2] for f in failures(result.out)] == [("scope", "b.txt")], result
    assert "checkpoint" not in result.out and "blockers" not in result.out  # that doctrine only
    assert layer_repo.mj("check", "--rule", "majordomus.scope-integrity@1").code == 10


def test_a_doctor_doctrine_runs_from_check_and_a_finish_one_too(layer_repo: Repo) -> None:
    missing = layer_repo.mj("check", "--rule", "majordomus.projection-integrity")
    assert missing.code == 12 and "CLAUDE.md — missing" in missing.out, missing  # as doctor
    assert layer_repo.mj("update").code == 0
    layer_repo.commit("projections")
    clean = layer_repo.mj("check", "--rule", "majordomus.projection-integrity")
    assert clean.code == 0 and "FAIL" not in clean.out, clean
    with (layer_repo.root / "AGENTS.md").open("a", encoding="utf-8") as handle:
        handle.write("a hand edit\n")
    edited = layer_repo.mj("check", "--rule", "majordomus.projection-integrity")
    assert edited.code == 10 and failures(edited.out)[0][1] == "AGENTS.md", edited
    _started(layer_repo)
    note = layer_repo.mj("check", "--rule", "majordomus.note-present")
    assert note.code == 10 and "no handover for" in note.out, note


def test_the_class_routes_the_verdict_and_no_validator_is_said(layer_repo: Repo) -> None:
    _started(layer_repo)
    layer_repo.write("b.txt", "b changed\n")
    _project(layer_repo, "advisory", "scope_integrity")
    advisory = layer_repo.mj("check", "--rule", "project.scope-advice")
    assert advisory.code == 0 and "WARN scope" in advisory.out and "b.txt" in advisory.out
    _project(layer_repo, "advisory", None)
    reviewed = layer_repo.mj("check", "--rule", "project.scope-advice")
    assert reviewed.code == 0 and "it is reviewed, not run" in reviewed.out, reviewed
    _project(layer_repo, "blocking", None)
    unenforced = layer_repo.mj("check", "--rule", "project.scope-advice")
    assert unenforced.code == 10 and "nothing enforces it" in unenforced.out, unenforced


def test_nothing_to_judge_is_said_an_unknown_id_is_12_and_modes_exclude(layer_repo: Repo) -> None:
    idle = layer_repo.mj("check", "--rule", "majordomus.scope-integrity")
    assert idle.code == 0 and "nothing to judge here" in idle.out, idle
    unknown = layer_repo.mj("check", "--rule", "project.nope")
    assert unknown.code == 12 and unknown.err.count("\n") == 1 and not unknown.out, unknown
    both = layer_repo.mj("check", "--rule", "majordomus.scope-integrity", "--explain")
    assert both.code == 2, both
    piped = layer_repo.mj("check", "--rule", "majordomus.scope-integrity", "--pipeline")
    expected = "mj-policy facts | mj-watch facts --for doctor | mj-watch doctrine-run --rule"
    assert piped.code == 0 and piped.out.startswith(expected), piped


def test_explain_lists_a_project_doctrine_and_refuses_a_set_that_does_not_resolve(
    layer_repo: Repo,
) -> None:
    _started(layer_repo)
    _project(layer_repo, "advisory", "scope_integrity")
    explained = layer_repo.mj("check", "--explain")
    assert explained.code == 0, explained
    assert "  project.scope-advice (advisory; enforced by check)" in explained.out.splitlines()
    text = RULE.format(id="project.scope-advice", klass="advisory", depends="project.gone@1",
                       extra="")  # fmt: skip
    layer_repo.write(".ai/repo/rules/project/scope-advice.v1.md", text)
    broken = layer_repo.mj("check", "--explain")
    assert broken.code == 10 and "project.gone@1" in broken.err, broken
