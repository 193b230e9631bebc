"""`knowledge promote` and `knowledge reject` are facts | judge | writer: `mj-state
knowledge-promote-facts | knowledge-promote-judge | knowledge-promote-write | mj-state log` and
`mj-knowledge reject-facts | reject-judge | reject-write | mj-state log`.

The judges read the candidate from their fact. The writers read the candidate (and, promoting,
this checkout's active task) again and judge again, so a verdict whose record text was edited,
one judged before a task started, or a replayed one writes nothing (15).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Repo
from conftest import forged
from conftest import judged
from test_knowledge_candidates import candidates
from test_knowledge_candidates import episode
from test_knowledge_candidates import task_over

BASE = ".ai/repo/knowledge"


def _stream(repo: Repo, tool: str, stage: str, *args: str, stdin: str | None = None) -> list:
    return judged(repo, tool, f"{stage}-facts", f"{stage}-judge", *args, stdin=stdin)


def _files(repo: Repo) -> list[tuple[str, bytes]]:
    base = repo.root / BASE
    return sorted((str(p.relative_to(base)), p.read_bytes()) for p in base.rglob("*.md"))


@pytest.fixture
def candidate(layer_repo: Repo) -> Path:
    episode(layer_repo, "refuse tabs")
    (path,) = candidates(layer_repo)
    task_over(layer_repo)
    return path


def _verified(text: str) -> str:
    return text.replace("# Evidence\n\ntests/t.py\n", "# Evidence\n\nI checked it myself.\n")


def test_an_edited_promotion_writes_nothing(layer_repo: Repo, candidate: Path) -> None:
    stream = _stream(layer_repo, "mj-state", "knowledge-promote", candidate.stem,
                     stdin="tests/t.py\n")  # fmt: skip
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    before = _files(layer_repo)
    for changed in ({"content": _verified(str(verdict["content"]))},
                    {"path": f"{BASE}/curated/other.md"}, {"class": "hand-picked"}):  # fmt: skip
        result = layer_repo.run("mj-state", "knowledge-promote-write",
                                stdin=forged(stream, **changed))  # fmt: skip
        assert result.code == 15 and "nothing was written" in result.err, (changed, result)
        assert _files(layer_repo) == before
    done = layer_repo.shell(
        f"printf '%s' '{forged(stream).strip()}' | mj-state knowledge-promote-write | mj-state log"
    )
    assert done.code == 0, done
    assert not candidate.exists() and (layer_repo.root / str(verdict["path"])).is_file()
    after = _files(layer_repo)
    replay = layer_repo.run("mj-state", "knowledge-promote-write", stdin=forged(stream))
    assert replay.code == 15 and "already promoted" in replay.err, replay
    assert _files(layer_repo) == after


def test_a_promotion_judged_before_a_task_started_writes_nothing(
    layer_repo: Repo, candidate: Path
) -> None:
    stream = _stream(layer_repo, "mj-state", "knowledge-promote", candidate.stem,
                     stdin="tests/t.py\n")  # fmt: skip
    assert layer_repo.mj("start", "verify my own work", "--scope", "lib").code == 0
    before = _files(layer_repo)
    result = layer_repo.run("mj-state", "knowledge-promote-write", stdin=forged(stream))
    assert result.code == 15 and "is active in this checkout" in result.err, result
    assert _files(layer_repo) == before


def test_an_edited_or_replayed_rejection_writes_nothing(layer_repo: Repo, candidate: Path) -> None:
    stream = _stream(layer_repo, "mj-knowledge", "reject", candidate.stem, "--reason", "no")
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    before = _files(layer_repo)
    edits = [
        {"content": str(verdict["content"]).replace("rejected", "verified")},
        {"path": f"{BASE}/curated/{candidate.stem}.md"},
        {"by": "someone-else"},
    ]
    for changed in edits:
        result = layer_repo.run("mj-knowledge", "reject-write", stdin=forged(stream, **changed))
        assert result.code == 15, (changed, result)
        assert _files(layer_repo) == before
    done = layer_repo.run("mj-knowledge", "reject-write", stdin=forged(stream))
    assert done.code == 0, done
    assert "status: rejected" in candidate.read_text()
    after = _files(layer_repo)
    replay = layer_repo.run("mj-knowledge", "reject-write", stdin=forged(stream))
    assert replay.code == 15 and "not awaiting review" in replay.err, replay
    assert _files(layer_repo) == after


def test_the_judges_without_their_facts_are_12(layer_repo: Repo) -> None:
    other = layer_repo.run("mj-state", "checkpoint-facts", stdin="x\n")
    judges = [
        ("mj-state", "knowledge-promote-judge", "knowledge-promote-facts"),
        ("mj-knowledge", "reject-judge", "reject-facts"),
    ]
    for tool, stage, gatherer in judges:
        result = layer_repo.run(tool, stage, stdin=other.out)
        assert result.code == 12 and gatherer in result.err, result
