"""`majordomus capture install|status|prompt|session|tool|stop|acknowledge|render|reconcile|
prune`: provider hooks, and the upkeep of the prompt archive and failure log they fill.

`prompt` and `session` are what the installed shims run, with the provider's JSON payload on
stdin. They are inert on failure: whatever goes wrong is one line in
`.ai/local/prompts/failures.log` and the exit is 0, so a hook never blocks the person's prompt
or the session's start (doctor warns about the log until `capture acknowledge` empties it);
stdout carries only what the provider should add to the model's context (the briefing, on
`--event start`). Each event runs declared commands in-process: start → `session start
--if-open keep` (keyed by the payload's session id), compact → `checkpoint --derive`, end →
`handover --derive` (or `--no-task` when no task is active) then `session close --if-none
ignore`. The end of a sitting is not the end of the task: the handover is not `--close`d, so
the next sitting finds the task still active.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterable
    from pathlib import Path
    from typing import Any

    from majordomus.invocation import Invocation

    Record = dict[str, Any]

# SessionEnd reasons of an end the client performed → `closed`. Claude Code 2.1 sends `other`
# for every end it does not name (the end of a `claude -p` run among them) and Gemini CLI 0.61
# `exit` for its own; a reason the client names as forced (Claude Code's
# `bypass_permissions_disabled`), or none, is `interrupted`, as is an episode `recover` finds
# stranded because no end hook ran.
ENDED = ("clear", "exit", "logout", "other", "prompt_input_exit", "resume")


def render(records: Iterable[Record], options: argparse.Namespace, inv: Invocation) -> int:
    """`render`, `reconcile`, `prune`, `acknowledge`: a line per record touched (or that would
    be), a FAIL per file that is not a record, then a count."""
    from mj_core.findings import render_text

    from majordomus import render as show

    counts = {"done": 0, "pending": 0, "failed": 0}

    def text(record: Record) -> str | None:
        if record.get("kind") == "finding":
            counts["failed"] += 1
            return render_text(record)
        if record.get("kind") != "prompt-record":
            return None
        counts["done" if record["done"] else "pending"] += 1
        verb = record["action"] if record["done"] else f"{record['action']} (not done)"
        return f"{verb}: {record['path']} — {record['detail']}"

    code, summary = show.stream(records, inv, text)
    if not inv.json and not summary.get("error"):
        action = options.command.split(" ", 1)[1]
        dry = " (dry run: nothing written)" if getattr(options, "dry_run", False) else ""
        said = f"{counts['done']} done, {counts['pending']} not done, {counts['failed']} failed"
        if action == "acknowledge":
            said = (
                f"{counts['done']} line(s) recorded in the ledger, the log emptied"
                if counts["done"]
                else "nothing to acknowledge (the log is empty)"
            )
        inv.stdout.write(f"capture {action}: {said}{dry}\n")
    return code


def run(options: argparse.Namespace, inv: Invocation) -> int:
    action = options.command.split(" ", 1)[1]
    if action == "install":
        return _install(options, inv)
    if action == "status":
        return _status(options, inv)
    if action == "tool":  # the fast path (`tool_hook_cli`) for the forms the dispatcher parsed
        from majordomus import tool_hook_cli as toolhookcli

        where = ["--repo", str(inv.root())] if options.repo else []
        argv = ["--provider", options.provider or "claude-code", *where]
        return toolhookcli.main(argv, inv.stdout, inv.stderr, inv.stdin)
    if action == "stop":  # the payload is drained unread: the worker's words are not judged
        from majordomus import stop_hook as stophook

        return stophook.hook(options.provider or "claude-code", str(inv.root()), inv, options.event)
    return _hook(action, options, inv)


def _install(options: argparse.Namespace, inv: Invocation) -> int:
    import json

    from mj_core import self_exe as selfexe
    from mj_policy.hooks import adapters as hookadapters

    done = hookadapters.install(inv.root(), options.provider, selfexe.program())
    if inv.json:
        return _installed_json(options.provider, done, inv)
    for path in done["written"]:
        inv.stdout.write(f"wrote {path}\n")
    if done["missing"]:
        inv.stdout.write(
            'The settings file exists and lacks these entries; add them under "hooks" '
            "(nothing was overwritten):\n" + json.dumps(done["missing"], indent=2) + "\n"
        )
        return 15
    inv.stdout.write(f"{options.provider}: wired (check: majordomus capture status)\n")
    return 0


def _installed_json(provider: str, done: Record, inv: Invocation) -> int:
    """`capture install --json`: the provider's `capture` record (what was written, what the
    settings file lacks), then the summary; 15 when entries are missing."""
    from mj_core.stream import jsonl
    from mj_core.stream import protocol as streams

    code = 15 if done["missing"] else 0
    state = "named" if done["missing"] else "wired"
    why = "the settings file lacks entries (nothing overwritten)" if code else "hooks written"
    record: Record = {"kind": "capture", "provider": provider, "state": state, "why": why}
    record.update(written=list(map(str, done["written"])), missing=done["missing"])
    inv.stdout.write(jsonl.dumps(record).decode())
    said = "the settings file lacks hook entries; nothing was overwritten" if code else None
    summary = streams.summary("majordomus capture install", code, {"capture": 1}, said)
    inv.stdout.write(jsonl.dumps(summary).decode())
    return code


def _status(options: argparse.Namespace, inv: Invocation) -> int:
    import json

    from mj_policy.hooks import adapters as hookadapters

    root = inv.root()
    for provider in hookadapters.providers():
        state, why = hookadapters.state(root, provider)
        if state == "wired" and _verified(root, provider):
            state, why = "verified", f"{why}; a synthetic prompt through the shim was archived"
        if inv.json:
            line = {"kind": "capture", "provider": provider, "state": state, "why": why}
            inv.stdout.write(json.dumps(line) + "\n")
        else:
            inv.stdout.write(f"{provider:<12} {state:<12} {why}\n")
    if inv.json:  # the summary ends the stream, as every command's --json
        counts = {"capture": len(hookadapters.providers())}
        summary = {"kind": "summary", "stage": "majordomus capture status", "exit": 0}
        inv.stdout.write(json.dumps({**summary, "counts": counts}) + "\n")
    return 0


def _verified(root: Path, provider: str) -> bool:
    """Run the installed prompt shim on a synthetic payload; True when its probe record says
    it ran (`.ai/local/state/capture-probe-<provider>.json` holding the nonce)."""
    import json
    import os
    import subprocess

    from mj_core import ids
    from mj_policy.hooks import adapters as hookadapters
    from mj_state.capture import archive as capture

    nonce = ids.random_hex(16)
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": "majordomus-probe"}
    payload.update({"prompt": "majordomus capture probe", "majordomus_probe": nonce})
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["CLAUDE_PROJECT_DIR"] = env["GEMINI_PROJECT_DIR"] = str(root)
    try:
        subprocess.run(
            (str(hookadapters.prompt_shim(root, provider)),),
            input=json.dumps(payload).encode(),
            cwd=root,
            env=env,
            capture_output=True,
            timeout=30,
            check=False,
        )
        text = capture.probe_path(root, provider).read_text(encoding="utf-8")
    except (OSError, subprocess.SubprocessError):
        return False
    return nonce in text


def _hook(action: str, options: argparse.Namespace, inv: Invocation) -> int:
    """A provider's hook: never an error for the provider (exit 0), failures logged."""
    try:
        root = inv.root()
    except Exception:
        return 0
    from mj_state.capture import archive as capture

    provider = options.provider or "claude-code"
    try:
        stream = inv.stdin if inv.stdin is not None else sys.stdin.buffer
        raw = b"" if stream.isatty() else stream.read(capture.MAX_PAYLOAD + 1)
        payload = capture.payload_of(raw) if raw.strip() else {}
        if action == "prompt":
            _prompt(root, provider, payload)
        else:
            _session(root, provider, options.event, payload, inv)
    except Exception as exc:
        capture.log_failure(root, f"capture {action} --provider {provider}", _said(exc))
    return 0


def _said(exc: Exception) -> str:
    from mj_core.errors import MjError

    return exc.message if isinstance(exc, MjError) else f"{type(exc).__name__}: {exc}"


def _prompt(root: Path, provider: str, payload: Record) -> None:
    from mj_state.capture import archive as capture

    if isinstance(payload.get("majordomus_probe"), str):
        from mj_policy.hooks import adapters as hookadapters

        wiring = hookadapters.wiring_digest(root, provider)
        capture.write_probe(root, provider, payload["majordomus_probe"], wiring)
        return
    capture.archive(root, provider, payload)


def _session(root: Path, provider: str, event: str, payload: Record, inv: Invocation) -> None:
    import os

    from mj_core.errors import MjError
    from mj_state.capture import archive as capture

    key = capture.provider_session(payload)
    if key is not None:
        os.environ["MAJORDOMUS_PROVIDER_SESSION"] = key  # every line this run appends is stamped
    named = ["--provider", provider, "--provider-session", key] if key else []
    if event == "start":
        _git_ahead(root, key)
        records = _composed(root, "session start", ["--if-open", "keep", *named])
        from mj_policy.hooks import adapters as hookadapters

        briefing = next((r.get("briefing") for r in records if r.get("kind") == "session"), "")
        inv.stdout.write(hookadapters.briefing(provider, str(briefing or "")))
        inv.stdout.flush()
        return
    if event == "compact":  # `checkpoint --derive`'s three stages, in this process
        from mj_state.checkpoint import write as checkpointing

        return checkpointing.derived(root)
    try:  # the task stays active: a sitting ending is not the task ending
        _composed(root, "handover", ["--derive"])
    except MjError as exc:
        if int(exc.code) != 12:  # 12: no active task, the episode is handed over without one
            raise
        _composed(root, "handover", ["--derive", "--no-task"])
    finally:
        outcome = "closed" if payload.get("reason") in ENDED else "interrupted"
        ending = ["--if-none", "ignore", "--outcome", outcome]
        _composed(root, "session close", [*ending, *named[2:]])


def _git_ahead(root: Path, key: str | None) -> None:
    """Begin now (`git.ahead`) what git is asked next: HEAD, its branch and the working tree's
    status, which the briefing's facts ask and, for a new episode, `session start` asks again
    for its identity (one process for both readers, `times=2`; an episode already open under
    this key is kept, and the facts are the only reader), and, when a task's copy is there
    (`current.yaml`), the layer's files, which the facts list for an active task's context
    chain (without the copy they are asked when needed). Git answers while the briefing's files
    are read (which writes nothing); `mj_core.funnel` reaps an answer nobody took."""
    from mj_core.git import questions as git
    from mj_policy.context.docs import LAYER_FILES
    from mj_state import identity
    from mj_state.session import store as sessions

    state = root / ".ai" / "local" / "state"  # where `session start` looks, as it does
    kept = sessions.open_path(state, key or sessions.HAND).is_file()
    git.ahead(identity.calls(root, git.STATUS_ARGS), times=1 if kept else 2)
    if (state / "current.yaml").is_file():
        git.ahead([(LAYER_FILES, root)])


def _composed(root: Path, name: str, argv: list[str]) -> list[Record]:
    """Run a declared command's pipeline in-process; its records, or its error raised."""
    import io

    from mj_core.declaration import commands as declare
    from mj_core.errors import MjError
    from mj_core.exit_codes import ExitCode

    from majordomus import cli
    from majordomus import compose
    from majordomus.invocation import Invocation

    options = cli.parser_for(name).parse_args(argv)
    options.command = name
    inv = Invocation(cwd=root, json=True, stdout=io.StringIO(), stdin=io.BytesIO(b""), _root=root)
    records = list(compose.run(compose.stages(declare.command(name), options, inv), inv))
    summary: Record = records[-1] if records else {"exit": 13, "error": f"{name}: no stream"}
    code = int(summary.get("exit") or 0)
    if code:
        raise MjError(str(summary.get("error") or f"{name}: exit {code}"), ExitCode(code))
    return records
