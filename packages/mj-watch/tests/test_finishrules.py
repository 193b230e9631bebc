from __future__ import annotations

from pathlib import Path

from mj_watch.doctor.facts_view import Facts
from mj_watch.doctrine import finish_rules as finishrules
from mj_watch.doctrine.registry import REGISTRY
from mj_watch.watch.facts import LiveFacts


def decided(text: str | None) -> Facts:
    """Hand-made facts: the decision log's text (None: there is none)."""
    return Facts([{"kind": "fact", "fact": "decisions", "text": text}])


def test_decision_records_reports_unattributable_entries() -> None:
    text = (
        "# Decisions\n<!--\n## 2026-01-01 — template\n-->\n"
        "## 2026-09-03 — kept\nTask: t-20260903193012-a4f1\nHead: abc\nWhy: w\n\n"
        "## 2026-09-04 — orphan\nTask: -\nHead: -\nWhy: w\n"
    )
    (finding,) = list(finishrules.decision_records(decided(text)))
    assert finding.level == "FAIL" and "'orphan' lacks Task, Head" in finding.message
    assert (
        finding.subject.endswith(":10")
        and finding.reproduce == f"sed -n '10,16p' {finishrules.DECISIONS}"
    )


def test_decision_records_ok_and_silent_without_a_log() -> None:
    assert list(finishrules.decision_records(decided(None))) == []
    text = "## 2026-09-03 — kept\nTask: t-20260903193012-a4f1\nHead: abc\nWhy: w\n"
    assert [f.level for f in finishrules.decision_records(decided(text))] == ["OK"]


def test_contract_validators_judge_nothing_without_a_layer_or_task(tmp_path: Path) -> None:
    for name in ("verification_ran", "state_freshness", "blocker_resolution", "note_present"):
        assert list(REGISTRY[name](LiveFacts(tmp_path))) == []
