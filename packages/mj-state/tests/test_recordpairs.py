"""`records.pairs`: each log entry paired with its ledger line, judged from texts and values."""

from __future__ import annotations

from mj_state.records import pairs as recordpairs

TASK = "t-20260101-000000-abcd"
ENTRY = f"## 2026-01-01 — use the cache\nTask: {TASK}\nHead: abc\nWhy: speed\n"


def line(event: str, **payload: object) -> dict[str, object]:
    return {"event": event, "ts": "2026-01-02T00:00:00Z", "task_id": TASK, **payload}


def test_paired_entries_and_lines_have_no_gaps() -> None:
    values = [line("decision.recorded", decision="use the cache", entry=ENTRY)]
    assert recordpairs.gaps("# Decisions\n\n" + ENTRY, None, values) == []


def test_a_line_without_its_entry_is_restored_from_the_line() -> None:
    values = [None, line("decision.recorded", decision="use the cache", entry=ENTRY)]
    (gap,) = recordpairs.gaps("# Decisions\n", None, values)
    assert (gap.where, gap.action, gap.text) == ("ledger.jsonl:2", "restore", ENTRY)
    (old,) = recordpairs.gaps("", None, [line("decision.recorded", decision="x")])
    assert old.action == "report"


def test_an_entry_without_its_line_is_set_aside_unless_rotated_away() -> None:
    later = ENTRY.replace("use the cache", "later")
    text = f"{ENTRY}\n{later}"
    values: list[object] = [line("decision.recorded", decision="later", entry=later)]
    (gap,) = recordpairs.gaps(text, None, values)
    assert (gap.where, gap.action, gap.old) == ("decisions.md:1", "set-aside", ENTRY)
    sealed = [{"event": "ledger.sealed"}, *values]
    assert recordpairs.gaps(text, None, sealed) == []  # older than every paired entry
    assert [g.where for g in recordpairs.gaps(f"{later}\n{ENTRY}", None, sealed)] == [
        "decisions.md:6"
    ]


def test_questions_follow_the_ledger_and_one_without_a_line_is_adopted() -> None:
    opened = line("question.opened", question="which port?")
    resolved = line("question.resolved", question="which port?", answer="80")
    shown = f"- [unresolved] {TASK} — which port? (2026-01-02)\n"
    assert recordpairs.gaps(None, shown, [opened]) == []
    (gap,) = recordpairs.gaps(None, shown, [opened, resolved])
    assert gap.action == "rewrite" and gap.text.endswith("— which port? — 80")
    (gap,) = recordpairs.gaps(None, "", [opened])
    assert gap.action == "restore" and gap.text == shown.rstrip("\n")
    (gap,) = recordpairs.gaps(None, shown, [])
    assert (gap.action, gap.task) == ("adopt", TASK)


def test_the_lines_are_found_alike_with_or_without_the_events_a_reader_has() -> None:
    values = [
        line("task.started"),
        line("task.checkpoint"),
        line("decision.recorded", decision="use the cache", entry=ENTRY),
        line("question.opened", question="why?"),
        line("task.checkpoint"),
        line("question.resolved", question="why?", answer="speed"),
    ]
    names = [str(v["event"]) for v in values]
    found = recordpairs.events(values, names)
    assert found == recordpairs.events(values)
    assert [n for n, _ in found] == [1, 3, 4, 6]
