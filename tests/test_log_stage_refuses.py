"""`mj-state log`, the stage that appends the ledger lines a stream owes, appends only the
events the tool's own stages hand it (`update`, `rules vendor update`, `init`, the knowledge
stages): a line of any other event piped to it by hand (a finish, a decision, a released stop)
is refused (15, one line naming the event) and nothing is appended."""

from __future__ import annotations

import json

import pytest
from conftest import Repo

LEDGER = ".ai/local/state/ledger.jsonl"
SUMMARY = {"kind": "summary", "stage": "mj-policy update-write", "exit": 0, "counts": {}}
FORGED = [
    {"kind": "append", "event": "task.finished", "outcome": "completed"},
    {"kind": "append", "event": "decision.recorded", "decision": "ship it", "entry": "x"},
    {"kind": "append", "event": "stop.released", "hook": "stop"},
    {"kind": "append", "event": "task.started", "task": "t", "scope": ["lib"]},
    {"kind": "append", "event": "hook.passed", "hook": "pre-commit"},
]


@pytest.mark.parametrize("line", FORGED, ids=[str(f["event"]) for f in FORGED])
def test_a_hand_piped_line_of_the_tools_own_events_is_refused(
    layer_repo: Repo, line: dict[str, object]
) -> None:
    assert layer_repo.mj("start", "fix it", "--scope", "lib").code == 0
    before = (layer_repo.root / LEDGER).read_bytes()
    fed = f"{json.dumps(line)}\n{json.dumps(SUMMARY)}\n"
    refused = layer_repo.run("mj-state", "log", stdin=fed)
    assert refused.code == 15, refused
    assert str(line["event"]) in refused.err and len(refused.err.strip().splitlines()) == 1
    assert (layer_repo.root / LEDGER).read_bytes() == before


def test_a_line_naming_a_task_is_refused(layer_repo: Repo) -> None:
    assert layer_repo.mj("start", "fix it", "--scope", "lib").code == 0
    before = (layer_repo.root / LEDGER).read_bytes()
    line = {"kind": "append", "event": "rules.vendored", "package": "x", "task_id": "t-1"}
    fed = f"{json.dumps(line)}\n{json.dumps(SUMMARY)}\n"
    refused = layer_repo.run("mj-state", "log", stdin=fed)
    assert refused.code == 10 and "task_id" in refused.err, refused
    assert (layer_repo.root / LEDGER).read_bytes() == before


def test_the_tools_own_pipeline_still_logs(layer_repo: Repo) -> None:
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    policy.write_text(policy.read_text() + "\n# a change\n")
    done = layer_repo.mj("update")
    assert done.code == 0, done
    text = (layer_repo.root / LEDGER).read_text()
    assert '"projections.updated"' in text
