"""The read-only session stages: status, list, show, latest, and the frozen context's path.

`session-status`: this process's open episode with the label of its start commit, then every
other episode open here (`also_open`); none is exit 0. `session-list`: this checkout's closed
records, newest first (`--all`: every record), each with its divergence label; a malformed
record is a `malformed` line (shown on stderr) and skipped. `session-show <id>`: one record
(12 when there is none). `session-latest`: the record that applies here — same worktree and
branch, else same branch, never repository-wide. `session-context-path [<id>]`: the working
context of an episode (this process's open one by default).
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage

from mj_state import identity
from mj_state.session import record as sessionrecord
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]


def _where(context: Context) -> tuple[Path, Path]:
    root = context.root()
    return root, root / ".ai" / "local" / "state"


def status(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    root, state = _where(context)
    mine = sessions.here_key(state)
    now = identity.identity(root)
    if mine is None:
        yield {"kind": "session", "action": "none", "path": None}
    for key in ([mine] if mine else []) + [k for k in sessions.open_keys(state) if k != mine]:
        data = sessions.read_open(state, key, root)
        recorded = {"worktree": data["worktree"], "branch": data["branch"]}
        label = identity.label(root, {**recorded, "head": data["start_head"]}, now)
        yield {
            "kind": "session",
            "action": "open" if key == mine else "also_open",
            "session_id": data["session_id"],
            "key": key,
            "path": sessions.open_path(state, key).relative_to(root).as_posix(),
            "started_at": data["started_at"],
            "head": str(data["start_head"])[:7],
            "label": label,
            "foreign": str(data["worktree"]) != str(root),
        }


def _newest_first(root: Path) -> list[str]:
    """Closed record names, newest first by their recorded stamp; a tie broken by the ledger
    position of the line that recorded each (file times are never read)."""
    from mj_state.ledger import store as ledger

    state = root / ".ai" / "local" / "state"
    names = sessions.closed_names(root)
    position: dict[str, int] = {}
    for number, raw, _ in ledger.raw_lines(ledger.path(state)):
        if b'"session_path":".ai/repo/sessions/' in raw:
            name = raw.split(b'"session_path":".ai/repo/sessions/', 1)[1].split(b'"', 1)[0]
            position.setdefault(name.decode("utf-8", "replace"), number)
    return sorted(names, key=lambda n: (n.split("--", 1)[0], position.get(n, 0)), reverse=True)


def _records(root: Path) -> Iterator[tuple[Path, Record | None, str]]:
    """(path, front or None, error) of every closed record, newest first."""
    for name in _newest_first(root):
        path = sessions.closed_dir(root) / name
        try:
            front, _ = sessions.load_closed(path, root)
        except MjError as exc:
            yield path, None, exc.message
            continue
        yield path, front, ""


def _listed(root: Path, path: Path, front: Record, now: Record, action: str) -> Record:
    return {
        "kind": "session",
        "action": action,
        "session_id": front["session_id"],
        "path": path.relative_to(root).as_posix(),
        "label": identity.label(root, {**front, "head": _head(front)}, now),
        "started_at": front["started_at"],
        "closed_at": front["closed_at"],
        "outcome": front["outcome"],
        "branch": front["branch"],
        "head": str(front.get("head") or front["start_head"])[:7],
        "task_id": front["task_id"],
    }


def _head(front: Record) -> str:
    """The head a record ended at; a recovered one has only the head it started from."""
    return str(front.get("head") or front["start_head"])


def listing(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    root, _ = _where(context)
    now = identity.identity(root)
    for path, front, error in _records(root):
        if front is None:
            shown = path.relative_to(root).as_posix()
            yield {"kind": "session", "action": "malformed", "path": shown, "error": error}
            continue
        if options.all or identity.same_checkout(front, now):
            yield _listed(root, path, front, now, "listed")


def show(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    root, _ = _where(context)
    for name in sessions.recorded_ids(root).get(options.id, [])[-1:]:
        path = sessions.closed_dir(root) / name
        front, body = sessions.load_closed(path, root)
        now = identity.identity(root)
        yield {**_listed(root, path, front, now, "show"), "front": front, "body": body}
        return
    raise MissingArtifact(f"no closed session {options.id} in .ai/repo/sessions/")


def latest(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    root, _ = _where(context)
    now = identity.identity(root)
    same_branch = None
    for path, front, _ in _records(root):
        if front is None or str(front["branch"]) != str(now["branch"]):
            continue
        if identity.same_checkout(front, now):
            yield _listed(root, path, front, now, "latest")
            return
        same_branch = same_branch or (path, front)
    if same_branch is not None:
        yield _listed(root, *same_branch, now, "latest")
        return
    yield {"kind": "session", "action": "latest", "path": None}


def context_path(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    root, state = _where(context)
    session_id = options.session_id
    if session_id is None:
        key = sessions.here_key(state)
        if key is None:
            raise MissingArtifact("no open session in this worktree — name one: <session-id>")
        session_id = sessions.read_open(state, key, root)["session_id"]
    elif not sessions.is_session_id(session_id):
        raise ContractUnmet(f"{session_id!r}: not a session id (s-<YYYYMMDDHHMMSS>-<4 hex>)")
    path = sessionrecord.context_path(root, str(session_id))
    if path is None:
        raise MissingArtifact(f"no working context for {session_id} in .ai/local/session-contexts/")
    shown = path.relative_to(root).as_posix()
    yield {"kind": "session", "action": "context", "session_id": session_id, "path": shown}


STAGES = {
    "session-status": Stage(status),
    "session-list": Stage(listing),
    "session-show": Stage(show),
    "session-latest": Stage(latest),
    "session-context-path": Stage(context_path),
}
