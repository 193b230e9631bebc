"""Doctor's plan check judged on hand-written facts (`mj_watch.doctor.plan`): each defect of the
model and each unvouched lifecycle marker is a FAIL with `plan validate` to reproduce it; a
plan that holds is one OK; no plan, or facts without the plan's, is nothing."""

from __future__ import annotations

from typing import Any

from mj_watch.doctor.facts_view import Facts
from mj_watch.doctor.plan import plan_integrity

MARKER = {"kind": "finding", "level": "FAIL", "category": "plan",
          "subject": ".ai/repo/project/issues/I0001.yaml:20:1",
          "message": "I0001 completed_at: 2026-12-01T12:00:00Z is in the file, but ...",
          "reproduce": "majordomus plan validate"}  # fmt: skip


def judged(**fact: Any) -> list[tuple[str, str, str]]:
    facts = Facts([{"kind": "fact", "fact": "plan", **fact}] if fact else [])
    return [(f.level, f.subject, f.message) for f in plan_integrity(facts)]


def test_each_defect_and_each_unvouched_marker_fails() -> None:
    found = judged(kept=True, directory=".ai/repo/project", milestones=1, issues=2,
                   problems=[["unknown-key", ".ai/repo/project/issues/I0002.yaml:19:1",
                              "additional properties ('status' was unexpected)"]],
                   markers=[MARKER])  # fmt: skip
    assert found == [
        ("FAIL", ".ai/repo/project/issues/I0002.yaml:19:1",
         "unknown-key: additional properties ('status' was unexpected)"),
        ("FAIL", MARKER["subject"], MARKER["message"]),
    ]  # fmt: skip
    assert all(f.reproduce == "majordomus plan validate" for f in plan_integrity(Facts([
        {"kind": "fact", "fact": "plan", "kept": True, "directory": "d", "milestones": 0,
         "issues": 0, "problems": [], "markers": [MARKER]}])))  # fmt: skip


def test_a_plan_that_holds_is_one_ok_and_no_plan_is_nothing() -> None:
    ok = judged(kept=True, directory=".ai/repo/project", milestones=2, issues=40,
                problems=[], markers=[])  # fmt: skip
    assert ok == [("OK", ".ai/repo/project", "2 milestone(s), 40 issue(s); the model holds "
                   "together, every marker git's or the ledger's")]  # fmt: skip
    assert judged(kept=False) == []
    assert judged() == []  # facts of another doctor, without the plan's
