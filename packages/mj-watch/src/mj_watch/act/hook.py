"""`majordomus capture tool`: the hook a client runs before each tool call.

The payload on stdin says which tool and with what input (`act.intent`); where each write
would land is read on the real paths (`act.facts`); the active task comes from the ledger
(`mj_state.task.tail`); `act.judge` refuses what it must. A refusal is the client's own answer
on stdout (`mj_policy.hooks.answers`) and a `tool.denied` ledger line; everything else prints
nothing, and the call goes ahead. The exit is always 0. A payload that cannot be judged, or a
failure inside the hook, lets the call through with a WARN on stderr and a `hook.unjudged`
ledger line (a broken hook must not stop the person's session; `doctor` and the ledger show it).

This runs on every tool call: it imports only what the judgement needs, reads one JSON table
and the ledger's newest task, and asks git nothing unless it writes a ledger line.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

MAX_PAYLOAD = 32 << 20  # a Write of a large file is still judged; past this it is refused
SCRATCH = ("/tmp", "/var/tmp")  # a task may write here (with $TMPDIR), out of the repository
STATE = (".ai", "local", "state")


class Outcome:
    """What the hook prints: `answer` on stdout (the client reads it), `warn` on stderr."""

    __slots__ = ("answer", "warn")

    def __init__(self, answer: str = "", warn: str = "") -> None:
        self.answer = answer
        self.warn = warn


def run(provider: str, raw: bytes, cwd: str) -> Outcome:
    """Judge one payload; never raises."""
    from mj_watch.act import facts as toolfacts

    root = toolfacts.root_of(cwd)
    if root is None or not os.path.isdir(os.path.join(root, ".ai")):
        return Outcome()  # not a repository this majordomus governs
    try:
        return _judge(root, provider, raw, cwd)
    except Exception as exc:  # fail open: the call goes through, said and recorded
        return unjudged(root, provider, "tool", _said(exc))


class _Call:
    """The hook's run: the repository, the provider's table, the active task and its scope."""

    __slots__ = ("provider", "root", "scope", "table", "task")

    def __init__(self, root: str, provider: str) -> None:
        from mj_state.task import active as taskactive

        self.root = root
        self.provider = provider
        self.table = hook_table(provider)
        self.task = taskactive.active(root)
        self.scope = _scope(self.task)

    def deny(self, tool: str, paths: list[str], why: str, text: str | None = None) -> Outcome:
        from mj_policy.hooks import answers as hookanswers

        text = text or f"majordomus refused this call: {why}."
        table = self.table["tool"]
        answer = hookanswers.tool(table["answer"], table["event"], text)
        line = {"provider": self.provider, "tool": tool[:200], "path": (paths or ["?"])[0]}
        _record(self.root, "tool.denied", {**line, "why": why}, self.task)
        return Outcome(answer)


def _judge(root: str, provider: str, raw: bytes, cwd: str) -> Outcome:
    from mj_watch.act import intent as toolintent

    call = _Call(root, provider)
    if len(raw) > MAX_PAYLOAD:
        if call.scope is None and not _require_task(root):
            return Outcome()
        return call.deny("?", [], f"the payload is over {MAX_PAYLOAD} bytes, which is not read")
    try:
        intent = toolintent.intent(call.table["tool"], _payload(raw))
    except toolintent.Unjudged as exc:
        return unjudged(root, provider, "tool", str(exc))
    if intent is None or not intent.targets:
        return Outcome()
    return _places(call, intent, cwd)


def _payload(raw: bytes) -> object:
    import json

    from mj_watch.act.intent import Unjudged

    try:
        return json.loads(raw) if raw.strip() else None
    except (ValueError, RecursionError) as exc:
        raise Unjudged(f"the payload is not JSON ({_said(exc)})") from None


def _places(call: _Call, intent: Any, cwd: str) -> Outcome:
    from mj_watch.act import facts as toolfacts
    from mj_watch.act import judge as tooljudge

    places = toolfacts.places(call.root, intent.cwd or cwd, intent.targets)
    inside = any(p.rel is not None for p in places)
    require = call.scope is None and inside and _require_task(call.root)
    found = tooljudge.refused(places, call.scope, require_task=require, scratch=_scratch())
    if not found:
        return Outcome()
    text = tooljudge.reason(found, call.scope, _task_text(call.task))
    shown = [p.rel if p.rel is not None else p.real for p, _ in found]
    return call.deny(intent.tool, shown, found[0][1], text)


def unjudged(root: str, provider: str, hook: str, why: str) -> Outcome:
    """The call goes through: a WARN for the person and a `hook.unjudged` ledger line."""
    why = " ".join(why.split())[:500]
    _record(root, "hook.unjudged", {"provider": provider, "hook": hook, "why": why}, None)
    return Outcome(warn=f"WARN majordomus capture {hook}: not judged, let through: {why}\n")


def _record(root: str, event: str, payload: dict[str, Any], task: Any) -> None:
    """One ledger line; a failure to write it goes to the hooks' failure log instead."""
    from pathlib import Path

    try:
        from mj_state.ledger import write as ledgerwrite  # the writer alone: no reader is imported

        where = Path(root)
        task_id = task.id if task is not None else None
        ledgerwrite.append(where, where.joinpath(*STATE), event, payload, task_id=task_id)
    except Exception as exc:
        from mj_state.capture import (
            archive as capture,  # only to log the failure: it imports more than needed
        )

        capture.log_failure(Path(root), f"capture {payload.get('hook', 'tool')}", _said(exc))


def hook_table(provider: str) -> dict[str, Any]:
    """The provider's `hooks` row of `share/providers.json` (Unjudged: none for it)."""
    from mj_core import share

    from mj_watch.act.intent import Unjudged

    hooks = (share.provider_row(provider) or {}).get("hooks")
    if not isinstance(hooks, dict) or "tool" not in hooks:
        raise Unjudged(f"no hook table for the provider {provider[:80]!r}")
    return hooks


def _path(root: str) -> Any:
    from pathlib import Path

    return Path(root)


def _scope(task: Any) -> list[str] | None:
    if task is None:
        return None
    claims = task.fields.get("scope")
    return [str(c) for c in claims] if isinstance(claims, list) else []


def _task_text(task: Any) -> str | None:
    text = task.fields.get("task") if task is not None else None
    return str(text)[:120] if text else None


def _require_task(root: str) -> bool:
    """`client_hooks.require_task_for_writes` of the policy (read only when it is named)."""
    policy = os.path.join(root, ".ai", "repo", "policy.yaml")
    try:
        with open(policy, "rb") as handle:
            data = handle.read(1 << 20)
    except OSError:
        return False
    if b"require_task_for_writes" not in data:
        return False
    from mj_policy.layer import loader as layer

    section = layer.load(_path(root)).policy.data.get("client_hooks") or {}
    return section.get("require_task_for_writes") is True


def _scratch() -> tuple[str, ...]:
    found = [os.path.realpath(p) for p in SCRATCH]
    tmp = os.environ.get("TMPDIR")
    if tmp and os.path.realpath(tmp) != "/":
        found.append(os.path.realpath(tmp))
    return tuple(found)


def _said(exc: BaseException) -> str:
    message = getattr(exc, "message", None)
    return str(message) if message else f"{type(exc).__name__}: {exc}"
