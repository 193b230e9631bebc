"""Where the tool's shipped data lives: `share/`, installed as package data of mj_core.

`version` reads its file without `pathlib`: `plan ready` answered from its kept listing asks for
the version and nothing else of `share/`.
"""

from __future__ import annotations

import os
from functools import cache

from mj_core import files
from mj_core.errors import InternalError

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path


@cache
def _directory() -> str:
    return os.path.join(os.path.dirname(os.path.realpath(__file__)), "share")


def directory() -> str:
    """The share directory as a string (what a start-up path reads without `pathlib`)."""
    return _directory()


@cache
def root() -> Path:
    """The share directory (in a wheel: `mj_core/share`; in a checkout: a link to `share/`)."""
    from pathlib import Path

    here = Path(_directory())
    if not (here / "version.txt").is_file():
        raise InternalError(f"broken install: {here} holds no version.txt")
    return here


def path(*parts: str) -> Path:
    return root().joinpath(*parts)


def read_text(*parts: str) -> str:
    target = path(*parts)
    try:
        return files.read_bytes(target).decode("utf-8")
    except OSError as exc:
        raise InternalError(f"broken install: cannot read {target} ({exc.strerror})") from None


def version() -> str:
    target = os.path.join(_directory(), "version.txt")
    try:
        return files.read_bytes(target).decode("utf-8").strip()
    except OSError as exc:
        raise InternalError(f"broken install: cannot read {target} ({exc.strerror})") from None
