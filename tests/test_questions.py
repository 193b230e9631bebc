"""`majordomus question`: the open-questions index and its two line shapes."""

from __future__ import annotations

import json

from conftest import Repo

QUESTIONS = ".ai/local/state/open-questions.md"


def started(repo: Repo) -> str:
    out = repo.mj("start", "ask things", "--scope", "lib").out
    return out.split()[1]


def test_add_requires_an_active_task_and_no_separator(layer_repo: Repo) -> None:
    assert layer_repo.mj("question", "add", "who decides?").code == 12
    task = started(layer_repo)
    assert layer_repo.mj("question", "add", "this — that").code == 2
    result = layer_repo.mj("question", "add", "15 or 60 minutes?")
    assert result.code == 0 and result.out == f"opened for {task}: 15 or 60 minutes?\n"
    text = (layer_repo.root / QUESTIONS).read_text()
    assert f"\n- [unresolved] {task} — 15 or 60 minutes? (" in text
    events = [
        json.loads(x)
        for x in (layer_repo.root / ".ai/local/state/ledger.jsonl").read_text().splitlines()
    ]
    assert (
        events[-1]["event"] == "question.opened" and events[-1]["question"] == "15 or 60 minutes?"
    )


def test_resolve_rewrites_one_line_in_place(layer_repo: Repo) -> None:
    task = started(layer_repo)
    for question in ("token window?", "keep the legacy path?", "token cache?"):
        assert layer_repo.mj("question", "add", question).code == 0
    before = (layer_repo.root / QUESTIONS).read_text().splitlines()
    assert layer_repo.mj("question", "resolve", "token", "--answer", "x").code == 15
    assert layer_repo.mj("question", "resolve", "nothing like it", "--answer", "x").code == 15
    assert layer_repo.mj("question", "resolve", "9", "--answer", "x").code == 15
    assert layer_repo.mj("question", "resolve", "2").code == 2
    result = layer_repo.mj("question", "resolve", "legacy", "--answer", "yes, until Q4")
    assert result.code == 0, result
    after = (layer_repo.root / QUESTIONS).read_text().splitlines()
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert len(changed) == 1
    assert after[changed[0]].startswith("- [resolved ")
    assert after[changed[0]].endswith(f"] {task} — keep the legacy path? — yes, until Q4")
    assert layer_repo.mj("question", "resolve", "2", "--answer", "again").code == 15
    assert layer_repo.mj("question", "resolve", "1", "--answer", "60").code == 0
    listed = layer_repo.mj("question", "list").out.splitlines()
    assert len(listed) == 1 and "token cache?" in listed[0] and listed[0].lstrip().startswith("3")
    assert len(layer_repo.mj("question", "list", "--all").out.splitlines()) == 3
    assert layer_repo.mj("question", "list", "--task", "t-00000000000000-0000").out.startswith(
        "question: none"
    )


def test_template_lines_in_comments_are_not_entries(layer_repo: Repo) -> None:
    started(layer_repo)
    text = (layer_repo.root / QUESTIONS).read_text()
    assert "- [unresolved] <task id>" in text  # the shipped template, inside a comment
    assert layer_repo.mj("question", "list", "--all").out == "question: none\n"
    assert layer_repo.mj("check").code == 0


def test_malformed_line_fails_check_and_doctor(layer_repo: Repo) -> None:
    started(layer_repo)
    with (layer_repo.root / QUESTIONS).open("a") as handle:
        handle.write("- [unresolved] forgot the task id — what now? (2026-09-03)\n")
    check = layer_repo.mj("check")
    assert check.code == 10 and "FAIL questions" in check.out
    doctor = layer_repo.mj("doctor")
    assert doctor.code == 10 and "FAIL questions" in doctor.out
