"""`majordomus session`: episodes open, stamp the ledger, close into an immutable record.

Every refusal and exit code of CLI-REFERENCE §2.11, the files SCHEMAS names (modes included),
and the record's reference lists derived from the ledger lines stamped with the episode.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from conftest import Repo

STATE = ".ai/local/state"


def ledger(repo: Repo) -> list[dict[str, object]]:
    text = (repo.root / STATE / "ledger.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def started_id(repo: Repo, *args: str) -> str:
    result = repo.mj("session", "start", *args)
    assert result.code == 0, result
    return result.out.split()[1]


def closed_records(repo: Repo) -> list[Path]:
    directory = repo.root / ".ai/repo/sessions"
    return sorted(directory.glob("*.md")) if directory.is_dir() else []


def test_start_writes_the_open_file_pointer_context_and_ledger_line(layer_repo: Repo) -> None:
    session = started_id(layer_repo, "--worker", "some-provider/model")
    open_file = layer_repo.root / STATE / "sessions-open/hand.yaml"
    assert stat.S_IMODE(open_file.stat().st_mode) == 0o600
    text = open_file.read_text()
    assert f"session_id: {session}" in text and "worker: some-provider/model" in text
    pointer = layer_repo.root / STATE / "session-current.yaml"
    assert os.readlink(pointer) == "sessions-open/hand.yaml"
    contexts = list((layer_repo.root / ".ai/local/session-contexts").glob(f"*--{session}.md"))
    assert len(contexts) == 1 and stat.S_IMODE(contexts[0].stat().st_mode) == 0o600
    context = contexts[0].read_text()
    assert "schema: session-context/v1" in context and "opened_by: hand" in context
    assert "## Context at open" in context and "## GIT" in context and "## Notes" in context
    last = ledger(layer_repo)[-1]
    assert last["event"] == "session.started" and last["session"] == session
    assert last["worker"] == "some-provider/model"


def test_a_second_start_is_refused_unless_kept(layer_repo: Repo) -> None:
    session = started_id(layer_repo)
    again = layer_repo.mj("session", "start")
    assert again.code == 15 and session in again.err and again.err.count("\n") == 1
    kept = layer_repo.mj("session", "start", "--if-open", "keep")
    assert kept.code == 0 and session in kept.out
    assert [line["event"] for line in ledger(layer_repo)].count("session.started") == 1


def test_provider_fields_come_together_and_key_the_episode(layer_repo: Repo) -> None:
    alone = layer_repo.mj("session", "start", "--provider-session", "abc-1")
    assert alone.code == 2, alone
    bad = layer_repo.mj("session", "start", "--provider", "p", "--provider-session", "../x")
    assert bad.code == 2, bad
    hand = started_id(layer_repo)
    hooked = started_id(layer_repo, "--provider", "claude-code", "--provider-session", "abc-1")
    assert hand != hooked
    assert (layer_repo.root / STATE / "sessions-open/abc-1.yaml").is_file()
    status = layer_repo.mj("session", "status")
    assert status.code == 0 and f"session {hooked}" in status.out
    assert f"Also open: {hand}" in status.out


def test_every_ledger_line_while_open_is_stamped_and_the_record_lists_them(
    layer_repo: Repo,
) -> None:
    before = layer_repo.mj("decision", "add", "before the session", "--why", "outside")
    assert before.code == 0, before
    session = started_id(layer_repo)
    assert layer_repo.mj("start", "the work", "--scope", "README.md").code == 0
    wrote = layer_repo.mj("checkpoint", stdin="half way\n")
    assert wrote.code == 0, wrote
    assert layer_repo.mj("decision", "add", "inside", "--why", "stamped").code == 0
    assert layer_repo.mj("question", "add", "which way?").code == 0
    layer_repo.write("README.md", "# changed\n")
    layer_repo.commit("during the session")
    closed = layer_repo.mj("session", "close", stdin="Did the work.\n")
    assert closed.code == 0, closed
    lines = ledger(layer_repo)
    stamped = [line for line in lines if line.get("session") == session]
    events = [line["event"] for line in stamped]
    assert events[0] == "session.started" and events[-1] == "session.closed"
    assert {"task.started", "task.checkpoint", "decision.recorded", "question.opened"} <= set(
        events
    )
    assert "session" not in lines[0]  # the decision recorded before the episode
    (record,) = closed_records(layer_repo)
    assert stat.S_IMODE(record.stat().st_mode) == 0o600
    shown = closed.out.splitlines()  # the record, then the candidate its decision gave
    assert record.relative_to(layer_repo.root).as_posix() == shown[0]
    assert len(shown) == 2 and shown[1].startswith("knowledge candidate .ai/repo/knowledge/")
    assert shown[1].endswith(" — inside")  # the decision before the episode gave none
    text = record.read_text()
    task_id = next(line["task_id"] for line in stamped if line["event"] == "task.started")
    assert f"tasks:\n  - {task_id}\n" in text and f"task_id: {task_id}\n" in text
    assert "title: the work\n" in text and "profile: implementation\n" in text
    name = wrote.out.strip().rsplit("/", 1)[-1].removesuffix(".md")
    assert f"checkpoints:\n  - {name}\n" in text  # the checkpoint by its record's name
    assert ".ai/local" not in text
    assert "decisions:\n  - inside\n" in text and "before the session" not in text
    assert 'questions:\n  - "which way?"\n' in text
    assert "outcome: closed" in text and "commits:\n  - " in text
    assert text.rstrip().endswith("Did the work.")
    assert str(layer_repo.root) not in text  # no absolute path in a shared record
    assert not (layer_repo.root / STATE / "sessions-open/hand.yaml").exists()
    assert not os.path.lexists(layer_repo.root / STATE / "session-current.yaml")
    after = layer_repo.mj("decision", "add", "after", "--why", "unstamped")
    assert after.code == 0 and "session" not in ledger(layer_repo)[-1]
    context = next((layer_repo.root / ".ai/local/session-contexts").glob("*.md")).read_text()
    assert "## Close\n- closed_at: " in context and "- outcome: closed" in context


def test_close_refusals_and_exit_codes(layer_repo: Repo) -> None:
    none = layer_repo.mj("session", "close")
    assert none.code == 12 and none.err.count("\n") == 1, none
    ignored = layer_repo.mj("session", "close", "--if-none", "ignore")
    assert ignored.code == 0 and "No open session" in ignored.out
    started_id(layer_repo)
    identity = layer_repo.mj("session", "close", stdin="head: abc\n")
    assert identity.code == 10 and "head" in identity.err, identity
    assert (layer_repo.root / STATE / "sessions-open/hand.yaml").is_file()
    interrupted = layer_repo.mj("session", "close", "--outcome", "interrupted")
    assert interrupted.code == 0, interrupted
    assert "outcome: interrupted" in closed_records(layer_repo)[0].read_text()


def test_an_unparsable_or_foreign_open_file_is_refused(layer_repo: Repo) -> None:
    started_id(layer_repo)
    open_file = layer_repo.root / STATE / "sessions-open/hand.yaml"
    text = open_file.read_text()
    open_file.write_text(text + "surprise: 1\n")
    unknown = layer_repo.mj("session", "close")
    assert unknown.code == 10 and "surprise" in unknown.err, unknown
    worktree = f"worktree: {layer_repo.root}"
    open_file.write_text(text.replace(worktree, "worktree: /elsewhere"))
    foreign = layer_repo.mj("session", "close")
    assert foreign.code == 15 and "another checkout" in foreign.err, foreign
    assert not closed_records(layer_repo)


def test_list_show_latest_and_context(layer_repo: Repo) -> None:
    empty = layer_repo.mj("session", "latest")
    assert empty.code == 0 and "No relevant session" in empty.out
    first = started_id(layer_repo)
    assert layer_repo.mj("session", "close").code == 0
    second = started_id(layer_repo)
    frozen = layer_repo.mj("session", "context", "--path")
    assert frozen.code == 0 and frozen.out.strip().endswith(f"--{second}.md")
    live = layer_repo.mj("session", "context")
    assert live.code == 0 and "## GIT" in live.out
    assert layer_repo.mj("session", "close", stdin="Second.\n").code == 0
    listed = layer_repo.mj("session", "list")
    assert listed.code == 0
    assert listed.out.index(second) < listed.out.index(first)  # newest first
    assert "exact" in listed.out
    shown = layer_repo.mj("session", "show", first)
    assert shown.code == 0 and first in shown.out
    missing = layer_repo.mj("session", "show", "s-20000101000000-abcd")
    assert missing.code == 12, missing
    latest = layer_repo.mj("session", "latest", "--path")
    assert latest.code == 0 and second in latest.out
    (layer_repo.root / ".ai/repo/sessions/20990101T000000Z--bad.md").write_text("no front\n")
    warned = layer_repo.mj("session", "list")
    assert warned.code == 0 and "skipped" in warned.err and first in warned.out


def test_the_provider_session_in_the_environment_picks_the_episode(layer_repo: Repo) -> None:
    hand = started_id(layer_repo)
    hooked = started_id(layer_repo, "--provider", "claude-code", "--provider-session", "cc-9")
    env = {**layer_repo.env, "CLAUDE_CODE_SESSION_ID": "cc-9"}
    inside = Repo(layer_repo.root, env)
    assert inside.mj("checkpoint", stdin="from inside the provider\n").code == 0
    assert ledger(layer_repo)[-1]["session"] == hooked
    assert layer_repo.mj("checkpoint", stdin="by hand\n").code == 0
    assert ledger(layer_repo)[-1]["session"] == hooked  # the pointer: opened here last
    closed = inside.mj("session", "close")
    assert closed.code == 0 and hooked in closed.out
    assert os.readlink(layer_repo.root / STATE / "session-current.yaml").endswith("hand.yaml")
    assert layer_repo.mj("checkpoint", stdin="after\n").code == 0
    assert ledger(layer_repo)[-1]["session"] == hand


def test_handover_derive_without_a_task_writes(layer_repo: Repo) -> None:
    result = layer_repo.mj("handover", "--derive", "--no-task")
    assert result.code == 0, result
    body = (layer_repo.root / result.out.strip()).read_text()
    assert "# Objective\nNo task is declared" in body and "# Next Action\n" in body
