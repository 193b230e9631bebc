"""The profile's `decision_record_required` is met only by a decision `decision add` recorded:
an entry written into decisions.md by hand, naming the task and looking like the tool's, has no
`decision.recorded` line in the ledger and does not count."""

from __future__ import annotations

import json

from conftest import Repo

NOTE = "# Objective\nFix the parser.\n\n# Current State\nFixed it.\n\n# Next Action\nNone.\n"


def _deep_task(repo: Repo) -> str:
    assert repo.mj("start", "fix it", "--scope", "lib", "--profile", "deep-work").code == 0
    repo.write("lib/a.py", "x = 1\n")
    assert repo.mj("handover", stdin=NOTE).code == 0
    ledger = (repo.root / ".ai/local/state/ledger.jsonl").read_text().splitlines()
    return str([json.loads(x) for x in ledger if '"task.started"' in x][-1]["task_id"])


def _finish(repo: Repo) -> tuple[int, str]:
    done = repo.mj("finish", "--outcome", "completed", "--verify-command", "git --version")
    return done.code, done.out + done.err


def test_a_hand_written_decision_entry_does_not_meet_the_contract(layer_repo: Repo) -> None:
    task = _deep_task(layer_repo)
    head = layer_repo.git("rev-parse", "HEAD").strip()
    log = layer_repo.root / ".ai/local/state/decisions.md"
    before = log.read_text() if log.exists() else "# Decisions\n"
    log.write_text(
        f"{before.rstrip()}\n\n## 2026-12-04 — keep the parser\nTask: {task}\nHead: {head}\n"
        "Why: it is simpler than the rewrite\n"
    )
    code, out = _finish(layer_repo)
    assert code == 10, out
    assert "decision" in out and "decision.recorded" in out, out


def test_a_recorded_decision_meets_it(layer_repo: Repo) -> None:
    _deep_task(layer_repo)
    added = layer_repo.mj("decision", "add", "keep the parser", "--why", "simpler than a rewrite")
    assert added.code == 0, added
    code, out = _finish(layer_repo)
    assert code == 0, out
