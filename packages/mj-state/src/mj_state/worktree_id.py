"""Which checkout this is: its git directory relative to the repository's common directory,
read from `.git` with no git process and no `pathlib` (what the client hooks on every tool call
can afford)."""

from __future__ import annotations

import os
from functools import cache

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    Where = str | os.PathLike[str]


@cache
def worktree_id(root: Where, common: Where | None = None) -> str:
    """`.` for the main worktree, `worktrees/<name>` for a linked one (read from `.git`).

    The worktree's `.git` is the git directory itself (main worktree) or a file naming it
    (`gitdir: …`, linked worktree or submodule); a linked worktree's directory names the common
    directory in its `commondir` file. No git process is needed.
    """
    dotgit = os.path.join(root, ".git")
    if os.path.isdir(dotgit):
        return "."
    text = _read(dotgit)
    if text is None:
        return "."
    named = text.strip().removeprefix("gitdir:").strip()
    gitdir = named if os.path.isabs(named) else os.path.join(root, named)
    pointer = _read(os.path.join(gitdir, "commondir"))
    if pointer is not None:
        base = os.path.join(gitdir, pointer.strip())
    else:
        base = os.fspath(common) if common is not None else gitdir
    relative = os.path.relpath(os.path.realpath(gitdir), os.path.realpath(base))
    return "." if relative in (".", "") else relative.replace(os.sep, "/")


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            return handle.read()
    except OSError:
        return None
