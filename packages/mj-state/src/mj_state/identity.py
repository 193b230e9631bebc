"""Identity computed from git at write time, and the divergence label computed at read time.

Identity fields (repository_id, worktree, worktree_id, branch, head, working_tree) are never
authored: a record's copy is compared with git's answer now, and labelled exact, advanced,
diverged or different_context.

A checkout is identified by `worktree_id`, its git directory relative to the repository's common
git directory: `.` for the main worktree, `worktrees/<name>` for a linked one. Unlike the
absolute paths (`repository_id`, `worktree`, kept as where a record was written), it survives
moving or re-cloning the repository, and it still tells one linked worktree from another.
"""

from __future__ import annotations

from pathlib import Path

from mj_core.git import questions as git
from mj_core.git import where as gitwhere

from mj_state.worktree_id import worktree_id

__all__ = ["worktree_id"]  # where the callers have always found it

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

IDENTITY_KEYS = (
    "repository_id",
    "worktree",
    "worktree_id",
    "branch",
    "head",
    "working_tree",
    "changed_files",
)
LABELS = ("exact", "advanced", "diverged", "different_context")


def calls(
    root: Path, status: tuple[str, ...] = git.DIRTY_ARGS
) -> list[tuple[tuple[str, ...], Path | str]]:
    """The git questions `identity` asks, for `git.ahead`."""
    return [(gitwhere.WHERE_ARGS, root), (status, root)]


def identity(root: Path, status: tuple[str, ...] = git.DIRTY_ARGS) -> dict[str, Any]:
    """The six git-computed fields, in record order (two git processes, run at once).

    `status` is the status question whose answer tells a dirty tree (`git.where.where_dirty`)."""
    here, dirty = gitwhere.where_dirty(root, status)
    return {**from_where(root, *here), "working_tree": "dirty" if dirty else "clean"}


def position(root: Path) -> dict[str, Any]:
    """What the divergence label compares (one git call)."""
    return from_where(root, *gitwhere.where(root))


def from_where(root: Path, common: Path, head: str | None, branch: str | None) -> dict[str, Any]:
    """`position` from the answer of `git.where.where` (or of `git.where.snapshot`)."""
    return {
        "repository_id": str(common),
        "worktree": str(root),
        "worktree_id": worktree_id(root, common),
        "branch": branch or "DETACHED",
        "head": head or "",
    }


def same_checkout(record: dict[str, Any], here: dict[str, Any]) -> bool:
    """Whether `record` was written by the checkout `here` describes (`worktree_id` when the
    record has one; a record written before it has the absolute paths instead)."""
    if record.get("worktree_id") is not None:
        return str(record["worktree_id"]) == str(here["worktree_id"])
    return record.get("worktree") is None or str(record["worktree"]) == str(here["worktree"])


def label(root: Path, record: dict[str, Any], now: dict[str, Any] | None = None) -> str:
    """Divergence of a record's recorded head against HEAD here.

    different_context: another worktree or branch. exact: same head.
    advanced: the recorded head is an ancestor of HEAD. diverged: it is not (e.g. a rebase).
    """
    current = now if now is not None else identity(root)
    branch = record.get("branch")
    if not same_checkout(record, current) or (
        branch is not None and str(branch) != str(current["branch"])
    ):
        return "different_context"
    recorded_head = str(record.get("head") or "")
    if recorded_head == current["head"]:
        return "exact"
    if recorded_head and current["head"] and git.is_ancestor(root, recorded_head, current["head"]):
        return "advanced"
    return "diverged"


def foreign(root: Path, record: dict[str, Any]) -> bool:
    """True when a record names another checkout (a copy that travelled here)."""
    return not same_checkout(record, {"worktree": str(root), "worktree_id": worktree_id(root)})


def differing(record: dict[str, Any], here: dict[str, Any]) -> list[str]:
    """The identity keys on which `record` and `here` disagree (a `different_context` message)."""
    if record.get("worktree_id") is not None:
        keys = ["worktree_id", "branch"]
    else:
        keys = ["repository_id", "worktree", "branch"]
    return [k for k in keys if record.get(k) is not None and str(record[k]) != str(here[k])]
