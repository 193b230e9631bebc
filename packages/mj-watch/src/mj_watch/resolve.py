"""Does an enforcement entry's `path` name something that runs here?

On `PATH`, repository-relative, absolute, or an executable path written on the hook line itself
(`.venv/bin/majordomus doctor`), each must be an executable file.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


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
    return shutil.which(name) is not None or _on_line(root, name, line)
