"""A commit's tree laid out in a throw-away directory: `git read-tree` into a private index
file, then `git checkout-index --prefix`. The repository's index, HEAD, worktrees and refs are
never touched; the directory holds files only (no `.git`), so nothing run in it reaches the
repository through git."""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.git import questions as git

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path


def lay_out(root: Path, commit: str, dest: Path, under: str | None = None) -> Path:
    """`commit`'s files (only those below `under`, when given) written under `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    index = dest.parent / f"{dest.name}.index"
    try:
        code, _, err = git.run_with_index(index, "read-tree", commit, cwd=root)
        if code != 0:
            raise MissingArtifact(f"verify: git cannot read the tree of {commit}: {err.strip()}")
        if under is None:
            args: tuple[str, ...] = ("-a",)
        else:
            code, listed, _ = git.run_with_index(index, "ls-files", "-z", "--", under, cwd=root)
            args = ("--", *git.zsplit(listed))
            if len(args) == 1:
                return dest
        code, _, err = git.run_with_index(
            index, "checkout-index", "-f", f"--prefix={dest}/", *args, cwd=root
        )
        if code != 0:
            raise MissingArtifact(f"verify: git cannot lay out {commit}: {err.strip()}")
        return dest
    finally:
        index.unlink(missing_ok=True)
