"""`history --rotate` is facts | judge | writer: `mj-state rotate-facts | mj-state rotate-judge |
mj-state rotate-write`.

The judge counts from its fact alone. The writer scans the ledger again under its lock and
judges again for the verdict's archive name, so a verdict that moves more or fewer lines, one
whose archive is named outside the state directory or not as a stamp, one judged before the ledger
grew, or a replayed one moves nothing (15).
"""

from __future__ import annotations

from conftest import Repo
from conftest import forged
from conftest import judged
from test_history import _cap
from test_history import seeded

BODY = "# Objective\nRotate.\n# Current State\nDone.\n# Next Action\nNone.\n"


def _ready(repo: Repo) -> None:
    seeded(repo)
    assert repo.mj("handover", "--close", stdin=BODY).code == 0
    _cap(repo, 2)


def _files(repo: Repo) -> list[tuple[str, bytes]]:
    base = repo.root / ".ai/local/state"
    return sorted((p.name, p.read_bytes()) for p in base.iterdir() if p.is_file())


def test_the_stages_rotate_what_the_command_rotates(layer_repo: Repo) -> None:
    _ready(layer_repo)
    printed = layer_repo.mj("history", "--rotate", "--pipeline").out.strip()
    assert printed == "mj-state rotate-facts | mj-state rotate-judge | mj-state rotate-write"
    done = layer_repo.shell(printed)
    assert done.code == 0, done
    assert len(list((layer_repo.root / ".ai/local/state").glob("ledger.*.jsonl.archived"))) == 1
    assert layer_repo.mj("history", "--validate").code == 0


def test_an_edited_stale_or_replayed_rotation_moves_nothing(layer_repo: Repo) -> None:
    _ready(layer_repo)
    stream = judged(layer_repo, "mj-state", "rotate-facts", "rotate-judge")
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    before = _files(layer_repo)
    edits = [
        {"cut": int(verdict["cut"]) + 1},
        {"cut": 1},
        {"archive": "../../outside.jsonl.archived"},
        {"archive": ".ai/local/state/ledger.jsonl"},
    ]
    for changed in edits:
        result = layer_repo.run("mj-state", "rotate-write", stdin=forged(stream, **changed))
        assert result.code in (10, 15), (changed, result)
        assert _files(layer_repo) == before
    assert layer_repo.mj("decision", "add", "grow", "--why", "a line").code == 0  # the ledger grew
    grown = _files(layer_repo)
    stale = layer_repo.run("mj-state", "rotate-write", stdin=forged(stream))
    assert stale.code == 15 and "nothing was moved" in stale.err, stale
    assert _files(layer_repo) == grown
    fresh = judged(layer_repo, "mj-state", "rotate-facts", "rotate-judge")
    assert layer_repo.run("mj-state", "rotate-write", stdin=forged(fresh)).code == 0
    after = _files(layer_repo)
    replay = layer_repo.run("mj-state", "rotate-write", stdin=forged(fresh))
    assert replay.code == 15, replay
    assert _files(layer_repo) == after


def test_the_judge_without_its_fact_is_12(layer_repo: Repo) -> None:
    other = layer_repo.run("mj-state", "checkpoint-facts", stdin="x\n")
    result = layer_repo.run("mj-state", "rotate-judge", stdin=other.out)
    assert result.code == 12 and "mj-state rotate-facts" in result.err, result
