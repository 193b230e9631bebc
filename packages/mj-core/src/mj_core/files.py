"""Whole-file reads for the many small files a run opens (records, layer files, share data).

`Path.read_bytes` builds an `io` file object and a buffer for every file; `os.open` and
`os.read` skip both, which is a third of the cost on files of a few hundred bytes, and a run
that looks through every record of a busy repository opens hundreds of them.

`read_capped` is the reader of every file a person or a worker writes: it reads at most the
cap and one byte more, refuses what is not a regular file (a FIFO would block the run, a
device would never end) and refuses a line over the line cap (`mj_core.limits`).
"""

from __future__ import annotations

import os
import stat

from mj_core.errors import ContractUnmet

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import IO

_CHUNK = 16384
_FLAGS = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NONBLOCK", 0)


def read_bytes(path: Path | str) -> bytes:
    """The file's bytes; raises what `Path.read_bytes` raises (`FileNotFoundError`,
    `IsADirectoryError`, `PermissionError`, ...)."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        chunks = []
        while chunk := os.read(fd, _CHUNK):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_capped(path: Path | str, shown: str, limit: tuple[int, int]) -> bytes:
    """The bytes of a regular file within `limit` = (file bytes, line bytes); over → 10.

    Raises `FileNotFoundError`, `IsADirectoryError` and `PermissionError` as `read_bytes` does.
    """
    data = read_most(path, shown, limit[0])
    if len(data) > limit[1]:
        _check_lines(data, shown, limit[1])
    return data


def read_stream(stream: IO[bytes], shown: str, limit: tuple[int, int]) -> bytes:
    """At most the cap and one byte more of `stream` (a body piped on stdin), judged as
    `read_capped` judges a file: what the tool would refuse to read back, it refuses to take."""
    data = stream.read(limit[0] + 1)
    _check_size(data, shown, limit[0])
    if len(data) > limit[1]:
        _check_lines(data, shown, limit[1])
    return data


def read_most(path: Path | str, shown: str, most: int) -> bytes:
    """`read_capped` without the line cap: for a file whose reader judges each line itself (the
    ledger: a line over `limits.LEDGER[1]` is one malformed line, not a refused file)."""
    fd = os.open(path, _FLAGS)
    try:
        found = os.fstat(fd)
        if stat.S_ISDIR(found.st_mode):
            raise IsADirectoryError(21, "Is a directory", str(path))
        if not stat.S_ISREG(found.st_mode):
            raise ContractUnmet(f"{shown}:1:1: not a regular file — a file is expected here")
        data = os.read(fd, min(found.st_size, most) + 1)  # the whole file in one read, as a rule
        if len(data) != found.st_size:  # a short read, or a file that grew: read on to its end
            chunks = [data]
            left = most + 1 - len(data)
            while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
                chunks.append(chunk)
                left -= len(chunk)
            data = b"".join(chunks)
    finally:
        os.close(fd)
    _check_size(data, shown, most)
    return data


def _check_size(data: bytes, shown: str, most: int) -> None:
    if len(data) > most:
        line = data.count(b"\n", 0, most) + 1
        raise ContractUnmet(
            f"{shown}:{line}:1: over {most} bytes, the limit for this file"
            " (docs/FORMATS.md) — split or shorten it"
        )


def read_lenient(path: Path | str, shown: str, limit: tuple[int, int]) -> str | None:
    """A log's text within `limit`, bytes that are not UTF-8 replaced, or None when absent.

    A directory, an unreadable file or one over the limit is refused (10).
    """
    try:
        raw = read_capped(path, shown, limit)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise ContractUnmet(f"{shown}:1:1: is a directory — a file is expected here") from None
    except OSError as exc:
        raise ContractUnmet(f"{shown}:1:1: unreadable ({exc.strerror})") from None
    return raw.decode("utf-8", "replace")


def _check_lines(data: bytes, shown: str, widest: int) -> None:
    lines = data.split(b"\n")
    if max(map(len, lines)) <= widest:
        return
    number = next(n for n, line in enumerate(lines, start=1) if len(line) > widest)
    raise ContractUnmet(
        f"{shown}:{number}:{widest + 1}: line over {widest} bytes, the limit for this file"
        " (docs/FORMATS.md) — break the line"
    )
