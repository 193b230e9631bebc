"""`start --requires`, `evidence` (CLI-REFERENCE §2.12) and the finish contract's
`obligations_covered` line: a proof is a command the tool ran or a file it hashed, bound to the
hash of the files its obligation names, and it stops counting when one of them changes."""

from __future__ import annotations

import json

import pytest
from conftest import Repo

NOTE = "# Objective\nFix it.\n# Current State\nFixed and tested.\n# Next Action\nNothing left.\n"
LEDGER = ".ai/local/state/ledger.jsonl"


@pytest.fixture
def repo(layer_repo: Repo) -> Repo:
    layer_repo.write("src/a.py", "x = 1\n")
    layer_repo.write("tests/test_a.py", "def test_a():\n    pass\n")
    layer_repo.write("docs/guide.md", "# Guide\n")
    layer_repo.commit("code")
    return layer_repo


def lines(repo: Repo, event: str) -> list[dict[str, object]]:
    text = (repo.root / LEDGER).read_text()
    return [v for v in map(json.loads, text.splitlines()) if v["event"] == event]


def started(repo: Repo, requires: str) -> None:
    result = repo.mj("start", "fix a", "--scope", "src,tests", "--requires", requires)
    assert result.code == 0, result


def finish(repo: Repo) -> object:
    return repo.mj(
        "finish", "--outcome", "completed", "--verify-command", "python3 -c pass", "--note", "-",
        stdin=NOTE,
    )  # fmt: skip


def test_start_records_the_promise_in_the_ledger_and_the_copy(repo: Repo) -> None:
    result = repo.mj(
        "start", "fix a", "--scope", "src", "--requires", "tests,docs,tests", "--issue", "ISS-4"
    )
    assert result.code == 0, result
    (line,) = lines(repo, "task.started")
    assert line["requires"] == ["tests", "docs"] and line["issue"] == "ISS-4"
    copy = (repo.root / ".ai/local/state/current.yaml").read_text()
    assert "requires:\n  - tests\n  - docs\nissue: ISS-4\n" in copy
    assert repo.mj("check").code == 0  # no plan kept here: the id is a tracker's, recorded as is


def test_start_refuses_an_unknown_token_and_writes_nothing(repo: Repo) -> None:
    before = (repo.root / LEDGER).read_bytes()  # `init`'s layer.adopted line
    result = repo.mj("start", "fix a", "--scope", "src", "--requires", "tests,vibes")
    assert result.code == 2, result
    assert "'vibes': not an obligation token" in result.err
    assert (repo.root / LEDGER).read_bytes() == before
    bad_issue = repo.mj("start", "fix a", "--scope", "src", "--issue", "two words")
    assert bad_issue.code == 2 and (repo.root / LEDGER).read_bytes() == before, bad_issue


def test_erasing_the_promise_from_the_copy_is_caught(repo: Repo) -> None:
    started(repo, "tests")
    copy = repo.root / ".ai/local/state/current.yaml"
    copy.write_text(copy.read_text().replace("requires:\n  - tests\n", ""))
    result = repo.mj("check")
    assert result.code == 10 and "requires: current.yaml says nothing" in result.out, result


@pytest.mark.parametrize(
    ("args", "code", "said"),
    [
        ((), 2, "--covers <token> is required"),
        (("--covers", "vibes", "--command", "true"), 2, "not an obligation token"),
        (("--covers", "tests"), 2, "a narrative is no proof"),
        (
            ("--covers", "tests", "--command", "true", "--artifact", "src/a.py"),
            15,
            "not its product",
        ),
        (("--covers", "tests", "--command", "true", "--result", "pass"), 2, "goes with --artifact"),
        (("--covers", "docs", "--command", "true"), 15, "did not promise 'docs'"),
        (("--covers", "tests", "--command", "true && false"), 2, "runs without a shell"),
        (("--covers", "tests", "--artifact", "../outside"), 15, "outside"),
        (("--covers", "tests", "--artifact", "missing.txt"), 12, "no such file"),
    ],
)
def test_every_refusal_writes_nothing(
    repo: Repo, args: tuple[str, ...], code: int, said: str
) -> None:
    started(repo, "tests")
    before = (repo.root / LEDGER).read_bytes()
    result = repo.mj("evidence", *args)
    assert result.code == code, result
    assert said in result.err, result
    assert (repo.root / LEDGER).read_bytes() == before


def test_no_active_task_is_12(repo: Repo) -> None:
    result = repo.mj("evidence", "--covers", "tests", "--command", "true")
    assert result.code == 12 and "no active task" in result.err, result


def test_a_pinned_policy_admits_only_its_commands(repo: Repo) -> None:
    policy = repo.root / ".ai/repo/policy.yaml"
    text = policy.read_text()
    policy.write_text(
        text.replace("verification:\n", "verification:\n  commands:\n    - python3 -c pass\n", 1)
    )
    started(repo, "tests")
    refused = repo.mj("evidence", "--covers", "tests", "--command", "true")
    assert refused.code == 15 and "not a pinned verification command" in refused.err, refused
    assert repo.mj("evidence", "--covers", "tests", "--command", "python3 -c pass").code == 0


def test_fresh_evidence_completes_and_an_edit_makes_it_stale(repo: Repo) -> None:
    started(repo, "tests,commit,verify")
    result = repo.mj("evidence", "--covers", "tests", "--command", "python3 -c pass")
    assert result.code == 0 and "evidence: tests pass — ran python3 -c pass" in result.out, result
    (line,) = lines(repo, "task.evidence")
    assert line["result"] == "pass" and line["exit"] == 0
    assert str(line["inputs_hash"]).startswith("sha256:") and line["head"]
    repo.write("tests/test_a.py", "def test_a():\n    assert False\n")  # after the proof
    repo.commit("break the test")
    stale = finish(repo)
    assert stale.code == 10, stale
    assert "FAIL obligations" in stale.out and "tests stale (its input files changed" in stale.out
    assert "majordomus.obligations-covered" in stale.out
    assert lines(repo, "task.finished") == []  # a refused finish leaves the ledger as it was
    assert repo.mj("evidence", "--covers", "tests", "--command", "python3 -c pass").code == 0
    done = finish(repo)
    assert done.code == 0, done
    assert "OK   obligations" in done.out and "3 obligation(s) met" in done.out
    (finished,) = lines(repo, "task.finished")
    assert finished["contract"]["majordomus.obligations-covered"] == "pass"


def test_an_uncovered_a_failed_and_an_unsettled_obligation_each_refuse(repo: Repo) -> None:
    started(repo, "tests,docs,commit")
    failed = repo.mj(
        "evidence", "--covers", "docs", "--command", "python3 -c 'raise SystemExit(3)'"
    )
    assert failed.code == 0 and "evidence: docs fail" in failed.out, failed
    repo.write("src/a.py", "x = 2\n")  # not committed
    result = finish(repo)
    assert result.code == 10, result
    assert "tests uncovered (no evidence recorded)" in result.out
    assert "docs failed (the newest evidence's result is 'fail'" in result.out
    assert "commit unsettled (changes in scope are not committed)" in result.out


def test_an_artifact_is_hashed_and_a_partial_finish_is_not_judged(repo: Repo) -> None:
    result = repo.mj("start", "document a", "--scope", "docs", "--requires", "docs")
    assert result.code == 0, result
    result = repo.mj("evidence", "--covers", "docs", "--artifact", "docs/guide.md", "--json")
    assert result.code == 0, result
    record = json.loads(result.out.splitlines()[0])
    assert record["line"]["artifact"] == "docs/guide.md"
    assert str(record["line"]["artifact_hash"]).startswith("sha256:")
    repo.write("docs/guide.md", "# Guide\n\nChanged after the proof.\n")
    partial = repo.mj("finish", "--outcome", "partial", "--note", "-", stdin=NOTE)
    assert partial.code == 0 and "obligations" not in partial.out, partial


def test_check_rule_runs_the_doctrine_alone(repo: Repo) -> None:
    started(repo, "tests")
    result = repo.mj("check", "--rule", "majordomus.obligations-covered")
    assert result.code == 10 and "tests uncovered" in result.out, result
    assert repo.mj("evidence", "--covers", "tests", "--command", "python3 -c pass").code == 0
    again = repo.mj("check", "--rule", "majordomus.obligations-covered")
    assert again.code == 0 and "1 obligation(s) met: tests" in again.out, again


def _planned(repo: Repo) -> None:
    from test_plan import BASE
    from test_plan import PROJECT
    from test_plan import issue
    from test_plan import milestone

    repo.write(f"{BASE}/project.yaml", PROJECT)
    milestone(repo, "M000")
    issue(repo, "I0001")
    text = (repo.root / f"{BASE}/issues/I0001.yaml").read_text(encoding="utf-8")
    text = text.replace("scope: [lib/i0001]", "scope: [src, tests]")
    text = text.replace("evidence_required: []", "evidence_required: [tests, suite]")
    repo.write(f"{BASE}/issues/I0001.yaml", text)
    repo.commit("a plan")


def test_start_issue_seeds_scope_and_requires_and_plan_done_waits_on_them(repo: Repo) -> None:
    _planned(repo)
    elsewhere = repo.mj("start", "work", "--issue", "GH-12")
    assert elsewhere.code == 12 and "GH-12: no such issue" in elsewhere.err, elsewhere
    missing = repo.mj("start", "work", "--issue", "I0099")
    assert missing.code == 12 and "I0099: no such issue" in missing.err, missing
    unscoped = repo.mj("start", "work")
    assert unscoped.code == 2 and "--scope is required (or --issue" in unscoped.err, unscoped
    result = repo.mj("start", "work on I0001", "--issue", "I0001", "--requires", "commit")
    assert result.code == 0 and "scope=src,tests" in result.out, result
    (line,) = lines(repo, "task.started")
    assert line["issue"] == "I0001" and line["scope"] == ["src", "tests"]
    assert line["requires"] == ["commit", "tests"]  # `suite` is the plan's own token, not one here
    assert repo.mj("plan", "start", "I0001").code == 0
    entry = ["--covers", "suite", "--type", "test", "--command", "make", "--result", "pass"]
    assert repo.mj("plan", "evidence", "I0001", *entry).code == 0
    repo.commit("plan evidence")
    refused = repo.mj("plan", "done", "I0001")
    assert refused.code == 10, refused
    assert "has obligations not met: tests uncovered" in refused.err
    assert repo.mj("evidence", "--covers", "tests", "--command", "python3 -c pass").code == 0
    done = repo.mj("plan", "done", "I0001")
    assert done.code == 0, done


def test_a_symlinked_artifact_is_no_proof(repo: Repo) -> None:
    started(repo, "tests")
    (repo.root / "tests/link.py").symlink_to(repo.root / "src/a.py")
    before = (repo.root / LEDGER).read_bytes()
    result = repo.mj("evidence", "--covers", "tests", "--artifact", "tests/link.py")
    assert result.code == 15 and "symbolic link" in result.err, result
    assert (repo.root / LEDGER).read_bytes() == before


def test_an_evidence_line_written_by_hand_breaks_the_chain_and_finish_refuses(repo: Repo) -> None:
    started(repo, "tests")
    (start,) = lines(repo, "task.started")
    forged = {"ts": start["ts"], "event": "task.evidence", "task_id": start["task_id"],
              "head": start["head"], "branch": start["branch"], "covers": "tests",
              "kind": "command", "command": "pytest", "exit": 0, "result": "pass",
              "inputs_hash": None}  # fmt: skip
    with (repo.root / LEDGER).open("a") as ledger:
        ledger.write(json.dumps(forged) + "\n")
    result = finish(repo)
    assert result.code == 10, result
    assert "FAIL" in result.out and lines(repo, "task.finished") == []
