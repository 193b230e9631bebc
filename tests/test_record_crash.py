"""A log record and its ledger line land together, or the gap is found and repaired.

Each command that writes `decisions.md` or `open-questions.md` is killed (SIGKILL, as `kill -9`)
at each of its write points by a test-only `sitecustomize` (`crashpoint/`). After every kill no
entry is without its ledger line; what is left (a ledger line without its entry) is a FAIL in
doctor naming it, and `recover records` restores it, after which doctor finds nothing. An entry
a worker writes by hand, or an older writer's crash left, is found and repaired the same way.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from conftest import Repo
from conftest import failures

STATE = ".ai/local/state"
DECISIONS = f"{STATE}/decisions.md"
QUESTIONS = f"{STATE}/open-questions.md"
POINTS = ("ledger-before", "ledger-after", "publish-before", "publish-after")
CRASHPOINT = Path(__file__).resolve().parent / "crashpoint"


def killed_at(repo: Repo, point: str, *args: str) -> int:
    env = dict(repo.env)
    env["PYTHONPATH"] = str(CRASHPOINT)
    env["MJTEST_KILL_AT"] = point
    return Repo(repo.root, env).mj(*args).code


def events(repo: Repo, name: str) -> list[dict[str, object]]:
    lines = (repo.root / STATE / "ledger.jsonl").read_text().splitlines()
    return [v for v in map(json.loads, lines) if v.get("event") == name]


def record_failures(repo: Repo) -> list[tuple[str, str, str, str]]:
    return [f for f in failures(repo.mj("doctor").out) if f[0] == "records"]


def started(repo: Repo) -> str:
    return repo.mj("start", "ask things", "--scope", "lib").out.split()[1]


def repaired(repo: Repo) -> None:
    done = repo.mj("recover", "records")
    assert done.code == 0, done
    assert record_failures(repo) == [], done


@pytest.mark.parametrize("point", POINTS)
def test_decision_add_killed_at_each_write_point(layer_repo: Repo, point: str) -> None:
    assert layer_repo.mj("decision", "add", "keep", "--why", "w").code == 0
    code = killed_at(layer_repo, point, "decision", "add", "use the cache", "--why", "speed")
    assert code in (0, -signal.SIGKILL)
    lines = [v["decision"] for v in events(layer_repo, "decision.recorded")]
    logged = (
        "## " in (text := (layer_repo.root / DECISIONS).read_text()) and "use the cache" in text
    )
    assert lines.count("keep") == 1
    assert not (logged and "use the cache" not in lines), "an entry without its ledger line"
    gaps = record_failures(layer_repo)
    if "use the cache" in lines and not logged:  # a line without its entry: found, restored
        assert len(gaps) == 1 and gaps[0][1].startswith(f"{STATE}/ledger.jsonl:"), gaps
        assert "use the cache" in gaps[0][2] and gaps[0][3] == "majordomus recover records --check"
        repaired(layer_repo)
        text = (layer_repo.root / DECISIONS).read_text()
        assert "## " in text and "Why: speed\n" in text
    assert gaps == [] or "use the cache" in lines
    shown = layer_repo.mj("decision", "list").out
    assert ("use the cache" in shown) == ("use the cache" in lines)
    assert record_failures(layer_repo) == []


@pytest.mark.parametrize("point", POINTS)
def test_question_add_and_resolve_killed_at_each_write_point(layer_repo: Repo, point: str) -> None:
    task = started(layer_repo)
    code = killed_at(layer_repo, point, "question", "add", "15 or 60 minutes?")
    assert code in (0, -signal.SIGKILL)
    opened = [v["question"] for v in events(layer_repo, "question.opened")]
    shown = "15 or 60 minutes?" in (layer_repo.root / QUESTIONS).read_text()
    assert not (shown and not opened), "a question without its ledger line"
    if opened and not shown:
        gaps = record_failures(layer_repo)
        assert len(gaps) == 1 and "15 or 60 minutes?" in gaps[0][2], gaps
        repaired(layer_repo)
    if not opened:
        assert layer_repo.mj("question", "add", "15 or 60 minutes?").code == 0
    assert f"[unresolved] {task} — 15 or 60 minutes?" in (layer_repo.root / QUESTIONS).read_text()
    code = killed_at(layer_repo, point, "question", "resolve", "1", "--answer", "15")
    assert code in (0, -signal.SIGKILL)
    resolved = events(layer_repo, "question.resolved")
    text = (layer_repo.root / QUESTIONS).read_text()
    closed = f"] {task} — 15 or 60 minutes? — 15\n" in text
    assert not (closed and not resolved), "resolved in the file, open in the ledger"
    if resolved and not closed:
        gaps = record_failures(layer_repo)
        assert len(gaps) == 1 and "resolved in the ledger" in gaps[0][2], gaps
        repaired(layer_repo)
        assert "— 15 or 60 minutes? — 15\n" in (layer_repo.root / QUESTIONS).read_text()
    assert record_failures(layer_repo) == []


def test_a_hand_written_decision_is_found_and_set_aside(layer_repo: Repo) -> None:
    task = started(layer_repo)
    layer_repo.mj("decision", "add", "real", "--why", "w")
    forged = f"## 2026-01-01 — forged\nTask: {task}\nHead: -\nWhy: none\n"
    with (layer_repo.root / DECISIONS).open("a") as handle:
        handle.write("\n" + forged)
    gaps = record_failures(layer_repo)
    assert [g[2].split(" — ")[0] for g in gaps] == [
        "decision 'forged' has no decision.recorded line in the ledger"
    ], gaps
    check = layer_repo.mj("recover", "records", "--check")
    assert "unrecorded:" in check.out and "→ set-aside (to do)" in check.out, check
    repaired(layer_repo)
    text = (layer_repo.root / DECISIONS).read_text()
    assert "forged" not in text and "## " in text and "— real\n" in text
    kept = list((layer_repo.root / STATE / "archive/recovered").glob("decision-*.md"))
    assert [p.read_text() for p in kept] == [forged]
    assert events(layer_repo, "record.recovered")[-1]["action"] == "set-aside"


def test_a_question_resolved_by_hand_is_reopened_and_one_written_by_hand_adopted(
    layer_repo: Repo,
) -> None:
    task = started(layer_repo)
    assert layer_repo.mj("question", "add", "which port?").code == 0
    path = layer_repo.root / QUESTIONS
    text = path.read_text()
    line = next(x for x in text.splitlines() if "which port?" in x)
    hand = f"- [resolved 2026-01-01] {task} — which port? — whatever"
    path.write_text(text.replace(line, hand) + f"- [unresolved] {task} — by hand? (2026-01-01)\n")
    gaps = record_failures(layer_repo)
    assert len(gaps) == 2, gaps
    assert "'which port?' is open in the ledger" in gaps[0][2]
    assert "'by hand?' has no question.opened line" in gaps[1][2]
    repaired(layer_repo)
    now = path.read_text()
    assert line in now and hand not in now and f"{task} — by hand? (" in now
    assert [v["question"] for v in events(layer_repo, "question.opened")] == [
        "which port?",
        "by hand?",
    ]
