"""Locked appends: one write() of whole lines under an exclusive lock, or nothing.

`locked(path)` is the lock (the ledger computes its hash chain under it); `append(fd, ...)`
writes under it and truncates a short or failed write away, so no torn line stays behind;
`append_line` and `append_block` do both, and run a `then` callback (the ledger line that goes
with the entry) under the same lock, truncating the entry away when it fails.
"""

from __future__ import annotations

import fcntl
import os

from mj_core.errors import Refused
from mj_core.errors import world_fault
from mj_core.write import confine

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from mj_core.write.confine import Place

_FLAGS = os.O_RDWR | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC


def append_line(
    path: Path, line: bytes, *, root: Path | None = None, then: Callable[[], object] | None = None
) -> None:
    """Append one complete line with O_APPEND under an exclusive lock; one write() call.

    A file whose last line lacks its newline (a crash mid-write) gets one first, in the same
    write, so the new line is never glued onto the torn one. `then` runs under the lock; when
    it raises, the line is truncated away.
    """
    if not line.endswith(b"\n") or b"\n" in line[:-1]:
        raise ValueError("append_line takes exactly one newline-terminated line")
    _append_locked(path, line, 0o600, root, then)


def append_block(
    path: Path,
    block: bytes,
    *,
    mode: int = 0o600,
    root: Path | None = None,
    then: Callable[[], object] | None = None,
) -> None:
    """Append a newline-terminated block of lines in one write() under an exclusive lock.

    For append-only Markdown logs whose entries span several lines: a concurrent writer never
    interleaves with the block. When the file does not end in a newline one is added first.
    """
    if not block.endswith(b"\n"):
        raise ValueError("append_block takes a newline-terminated block")
    _append_locked(path, block, mode, root, then)


def _append_locked(
    path: Path, data: bytes, mode: int, root: Path | None, then: Callable[[], object] | None
) -> None:
    lock = locked(path, mode, root=root)
    with lock as fd:
        size = append(fd, data, lock.shown)
        if then is None:
            return
        try:
            then()
        except BaseException:
            _truncate(fd, size)
            raise


def append(fd: int, data: bytes, shown: str) -> int:
    """Append `data` to the locked file `fd` in one write(); return the size before it.

    A last line without its newline gets one first. A short or failed write is truncated back
    to that size and refused (15) naming `shown`.
    """
    size = os.fstat(fd).st_size
    if size and os.pread(fd, 1, size - 1) != b"\n":
        data = b"\n" + data  # a torn last line stays its own (malformed) line
    write_at_end(fd, data, size, shown)
    return size


def write_at_end(fd: int, data: bytes, size: int, shown: str) -> None:
    """One write() of `data` to the locked file `fd`, whose size is `size`; a failed or short
    write is truncated back to `size` and refused (15) naming `shown`."""
    try:
        written = os.write(fd, data)
    except OSError as exc:
        _truncate(fd, size)
        mapped = world_fault(exc, shown, writing=True)
        if mapped is None:
            raise
        raise mapped from None
    if written != len(data):
        _truncate(fd, size)
        raise Refused(
            f"{shown}: cannot write (short append: {written} of {len(data)} bytes — a full disk "
            "or a file-size limit); nothing was changed"
        )


def _truncate(fd: int, size: int) -> None:
    try:  # noqa: SIM105 - `contextlib` is not imported on the start-up path
        os.ftruncate(fd, size)
    except OSError:
        pass  # the caller reports the write that failed; a reader skips a torn line


def locked(path: Path, mode: int = 0o600, *, root: Path | None = None) -> Locked:
    """`with locked(path) as fd:` a descriptor (O_APPEND) on the file now at `path`, held
    under an exclusive lock from entering the block to leaving it; a new file gets `mode`
    exactly (at most 0700 below `.ai/local/`).

    A writer that waited for the lock while the file was replaced (ledger rotation) finds the
    inode changed and reopens, so no line lands in a file that is no longer the ledger.
    """
    return Locked(path, mode, root)


class Locked:
    """The context manager `locked` returns (a class: `contextlib` is not imported for it)."""

    __slots__ = ("_fd", "_mode", "_path", "_root", "shown")

    def __init__(self, path: Path, mode: int, root: Path | None) -> None:
        self._path = path
        self._mode = mode
        self._root = root
        self._fd = -1
        self.shown = str(path)  # repository-relative once entered, for messages

    def __enter__(self) -> int:
        where = confine.opened(self._path, self._root)
        self.shown = where.shown
        try:
            with confine.Faults(where.shown):
                self._fd = _lock(where, confine.file_mode(where, self._mode))
        finally:
            where.close()
        return self._fd

    def __exit__(self, *exc: object) -> None:
        os.close(self._fd)  # closing releases the lock


def _lock(where: Place, mode: int) -> int:
    for _ in range(1000):
        confine.final(where)
        fd = _open(where, mode)
        if fd < 0:
            continue
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            current = os.stat(where.name, dir_fd=where.fd, follow_symlinks=False).st_ino
        except FileNotFoundError:
            current = -1
        opened = os.fstat(fd)
        if current == opened.st_ino:
            _one_name(fd, opened, where.shown)
            return fd
        os.close(fd)
    raise Refused(f"{where.shown}: replaced under every attempt to lock it")


def _one_name(fd: int, opened: os.stat_result, shown: str) -> None:
    """The file as opened and locked has one name, or it is closed and refused (15): asked of
    the descriptor, so a link made after `write.confine.final` looked is refused too."""
    try:
        confine.one_name(opened, shown)
    except BaseException:
        os.close(fd)
        raise


def _open(where: Place, mode: int) -> int:
    """The file opened for appending, made with exactly `mode` when new; -1 when it vanished
    between two attempts (the caller retries)."""
    try:
        fd = os.open(where.name, _FLAGS | os.O_CREAT | os.O_EXCL, mode, dir_fd=where.fd)
    except FileExistsError:
        try:
            return os.open(where.name, _FLAGS, dir_fd=where.fd)
        except FileNotFoundError:
            return -1
    try:
        os.fchmod(fd, mode)  # the umask may have narrowed it; make it exact
    except BaseException:
        os.close(fd)
        raise
    return fd
