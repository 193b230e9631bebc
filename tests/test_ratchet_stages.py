"""`ratchet update` is facts | judge | writer: `mj-watch facts --for ratchet | mj-watch
ratchet-update-judge | mj-watch ratchet-update-write`.

The judge reads the counts of its fact and nothing else. The writer counts again itself and
judges again with the verdict's own `--allow-increase` and reason, so counts written into a
verdict, a rise left out of it, or a verdict judged before the tree moved write no baseline and
no ledger line (15).
"""

from __future__ import annotations

import json

import pytest
from conftest import Repo
from conftest import forged

DECLARATION = """version: 1
metrics:
  - name: todo-lines
    builtin: lines-containing
    text: TODO
    under: lib
"""
BASELINE = ".ai/repo/ratchet-baseline.yaml"
LEDGER = ".ai/local/state/ledger.jsonl"


@pytest.fixture
def repo(layer_repo: Repo) -> Repo:
    layer_repo.write(".ai/repo/ratchet.yaml", DECLARATION)
    layer_repo.write("lib/a.py", "a = 1  # TODO\nb = 2  # TODO\n")
    layer_repo.commit("ratchet")
    return layer_repo


def _stream(repo: Repo, *args: str) -> list[dict[str, object]]:
    facts = repo.run("mj-watch", "facts", "--for", "ratchet")
    assert facts.code == 0, facts
    judged = repo.run("mj-watch", "ratchet-update-judge", *args, stdin=facts.out)
    assert judged.code == 0, judged
    return [json.loads(line) for line in judged.out.splitlines()]


def _written(repo: Repo) -> tuple[bytes | None, bytes]:
    baseline = repo.root / BASELINE
    return (baseline.read_bytes() if baseline.exists() else None,
            (repo.root / LEDGER).read_bytes())  # fmt: skip


def test_the_stages_write_what_the_command_writes(repo: Repo) -> None:
    printed = repo.mj("ratchet", "update", "--pipeline").out.strip()
    assert printed == (
        "mj-watch facts --for ratchet | mj-watch ratchet-update-judge"
        " | mj-watch ratchet-update-write"
    )
    done = repo.shell(printed)
    assert done.code == 0, done
    assert (repo.root / BASELINE).read_text() == "version: 1\ncounts:\n  todo-lines: 2\n"
    assert '"event":"ratchet.updated"' in (repo.root / LEDGER).read_text()


@pytest.mark.parametrize(
    "changed",
    [
        {"counts": {"todo-lines": 9}},
        {"counts": {"todo-lines": 2, "other": 0}},
        {"raised": {"todo-lines": [1, 2]}},
    ],
)
def test_an_edited_verdict_writes_nothing(repo: Repo, changed: dict[str, object]) -> None:
    stream = _stream(repo)
    before = _written(repo)
    result = repo.run("mj-watch", "ratchet-update-write", stdin=forged(stream, **changed))
    assert result.code == 15 and "nothing written" in result.err, result
    assert _written(repo) == before


def test_a_rise_left_out_of_the_verdict_is_refused(repo: Repo) -> None:
    """Judged at 2 with nothing accepted; accepted at 1 before the writer runs: the writer
    counts a rise the verdict does not name (and no --allow-increase), and writes nothing."""
    stream = _stream(repo)
    repo.write("lib/a.py", "a = 1  # TODO\n")
    assert repo.mj("ratchet", "update").code == 0
    repo.write("lib/a.py", "a = 1  # TODO\nb = 2  # TODO\n")
    before = _written(repo)
    result = repo.run("mj-watch", "ratchet-update-write", stdin=forged(stream))
    assert result.code == 15 and "went up" in result.err, result
    assert _written(repo) == before


def test_the_judge_without_its_fact_is_12(repo: Repo) -> None:
    other = repo.run("mj-state", "checkpoint-facts", stdin="x\n")
    result = repo.run("mj-watch", "ratchet-update-judge", stdin=other.out)
    assert result.code == 12 and "mj-watch facts --for ratchet" in result.err, result
