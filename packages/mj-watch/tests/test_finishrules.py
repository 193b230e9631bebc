from __future__ import annotations

from pathlib import Path

from mj_watch import finishrules
from mj_watch.facts import Facts
from mj_watch.validators import REGISTRY


def test_decision_records_reports_unattributable_entries(tmp_path: Path) -> None:
    log = tmp_path / finishrules.DECISIONS
    log.parent.mkdir(parents=True)
    log.write_text(
        "# Decisions\n<!--\n## 2026-01-01 — template\n-->\n"
        "## 2026-09-03 — kept\nTask: t-20260903193012-a4f1\nHead: abc\nWhy: w\n\n"
        "## 2026-09-04 — orphan\nTask: -\nHead: -\nWhy: w\n"
    )
    (finding,) = list(finishrules.decision_records(Facts(tmp_path)))
    assert finding.level == "FAIL" and "'orphan' lacks Task, Head" in finding.message
    assert (
        finding.subject.endswith(":10")
        and finding.reproduce == f"sed -n '10,16p' {finishrules.DECISIONS}"
    )


def test_decision_records_ok_and_silent_without_a_log(tmp_path: Path) -> None:
    assert list(finishrules.decision_records(Facts(tmp_path))) == []
    log = tmp_path / finishrules.DECISIONS
    log.parent.mkdir(parents=True)
    log.write_text("## 2026-09-03 — kept\nTask: t-20260903193012-a4f1\nHead: abc\nWhy: w\n")
    assert [f.level for f in finishrules.decision_records(Facts(tmp_path))] == ["OK"]


def test_contract_validators_judge_nothing_without_a_layer_or_task(tmp_path: Path) -> None:
    for name in ("verification_ran", "state_freshness", "blocker_resolution", "note_present"):
        assert list(REGISTRY[name](Facts(tmp_path))) == []
