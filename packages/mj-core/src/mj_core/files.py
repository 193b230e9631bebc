"""Whole-file reads for the many small files a run opens (records, layer files, share data).

`Path.read_bytes` builds an `io` file object and a buffer for every file; `os.open` and
`os.read` skip both, which is a third of the cost on files of a few hundred bytes, and a run
that looks through every record of a busy repository opens hundreds of them.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

_CHUNK = 16384


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
