"""`verify`'s judge on hand-written facts: what no repository could easily produce (a stray
claim, a rewritten ledger, an unfinished cover, `require_task: false`), judged without git."""

from __future__ import annotations

from typing import Any

from mj_watch.verify import verdict

Record = dict[str, Any]
BASE, C1, C2 = "b" * 40, "1" * 40, "2" * 40


def facts(
    *,
    started: list[Record],
    finished: list[Record],
    problem: str | None = None,
    require_task: bool = True,
    proofs: list[Record] | None = None,
    unjudged: list[Record] | None = None,
) -> list[Record]:
    commits = [
        {"commit": C1, "parents": [BASE], "tree": "t1", "paths": ["lib/a.py", ".ai/x"]},
        {"commit": C2, "parents": [C1], "tree": "t2", "paths": ["lib/b.py"]},
    ]
    ledger = {"ref": "refs/majordomus/ledger/c-0000000000000001", "clone": "c-0000000000000001",
              "commit": "f" * 40, "count": 3, "problem": problem, "started": started,
              "finished": finished, "unjudged": unjudged or [], "digests": [],
              "passes": []}  # fmt: skip
    return [
        {"kind": "fact", "fact": "verify-range", "base": BASE, "head": C2, "checked_out": C2,
         "commits": commits},
        {"kind": "fact", "fact": "verify-policy", "commands": ["make test"], "timeout": 60,
         "allow_paths": [], "require_task": require_task, "allowed": [".ai"],
         "require_hooks": False, "pre_commit": "none"},
        {"kind": "fact", "fact": "verify-ledgers", "ledgers": [ledger], "claims": [],
         "problems": [], "starts": {BASE: -1, C1: 0}},
        {"kind": "fact", "fact": "verify-layer", "head": C2, "judged": True, "runs": []},
        *(proofs or []),
    ]  # fmt: skip


def levels(records: list[Record]) -> list[tuple[str, str, str]]:
    return [(f.level, f.category, f.subject) for f in verdict.judge(records)]


def start(head: str = BASE) -> Record:
    return {"task_id": "t1", "line": 1, "head": head, "scope": ["lib"]}


def finish(tree: str | None, outcome: str = "completed") -> Record:
    return {"task_id": "t1", "line": 2, "head": BASE, "outcome": outcome,
            "verify": {"tree": tree} if tree else None}  # fmt: skip


def test_a_completed_task_whose_tree_is_committed_covers_the_commits_before_it() -> None:
    found = levels(facts(started=[start()], finished=[finish("t2")]))
    assert ("OK", "coverage", C1[:12]) in found and ("OK", "coverage", C2[:12]) in found


def test_a_finish_naming_a_tree_before_a_commit_does_not_cover_it() -> None:
    found = levels(facts(started=[start()], finished=[finish("t1")]))
    assert ("OK", "coverage", C1[:12]) in found and ("FAIL", "coverage", C2[:12]) in found


def test_a_task_started_after_a_commit_does_not_cover_it() -> None:
    found = levels(facts(started=[start(head=C1)], finished=[finish("t2")]))
    assert ("FAIL", "coverage", C1[:12]) in found and ("OK", "coverage", C2[:12]) in found


def test_a_task_without_a_published_finish_is_named() -> None:
    lines = list(verdict.judge(facts(started=[start()], finished=[])))
    fails = [f for f in lines if f.level == "FAIL" and f.category == "coverage"]
    assert len(fails) == 2 and all("task t1 covers it" in f.message for f in fails)


def test_a_rewritten_ledger_fails_and_covers_nothing() -> None:
    found = levels(facts(started=[start()], finished=[finish("t2")], problem="line 2 differs"))
    assert ("FAIL", "witness", "refs/majordomus/ledger/c-0000000000000001") in found
    assert ("FAIL", "coverage", C1[:12]) in found


def test_require_task_false_makes_an_uncovered_commit_information() -> None:
    found = levels(facts(started=[], finished=[], require_task=False))
    assert ("INFO", "coverage", C1[:12]) in found and not [f for f in found if f[0] == "FAIL"]


def test_each_reproof_status_is_judged() -> None:
    proof = {"kind": "fact", "fact": "verify-reproof", "ref": "r", "clone": "c", "task_id": "t1",
             "line": 2, "head": BASE, "tree": "t2", "commit": C2}  # fmt: skip
    ran = [{"command": "make test", "exit": 0, "seconds": 1.0}]
    bad = [{"command": "make test", "exit": 2, "seconds": 1.0}]
    cases = [({"status": "ran", "runs": ran}, "OK"), ({"status": "ran", "runs": bad}, "FAIL"),
             ({"status": "tree-differs", "runs": []}, "FAIL"),
             ({"status": "unpinned", "runs": []}, "FAIL"),
             ({"status": "no-tree", "runs": []}, "FAIL")]  # fmt: skip
    for extra, level in cases:
        records = facts(started=[start()], finished=[finish("t2")], proofs=[{**proof, **extra}])
        assert (level, "reproof", "t1") in levels(records), extra


def test_a_hook_that_failed_open_for_a_task_of_the_range_fails_naming_it() -> None:
    line = {"task_id": "t1", "line": 2, "head": BASE, "hook": "tool",
            "provider": "claude-code", "why": "not JSON"}  # fmt: skip
    found = levels(facts(started=[start()], finished=[finish("t2")], unjudged=[line]))
    assert ("FAIL", "layer", "t1") in found, found
    other = {**line, "task_id": "t-other"}  # a task of no commit of the range, at base
    found = levels(facts(started=[start()], finished=[finish("t2")], unjudged=[other]))
    assert not [f for f in found if f[0] == "FAIL"], found
