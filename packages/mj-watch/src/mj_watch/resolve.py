"""Does an enforcement entry's `path` name something that runs here?

On `PATH`, repository-relative, absolute, or an executable path written on the hook line itself
(`.venv/bin/majordomus doctor`), each must be an executable file.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def which(name: str) -> str | None:
    """`shutil.which(name)` on POSIX, without importing shutil (and bz2, lzma) on every run:
    the first executable, non-directory `name` in a `PATH` directory, or `name` itself when it
    holds a slash."""
    if os.path.dirname(name):
        return name if _executable(name) else None
    path = os.environ.get("PATH")
    if path is None:
        try:
            path = os.confstr("CS_PATH")
        except (AttributeError, ValueError):
            path = os.defpath
    if not path:
        return None
    seen = set()
    for directory in path.split(os.pathsep):
        if directory not in seen:
            seen.add(directory)
            candidate = os.path.join(directory, name)
            if _executable(candidate):
                return candidate
    return None


def _executable(candidate: str) -> bool:
    return (
        os.path.exists(candidate)
        and os.access(candidate, os.F_OK | os.X_OK)
        and not os.path.isdir(candidate)
    )


def _on_line(root: Path, name: str, line: str) -> bool:
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        words = line.split()
    for word in words:
        if "/" in word and Path(word).name == Path(name).name:
            candidate = Path(word) if os.path.isabs(word) else root / word
            if _runnable(candidate):
                return True
    return False


def resolves(root: Path, name: str, line: str = "") -> bool:
    if "/" in name:
        candidate = Path(name) if os.path.isabs(name) else root / name
        return _runnable(candidate)
    return which(name) is not None or _on_line(root, name, line)
