"""`majordomus capture stop [--event turn|subagent]`: the hook a client runs when the worker's
turn ends, or one of its subagents does (Claude Code's and Qwen Code's SubagentStop).

With an active task whose profile holds stops (`hold_stop: true`; a profile that does not say
takes the policy's `client_hooks.hold_stop`, else false) and whose contract `finish --check`
judges unmet (10), the end of the turn is held once per unmet state: the unmet lines, in the
words `finish --check` prints, go back to the model with the commands to run when the work is
truly done or must be handed over (the client's own answer on stdout), and a `stop.held` line
names the state (a digest of those lines) and the kind of end (`hook`: `stop`, or
`subagent-stop`). The next stop of that kind in the same state goes through and is recorded
(`stop.released`); a changed state is held again. A subagent held in a state does not release
the worker's own turn in it: each is handed the unmet lines once. No task, a met contract, a profile
that does not hold: nothing is printed and the turn ends. What the worker wrote is never read
(the payload's last message is not opened; only the key that marks a subagent's own end, where
the client runs the turn's hook inside subagents too, is looked at). The exit is always 0; a
failure inside the hook lets the turn end with a WARN on stderr and a `hook.unjudged` line.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    from majordomus.invocation import Invocation

DONE = "majordomus finish --outcome completed"
HAND_OVER = "majordomus handover --close --derive"


def hook(provider: str, root: str, inv: Invocation, event: str | None = "turn") -> int:
    """The command: drain stdin unread, judge, print the answer; exit 0."""
    import sys

    stream = inv.stdin if inv.stdin is not None else sys.stdin.buffer
    raw = b""
    try:
        if not stream.isatty():
            raw = stream.read()
    except (OSError, ValueError):
        pass
    if event != "subagent" and _inside_subagent(provider, raw):
        return 0  # the client's subagent event judges this end (`hooks.stop.subagent_key`)
    out, err = run(provider, root, "subagent-stop" if event == "subagent" else "stop")
    inv.stdout.write(out)
    inv.stderr.write(err)
    return 0


def _inside_subagent(provider: str, raw: bytes) -> bool:
    """Whether a turn-end payload is a subagent's own (Copilot CLI runs agentStop inside its
    subagents too, the payload naming the subagent under `agentId`, and subagentStop for the
    same end): only the key the provider's table names is read, never what was written.
    Anything unreadable is the worker's turn."""
    if not raw.strip():
        return False
    try:
        from mj_watch.act import hook as toolhook

        key = (toolhook.hook_table(provider).get("stop") or {}).get("subagent_key")
        if not key or f'"{key}"'.encode() not in raw:
            return False
        import json

        payload = json.loads(raw)
    except Exception:
        return False
    value = payload.get(key) if type(payload) is dict else None
    return type(value) is str and value != ""


def run(provider: str, cwd: str, kind: str = "stop") -> tuple[str, str]:
    """(stdout, stderr) of the hook (`kind`: `stop` or `subagent-stop`); never raises."""
    from mj_watch.act import facts as toolfacts

    root = toolfacts.root_of(cwd)
    if root is None or not os.path.isdir(os.path.join(root, ".ai")):
        return "", ""
    try:
        return _judge(root, provider, kind), ""
    except Exception as exc:  # fail open: the turn ends, said and recorded
        from mj_watch.act import hook as toolhook

        return "", toolhook.unjudged(root, provider, kind, _said(exc)).warn


def _judge(root: str, provider: str, kind: str) -> str:
    from mj_state.task import active as taskactive

    task = taskactive.active(root)
    if task is None or not _holds(root, str(task.fields.get("profile") or "")):
        return ""
    code, text = _finish_check(root)
    if code != 10:
        return ""
    unmet = [line for line in text.splitlines() if line.startswith("FAIL")]
    state = _digest("\n".join(unmet) or text)
    event = "stop.released" if _held_before(root, task.id, state, kind) else "stop.held"
    line: dict[str, Any] = {"provider": provider, "hook": kind, "state": state}
    if event == "stop.held":
        line["unmet"] = len(unmet)
    _append(root, event, line, task.id)
    if event == "stop.released":
        return ""
    return _answer(provider, _reason(text, task))


def _holds(root: str, profile: str) -> bool:
    from pathlib import Path

    from mj_policy.layer import loader as layer

    lay = layer.load(Path(root))
    said = lay.profile(profile).data.get("hold_stop") if profile else None
    if isinstance(said, bool):
        return said
    section = lay.policy.data.get("client_hooks") or {}
    return section.get("hold_stop") is True


def _finish_check(root: str) -> tuple[int, str]:
    """`majordomus finish --check` in this process: its exit code and the text it prints."""
    import io

    from majordomus import cli

    out, err = io.StringIO(), io.StringIO()
    code = cli.dispatch(["finish", "--check", "--repo", root], out, err)
    return code, out.getvalue()


def _held_before(root: str, task_id: str, state: str, kind: str) -> bool:
    """Whether a `stop.held` line of this task names this state for this kind of end."""
    from mj_state.task import tail as tasktail

    ledger = os.path.join(root, *tasktail.LEDGER)
    rows = tasktail.light(ledger)
    if rows is None:
        from pathlib import Path

        from mj_state.ledger import scan as ledgerscan

        rows = ledgerscan.task_rows(Path(ledger))
    for _, value in rows:
        if (
            type(value) is dict
            and value.get("event") == "stop.held"
            and (value.get("task_id") == task_id and value.get("state") == state)
            and value.get("hook", "stop") == kind
        ):
            return True
    return False


def _reason(text: str, task: Any) -> str:
    return (
        f"majordomus: the task {task.fields.get('task') or task.id!r} is still active and "
        "`majordomus finish --check` finds its contract unmet:\n"
        f"{text.rstrip()}\n"
        f"Put right what it names. When the work is truly done, run `{DONE}`; if it must stop "
        f"here unfinished, hand it over: `{HAND_OVER}` (or the handover's text on stdin "
        "instead of --derive)."
    )


def _answer(provider: str, reason: str) -> str:
    from mj_policy.hooks import answers as hookanswers
    from mj_watch.act import hook as toolhook

    table = toolhook.hook_table(provider).get("stop") or {}
    return hookanswers.stop(str(table.get("answer") or "decision-block"), reason)


def _append(root: str, event: str, line: dict[str, Any], task_id: str) -> None:
    from pathlib import Path

    from mj_state.ledger import store as ledger

    where = Path(root)
    ledger.append(where, where / ".ai" / "local" / "state", event, line, task_id=task_id)


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _said(exc: BaseException) -> str:
    message = getattr(exc, "message", None)
    return str(message) if message else f"{type(exc).__name__}: {exc}"
