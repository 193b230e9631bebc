"""`mj-state check` judged on facts written by hand (tests/facts/check-clean.jsonl), outside any
repository: the judge reads its stdin and nothing else, so cases no repository produces easily
— a chain broken at a given line, a tip that does not vouch, a copy that departs from the
ledger, a malformed line the facts name — are one edited fact each.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from mj_state import cli

FACTS = Path(__file__).parent / "facts" / "check-clean.jsonl"
TASK = "t-20260903194102-ab12"


def facts(**edits: Any) -> list[dict[str, Any]]:
    """The clean facts, each named fact's fields updated by `edits[name]` (a dict)."""
    records = [json.loads(line) for line in FACTS.read_text().splitlines()]
    for record in records:
        change = edits.get(record.get("fact", ""))
        if change:
            record.update(change)
    return records


def judge(records: list[dict[str, Any]], where: Path) -> tuple[int, list[dict[str, Any]]]:
    stdin = io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in records))
    out = io.BytesIO()
    before = os.getcwd()
    os.chdir(where)  # not a repository: a judge that asked git or read a file would fail
    try:
        code = cli.main(["check"], stdin=stdin, stdout=out, stderr=io.StringIO())
    finally:
        os.chdir(before)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return code, [r for r in lines if r.get("kind") == "finding"]


def failures(found: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(f["category"], f["subject"], f["message"]) for f in found if f["level"] == "FAIL"]


def test_the_clean_facts_pass_outside_any_repository(tmp_path: Path) -> None:
    code, found = judge(facts(), tmp_path)
    assert code == 0 and failures(found) == []
    assert {f["category"] for f in found} >= {"state", "scope", "ledger", "blockers", "questions"}


def test_a_touched_file_outside_the_scope_fails_with_its_reproduce(tmp_path: Path) -> None:
    touched = ["lib/greeting.py", "docs/notes.md", "CLAUDE.md", ".ai/local/tmp/x"]
    code, found = judge(facts(git={"touched": touched}), tmp_path)
    assert code == 10
    assert failures(found) == [("scope", "docs/notes.md", "outside claimed scope (lib)")]
    scope = next(f for f in found if f["level"] == "FAIL")
    assert "git status --porcelain -- docs/notes.md" in scope["reproduce"]


def test_a_file_the_tool_writes_but_not_as_it_is_says_which_command(tmp_path: Path) -> None:
    touched = ["lib/greeting.py", "CLAUDE.md", ".claude/settings.json"]
    unlike = [[".claude/settings.json", "majordomus capture install"]]
    code, found = judge(facts(git={"touched": touched, "own": [], "unlike": unlike}), tmp_path)
    assert code == 10
    assert [(c, s) for c, s, _ in failures(found)] == [
        ("scope", "CLAUDE.md"),  # not recognised as the tool's own: outside, as any file
        ("scope", ".claude/settings.json"),
    ]
    said = failures(found)[1][2]
    assert "`majordomus capture install` writes this file, but not as it is now" in said


def test_a_chain_broken_at_a_line_fails_naming_it(tmp_path: Path) -> None:
    clean = facts()[1]
    chain = {**clean["chain"], "broken": [1, "`prev` is not the hash of the line before it"]}
    code, found = judge(facts(situation={"chain": chain}), tmp_path)
    assert code == 10
    assert ("ledger", ".ai/local/state/ledger.jsonl:1") in [(c, s) for c, s, _ in failures(found)]


def test_a_tip_that_does_not_vouch_fails(tmp_path: Path) -> None:
    clean = facts()[1]
    chain = {**clean["chain"], "tip_problem": "the ledger is not the one ledger.tip vouches for"}
    code, found = judge(facts(situation={"chain": chain}), tmp_path)
    assert code == 10
    assert any(s.endswith("ledger.tip") for c, s, _ in failures(found) if c == "ledger")


def test_a_copy_that_departs_from_the_ledger_fails_and_the_ledger_wins(tmp_path: Path) -> None:
    clean = facts()[1]
    copy = {**clean["copy"], "outcome": "completed", "scope": ["lib", "docs"]}
    touched = ["docs/notes.md"]
    code, found = judge(facts(situation={"copy": copy}, git={"touched": touched}), tmp_path)
    assert code == 10
    failed = failures(found)
    assert ("scope", "docs/notes.md", "outside claimed scope (lib)") in failed  # not the copy's
    assert [c for c, _, _ in failed].count("state") >= 2  # outcome and scope each named


def test_malformed_lines_and_an_unparsable_question_file_fail(tmp_path: Path) -> None:
    text = f"# Open questions\n- [unresolved] {TASK} — tabs? (2026-09-03)\n- [open] broken\n"
    edits = {
        "ledger": {"count": 9, "problems": [[7, "not JSON (Expecting value)"]]},
        "questions": {"text": text},
    }
    code, found = judge(facts(**edits), tmp_path)
    assert code == 10
    failed = failures(found)
    assert ("ledger", ".ai/local/state/ledger.jsonl:7", "not JSON (Expecting value)") in failed
    assert any(c == "blockers" and "tabs?" in m for c, _, m in failed)
    assert any(c == "questions" for c, _, _ in failed)


def test_an_overdue_checkpoint_is_a_warning_only(tmp_path: Path) -> None:
    code, found = judge(facts(clock={"now": 1788464522 + 3600}), tmp_path)
    assert code == 0
    warned = [f for f in found if f["level"] == "WARN"]
    assert [f["category"] for f in warned] == ["checkpoint"]


@pytest.mark.parametrize("label", ["diverged", "different_context"])
def test_a_head_that_left_the_task_is_a_finding(tmp_path: Path, label: str) -> None:
    code, found = judge(facts(git={"label": label}), tmp_path)
    assert code == 10
    assert any(c == "state" and label in m for c, _, m in failures(found))


def _mangled() -> list[tuple[str, list[dict[str, Any]]]]:
    """Each fact dropped, and each field of each fact deleted or set to a number."""
    clean = facts()
    cases = []
    for index, record in enumerate(clean):
        if record.get("kind") != "fact":
            continue
        name = record["fact"]
        cases.append((f"no {name} fact", [r for i, r in enumerate(clean) if i != index]))
        for key in [k for k in record if k not in ("kind", "fact")]:
            for how, change in (("without", None), ("numbered", 7)):
                edited = [dict(r) for r in clean]
                if change is None:
                    del edited[index][key]
                else:
                    edited[index][key] = change
                cases.append((f"{name}.{key} {how}", edited))
    return cases


def _refused(records: list[dict[str, Any]], where: Path) -> tuple[int, str]:
    """(exit code, stderr) of the check judge on `records`, run outside any repository."""
    stdin = io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in records))
    err = io.StringIO()
    before = os.getcwd()
    os.chdir(where)
    try:
        code = cli.main(["check"], stdin=stdin, stdout=io.BytesIO(), stderr=err)
    finally:
        os.chdir(before)
    return code, err.getvalue()


def test_hand_edited_facts_of_the_wrong_shape_are_refused_never_a_crash(tmp_path: Path) -> None:
    cases = _mangled()
    assert len(cases) > 40
    codes = {}
    for label, records in cases:
        code, err = _refused(records, tmp_path)
        codes[label] = code
        assert code != 13 and "Traceback" not in err, (label, err)
        assert err.count("\n") <= 1, label
        if code == 10 and "record" in err:
            assert "<stdin>: record " in err, label
    assert codes["situation.root without"] == 10
    assert codes["no git fact"] == 12
    assert codes["ledger.count numbered"] == 0  # a count is a number: nothing wrong with 7


def test_the_refusal_names_the_record_and_the_field(tmp_path: Path) -> None:
    assert _refused(facts(place={"policy": 7}), tmp_path) == (
        10,
        "mj-state: <stdin>: record 1 (fact 'place'): policy: 7 is not of type 'object'\n",
    )


def test_a_knowledge_record_in_the_wrong_directory_is_reported_as_gathered(tmp_path: Path) -> None:
    said = {
        "level": "FAIL",
        "category": "knowledge",
        "subject": "k/candidates/a.md:8",
        "message": "status verified: not held here",
        "reproduce": "majordomus knowledge check",
    }
    code, found = judge(facts(**{"knowledge-records": {"records": 1, "findings": [said]}}),
                        tmp_path)  # fmt: skip
    assert code == 10 and failures(found) == [("knowledge", said["subject"], said["message"])]
