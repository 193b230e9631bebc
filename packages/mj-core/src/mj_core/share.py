"""Where the tool's shipped data lives: `share/`, installed as package data of mj_core."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from mj_core import files
from mj_core.errors import InternalError


@cache
def root() -> Path:
    """The share directory (in a wheel: `mj_core/share`; in a checkout: a link to `share/`)."""
    here = Path(__file__).resolve().parent / "share"
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
    return read_text("version.txt").strip()
