"""Where git looks for hooks, and the files a hook name stands for.

`core.hooksPath` wins (relative to the worktree root); otherwise the common git dir's `hooks/`,
which linked worktrees share. A hook may dispatch to `<hook>.d/`: its files are searched too.
"""

from __future__ import annotations

import os
from pathlib import Path

from mj_core import files
from mj_core import limits
from mj_core.errors import MjError
from mj_core.git import questions as git

HOOKS_PATH_ARGS = ("config", "--get", "core.hooksPath")


def hooks_dir(root: Path) -> Path:
    configured = git.out(*HOOKS_PATH_ARGS, cwd=root)
    if configured:
        path = Path(os.path.expanduser(configured))
        return path if path.is_absolute() else root / path
    return git.common_dir(root) / "hooks"


def executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def sub_hooks(hook: Path) -> list[Path]:
    directory = hook.with_name(hook.name + ".d")
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.is_file())


def all_hook_files(directory: Path) -> list[Path]:
    """Every hook script in `directory` and its `<hook>.d/` folders (samples skipped)."""
    if not directory.is_dir():
        return []
    found: list[Path] = []
    for entry in sorted(directory.iterdir()):
        if entry.is_file() and not entry.name.endswith(".sample"):
            found.append(entry)
        elif entry.is_dir() and entry.name.endswith(".d"):
            found += sorted(p for p in entry.iterdir() if p.is_file())
    return found


def shown(root: Path, path: Path) -> str:
    """A path as a reproduce command names it: repository-relative when inside, else absolute."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def read(path: Path) -> str:
    """The script as the shell reads it: line endings untranslated (a CRLF hook is not a sh
    script), undecodable bytes replaced."""
    try:
        return files.read_lenient(path, str(path), limits.LAYER) or ""
    except MjError:
        return ""  # a directory, unreadable or over the limits: runs no majordomus command
