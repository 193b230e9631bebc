"""A task can always be abandoned: `finish --outcome no_match|blocked|failed` with work outside
the claimed scope records what lies outside (on `task.finished` and in the completion note)
instead of refusing; `completed` and `partial` still refuse, naming the ways out. What was
recorded stays visible: `finish --check`, doctor and `history` show it."""

from __future__ import annotations

import json
import stat

import pytest
from conftest import Repo

STATE = ".ai/local/state"
NOTES = {
    "no_match": "# Reason\nThe report does not match this code.\n",
    "failed": "# Reason\nThe fix needs the configuration changed too.\n",
    "blocked": "# Next Action\nAsk who owns the configuration.\n",
    "partial": "# Next Action\nFinish the parser.\n",
    "completed": "# Objective\nFix it.\n\n# Current State\nFixed.\n\n# Next Action\nNone.\n",
}


def abandoned_work(repo: Repo) -> str:
    """A task on `lib` with a commit outside it (config/), and a note for each outcome."""
    started = repo.mj("start", "--json", "fix it", "--scope", "lib")
    assert started.code == 0, started
    repo.write("lib/a.py", "x = 1\n")
    repo.write("config/app.ini", "debug = true\n")
    repo.commit("work, some of it outside the claim")
    for outcome, text in NOTES.items():
        (repo.root.parent / f"{outcome}.md").write_text(text)
    return started.out.split('"id":"', 1)[1].split('"', 1)[0]


def finished(repo: Repo) -> list[dict[str, object]]:
    lines = (repo.root / STATE / "ledger.jsonl").read_text().splitlines()
    return [e for e in map(json.loads, lines) if e["event"] == "task.finished"]


def finish(repo: Repo, outcome: str, *extra: str):
    note = str(repo.root.parent / f"{outcome}.md")
    return repo.mj("finish", "--outcome", outcome, "--note", note, *extra)


@pytest.mark.parametrize("outcome", ["no_match", "blocked", "failed"])
def test_abandoning_records_what_lies_outside_the_scope(layer_repo: Repo, outcome: str) -> None:
    task = abandoned_work(layer_repo)
    result = finish(layer_repo, outcome)
    assert result.code == 0, result
    assert "WARN scope" in result.out and "config/app.ini" in result.out, result
    assert "recorded" in result.out
    (event,) = finished(layer_repo)
    assert event["outcome"] == outcome and event["scope_violations"] == ["config/app.ini"]
    assert event["contract"]["majordomus.scope-integrity"] == "fail"
    note = layer_repo.root / STATE / "completed" / f"{task}.md"
    text = note.read_text()
    assert text.startswith(NOTES[outcome]) and "config/app.ini" in text.split(NOTES[outcome])[1]
    assert stat.S_IMODE(note.stat().st_mode) == 0o600
    assert f"outcome: {outcome}" in (layer_repo.root / STATE / "current.yaml").read_text()


def test_a_claim_of_success_is_refused_naming_the_ways_out(layer_repo: Repo) -> None:
    abandoned_work(layer_repo)
    ledger = (layer_repo.root / STATE / "ledger.jsonl").read_bytes()
    for outcome, extra in (("completed", ("--verify-command", "true")), ("partial", ())):
        refused = finish(layer_repo, outcome, *extra)
        assert refused.code == 10 and "FAIL scope" in refused.out, refused
        assert "majordomus.scope-integrity" in refused.out
        for way in ("--outcome failed", "--outcome blocked", "--outcome no_match",
                    "majordomus handover --close"):  # fmt: skip
            assert way in refused.out, (way, refused)
    assert (layer_repo.root / STATE / "ledger.jsonl").read_bytes() == ledger
    assert not (layer_repo.root / STATE / "completed").exists()


def test_what_an_abandoned_task_left_outside_stays_visible(layer_repo: Repo) -> None:
    task = abandoned_work(layer_repo)
    assert finish(layer_repo, "failed").code == 0
    check = layer_repo.mj("finish", "--check")
    assert check.code == 0, check
    assert "WARN scope" in check.out and "config/app.ini" in check.out and task in check.out
    doctor = layer_repo.mj("doctor")
    assert any(
        line.startswith("WARN scope") and "config/app.ini" in line and task in line
        for line in doctor.out.splitlines()
    ), doctor.out
    history = layer_repo.mj("history")
    assert 'scope_violations=["config/app.ini"]' in history.out, history


def test_a_pushed_abandoned_task_passes_with_its_violation_on_record(
    layer_repo: Repo, tmp_path
) -> None:
    remote = tmp_path / "remote.git"
    layer_repo.git("init", "-q", "--bare", str(remote))
    layer_repo.git("remote", "add", "origin", str(remote))
    hook = layer_repo.root / ".git" / "hooks" / "pre-push"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text("#!/bin/sh\nmajordomus finish --check || exit $?\n")
    hook.chmod(0o755)
    abandoned_work(layer_repo)
    refused = layer_repo.shell("git push -q origin main")  # still active: the gate holds
    assert refused.code != 0 and "config/app.ini" in refused.out, refused
    assert finish(layer_repo, "failed").code == 0  # declared honestly, on the record
    pushed = layer_repo.shell("git push -q origin main")
    assert pushed.code == 0, pushed
    assert "WARN scope" in pushed.out and "config/app.ini" in pushed.out, pushed
    (event,) = finished(layer_repo)
    assert event["scope_violations"] == ["config/app.ini"]
