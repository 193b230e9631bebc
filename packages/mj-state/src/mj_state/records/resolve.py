"""Which prior record applies here: same worktree and branch, else same branch, else none.

Never a repository-wide fallback. Order is the stamp in the file name (the recorded
`created_at`), ties broken by ledger position; file mtime is never consulted. Candidates are
narrowed by the branch key in the file name, read newest first, and reading stops at the first
record from this worktree and branch — normally the first file read.
"""

from __future__ import annotations

from pathlib import Path

from mj_core import files
from mj_core import ids
from mj_core import limits
from mj_core import timing
from mj_core.errors import MjError

from mj_state import identity
from mj_state.records import store as records
from mj_state.records.store import Record

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any


def ordered(state: Path, kind: str, branch: str) -> list[str]:
    """This branch's record names, newest first; equal stamps ordered by ledger position."""
    key = ids.branch_key(None if branch == "DETACHED" else branch)
    found = [name for name in records.names(state, kind) if _branch_key(name) == key]
    stamps = [name.split("--", 1)[0] for name in found]
    if len(set(stamps)) == len(stamps):
        return found
    ledger = _ledger_bytes(state)
    return sorted(
        found,
        key=lambda n: (n.split("--", 1)[0], ledger.rfind(n.encode("utf-8", "surrogateescape"))),
        reverse=True,
    )


def _branch_key(name: str) -> str:
    parts = name.split("--")
    return parts[1] if len(parts) >= 4 else ""


def _ledger_bytes(state: Path) -> bytes:
    try:
        return files.read_most(state / "ledger.jsonl", "state/ledger.jsonl", limits.LEDGER[0])
    except (OSError, MjError):
        return b""  # ties then keep name order; `history --validate` reports the ledger


def scan(
    root: Path, state: Path, kind: str, now: dict[str, Any]
) -> Iterator[tuple[Path, dict[str, Any], str]]:
    """(path, front, body) of this branch's readable records, newest first; bad ones skipped."""
    base = records.directory(state, kind)
    for name in ordered(state, kind, str(now["branch"])):
        try:
            front, body = records.load(base / name)
        except MjError:
            continue
        if str(front.get("branch")) == str(now["branch"]):
            yield base / name, front, body


def here(root: Path) -> dict[str, Any]:
    """What a divergence label compares, without the status scan `working_tree` would cost."""
    return identity.position(root)


def resolve(root: Path, state: Path, kind: str, now: dict[str, Any] | None = None) -> Record | None:
    """The best prior record of `kind` for this checkout, labelled; None when nothing applies.

    Once the same-branch fallback is known, an older file is parsed only if it can name this
    worktree (`_may_name`): with many records from other worktrees on the branch (a new clone,
    a second worktree), the search reads bytes instead of parsing every front matter.
    """
    here_now = now if now is not None else here(root)
    branch = str(here_now["branch"])
    base = records.directory(state, kind)
    fallback: tuple[Path, dict[str, Any], str] | None = None
    for name in ordered(state, kind, branch):
        path = base / name
        if fallback is not None and not _may_name(path, here_now):
            continue
        try:
            front, body = records.load(path)
        except MjError:
            continue
        if str(front.get("branch")) != branch:
            continue
        if identity.same_checkout(front, here_now):
            return Record(path, front, body, identity.label(root, front, here_now))
        if fallback is None:
            fallback = (path, front, body)
    if fallback is None:
        return None
    path, front, body = fallback
    return Record(path, front, body, identity.label(root, front, here_now))


def _may_name(path: Path, here_now: dict[str, Any]) -> bool:
    """False only when the file cannot name this checkout in any YAML spelling: it cannot hold
    `worktree_id: <this worktree id>`, or (a record written before `worktree_id`, which has no
    such key) `worktree: <this worktree's path>`.

    A value of letters, digits and `_./-` is written verbatim by every YAML scalar style that
    has no backslash escape (plain, single- or double-quoted; folding would add a space) and is
    followed by a character outside that set (a quote, a space, a line break) or the end. So a
    file with no such occurrence and no backslash cannot name it (`repository_id`, the common
    git directory `<main worktree>/.git`, is an occurrence followed by `/`). Else: parse it.
    """
    try:
        raw = files.read_most(path, str(path), limits.RECORD[0])
    except (OSError, MjError):
        return True  # let the parser report it
    timing.count("files read")
    if b"\\" in raw:
        return True
    key = b"worktree_id" in raw
    value = str(here_now.get("worktree_id") if key else here_now["worktree"])
    if not value or value.strip(_VERBATIM):
        return True
    needle = value.encode("utf-8", "surrogateescape")
    start = raw.find(needle)
    while start != -1:
        end = start + len(needle)
        if end == len(raw) or raw[end] not in _VERBATIM_BYTES:
            return True
        start = raw.find(needle, start + 1)
    return False


_VERBATIM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-"
_VERBATIM_BYTES = _VERBATIM.encode()


def this_worktree(root: Path, state: Path, kind: str) -> list[Record]:
    """Every readable record of this worktree and branch, newest first, labelled (`--list`)."""
    now = here(root)
    return [
        Record(path, front, body, identity.label(root, front, now))
        for path, front, body in scan(root, state, kind, now)
        if identity.same_checkout(front, now)
    ]
