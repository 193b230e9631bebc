"""Which prior record applies here: same worktree and branch, else same branch, else none.

Never a repository-wide fallback. Order is the stamp in the file name (the recorded
`created_at`), ties broken by ledger position; file mtime is never consulted. Candidates are
narrowed by the branch key in the file name, read newest first, and reading stops at the first
record from this worktree and branch — normally the first file read.
"""

from __future__ import annotations

from pathlib import Path

from mj_core import ids
from mj_core.errors import MjError

from mj_state import identity
from mj_state import records
from mj_state.records import Record

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
        found, key=lambda n: (n.split("--", 1)[0], ledger.rfind(n.encode())), reverse=True
    )


def _branch_key(name: str) -> str:
    parts = name.split("--")
    return parts[1] if len(parts) >= 4 else ""


def _ledger_bytes(state: Path) -> bytes:
    try:
        return (state / "ledger.jsonl").read_bytes()
    except OSError:
        return b""


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
    """The best prior record of `kind` for this checkout, labelled; None when nothing applies."""
    here_now = now if now is not None else here(root)
    fallback: tuple[Path, dict[str, Any], str] | None = None
    for path, front, body in scan(root, state, kind, here_now):
        if str(front.get("worktree")) == str(here_now["worktree"]):
            return Record(path, front, body, identity.label(root, front, here_now))
        if fallback is None:
            fallback = (path, front, body)
    if fallback is None:
        return None
    path, front, body = fallback
    return Record(path, front, body, identity.label(root, front, here_now))


def this_worktree(root: Path, state: Path, kind: str) -> list[Record]:
    """Every readable record of this worktree and branch, newest first, labelled (`--list`)."""
    now = here(root)
    return [
        Record(path, front, body, identity.label(root, front, now))
        for path, front, body in scan(root, state, kind, now)
        if str(front.get("worktree")) == str(now["worktree"])
    ]
