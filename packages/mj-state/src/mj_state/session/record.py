"""The closed episode's record (`session/v1`), its publish, and the `## Close` of its context.

The front matter carries what the repository can prove and no absolute path: the repository
is named by its remote (`local:<hash>` without one) and the checkout by `worktree_id`.
`session close` writes it from the open episode and git; `recover` writes one for a stranded
episode with outcome `interrupted`, no commits, no changed files and no closing head.
"""

from __future__ import annotations

import os
from pathlib import Path

from mj_core import clock
from mj_core import ids
from mj_core.git import questions as git
from mj_core.sanitise import undecodable
from mj_core.yaml import strict as yamlstrict

from mj_state import identity
from mj_state.session import envelope
from mj_state.session import store as sessions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Record = dict[str, Any]


def repository_id(root: Path) -> str:
    """The remote a clone shares (`origin`, else the first), else `local:<hash>` of the root
    commit: what names the repository in a record that travels with it."""
    remote = git.config_get(root, "remote.origin.url")
    if remote:
        return remote
    import hashlib  # only a repository without a remote needs it

    first = git.out("rev-list", "--max-parents=0", "HEAD", cwd=root) or str(git.common_dir(root))
    digest = hashlib.sha256(first.split("\n")[0].encode()).hexdigest()[:16]
    return f"local:{digest}"


def front(
    root: Path,
    data: Record,
    *,
    moment: int,
    outcome: str,
    lists: dict[str, list[str]],
    closing: Record | None,
    task: Record | None = None,
) -> Record:
    """The record's front matter in SCHEMAS order; `closing` (head, working_tree, commits,
    changed_files) is None for an episode recovered without its close; `task` the episode's
    newest `task.started` line, whose title and profile the record takes."""
    tasks = lists["tasks"]
    task_id = tasks[-1] if tasks else "none"
    out: Record = {
        "schema": "session/v1",
        "kind": "session",
        "session_id": data["session_id"],
        "created_at": clock.iso(moment),
        "started_at": data["started_at"],
        "closed_at": clock.iso(moment),
        "outcome": outcome,
        "title": _title(data, task),
        "task_id": task_id,
        "profile": str(task.get("profile") or "none") if task else "none",
        "owner": str(data.get("owner") or ""),
    }
    for key in ("worker", "provider", "provider_session"):
        if data.get(key):
            out[key] = str(data[key])
    out.update(
        {
            "repository_id": repository_id(root),
            "worktree_id": identity.worktree_id(root),
            "branch": data["branch"],
            "start_head": data["start_head"],
        }
    )
    if closing is not None:
        out["head"] = closing["head"]
    out["start_working_tree"] = data["start_working_tree"]
    if closing is not None:
        out["working_tree"] = closing["working_tree"]
    out["commits"] = list(closing["commits"]) if closing else []
    out["changed_files"] = list(closing["changed_files"]) if closing else []
    for name in envelope.LISTS:
        out[name] = list(lists[name])
    return out


def _title(data: Record, task: Record | None) -> str:
    """One line for a listing: the task's title when the episode started one."""
    text = str(task.get("task") or "") if task else ""
    line = " ".join(text.split())
    return line or f"Session {data['session_id']} on {data['branch']}"


def render(front: Record, body: str) -> bytes:
    text = undecodable(body.strip("\n") + "\n") if body.strip() else ""
    return f"---\n{yamlstrict.dump(front)}---\n\n{text}".encode()


def publish(
    root: Path, front: Record, body: str, *, then: Callable[[Path], object] | None = None
) -> Path:
    """A new 0600 record under a fresh name (a taken one retried, never overwritten)."""
    from mj_core.write import atomic

    moment = clock.parse_iso(str(front["created_at"])) or clock.now()
    head = str(front.get("head") or front["start_head"]) or None

    def make_name() -> str:
        # `<stamp>--<id>--<branch-key>--<short-head>--<16 hex>.md`
        stamp, rest = ids.record_name(moment, str(front["branch"]), head).split("--", 1)
        return f"{stamp}--{front['session_id']}--{rest}"

    directory = sessions.closed_dir(root)
    return atomic.publish_unique(
        directory, make_name, render(front, body), sessions.MODE, root=root, then=then
    )


def context_path(root: Path, session_id: str) -> Path | None:
    try:
        names = os.listdir(sessions.contexts_dir(root))
    except FileNotFoundError:
        return None
    found = sorted(n for n in names if n.endswith(f"--{session_id}.md"))
    return sessions.contexts_dir(root) / found[-1] if found else None


def append_close(root: Path, session_id: str, front: Record, record: Path) -> None:
    """`## Close` at the end of the episode's working context (none written: nothing to do)."""
    from mj_core.write import atomic

    path = context_path(root, session_id)
    if path is None:
        return
    head = front.get("head") or front["start_head"]
    block = (
        f"\n## Close\n- closed_at: {front['closed_at']}\n- outcome: {front['outcome']}\n"
        f"- head: {head}\n- record: {record.relative_to(root).as_posix()}\n"
    )
    atomic.append_block(path, block.encode(), root=root)
