from __future__ import annotations

import copy
import json
from typing import Any

from mj_watch.finish import contract

HEAD = "9b1e2d4f8c3a5e7b1d0f2a4c6e8b0d3f5a7c9e1b"
BASE: dict[str, Any] = {
    "task_id": "t-20260903193012-a4f1",
    "outcome": "completed",
    "check_only": False,
    "finish_requires": [
        "scope_respected",
        "verification_ran",
        "state_updated",
        "no_open_blockers",
        "note_present",
    ],
    "required_sections": ["Objective", "Current State", "Next Action"],
    "profile": {},
    "scope": ["lib/auth"],
    "touched": ["lib/auth/a.py"],
    "allowed": [".ai", "CLAUDE.md"],
    "base": HEAD,
    "verify": {
        "command": "make test",
        "exit": 0,
        "seconds": 1.5,
        "runs": [{"command": "make test", "argv": ["make", "test"], "exit": 0, "seconds": 1.5}],
    },
    "state": {"label": "exact", "recorded_head": HEAD},
    "trust": [],
    "blockers": [],
    "question_problems": [],
    "note": {
        "source": "handover x.md",
        "path": ".ai/local/state/handovers/x.md",
        "sections": ["Objective", "Current State", "Next Action"],
    },
    "decision_recorded": False,
    "paths": {
        "questions": ".ai/local/state/open-questions.md",
        "decisions": ".ai/local/state/decisions.md",
    },
}


def facts(**changes: Any) -> dict[str, Any]:
    out = copy.deepcopy(BASE)
    out.update(changes)
    return out


def statuses(f: dict[str, Any]) -> dict[str, str]:
    return {line.key: line.status for line in contract.evaluate(f)}


def test_all_lines_pass_in_policy_order() -> None:
    lines = contract.evaluate(facts())
    assert [line.key for line in lines] == BASE["finish_requires"]
    assert all(line.status == "pass" and line.finding.level == "OK" for line in lines)
    assert contract.blocking(lines) == []


def test_policy_order_is_followed() -> None:
    order = ["note_present", "scope_respected"]
    assert [line.key for line in contract.evaluate(facts(finish_requires=order))] == order


def test_each_unmet_line_fails_with_its_doctrine_and_a_reproduce() -> None:
    cases = {
        "scope_respected": {"touched": ["lib/auth/a.py", "config/x"]},
        "verification_ran": {"verify": None},
        "state_updated": {"state": {"label": "diverged", "recorded_head": HEAD}},
        "no_open_blockers": {"blockers": [{"where": "q.md:3", "question": "why?"}]},
        "note_present": {"note": {"source": None, "path": None, "sections": []}},
    }
    for key, change in cases.items():
        lines = contract.evaluate(facts(**change))
        failed = [line for line in lines if line.status == "fail"]
        assert [line.key for line in failed] == [key]
        assert failed[0].finding.level == "FAIL" and failed[0].finding.reproduce
        assert contract.blocking(lines) == [failed[0].doctrine]


def test_failing_verification_exit_fails_the_line() -> None:
    one = {"command": "false", "argv": ["false"], "exit": 1, "seconds": 0.0}
    run = {"command": "false", "exit": 1, "seconds": 0.0, "runs": [one]}
    assert statuses(facts(verify=run))["verification_ran"] == "fail"


def test_a_command_that_is_not_pinned_fails_verification_without_running() -> None:
    problem = "true is not a pinned verification command (make test)"
    lines = contract.evaluate(facts(verify=None, verify_problem=problem))
    [line] = [x for x in lines if x.key == "verification_ran"]
    assert line.status == "fail" and "not a pinned" in line.finding.message


def test_a_timed_out_verification_fails() -> None:
    one = {"command": "sleep 9", "argv": ["sleep", "9"], "exit": 124, "seconds": 1.0}
    one["error"] = "timed out after 1s (verification.timeout)"
    run = {"command": "sleep 9", "exit": 124, "seconds": 1.0, "runs": [one], "error": one["error"]}
    lines = contract.evaluate(facts(verify=run))
    [line] = [x for x in lines if x.key == "verification_ran"]
    assert line.status == "fail" and "timed out" in line.finding.message


def test_a_distrusted_record_fails_the_state_doctrine_even_under_check() -> None:
    trust = [
        {
            "kind": "finding",
            "level": "FAIL",
            "category": "state",
            "subject": ".ai/local/state/current.yaml:outcome",
            "message": "outcome: current.yaml says completed, the ledger says active",
            "reproduce": "grep -n '^outcome:' .ai/local/state/current.yaml",
        }
    ]
    for check_only in (False, True):
        lines = contract.evaluate(facts(trust=trust, check_only=check_only))
        assert lines[0].status == "fail" and "current.yaml says" in lines[0].finding.message
        assert "majordomus.state-freshness" in contract.blocking(lines)
        assert contract.verdicts(lines)["majordomus.state-freshness"] == "fail"


def test_an_unreadable_question_file_fails_blockers() -> None:
    bad = [{"where": "q.md:7", "message": "not one of the two question line shapes"}]
    assert statuses(facts(question_problems=bad))["no_open_blockers"] == "fail"


def test_outcomes_skip_and_need_their_sections() -> None:
    note = {"source": "--note n.md", "path": "n.md", "sections": ["Next Action"]}
    partial = statuses(facts(outcome="partial", verify=None, note=note))
    assert partial["verification_ran"] == "skipped" and partial["note_present"] == "pass"
    blocked = statuses(
        facts(outcome="blocked", verify=None, note=note, blockers=[{"question": "q"}])
    )
    assert blocked["no_open_blockers"] == "skipped"
    failed = statuses(facts(outcome="failed", verify=None, note=note))
    assert failed["note_present"] == "fail"  # needs # Reason


def test_unknown_finish_requires_key_is_reported_and_fails() -> None:
    lines = contract.evaluate(facts(finish_requires=["scope_respected", "vibes_checked"]))
    assert lines[1].status == "fail" and "vibes_checked" in lines[1].finding.message
    assert contract.blocking(lines) == ["finish_requires:vibes_checked"]


def test_profile_extras_apply_to_completed_only() -> None:
    profile = {"regression_test_required": True, "decision_record_required": True}
    lines = statuses(facts(profile=profile))
    assert lines["regression_test_required"] == "fail"
    assert lines["decision_record_required"] == "fail"
    ok = statuses(facts(profile=profile, touched=["tests/test_a.py"], decision_recorded=True))
    assert ok["regression_test_required"] == "pass" and ok["decision_record_required"] == "pass"
    note = {"source": "n", "path": "n", "sections": ["Next Action"]}
    assert "regression_test_required" not in statuses(
        facts(profile=profile, outcome="partial", note=note)
    )


def test_check_only_evaluates_scope_and_state() -> None:
    lines = contract.evaluate(facts(check_only=True, verify=None, note={"source": None}))
    assert [line.key for line in lines] == ["scope_respected", "state_updated"]


def test_findings_and_verdicts_are_json_native() -> None:
    lines = contract.evaluate(facts(touched=["x"]))
    for line in lines:
        record = line.finding.record()
        assert json.loads(json.dumps(record).encode()) == record
    assert contract.verdicts(lines)["majordomus.scope-integrity"] == "fail"
