"""A checkout's git directory and common directory read from git's documented layout
(gitrepository-layout), without starting git: `<root>/.git` is the git directory, or a file
`gitdir: <path>` naming it (a linked worktree, a submodule); a `commondir` file inside the git
directory names the common directory, which is the git directory itself otherwise.

Only the plain layout is read. When the environment steers git's discovery (`GIT_DIR`,
`GIT_COMMON_DIR`, `GIT_WORK_TREE`), when `.git` is a link or anything else, or when a file
does not read as that layout, the answer is None and the caller asks git.
"""

from __future__ import annotations

import os
import stat

_STEERING = ("GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE")
_SMALL = 4096  # a `.git` or `commondir` file names one path


def dirs(root: str) -> tuple[str, str] | None:
    """(git directory, common directory) of the checkout whose top level is `root`, absolute;
    None when the layout is not the plain one (git is asked then)."""
    if any(os.environ.get(name) for name in _STEERING):
        return None
    dotgit = os.path.join(root, ".git")
    try:
        found = os.lstat(dotgit)
    except OSError:
        return None
    if stat.S_ISDIR(found.st_mode):
        git_dir = dotgit
    elif stat.S_ISREG(found.st_mode):
        try:
            named = _one_line(dotgit)
        except FileNotFoundError:
            return None
        if named is None or not named.startswith("gitdir: "):
            return None
        git_dir = os.path.join(root, named[len("gitdir: ") :])
    else:
        return None
    if not os.path.isfile(os.path.join(git_dir, "HEAD")):
        return None  # not a git directory that git would take
    try:
        common = _one_line(os.path.join(git_dir, "commondir"))
    except FileNotFoundError:
        return os.path.normpath(git_dir), os.path.normpath(git_dir)
    if not common:
        return None
    return os.path.normpath(git_dir), os.path.normpath(os.path.join(git_dir, common))


def _one_line(path: str) -> str | None:
    """The file's only line without its line end; None when it is not one short line.
    FileNotFoundError passes through."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(_SMALL + 1)
    except FileNotFoundError:
        raise
    except OSError:
        return None
    if len(data) > _SMALL:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    lines = text.splitlines()
    if len(lines) != 1 or not lines[0].strip():
        return None
    return lines[0].strip()
