"""Handover and checkpoint records: computed front matter, one new file each, read back by scope.

Writing: the front matter is computed here (identity from git, never from the caller), emitted
in the strict YAML subset, and the file is published by hard link under a fresh name with mode
0600 — a taken name is retried, never overwritten; nothing is staged. Reading: the resolver in
`mj_state.records.resolve` picks one record per scope rule and reads only that one.
"""

from __future__ import annotations

import os
from pathlib import Path

from mj_core import clock
from mj_core import ids
from mj_core import limits
from mj_core.errors import ContractUnmet
from mj_core.errors import UsageError
from mj_core.sanitise import undecodable
from mj_core.schema import keys
from mj_core.yaml import strict as yamlstrict

from mj_state import identity

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

KINDS = {"handover": "handovers", "checkpoint": "checkpoints"}
MODE = 0o600


class Record:
    """One record read back: where it is, its front matter, its body, and its divergence label."""

    __slots__ = ("body", "front", "label", "path")

    def __init__(self, path: Path, front: dict[str, Any], body: str, label: str) -> None:
        self.path = path
        self.front = front
        self.body = body
        self.label = label


def directory(state: Path, kind: str) -> Path:
    if kind not in KINDS:
        raise UsageError(f"unknown record kind {kind!r} (one of: {', '.join(KINDS)})")
    return state / KINDS[kind]


def front_matter(
    root: Path,
    task: dict[str, Any] | None,
    *,
    profile: str,
    owner: str,
    changed_files: list[str],
    moment: int,
    where: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The front matter in SCHEMAS order; task fields from the task, identity from git now.

    `where` may carry the six identity fields already computed from git by the caller.
    """
    front: dict[str, Any] = {
        "schema_version": 1,
        "created_at": clock.iso(moment),
        "task_id": str(task["id"]) if task else "none",
        "profile": str(task["profile"]) if task else profile,
        "owner": str(task["owner"]) if task else owner,
    }
    computed = where if where is not None else identity.identity(root)
    front.update({key: computed[key] for key in identity.IDENTITY_KEYS[:6]})
    front["changed_files"] = sorted(set(changed_files))
    return front


def render(front: dict[str, Any], body: str) -> bytes:
    text = body if body.endswith("\n") else body + "\n"
    body = undecodable(text.lstrip("\n"))  # a file name git gave as bytes, as `\xNN`
    return f"---\n{yamlstrict.dump(front)}---\n\n{body}".encode()


def publish(
    state: Path,
    kind: str,
    front: dict[str, Any],
    body: str,
    *,
    name: str,
    then: Callable[[Path], object] | None = None,
) -> Path:
    """Refuse an identity-like body line (10), then publish a new 0600 file; return its path.
    `then(path)` (the writes that go with the record) runs after; if it fails, no record."""
    from mj_state.records import bodies  # a reader of records never needs it

    bodies.refuse_identity(body, name)
    stamped = clock.parse_iso(front["created_at"])
    moment = clock.now() if stamped is None else stamped
    target = directory(state, kind)

    def make_name() -> str:
        return ids.record_name(moment, front["branch"], front["head"] or None)

    from mj_core.write import atomic  # the writers' module: readers of records never load it

    return atomic.publish_unique(target, make_name, render(front, body), MODE, then=then)


def load(path: Path) -> tuple[dict[str, Any], str]:
    """(front matter, body) of one record; unknown front-matter keys are errors (10)."""
    return from_text(yamlstrict.read_text(path, str(path), limits.RECORD), path)


def from_text(text: str, path: Path) -> tuple[dict[str, Any], str]:
    """`load` of a record whose text is already read."""
    doc, body, _ = yamlstrict.split_front_matter(text, str(path))
    if not isinstance(doc.data, dict):
        raise ContractUnmet(f"{path}:2: front matter is not a mapping")
    for where, key in keys.unknown_keys(doc, "record"):
        raise ContractUnmet(f"{where}: {key}: unknown key in record front matter")
    return doc.data, body.lstrip("\n")


def read(path: Path, root: Path, *, now: dict[str, Any] | None = None) -> Record:
    """One record with its divergence label against HEAD here."""
    front, body = load(path)
    return Record(path, front, body, identity.label(root, front, now))


def names(state: Path, kind: str) -> list[str]:
    """Record file names of a kind, newest first by the stamp in the name (not by mtime)."""
    try:
        entries = os.listdir(directory(state, kind))
    except FileNotFoundError:
        return []
    found = [name for name in entries if name.endswith(".md") and not name.startswith(".")]
    return sorted(found, key=lambda name: name.split("--", 1)[0], reverse=True)
