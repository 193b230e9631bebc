"""`majordomus capture` (CLI-REFERENCE §2.19) for Claude Code: install never overwrites, the
hooks are inert on failure, the prompt archive is redacted and private, and each lifecycle
event drives the session commands through the installed shims."""

from __future__ import annotations

import json
import os
import stat
import subprocess

from conftest import Repo

STATE = ".ai/local/state"
FAKE_KEY = "sk-ant-api03-" + "Q" * 40
AWS = "AKIA" + "ABCDEFGHIJKLMNOP"


def shim(
    repo: Repo, name: str, payload: dict[str, object] | str, where: str = ".claude/hooks"
) -> subprocess.CompletedProcess[str]:
    data = payload if isinstance(payload, str) else json.dumps(payload)
    env = {**repo.env, "CLAUDE_PROJECT_DIR": str(repo.root), "GEMINI_PROJECT_DIR": str(repo.root)}
    return subprocess.run(
        [str(repo.root / where / name)],
        cwd=repo.root,
        env=env,
        input=data,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def ledger(repo: Repo) -> list[dict[str, object]]:
    text = (repo.root / STATE / "ledger.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def installed(repo: Repo) -> Repo:
    result = repo.mj("capture", "install")
    assert result.code == 0, result
    return repo


def test_install_writes_shims_and_settings_and_never_overwrites(layer_repo: Repo) -> None:
    before = layer_repo.mj("capture", "status")
    assert before.code == 0 and "claude-code  unconfigured" in before.out
    installed(layer_repo)
    hooks = layer_repo.root / ".claude/hooks"
    names = sorted(p.name for p in hooks.iterdir())
    assert names == [
        "majordomus-capture",
        "majordomus-pre-compact",
        "majordomus-session-end",
        "majordomus-session-start",
        "majordomus-stop",
        "majordomus-subagent-stop",
        "majordomus-tool",
    ]
    assert all(stat.S_IMODE((hooks / n).stat().st_mode) == 0o755 for n in names)
    settings = json.loads((layer_repo.root / ".claude/settings.json").read_text())
    assert set(settings["hooks"]) == {
        "SessionStart",
        "UserPromptSubmit",
        "PreCompact",
        "SessionEnd",
        "PreToolUse",
        "Stop",
        "SubagentStop",
    }
    assert settings["hooks"]["PreToolUse"][0]["matcher"] == "Edit|Write|MultiEdit|NotebookEdit|Bash"
    again = layer_repo.mj("capture", "install")
    assert again.code == 0 and "wrote" not in again.out
    (layer_repo.root / ".claude/settings.json").write_text('{"model": "x"}\n')
    lacking = layer_repo.mj("capture", "install")
    assert lacking.code == 15 and '"SessionStart"' in lacking.out, lacking
    assert (layer_repo.root / ".claude/settings.json").read_text() == '{"model": "x"}\n'
    (hooks / "majordomus-capture").write_text("#!/bin/sh\necho mine\n")
    foreign = layer_repo.mj("capture", "install")
    assert foreign.code == 15 and "nothing was overwritten" in foreign.err, foreign
    assert (hooks / "majordomus-capture").read_text() == "#!/bin/sh\necho mine\n"


def test_status_verifies_through_the_shim_and_never_pretends(layer_repo: Repo) -> None:
    installed(layer_repo)
    status = layer_repo.mj("capture", "status")
    assert status.code == 0, status
    assert "claude-code  verified" in status.out
    assert "codex        unconfigured" in status.out and "gemini       unconfigured" in status.out
    as_json = layer_repo.mj("capture", "status", "--json")
    *lines, summary = [json.loads(line) for line in as_json.out.splitlines()]
    assert summary["kind"] == "summary" and summary["exit"] == 0  # the stream ends with it
    states = {line["provider"]: line["state"] for line in lines}
    assert states == {
        "claude-code": "verified",
        "codex": "unconfigured",
        "copilot": "unconfigured",
        "gemini": "unconfigured",
        "qwen-code": "unconfigured",
    }
    (layer_repo.root / ".claude/hooks/majordomus-pre-compact").unlink()
    named = layer_repo.mj("capture", "status")
    assert "claude-code  named" in named.out


def test_the_prompt_is_archived_redacted_and_private(layer_repo: Repo) -> None:
    installed(layer_repo)
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "cc-7",
        "prompt": f"deploy with {FAKE_KEY} and {AWS}, please",
    }
    result = shim(layer_repo, "majordomus-capture", payload)
    assert result.returncode == 0 and result.stdout == "", result
    archive = layer_repo.root / ".ai/local/prompts"
    assert stat.S_IMODE(archive.stat().st_mode) == 0o700
    (record,) = archive.glob("*.json")
    (shown,) = archive.glob("*.md")
    for path in (record, shown):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        text = path.read_text()
        assert FAKE_KEY not in text and AWS not in text and "[REDACTED]" in text
    data = json.loads(record.read_text())
    assert data["schema"] == "majordomus.capture/v1" and data["redacted"] == 2
    assert data["provider_session"] == "cc-7" and data["episode_link"] == "orphan"
    assert "## PROMPT" in shown.read_text()
    assert layer_repo.git("status", "--porcelain", "--", ".ai/local") == ""
    other = shim(layer_repo, "majordomus-capture", {"hook_event_name": "Stop", "prompt": "x"})
    assert other.returncode == 0 and len(list(archive.glob("*.json"))) == 1


def test_a_hook_is_inert_on_failure_and_logs_it(layer_repo: Repo) -> None:
    installed(layer_repo)
    for name in ("majordomus-capture", "majordomus-session-start", "majordomus-session-end"):
        result = shim(layer_repo, name, "this is not json")
        assert result.returncode == 0 and result.stdout == "", (name, result)
    log = (layer_repo.root / ".ai/local/prompts/failures.log").read_text()
    assert log.count("\n") == 3 and "capture prompt --provider claude-code" in log
    bad = layer_repo.mj("capture", "prompt", "--provider", "claude-code", stdin="{}")
    assert bad.code == 0  # no prompt text: logged, never 2


def test_lifecycle_events_drive_the_episode_and_stamp_the_ledger(layer_repo: Repo) -> None:
    installed(layer_repo)
    assert layer_repo.mj("start", "hooked work", "--scope", "README.md").code == 0
    assert layer_repo.mj("checkpoint", stdin="Next: finish the hooked work\n").code == 0
    payload = {"hook_event_name": "SessionStart", "session_id": "cc-1", "source": "startup"}
    started = shim(layer_repo, "majordomus-session-start", payload)
    assert started.returncode == 0, started
    assert "hooked work" in started.stdout and "Next: finish the hooked work" in started.stdout
    assert "scope        README.md" in started.stdout
    open_file = layer_repo.root / STATE / "sessions-open/cc-1.yaml"
    assert "provider: claude-code" in open_file.read_text()
    again = shim(layer_repo, "majordomus-session-start", payload)
    assert again.returncode == 0 and "hooked work" in again.stdout
    assert [line["event"] for line in ledger(layer_repo)].count("session.started") == 1
    prompt = {"hook_event_name": "UserPromptSubmit", "session_id": "cc-1", "prompt": "go on"}
    assert shim(layer_repo, "majordomus-capture", prompt).returncode == 0
    (record,) = (layer_repo.root / ".ai/local/prompts").glob("*.json")
    assert json.loads(record.read_text())["episode_link"] == "open"
    compact = shim(layer_repo, "majordomus-pre-compact", {"session_id": "cc-1"})
    assert compact.returncode == 0 and compact.stdout == ""
    end = shim(layer_repo, "majordomus-session-end", {"session_id": "cc-1", "reason": "logout"})
    assert end.returncode == 0 and end.stdout == "", end
    assert not open_file.exists()
    session = next(line["session"] for line in ledger(layer_repo) if "session" in line)
    events = [line["event"] for line in ledger(layer_repo) if line.get("session") == session]
    assert events[0] == "session.started" and events[-1] == "session.closed"
    assert "task.checkpoint" in events and "task.handed_over" in events
    (closed,) = (layer_repo.root / ".ai/repo/sessions").glob("*.md")
    text = closed.read_text()
    assert "outcome: closed" in text and "provider: claude-code" in text
    assert "handovers:\n  - 20" in text and ".ai/local" not in text  # by identity
    assert not (layer_repo.root / ".ai/local/prompts/failures.log").exists()


def test_session_start_asks_git_once_for_the_briefing_and_the_new_episode(
    layer_repo: Repo,
) -> None:
    """The hook begins git's questions before the briefing is read: HEAD, its branch and the
    status are answered from one process each for both readers (the briefing's facts and the
    new episode's identity), so opening an episode asks git no more processes than keeping one
    (MJ_TIMING counts each git process once): one per distinct question, with a task or
    without one. The open record's identity is git's."""
    import re

    installed(layer_repo)
    layer_repo.commit("capture installed")
    layer_repo.write("notes.txt", "uncommitted\n")
    layer_repo.env["MJ_TIMING"] = "1"
    payload = {"hook_event_name": "SessionStart", "session_id": "cc-9", "source": "startup"}
    try:
        first = shim(layer_repo, "majordomus-session-start", payload)
        again = shim(layer_repo, "majordomus-session-start", payload)
    finally:
        del layer_repo.env["MJ_TIMING"]
    counts = [re.search(r"^count +(\d+) +git$", r.stderr, re.M) for r in (first, again)]
    assert all(counts), (first.stderr, again.stderr)
    opened, kept = (int(c.group(1)) for c in counts if c)
    assert opened == kept == 2, (opened, kept)  # where, status: no task, no context chain
    text = (layer_repo.root / STATE / "sessions-open/cc-9.yaml").read_text()
    head = layer_repo.shell("git rev-parse HEAD").out.strip()
    assert f"start_head: {head}" in text and "start_working_tree: dirty" in text, text
    assert not (layer_repo.root / ".ai/local/prompts/failures.log").exists()
    assert layer_repo.mj("start", "hooked task", "--scope", "src").code == 0
    layer_repo.env["MJ_TIMING"] = "1"
    payload["session_id"] = "cc-10"
    try:  # with a task: the layer's files (begun ahead too) and the task's changes since it began
        runs = [shim(layer_repo, "majordomus-session-start", payload) for _ in range(2)]
    finally:
        del layer_repo.env["MJ_TIMING"]
    counts = [re.search(r"^count +(\d+) +git$", r.stderr, re.M) for r in runs]
    assert [int(c.group(1)) for c in counts if c] == [4, 4], [r.stderr for r in runs]
    assert "hooked task" in runs[0].stdout  # the briefing names the task it was built for


def test_session_end_without_a_task_hands_over_without_one(layer_repo: Repo) -> None:
    installed(layer_repo)
    assert shim(layer_repo, "majordomus-session-start", {"session_id": "cc-2"}).returncode == 0
    end = shim(layer_repo, "majordomus-session-end", {"session_id": "cc-2", "reason": "other"})
    assert end.returncode == 0, end
    (handover,) = (layer_repo.root / STATE / "handovers").glob("*.md")
    assert "task_id: none" in handover.read_text()
    (closed,) = (layer_repo.root / ".ai/repo/sessions").glob("*.md")
    assert "outcome: closed" in closed.read_text()  # `other`: the end of a `claude -p` run
    assert not (layer_repo.root / ".ai/local/prompts/failures.log").exists()


def test_hooks_write_nothing_outside_ai(layer_repo: Repo) -> None:
    installed(layer_repo)
    layer_repo.commit("wire the hooks")
    for name, payload in (
        ("majordomus-session-start", {"session_id": "cc-3"}),
        ("majordomus-capture", {"session_id": "cc-3", "prompt": "hi"}),
        ("majordomus-pre-compact", {"session_id": "cc-3"}),
        ("majordomus-session-end", {"session_id": "cc-3"}),
    ):
        assert shim(layer_repo, name, payload).returncode == 0
    changed = layer_repo.git("status", "--porcelain", "--untracked-files=all").splitlines()
    assert all(line[3:].startswith(".ai/") for line in changed), changed
    assert os.path.isdir(layer_repo.root / ".ai/repo/sessions")


def test_doctor_warns_while_the_failure_log_is_not_empty(layer_repo: Repo) -> None:
    installed(layer_repo)
    before = layer_repo.mj("doctor")
    assert "capture" not in before.out
    assert shim(layer_repo, "majordomus-capture", "not json").returncode == 0
    doctor = layer_repo.mj("doctor")
    assert doctor.code == before.code, doctor  # a hook's failure never fails doctor by itself
    line = next(x for x in doctor.out.splitlines() if x.startswith("WARN capture"))
    assert "1 hook failure(s) logged" in line
    assert "[reproduce: majordomus capture acknowledge]" in line


def test_the_gemini_adapter_answers_json_and_archives_before_agent(layer_repo: Repo) -> None:
    result = layer_repo.mj("capture", "install", "--provider", "gemini")
    assert result.code == 0, result
    settings = json.loads((layer_repo.root / ".gemini/settings.json").read_text())
    assert set(settings["hooks"]) == {
        "SessionStart",
        "BeforeAgent",
        "PreCompress",
        "SessionEnd",
        "BeforeTool",
        "AfterAgent",
    }
    assert "gemini       verified" in layer_repo.mj("capture", "status").out
    assert layer_repo.mj("start", "gemini work", "--scope", "README.md").code == 0
    payload = {"hook_event_name": "SessionStart", "session_id": "g-1", "source": "startup"}
    started = shim(layer_repo, "majordomus-session-start", payload, ".gemini/hooks")
    assert started.returncode == 0, started
    answer = json.loads(started.stdout)
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "gemini work" in context and "## GIT" in context
    prompt = {"hook_event_name": "BeforeAgent", "session_id": "g-1", "prompt": f"use {AWS}"}
    assert shim(layer_repo, "majordomus-capture", prompt, ".gemini/hooks").stdout == ""
    (record,) = (layer_repo.root / ".ai/local/prompts").glob("*.json")
    assert AWS not in record.read_text() and json.loads(record.read_text())["provider"] == "gemini"
    end = {"hook_event_name": "SessionEnd", "session_id": "g-1", "reason": "exit"}
    assert shim(layer_repo, "majordomus-session-end", end, ".gemini/hooks").returncode == 0
    (closed,) = (layer_repo.root / ".ai/repo/sessions").glob("*.md")
    assert "provider: gemini" in closed.read_text() and "outcome: closed" in closed.read_text()


def test_a_provider_hook_enforcement_needs_a_verified_adapter(layer_repo: Repo) -> None:
    policy = layer_repo.root / ".ai/repo/policy.yaml"
    entry = (
        "  - name: session-hooks\n    path: majordomus\n    args:\n      - capture\n"
        "    wired_by: provider-hook:claude-code:session\n"
    )
    text = policy.read_text()
    policy.write_text(text.replace("enforcement:", "enforcement:\n" + entry.rstrip("\n"), 1))
    layer_repo.commit("declare the provider hooks")
    before = layer_repo.mj("doctor")
    line = next(x for x in before.out.splitlines() if "session-hooks" in x)
    assert before.code == 10 and line.startswith("FAIL") and "unconfigured" in line, before
    assert "[reproduce: majordomus capture status]" in line
    installed(layer_repo)
    wired = layer_repo.mj("doctor")
    assert "is wired, not verified" in wired.out and wired.code == 10, wired
    assert "claude-code  verified" in layer_repo.mj("capture", "status").out
    verified = layer_repo.mj("doctor")
    line = next(x for x in verified.out.splitlines() if "session-hooks" in x)
    assert line.startswith("OK") and "verified" in line, verified
    shim = layer_repo.root / ".claude/hooks/majordomus-session-end"
    shim.write_text(shim.read_text() + "# edited\n")
    edited = layer_repo.mj("doctor")
    assert "session-hooks" in edited.out and edited.code == 10, edited
