"""The findings `check` reports about the active task: state, scope, checkpoint, blockers,
question lines and ledger lines. Pure reading: nothing here writes.
"""

from __future__ import annotations

import re
import shlex

from mj_core import clock
from mj_core import git
from mj_core.findings import Finding
from mj_policy.layer import Layer

from mj_state import history
from mj_state import identity
from mj_state import ledger as ledger_mod
from mj_state import questions
from mj_state import scope
from mj_state import taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]

_WHERE = re.compile(r"^[^:]+:(\d+):")


def all_findings(
    layer: Layer, record: Record, interval: str, situation: taskstate.Situation
) -> Iterator[Finding]:
    """Every check finding for this checkout's active task, `record` as the ledger records it.

    Git is asked first and answers while the ledger, the longest read here, is judged.
    """
    with git.Snapshot(layer.root, str(record["head"])) as pending:
        ledger = list(ledger_lines(layer, situation))
        now, touched = _git_now(layer, pending)
    yield state(layer, record, now)
    if situation.copy_problem is not None:
        yield unreadable_copy(layer, situation.copy_problem)
    yield from taskstate.copy_findings(layer, situation)
    yield from scope_findings(layer, record, touched)
    yield checkpoint(layer, record, interval)
    yield from blockers(layer, record, situation)
    yield from question_lines(layer)
    yield from ledger


def foreign(layer: Layer, situation: taskstate.Situation) -> Finding | None:
    """The report of a task (the ledger's or, with no ledger task, the copy's) that belongs to
    another checkout; nothing is enforced from it here. None when there is none."""
    where: object
    task: object
    if situation.foreign and situation.task is not None:
        where = situation.task.fields.get("worktree_id")
        task = situation.task.id
        line = situation.task.started_line
        shown = layer.relative(layer.state / "ledger.jsonl")
        reproduce = f"sed -n '{line}p' {shown}; git rev-parse --git-dir --git-common-dir"
    elif situation.copy_foreign and situation.copy is not None:
        where = situation.copy.get("worktree_id") or situation.copy.get("worktree")
        task = situation.copy.get("id")
        reproduce = f"grep -n '^worktree' {layer.relative(layer.state / 'current.yaml')}"
    else:
        return None
    message = (
        f"different_context — this task belongs to the checkout {where}; "
        "nothing is enforced from it here"
    )
    return Finding("WARN", "state", str(task), message, reproduce)


def unreadable_copy(layer: Layer, message: str) -> Finding:
    shown = layer.relative(layer.state / "current.yaml")
    match = _WHERE.match(message)
    line = match.group(1) if match else "1"
    return Finding("FAIL", "state", shown, message, f"sed -n '{line}p' {shown}")


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


def blockers(
    layer: Layer, record: Record, situation: taskstate.Situation | None = None
) -> Iterator[Finding]:
    """One FAIL per question open for the task (by the file or the ledger), one per way the
    file cannot be trusted to say so; OK only when both agree that none is open."""
    task = str(record["id"])
    found = task_blockers(layer, task, situation)
    target = layer.relative(questions.path(layer.state))
    ledger = _ledger(layer)
    for question, where in found.open:
        quoted = shlex.quote(question)
        absent = shlex.quote(f"{target}: not shown there")
        grep = f"grep -nF -e {quoted} {ledger}; grep -nF -e {quoted} {target} || echo {absent}"
        yield Finding("FAIL", "blockers", where, f'"{question}" unresolved', grep)
    for where, message in found.problems:
        missing = shlex.quote(f"{target}: missing")
        reproduce = (
            f"{{ cat -v {target} 2>/dev/null || echo {missing}; }} | head -n 40; "
            f"grep -nF -e '\"question.' {ledger}"
        )
        yield Finding("FAIL", "blockers", where, message, reproduce)
    if not found.open and not found.problems:
        yield Finding("OK", "blockers", task, "none open")


def task_blockers(
    layer: Layer, task: str, situation: taskstate.Situation | None = None
) -> questions.Blockers:
    """`questions.blockers` for `task` over the file and the ledger's lines for the task."""
    if situation is None:
        situation = taskstate.read(layer)
    text, problem = questions.read(layer.state)
    scan = situation.scan
    rows = [(row[0], value) for row, value in zip(scan.rows, scan.values, strict=True)]
    shown = layer.relative(questions.path(layer.state))
    return questions.blockers(text, problem, rows, task, shown=shown, ledger=_ledger(layer))


def _ledger(layer: Layer) -> str:
    return layer.relative(layer.state / "ledger.jsonl")


def question_lines(layer: Layer) -> Iterator[Finding]:
    """Every line of the question file in neither shape (or a file that cannot be read)."""
    target = layer.relative(questions.path(layer.state))
    text, problem = questions.read(layer.state)
    if problem is not None:
        reproduce = f"head -c 300 {target} | cat -v"
        yield Finding("FAIL", "questions", f"{target}:1", f"{target} {problem}", reproduce)
        return
    entries, malformed = questions.parse(text or "")
    for bad in malformed:
        yield Finding(
            "FAIL",
            "questions",
            f"{target}:{bad.lineno}",
            "not one of the two question line shapes",
            f"sed -n '{bad.lineno}p' {target} | cat -v",
        )
    if not malformed:
        yield Finding("OK", "questions", target, f"{len(entries)} entries, every line parses")


def ledger_lines(layer: Layer, situation: taskstate.Situation | None = None) -> Iterator[Finding]:
    """Malformed lines anywhere in the ledger; the hash chain over the task's own lines (from
    its `task.started` on, and the tip). The whole chain is doctor's and `history --validate`'s."""
    if situation is None:
        yield from history.validate(layer)
        return
    target = layer.state / "ledger.jsonl"
    shown = layer.relative(target)
    count, bad = ledger_mod.problems(target)
    for number, reason in bad:
        yield Finding("FAIL", "ledger", f"{shown}:{number}", reason, f"sed -n '{number}p' {shown}")
    yield from history.chain_findings(situation.scan.chain, shown)
    if not bad and situation.scan.chain.ok:
        message = f"{count} line(s), each an object with ts and event; the task's lines chained"
        yield Finding("OK", "ledger", shown, message)
