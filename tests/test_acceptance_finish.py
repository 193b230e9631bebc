"""The acceptance path end to end: done is a contract the tool evaluates, never a word written.

start → change in scope → checkpoint → question add → finish refused (blocker) → question resolve
→ finish with a failing verification refused → handover → finish with a passing one → 0, and
`history` tells the whole story.
"""

from __future__ import annotations

import json

from conftest import Repo

HANDOVER = (
    "# Objective\nFix the callback.\n\n# Current State\nFixed, with a test.\n\n"
    "# Next Action\nNothing; review the change.\n"
)


def test_acceptance_path(layer_repo: Repo) -> None:
    repo = layer_repo
    started = repo.mj("start", "fix the callback", "--scope", "lib")
    assert started.code == 0, started
    task = started.out.split()[1]

    repo.write("lib/callback.py", "STATE = 'kept'\n")
    assert repo.mj("check").code == 0
    assert repo.mj("checkpoint", stdin="callback keeps state now\n").code == 0
    assert repo.mj("question", "add", "15 or 60 minute refresh window?").code == 0

    blocked = repo.mj("finish", "--outcome", "completed", "--verify-command", "true")
    assert blocked.code == 10, blocked
    assert any(line.startswith("FAIL blockers") for line in blocked.out.splitlines())
    assert "- majordomus.blocker-resolution" in blocked.out

    assert repo.mj("question", "resolve", "1", "--answer", "15 minutes").code == 0

    assert repo.mj("handover", stdin=HANDOVER).code == 0
    failing = repo.mj("finish", "--outcome", "completed", "--verify-command", "git no-such-cmd")
    assert failing.code == 10 and "FAIL verification" in failing.out, failing
    unverified = repo.mj("finish", "--outcome", "completed")
    assert unverified.code == 10, unverified  # claiming completion without running it

    done = repo.mj("finish", "--outcome", "completed", "--verify-command", "git --version")
    assert done.code == 0, done
    assert all(line.startswith("OK") for line in done.out.splitlines()[:-1])

    history = repo.mj("history", "--json", "--all")
    events = [json.loads(line)["event"] for line in history.out.splitlines()]
    story = [
        "task.started",
        "task.checkpoint",
        "question.opened",
        "question.resolved",
        "task.handed_over",
        "task.finished",
    ]
    assert [e for e in events if e in story] == story
    finished = json.loads(history.out.splitlines()[-1])
    assert finished["task_id"] == task and finished["verify"]["exit"] == 0
    assert finished["checkpoints"] == 1
    text = repo.mj("history").out
    assert "task.finished" in text and task in text
    assert repo.git("diff", "--cached", "--name-only") == ""
