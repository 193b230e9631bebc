"""`capture acknowledge`, `render`, `prune` and `reconcile` are facts | judge | writer
(`mj-state capture-<action>-facts | -judge | -write`).

Each writer gathers and judges again before it writes, so a verdict edited after judging, or a
replayed one, writes nothing (15). Acknowledging takes out of the failure log only the lines it
judged: a hook that fails between the judge and the writer keeps its line for the next run.
"""

from __future__ import annotations

import json

from conftest import Repo
from conftest import forged
from conftest import judged
from test_capture import installed
from test_capture_store import _age
from test_capture_store import prompt
from test_capture_store import snapshot
from test_capture_store import start

LOG = ".ai/local/prompts/failures.log"
LEDGER = ".ai/local/state/ledger.jsonl"


def _stream(repo: Repo, action: str, *args: str) -> list[dict[str, object]]:
    return judged(repo, "mj-state", f"capture-{action}-facts", f"capture-{action}-judge", *args)


def _acknowledged(repo: Repo) -> list[dict[str, object]]:
    text = (repo.root / LEDGER).read_text()
    return [v for v in map(json.loads, text.splitlines()) if v["event"] == "capture.acknowledged"]


def test_a_line_logged_after_judging_stays_for_the_next_run(layer_repo: Repo) -> None:
    log = layer_repo.root / LOG
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("first failure\nsecond failure\n")
    stream = _stream(layer_repo, "acknowledge")
    with log.open("a") as handle:
        handle.write("a third, while the person read\n")
    done = layer_repo.run("mj-state", "capture-acknowledge-write", stdin=forged(stream))
    assert done.code == 0, done
    assert log.read_text() == "a third, while the person read\n"
    (line,) = _acknowledged(layer_repo)
    assert line["failures"] == 2 and line["last"] == "second failure"
    replay = layer_repo.run("mj-state", "capture-acknowledge-write", stdin=forged(stream))
    assert replay.code == 15 and "nothing was written" in replay.err, replay
    assert log.read_text() == "a third, while the person read\n"
    assert len(_acknowledged(layer_repo)) == 1


def test_an_edited_acknowledgement_writes_nothing(layer_repo: Repo) -> None:
    log = layer_repo.root / LOG
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("first failure\nsecond failure\n")
    stream = _stream(layer_repo, "acknowledge")
    for changed in ({"lines": ["first failure"] * 2}, {"lines": ["nothing went wrong"]},
                    {"path": ".ai/local/state/ledger.jsonl"}):  # fmt: skip
        result = layer_repo.run("mj-state", "capture-acknowledge-write",
                                stdin=forged(stream, **changed))  # fmt: skip
        assert result.code == 15, (changed, result)
        assert log.read_text() == "first failure\nsecond failure\n"
        assert _acknowledged(layer_repo) == []


def test_an_edited_or_replayed_prune_prunes_nothing(layer_repo: Repo) -> None:
    repo = installed(layer_repo)
    old = prompt(repo, "ps-1", "an old prompt")
    _age(old, 400)
    kept = prompt(repo, "ps-1", "a new prompt")
    policy = repo.root / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text() + "\nprompts:\n  retention_max_days: 30\n")
    stream = _stream(repo, "prune")
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    (item,) = verdict["pruned"]  # type: ignore[misc]
    wider = [item, {**item, "path": kept.relative_to(repo.root).as_posix()}]
    before = snapshot(repo)
    for changed in ({"pruned": wider}, {"pruned": [{**item, "reason": "because"}]}):
        result = repo.run("mj-state", "capture-prune-write", stdin=forged(stream, **changed))
        assert result.code == 15 and "nothing was pruned" in result.err, (changed, result)
        assert snapshot(repo) == before
    assert repo.run("mj-state", "capture-prune-write", stdin=forged(stream)).code == 0
    assert "tombstone" in json.loads(old.read_text()) and "prompt" in json.loads(kept.read_text())
    after = snapshot(repo)
    replay = repo.run("mj-state", "capture-prune-write", stdin=forged(stream))
    assert replay.code == 15, replay
    assert snapshot(repo) == after


def test_an_edited_reconcile_links_nothing(layer_repo: Repo) -> None:
    repo = installed(layer_repo)
    orphan = prompt(repo, "ps-7", "captured before its episode opened")
    start(repo, "ps-7")
    stream = _stream(repo, "reconcile")
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    (item,) = verdict["items"]  # type: ignore[misc]
    before = snapshot(repo)
    for changed in ({"items": [{**item, "episode": "s-20260101000000-abcd-000000000000"}]},
                    {"items": [{**item, "link": "ledger"}]}):  # fmt: skip
        result = repo.run("mj-state", "capture-reconcile-write", stdin=forged(stream, **changed))
        assert result.code == 15 and "nothing was linked" in result.err, (changed, result)
        assert snapshot(repo) == before
    assert repo.run("mj-state", "capture-reconcile-write", stdin=forged(stream)).code == 0
    assert json.loads(orphan.read_text())["episode_link"] == "session-context"
    replay = repo.run("mj-state", "capture-reconcile-write", stdin=forged(stream))
    assert replay.code == 15, replay


def test_an_edited_render_rebuilds_nothing(layer_repo: Repo) -> None:
    repo = installed(layer_repo)
    first = prompt(repo, "ps-1", "one prompt")
    second = prompt(repo, "ps-1", "another prompt")
    first.with_suffix(".md").unlink()
    stream = _stream(repo, "render")
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    (item,) = verdict["items"]  # type: ignore[misc]
    other = {**item, "path": second.relative_to(repo.root).as_posix(), "present": True}
    before = snapshot(repo)
    for changed in (
        {"items": [item, other]},
        {"force": True},
        {"items": [{**item, "present": True}]},
    ):
        result = repo.run("mj-state", "capture-render-write", stdin=forged(stream, **changed))
        assert result.code == 15 and "nothing was rebuilt" in result.err, (changed, result)
        assert snapshot(repo) == before
    assert repo.run("mj-state", "capture-render-write", stdin=forged(stream)).code == 0
    assert first.with_suffix(".md").is_file()


def test_the_judges_without_their_facts_are_12(layer_repo: Repo) -> None:
    other = layer_repo.run("mj-state", "checkpoint-facts", stdin="x\n")
    for action in ("acknowledge", "prune", "reconcile", "render"):
        result = layer_repo.run("mj-state", f"capture-{action}-judge", stdin=other.out)
        assert result.code == 12 and f"capture-{action}-facts" in result.err, result
