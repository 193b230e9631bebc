"""Atomic writes: a temporary file in the same directory, fsync, then link or rename.

`create` never replaces an existing file unless asked; `publish_unique` retries a taken name
with a new one; `append_line` is one `write()` of one full line under an exclusive lock.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from mj_core.errors import Refused

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable

# Test-only fault injection point: called between the temporary file and the publish.
# Production code never sets it; it cannot weaken a rule, only simulate a crash.
_before_publish: Callable[[Path, Path], None] | None = None

_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC


def _open_temp(directory: Path) -> tuple[int, Path]:
    """A new, empty, private file in `directory` under a random name (`tempfile` without
    `shutil` and `random`: O_EXCL makes a taken name fail, and a taken name is retried)."""
    for _ in range(100):
        temp = directory / f".mj-tmp-{os.urandom(8).hex()}"
        try:
            return os.open(temp, _TEMP_FLAGS, 0o600), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"{directory}: no free temporary name after 100 attempts")


def _write_temp(directory: Path, data: bytes, mode: int, durable: bool = True) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    fd, temp = _open_temp(directory)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def create(
    path: Path, data: bytes, *, mode: int = 0o644, replace: bool = False, durable: bool = True
) -> None:
    """Publish `data` at `path` atomically; refuse (15) an existing file unless `replace`.

    `durable=False` skips the fsync: for a small file rewritten often whose loss in a crash is
    recognised by its reader (the ledger's tip), readers still never see it half-written.
    """
    temp = _write_temp(path.parent, data, mode, durable)
    try:
        if _before_publish is not None:
            _before_publish(temp, path)
        if replace:
            os.replace(temp, path)
            return
        try:
            os.link(temp, path)
        except FileExistsError:
            raise Refused(f"{path}: already exists; nothing was overwritten") from None
    finally:
        temp.unlink(missing_ok=True)


def publish_unique(directory: Path, make_name: Callable[[], str], data: bytes, mode: int) -> Path:
    """Publish under a fresh name from `make_name`; a taken name is retried, never overwritten."""
    temp = _write_temp(directory, data, mode)
    try:
        if _before_publish is not None:
            _before_publish(temp, directory)
        for _ in range(16):
            target = directory / make_name()
            try:
                os.link(temp, target)
            except FileExistsError:
                continue
            return target
        raise Refused(f"{directory}: no free record name after 16 attempts")
    finally:
        temp.unlink(missing_ok=True)


def append_line(path: Path, line: bytes) -> None:
    """Append one complete line with O_APPEND under an exclusive lock; one write() call.

    A file whose last line lacks its newline (a crash mid-write) gets one first, in the same
    write, so the new line is never glued onto the torn one.
    """
    if not line.endswith(b"\n") or b"\n" in line[:-1]:
        raise ValueError("append_line takes exactly one newline-terminated line")
    with locked(path, 0o600) as fd:
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            line = b"\n" + line  # a torn last line stays its own (malformed) line
        written = os.write(fd, line)
        if written != len(line):
            raise OSError(f"{path}: short append ({written} of {len(line)} bytes)")


def locked(path: Path, mode: int = 0o600) -> _Locked:
    """`with locked(path) as fd:` a descriptor (O_APPEND) on the file now at `path`, held
    under an exclusive lock from entering the block to leaving it.

    A writer that waited for the lock while the file was replaced (ledger rotation) finds the
    inode changed and reopens, so no line lands in a file that is no longer the ledger.
    """
    return _Locked(path, mode)


class _Locked:
    """The context manager `locked` returns (a class: `contextlib` is not imported for it)."""

    __slots__ = ("_fd", "_mode", "_path")

    def __init__(self, path: Path, mode: int) -> None:
        self._path = path
        self._mode = mode
        self._fd = -1

    def __enter__(self) -> int:
        self._fd = _lock(self._path, self._mode)
        return self._fd

    def __exit__(self, *exc: object) -> None:
        os.close(self._fd)  # closing releases the lock


def _lock(path: Path, mode: int) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    for _ in range(1000):
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, mode)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            current = os.stat(path).st_ino
        except FileNotFoundError:
            current = -1
        if current == os.fstat(fd).st_ino:
            return fd
        os.close(fd)
    raise OSError(f"{path}: replaced under every attempt to lock it")


def append_block(path: Path, block: bytes, *, mode: int = 0o600) -> None:
    """Append a newline-terminated block of lines in one write() under an exclusive lock.

    For append-only Markdown logs whose entries span several lines: a concurrent writer never
    interleaves with the block. When the file does not end in a newline one is added first.
    """
    if not block.endswith(b"\n"):
        raise ValueError("append_block takes a newline-terminated block")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, mode)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            block = b"\n" + block
        written = os.write(fd, block)
        if written != len(block):
            raise OSError(f"{path}: short append ({written} of {len(block)} bytes)")
    finally:
        os.close(fd)
