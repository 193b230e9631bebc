"""Identity computed from git at write time, and the divergence label computed at read time.

Identity fields (repository_id, worktree, branch, head, working_tree) are never authored: a
record's copy is compared with git's answer now, and labelled exact, advanced, diverged or
different_context.
"""

from __future__ import annotations

from pathlib import Path

from mj_core import git

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

IDENTITY_KEYS = ("repository_id", "worktree", "branch", "head", "working_tree", "changed_files")
LABELS = ("exact", "advanced", "diverged", "different_context")


def identity(root: Path) -> dict[str, Any]:
    """The five git-computed fields, in record order (two git processes, run at once)."""
    here, dirty = git.where_dirty(root)
    return {**from_where(root, *here), "working_tree": "dirty" if dirty else "clean"}


def position(root: Path) -> dict[str, Any]:
    """repository_id, worktree, branch, head: what the divergence label compares (one git call)."""
    return from_where(root, *git.where(root))


def from_where(root: Path, common: Path, head: str | None, branch: str | None) -> dict[str, Any]:
    """`position` from the answer of `git.where` (or of `git.snapshot`)."""
    return {
        "repository_id": str(common),
        "worktree": str(root),
        "branch": branch or "DETACHED",
        "head": head or "",
    }


def label(root: Path, record: dict[str, Any], now: dict[str, Any] | None = None) -> str:
    """Divergence of a record's recorded head against HEAD here.

    different_context: another repository, worktree or branch. exact: same head.
    advanced: the recorded head is an ancestor of HEAD. diverged: it is not (e.g. a rebase).
    """
    current = now if now is not None else identity(root)
    for key in ("repository_id", "worktree", "branch"):
        recorded = record.get(key)
        if recorded is not None and str(recorded) != str(current[key]):
            return "different_context"
    recorded_head = str(record.get("head") or "")
    if recorded_head == current["head"]:
        return "exact"
    if recorded_head and current["head"] and git.is_ancestor(root, recorded_head, current["head"]):
        return "advanced"
    return "diverged"


def foreign(root: Path, record: dict[str, Any]) -> bool:
    """True when a record names another checkout (a copy that travelled here)."""
    worktree = record.get("worktree")
    return worktree is not None and str(worktree) != str(root)
