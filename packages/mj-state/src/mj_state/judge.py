"""The findings `check` reports about the active task: state, scope, checkpoint, blockers,
question lines and ledger lines. Pure reading: nothing here writes.
"""

from __future__ import annotations

import shlex

from mj_core import clock
from mj_core import git
from mj_core.findings import Finding
from mj_policy.layer import Layer

from mj_state import history
from mj_state import identity
from mj_state import questions
from mj_state import scope

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def all_findings(layer: Layer, record: Record, interval: str) -> Iterator[Finding]:
    """Every check finding; a record from another worktree is reported, nothing enforced.

    Git is asked first and answers while the ledger, the longest read here, is judged.
    """
    if identity.foreign(layer.root, record):
        yield Finding(
            "WARN",
            "state",
            str(record["id"]),
            f"different_context — this record belongs to {record['worktree']}; "
            "nothing is enforced from it here",
            f"grep -n '^worktree:' {layer.relative(layer.state / 'current.yaml')}",
        )
        yield from question_lines(layer)
        yield from ledger_lines(layer)
        return
    with git.Snapshot(layer.root, str(record["head"])) as pending:
        ledger = list(ledger_lines(layer))
        now, touched = _git_now(layer, pending)
    yield state(layer, record, now)
    yield from scope_findings(layer, record, touched)
    yield checkpoint(layer, record, interval)
    yield from blockers(layer, record)
    yield from question_lines(layer)
    yield from ledger


def state(layer: Layer, record: Record, now: Record) -> Finding:
    task, head = str(record["id"]), str(record["head"])
    found = identity.label(layer.root, record, now)
    if found in ("exact", "advanced"):
        return Finding("OK", "state", task, f"{found} (head {head[:7]})")
    if found == "diverged":
        return Finding(
            "FAIL",
            "state",
            task,
            f"diverged — recorded head {head[:7]} is not an ancestor of HEAD {now['head'][:7]}",
            f"git merge-base --is-ancestor {head} HEAD || echo diverged",
        )
    differs = identity.differing(record, now)
    what = ", ".join(f"{k} {record[k]} → {now[k]}" for k in differs)
    return Finding(
        "FAIL",
        "state",
        task,
        f"different_context — {what}",
        "git rev-parse --path-format=absolute --git-common-dir --show-toplevel --abbrev-ref HEAD",
    )


def _git_now(layer: Layer, pending: git.Snapshot) -> tuple[Record, list[str]]:
    """Where HEAD is now and what was touched since the task's head (`pending`'s answer)."""
    here, status, changed = pending.result()
    return identity.from_where(layer.root, *here), list(dict.fromkeys([*status, *changed]))


def scope_findings(
    layer: Layer, record: Record, touched: list[str] | None = None
) -> Iterator[Finding]:
    claims = list(record["scope"])
    head = str(record["head"])
    if touched is None:
        touched = scope.touched(layer.root, head)
    outside = scope.outside(touched, claims, scope.always_allowed(layer.policy.data))
    shown = ", ".join(claims)
    for path in outside:
        quoted = shlex.quote(path)
        yield Finding(
            "FAIL",
            "scope",
            path,
            f"outside claimed scope ({shown})",
            f"git status --porcelain -- {quoted}; git diff --name-only {head[:7]} HEAD -- {quoted}",
        )
    if not outside:
        yield Finding("OK", "scope", shown, f"{len(touched)} file(s) touched, all within scope")


def checkpoint(layer: Layer, record: Record, interval: str) -> Finding:
    task = str(record["id"])
    limit = clock.parse_duration(interval) or 15 * 60
    last = clock.parse_iso(str(record["checkpoint_at"]))
    age = clock.now() - last if last is not None else limit + 1
    message = f"{_ago(age)} ago, interval {interval}"
    if age <= limit:
        return Finding("OK", "checkpoint", task, message)
    return Finding(
        "WARN",
        "checkpoint",
        task,
        f"{message} — run `majordomus check --checkpoint` or `majordomus checkpoint`",
        f"grep -n '^checkpoint_at:' {layer.relative(layer.state / 'current.yaml')}; "
        "date -u +%Y-%m-%dT%H:%M:%SZ",
    )


def _ago(seconds: int) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{max(seconds, 0)}s"


def blockers(layer: Layer, record: Record) -> Iterator[Finding]:
    entries, _ = questions.load(layer.state)
    task = str(record["id"])
    open_ = questions.unresolved_for(entries, task)
    target = layer.relative(questions.path(layer.state))
    for entry in open_:
        yield Finding(
            "FAIL",
            "blockers",
            f"{target}:{entry.lineno}",
            f'"{entry.question}" unresolved',
            f"grep -nF -- {shlex.quote('[unresolved] ' + task)} {target}",
        )
    if not open_:
        yield Finding("OK", "blockers", task, "none open")


def question_lines(layer: Layer) -> Iterator[Finding]:
    entries, malformed = questions.load(layer.state)
    target = layer.relative(questions.path(layer.state))
    for bad in malformed:
        yield Finding(
            "FAIL",
            "questions",
            f"{target}:{bad.lineno}",
            "not one of the two question line shapes",
            f"sed -n '{bad.lineno}p' {target}",
        )
    if not malformed:
        yield Finding("OK", "questions", target, f"{len(entries)} entries, every line parses")


def ledger_lines(layer: Layer) -> Iterator[Finding]:
    return history.validate(layer)
