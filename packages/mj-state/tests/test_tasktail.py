"""`task.tail.light` reads the newest task's lines with `json` alone (the tool hook's path);
where it answers, it answers as `ledger.scan.task_rows` (the full reader) does, and it gives
up (None) where the two could differ."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mj_state.ledger import scan as ledgerscan
from mj_state.task import active as taskactive
from mj_state.task import log as tasklog
from mj_state.task import tail as tasktail


def line(event: str, **more: object) -> str:
    return json.dumps({"ts": "2026-01-01T00:00:00Z", "event": event, **more})


LEDGERS = {
    "empty": [],
    "one task": [line("task.started", task_id="t-1", scope=["src"])],
    "ended": [line("task.started", task_id="t-1", scope=["src"]),
              line("task.finished", task_id="t-1", outcome="completed", head="h")],
    "newest wins": [line("task.started", task_id="t-1", scope=["a"]),
                    line("task.started", task_id="t-2", scope=["b"]),
                    line("task.checkpoint", task_id="t-2")],
    "nested bytes": [line("task.started", task_id="t-1", scope=["a"]),
                     line("note", text="task.started t-1")],
    "a key twice": ['{"event": "task.started", "task_id": "t-1", "task_id": "t-2"}'],
    "an escape": [line("task.started", task_id="t-1", scope=["a"]),
                  '{"event": "task.finished", "task_id": "t\\u002d1", "outcome": "failed"}'],
    "torn": [line("task.started", task_id="t-1", scope=["a"]), '{"event": "task.fin'],
}  # fmt: skip


@pytest.mark.parametrize("name", list(LEDGERS))
def test_the_light_reading_agrees_with_the_full_reader(tmp_path: Path, name: str) -> None:
    ledger = tmp_path / "ledger.jsonl"
    ledger.write_text("".join(text + "\n" for text in LEDGERS[name]))
    full = ledgerscan.task_rows(ledger)
    light = tasktail.light(ledger)
    if name in ("a key twice", "an escape"):
        assert light is None  # the full reader is asked
    else:
        assert light is not None
        derived = tasklog.derive(light)
        wanted = tasklog.derive(full)
        assert (derived and derived.fields) == (wanted and wanted.fields)


def test_active_is_this_checkouts_active_task(tmp_path: Path) -> None:
    state = tmp_path / ".ai" / "local" / "state"
    state.mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    (state / "ledger.jsonl").write_text(
        line("task.started", task_id="t-1", scope=["src"], worktree_id=".") + "\n"
    )
    task = taskactive.active(str(tmp_path))
    assert task is not None and task.fields["scope"] == ["src"]
    (state / "ledger.jsonl").write_text(
        line("task.started", task_id="t-1", scope=["src"], worktree_id="worktrees/w") + "\n"
    )
    assert taskactive.active(tmp_path) is None  # started in another checkout
