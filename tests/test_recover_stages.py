"""`recover` is facts | judge | writer: `mj-state recover-facts | mj-state recover-judge |
mj-state recover-write`.

The judge plans from its fact alone. The writer takes no plan on trust: it gathers and plans
again, and repairs only when its plan names the same items in the same order, taking what each
repair needs from its own reading. A plan edited after judging (an item's action changed, one
added or dropped) or one judged before the state moved repairs nothing (15).
"""

from __future__ import annotations

import json
import time

import pytest
from conftest import Repo
from conftest import files_under
from conftest import judged

STATE = ".ai/local/state"


def _stranded(repo: Repo) -> None:
    """Two episodes: `hand`, left open, and a later one the pointer names (this process's)."""
    assert repo.mj("session", "start").code == 0
    later = ("session", "start", "--provider", "claude-code", "--provider-session", "later")
    assert repo.mj(*later).code == 0
    time.sleep(1.1)  # so that `--older-than 0m` finds `hand` stranded


def _stream(repo: Repo, *args: str) -> list[dict[str, object]]:
    return judged(repo, "mj-state", "recover-facts", "recover-judge", *args)


def _with(records: list[dict[str, object]], verdict: dict[str, object]) -> str:
    out = [verdict if record.get("kind") == "verdict" else record for record in records]
    return "\n".join(json.dumps(record) for record in out) + "\n"


def test_the_stages_repair_what_the_command_repairs(layer_repo: Repo) -> None:
    _stranded(layer_repo)
    printed = layer_repo.mj("recover", "episodes", "--older-than", "0m", "--pipeline").out.strip()
    assert printed == (
        "mj-state recover-facts --older-than 0m episodes | mj-state recover-judge"
        " | mj-state recover-write"
    )
    done = layer_repo.shell(printed)
    assert done.code == 0, done
    items = [json.loads(line) for line in done.out.splitlines()][:-1]
    closed = [i for i in items if i["action"] == "close"]
    assert len(closed) == 1 and closed[0]["done"] is True, items
    (record,) = (layer_repo.root / ".ai/repo/sessions").glob("*.md")
    assert "outcome: interrupted" in record.read_text()
    assert not (layer_repo.root / STATE / "sessions-open/hand.yaml").exists()
    ledger = (layer_repo.root / STATE / "ledger.jsonl").read_text()
    assert '"action":"closed-stranded"' in ledger


def _edits(verdict: dict[str, object]) -> list[dict[str, object]]:
    items = list(verdict["items"])  # type: ignore[call-overload]
    live = next(i for i in items if i["state"] == "live")
    stranded = next(i for i in items if i["action"] == "close")
    return [
        {**verdict, "items": [i for i in items if i is not stranded]},
        {**verdict, "items": [i if i is not live else {**live, "action": "close"} for i in items]},
        {**verdict, "items": [*items, {**stranded, "subject": "s-other key=other"}]},
        {**verdict, "items": [i if i is not stranded else {**i, "path": None} for i in items]},
        {**verdict, "what": "records"},
    ]


@pytest.mark.parametrize("index", range(5))
def test_an_edited_plan_repairs_nothing(layer_repo: Repo, index: int) -> None:
    _stranded(layer_repo)
    stream = _stream(layer_repo, "episodes", "--older-than", "0m")
    (verdict,) = [r for r in stream if r.get("kind") == "verdict"]
    before = files_under(layer_repo, STATE, ".ai/repo/sessions")
    forged = _with(stream, _edits(verdict)[index])
    result = layer_repo.run("mj-state", "recover-write", stdin=forged)
    assert result.code == 15 and "nothing was repaired" in result.err, result
    assert result.err.count("\n") == 1, result
    assert files_under(layer_repo, STATE, ".ai/repo/sessions") == before


def test_a_plan_judged_before_the_state_moved_repairs_nothing(layer_repo: Repo) -> None:
    _stranded(layer_repo)
    stream = _stream(layer_repo, "episodes", "--older-than", "0m")
    assert layer_repo.mj("recover", "episodes", "--older-than", "0m").code == 0  # done meanwhile
    before = files_under(layer_repo, STATE, ".ai/repo/sessions")
    text = "\n".join(json.dumps(record) for record in stream) + "\n"
    result = layer_repo.run("mj-state", "recover-write", stdin=text)
    assert result.code == 15, result
    assert files_under(layer_repo, STATE, ".ai/repo/sessions") == before


def test_a_check_is_no_verdict_and_the_writer_passes_it_on(layer_repo: Repo) -> None:
    _stranded(layer_repo)
    stream = _stream(layer_repo, "all", "--older-than", "0m", "--check")
    assert all(r["kind"] in ("recovery", "summary") for r in stream), stream
    before = files_under(layer_repo, STATE, ".ai/repo/sessions")
    text = "\n".join(json.dumps(r) for r in stream) + "\n"
    passed = layer_repo.run("mj-state", "recover-write", stdin=text)
    assert passed.code == 0, passed
    assert files_under(layer_repo, STATE, ".ai/repo/sessions") == before


def test_the_judge_without_its_fact_is_12(layer_repo: Repo) -> None:
    other = layer_repo.run("mj-state", "checkpoint-facts", stdin="x\n")
    result = layer_repo.run("mj-state", "recover-judge", stdin=other.out)
    assert result.code == 12 and "mj-state recover-facts" in result.err, result
