"""What the record writers share: the body on stdin, this checkout's active task, the publish.

A record belongs to the episode: it is written with or without an active task (`task_id: none`).
A task record from another worktree is not this checkout's task and is never written to.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mj_core import clock
from mj_core import files
from mj_core import limits
from mj_core.errors import UsageError
from mj_core.git import questions as git
from mj_core.git import where as gitwhere
from mj_core.stream.stage import Context
from mj_core.yaml import strict as yamlstrict
from mj_policy.layer.loader import Layer

from mj_state import identity
from mj_state.records import store as records
from mj_state.task import record as tasks
from mj_state.task import scope
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Record = dict[str, Any]

STDIN = "<stdin>"


def stdin_body(context: Context) -> str:
    """The body piped on stdin; a terminal (nothing piped) is a usage error, never a hang."""
    stream = context.stdin if context.stdin is not None else sys.stdin.buffer
    if stream.isatty():
        raise UsageError("no body: pipe it on stdin (`… < body.md`), or use --derive")
    raw = files.read_stream(stream, STDIN, limits.RECORD)  # what a record may hold, no more
    return yamlstrict.decode(raw, STDIN).replace("\r\n", "\n")


def active_here(layer: Layer) -> Record | None:
    """This checkout's active task as the ledger records it, or None (none, ended, or a
    ledger brought from another checkout). `current.yaml` is never asked."""
    return taskstate.read(layer).active_record()


def required_active(layer: Layer) -> Record:
    """This checkout's active task as the ledger records it; none (or an ended one) → 12."""
    from mj_core.errors import MissingArtifact

    situation = taskstate.read(layer)
    record = situation.active_record()
    if record is not None:
        return record
    own = situation.own
    if own is None:
        raise MissingArtifact("no active task in this checkout — run `majordomus start`")
    raise MissingArtifact(f"no active task: {own.id} ended {own.outcome} — run `majordomus start`")


def changed_files(root: Path, task: Record | None) -> list[str]:
    """Touched since the task's head (status ∪ diff), or what status shows without a task."""
    if task is None:
        return git.status_paths(root)
    return scope.touched(root, str(task.get("head") or ""))


def where(root: Path, task: Record | None) -> tuple[Record, list[str]]:
    """The identity fields and `changed_files`, from one round of git processes
    (`git.where.snapshot`)."""
    base = str(task.get("head") or "") if task is not None else None
    here, status, changed = gitwhere.snapshot(root, base)
    found = {**identity.from_where(root, *here), "working_tree": "dirty" if status else "clean"}
    return found, list(dict.fromkeys([*status, *changed]))


def publish(
    layer: Layer,
    kind: str,
    task: Record | None,
    body: str,
    *,
    then: Callable[[Path, Record], object] | None = None,
) -> tuple[Path, Record]:
    """Compute the front matter and publish a new record; (its path, the identity used).
    `then(path, identity)` (its ledger line) runs after; when it fails the record is removed."""
    identity_now, changed = where(layer.root, task)
    front = records.front_matter(
        layer.root,
        task,
        profile=str(layer.policy.data["profiles"]["default"]),
        owner=tasks.default_owner(),
        changed_files=changed,
        moment=clock.now(),
        where=identity_now,
    )
    after = None if then is None else (lambda path: then(path, identity_now))
    return records.publish(layer.state, kind, front, body, name=STDIN, then=after), identity_now


def touch(
    layer: Layer, task: Record, moment: int, where: Record | None = None, **changes: Any
) -> Record:
    """Rewrite the copy of the task (`current.yaml`) after its ledger line: `checkpoint_at` is
    that line's moment, `changes` (e.g. an outcome) what the line said; identity the task's
    record lacks (a copy gone missing) comes from `where`, or from git."""
    record = {**task, "checkpoint_at": clock.iso(moment), **changes}
    missing = [key for key in tasks.COMPUTED if key not in record]
    if missing:
        known = where if where is not None else identity.position(layer.root)
        record.update({key: known[key] for key in missing if key in known})
    tasks.write_current(layer, record, replace=True)
    return record
