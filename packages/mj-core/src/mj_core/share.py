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
    from typing import Any


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


def provider_row(key: str) -> dict[str, Any] | None:
    """The row of provider `key` in `providers.json`, decoded from its own line (the generator
    writes one provider a line), or None when the table has no such provider: a hook that asks
    for one provider does not decode the others."""
    import json

    prefix = json.dumps(key, ensure_ascii=False).encode("utf-8") + b":"
    for line in _provider_lines():
        if line.startswith(prefix):
            try:
                row = json.loads(line[len(prefix) :].removesuffix(b","))
            except ValueError:
                row = None
            if not isinstance(row, dict):
                raise InternalError(f"broken install: providers.json: {key!r} is not an object")
            return row
    return None


@cache
def _provider_lines() -> list[bytes]:
    target = os.path.join(_directory(), "providers.json")
    try:
        with open(target, "rb") as handle:
            return handle.read().split(b"\n")
    except OSError as exc:
        raise InternalError(f"broken install: cannot read {target} ({exc.strerror})") from None
