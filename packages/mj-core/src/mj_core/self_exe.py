"""Which `majordomus` this process is: what a hook line or a shim names, and what doctor compares
the hooks' programs with.

The executable the person ran (`sys.argv[0]`, when it is named `majordomus`), else the
`majordomus` beside the running program (an `mj-*` tool of the same installation), else the one
beside the interpreter (`python -m majordomus` in a virtual environment); None when there is
none. The path is absolute but not resolved: a link the person installed (pipx's, a
`~/.local/bin` entry) stays the name the hooks use, and survives the upgrade that moves its
target. `same` says whether two paths are one file, links followed.
"""

from __future__ import annotations

import os
import sys

NAME = "majordomus"


def program() -> str | None:
    """The absolute path of this process's `majordomus`, or None."""
    first = sys.argv[0] if sys.argv and sys.argv[0] else ""
    candidates = []
    if os.path.dirname(first):  # a bare name was not run from here: PATH found it
        candidates.append(first if os.path.basename(first) == NAME else "")
        candidates.append(os.path.join(os.path.dirname(first), NAME))
    candidates.append(os.path.join(os.path.dirname(sys.executable), NAME))
    for candidate in candidates:
        if candidate and runnable(candidate):
            return os.path.abspath(candidate)
    return None


def runnable(path: str) -> bool:
    """An executable file (a link to one counts)."""
    return os.path.isfile(path) and os.access(path, os.X_OK)


def same(one: str, other: str) -> bool:
    """Whether the two paths name one file (False when either is not there)."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False
