"""The ledger's tail from its newest `task.started` line, read from the file's end backwards: what
`ledger.scan.task_scan` judges, without holding the lines before it in memory.

`tail(path)` finds the line `task.tail.newest_start` would find in the whole file (the same
candidates, newest first, each line parsed to be sure), and gives its offset, the tail's bytes, the
line just before it, the file's size and the number of lines before it. That number is counted (a
block at a time, on a descriptor of the file kept open until then) only when first asked: a reader
that names no line by its number in the ledger does not read the bytes before the tail. The file is
read as one snapshot of the size it had when opened: the tip was read before, so an append racing
this read is a pending line, as it is to a whole read. A file `files.read_most` would refuse (over
the cap, not a regular file) gives None: the caller reads it whole, and refuses it with the same
words.
"""

from __future__ import annotations

import os
import stat

from mj_core import limits

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

_BLOCK = 1 << 14  # the first read from the end; each further one doubles what is held
_COUNT = 1 << 16  # the block the lines before the tail are counted in
_NEEDLE = b"task.started"


class Tail:
    """The newest task's part of the ledger, and what the chain needs of the part before it."""

    __slots__ = ("_number", "before", "data", "size", "start", "value")

    def __init__(
        self,
        start: int,
        value: Any,
        data: bytes,
        *,
        number: int | Callable[[], int],
        before: bytes | None,
        size: int,
    ) -> None:
        self.start = start  # the offset of the newest `task.started` line (0 when none)
        self.value = value  # that line's value (None when none)
        self.data = data  # the bytes from `start` to the end
        self._number = number  # lines before `start`, or what counts them when asked
        self.before = before  # the line just before `start` (None when `start` is 0)
        self.size = size  # the file's size

    @property
    def number(self) -> int:
        """The lines before `start`, counted when first asked."""
        return self.counted()

    def counted(self) -> int:
        """`number`, counted at the first call."""
        if not isinstance(self._number, int):
            self._number = self._number()
        return self._number

    @property
    def only(self) -> bool:
        """The line before `start` is the file's first (its one line before the tail)."""
        return self.before is not None and len(self.before) == self.start - 1


class _Counted:
    """The newlines in the file's first `until` bytes, counted when first called, plus
    `known` (those already held), on a copy of the descriptor kept open until then (it reads
    the snapshot the tail was read from, whatever replaces the file meanwhile)."""

    __slots__ = ("_fd", "known", "until")

    def __init__(self, fd: int, until: int, known: int) -> None:
        self._fd = -1
        self.until = until
        self.known = known
        self._fd = os.dup(fd)

    def __call__(self) -> int:
        fd, self._fd = self._fd, -1
        if fd >= 0:
            try:
                self.known += _count(fd, self.until)
            finally:
                os.close(fd)
        return self.known

    def __del__(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)


def tail(path: Path, value_of: Callable[[int, bytes], Any]) -> Tail | None:
    """The tail of the ledger at `path` (an empty one when it is missing); None when the file is
    one a whole read refuses, so that the caller's whole read says why."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return Tail(0, None, b"", number=0, before=None, size=0)
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_size > limits.LEDGER[0]:
            return None
        return _tail(fd, found.st_size, value_of)
    finally:
        os.close(fd)


def _read(fd: int, size: int, offset: int) -> bytes:
    """`size` bytes at `offset` (the snapshot never shrinks under a lock-free reader: an
    append only grows the file; a rotation replaces it, and this descriptor keeps the old)."""
    chunks = []
    while size > 0:
        chunk = os.pread(fd, size, offset)
        if not chunk:
            break
        chunks.append(chunk)
        size -= len(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _tail(fd: int, size: int, value_of: Callable[[int, bytes], Any]) -> Tail:
    held, at, end = b"", size, size  # `held` is the file from `at` on; look below `end`
    while True:
        found = held.rfind(_NEEDLE, 0, end - at)
        while found == -1 or (at > 0 and held.rfind(b"\n", 0, found) == -1):
            if at == 0:  # no `task.started` line: the whole file is the tail
                return Tail(0, None, held, number=0, before=None, size=size)
            step = min(at, max(_BLOCK, len(held)))
            held = _read(fd, step, at - step) + held
            at -= step
            found = held.rfind(_NEEDLE, 0, end - at)
        line = held.rfind(b"\n", 0, found) + 1
        stop = held.find(b"\n", found)
        value = value_of(0, held[line : len(held) if stop == -1 else stop + 1])
        if type(value) is dict and value.get("event") == "task.started":
            start = at + line
            known = held.count(b"\n", 0, line)
            number = _Counted(fd, at, known) if at else known
            before = _before(fd, held, at, line)
            return Tail(start, value, held[line:], number=number, before=before, size=size)
        end = at + line


def _count(fd: int, until: int) -> int:
    """Newlines in the file's first `until` bytes, read a block at a time into one buffer."""
    buffer = bytearray(min(_COUNT, until))
    count, offset = 0, 0
    while offset < until:
        got = os.preadv(fd, [memoryview(buffer)[: until - offset]], offset)
        if not got:
            break
        count += buffer.count(b"\n", 0, got)
        offset += got
    return count


def _before(fd: int, held: bytes, at: int, line: int) -> bytes | None:
    """The line ending just before the tail's first (`held[line:]`, `held` read from `at`;
    `line` is past a newline in `held` unless the tail opens the file)."""
    if at + line == 0:
        return None
    prefix, left = held[: line - 1], at  # the file from `left` to the newline before the tail
    while left > 0 and prefix.rfind(b"\n") == -1:
        step = min(left, max(_BLOCK, len(prefix)))
        prefix = _read(fd, step, left - step) + prefix
        left -= step
    return prefix[prefix.rfind(b"\n") + 1 :]
