"""`mj-watch finish` judged on a finish fact written by hand (tests/finishfacts/finish-met.jsonl),
outside any repository: cases a repository makes only with effort — the task's record
untrusted, a pinned command that failed, a verification of another tree, a note whose
sections are empty — are one edited field each, and only a met contract yields a `verdict`.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from mj_watch import cli

FACTS = Path(__file__).parent / "finishfacts" / "finish-met.jsonl"


def facts(**contract: Any) -> list[dict[str, Any]]:
    """The met finish facts with `contract` changed; `verify` is the verification stage's run
    (None: the stage added no fact), `copy` the task's copy as its situation holds it, and
    `ledger_problems` the ledger's malformed lines."""
    records = [json.loads(line) for line in FACTS.read_text().splitlines()]
    outcome = contract.pop("outcome", None)
    note_text = contract.pop("note_text", None)
    if "verify" in contract:
        verify = contract.pop("verify")
        records[1]["verify"] = verify
        records = [r for r in records if r.get("fact") != "verification" or verify is not None]
    trust = records[0]["trust"]
    trust["situation"]["copy"].update(contract.pop("copy", {}))
    trust["ledger_problems"] = contract.pop("ledger_problems", [])
    records[0]["contract"].update(contract)
    if outcome is not None:
        records[0]["outcome"] = records[0]["contract"]["outcome"] = outcome
    if note_text is not None:
        records[0]["note_text"] = note_text
    return records


def judge(records: list[dict[str, Any]], where: Path) -> tuple[int, list[dict[str, Any]]]:
    stdin = io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in records))
    out = io.BytesIO()
    before = os.getcwd()
    os.chdir(where)  # not a repository: the judge reads its stdin only
    try:
        code = cli.main(["finish"], stdin=stdin, stdout=out, stderr=io.StringIO())
    finally:
        os.chdir(before)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def failed(stream: list[dict[str, Any]]) -> list[str]:
    return [r["category"] for r in stream if r.get("kind") == "finding" and r["level"] == "FAIL"]


def verdicts(stream: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in stream if r.get("kind") == "verdict"]


def test_a_met_contract_gives_the_one_verdict_the_writer_records(tmp_path: Path) -> None:
    code, stream = judge(facts(), tmp_path)
    assert code == 0 and failed(stream) == []
    (verdict,) = verdicts(stream)
    assert verdict["outcome"] == "completed" and verdict["task"]["id"] == "t-20260903194102-ab12"
    assert verdict["run"]["tree"] == "2" * 40  # the verified tree travels to the ledger line


@pytest.mark.parametrize(
    ("change", "category"),
    [
        ({"touched": ["lib/greet.py", "docs/notes.md"]}, "scope"),
        ({"verify": None}, "verification"),
        (
            {
                "verify": {
                    "command": "pytest -q",
                    "argv": ["pytest", "-q"],
                    "exit": 1,
                    "seconds": 2.0,
                    "runs": [
                        {
                            "command": "pytest -q",
                            "argv": ["pytest", "-q"],
                            "exit": 1,
                            "seconds": 2.0,
                        }
                    ],
                    "tree": "2" * 40,
                }
            },
            "verification",
        ),
        (
            {"blockers": [{"where": "open-questions.md:3", "question": "tabs or spaces?"}]},
            "blockers",
        ),
        ({"state": {"label": "diverged", "recorded_head": "1" * 40}}, "state"),
        ({"copy": {"outcome": "completed"}}, "state"),
        ({"ledger_problems": [[3, "not a JSON object"]]}, "ledger"),
        ({"note": {"source": "--note n.md", "path": "/nowhere/n.md", "sections": []}}, "note"),
    ],
)
def test_each_unmet_line_refuses_and_yields_no_verdict(
    tmp_path: Path, change: dict[str, Any], category: str
) -> None:
    code, stream = judge(facts(**change), tmp_path)
    assert code == 10, stream
    assert category in failed(stream)
    assert verdicts(stream) == []
    refused = [r for r in stream if r.get("kind") == "record"]
    assert refused and refused[0]["action"] == "refused"


def test_a_partial_outcome_needs_a_next_action(tmp_path: Path) -> None:
    note = {"source": "--note n.md", "path": "/nowhere/n.md", "sections": ["Reason"]}
    code, stream = judge(facts(outcome="partial", note=note, note_text="# Reason\nx\n"), tmp_path)
    assert code == 10 and "note" in failed(stream)
    note["sections"] = ["Next Action"]
    code, stream = judge(
        facts(outcome="partial", note=note, note_text="# Next Action\ngo on\n"), tmp_path
    )
    assert code == 0 and len(verdicts(stream)) == 1


def test_two_verification_facts_are_not_judged(tmp_path: Path) -> None:
    """A stream that says twice what the verification did is ambiguous: nothing is judged."""
    records = facts()
    records.insert(1, dict(records[1]))
    code, stream = judge(records, tmp_path)
    assert code == 12 and verdicts(stream) == []
