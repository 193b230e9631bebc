"""The temporary files of atomic writes: where they live, how they are written, who sweeps them.

A temporary file lives in `.ai/local/tmp/` when the repository has a layer (ignored by git and
read by nothing), else beside its target. It is complete and synced before it is published; one
older than `STALE_SECONDS` is a crashed writer's leftover, and the next writer there removes it.
"""

from __future__ import annotations

import errno
import os
import stat
import time

from mj_core.errors import Refused
from mj_core.write import confine

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

    from mj_core.write.confine import Place

PREFIX = ".mj-tmp-"
STALE_SECONDS = 900
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class Temp:
    """A complete temporary file for the write at `where`: its directory and its name there."""

    __slots__ = ("dir_fd", "name", "path")

    def __init__(self, where: Place, data: bytes, mode: int, *, durable: bool = True) -> None:
        self.dir_fd, directory = _directory(where)
        try:
            sweep(self.dir_fd)
            self.name = _write(self.dir_fd, data, mode, durable)
        except BaseException:
            os.close(self.dir_fd)
            raise
        self.path = directory / self.name

    def remove(self) -> None:
        try:
            os.unlink(self.name, dir_fd=self.dir_fd)
        except FileNotFoundError:
            pass  # published by rename, or already gone
        finally:
            os.close(self.dir_fd)


class Kept:
    """A second name for the file a replace displaces, so a failed follow-up can put it back."""

    __slots__ = ("dir_fd", "name")

    def __init__(self, where: Place, temp: Temp) -> None:
        self.name = f"{temp.name}.kept"
        os.link(where.name, self.name, src_dir_fd=where.fd, dst_dir_fd=temp.dir_fd)
        self.dir_fd = os.dup(temp.dir_fd)

    def restore(self, where: Place) -> None:
        os.replace(self.name, where.name, src_dir_fd=self.dir_fd, dst_dir_fd=where.fd)

    def remove(self) -> None:
        try:
            os.unlink(self.name, dir_fd=self.dir_fd)
        except FileNotFoundError:
            pass  # moved back into place
        finally:
            os.close(self.dir_fd)


def _directory(where: Place) -> tuple[int, Path]:
    """`.ai/local/tmp/` when the root holds a real `.ai/` on the target's file system (a link
    works only within one), else the target's own directory."""
    try:
        ai = os.stat(os.path.join(where.root, confine.AI), follow_symlinks=False)
    except FileNotFoundError:
        ai = None
    if ai is not None and stat.S_ISDIR(ai.st_mode):
        fd = confine.walk(where.root, confine.TMP, where.shown, create=True)
        if os.fstat(fd).st_dev == os.fstat(where.fd).st_dev:
            return fd, where.root.joinpath(*confine.TMP)
        os.close(fd)
    return os.dup(where.fd), where.root.joinpath(*where.parts[:-1])


def sweep(dir_fd: int) -> None:
    """Remove the temporaries a crashed writer left in `dir_fd` (older than STALE_SECONDS)."""
    horizon = time.time() - STALE_SECONDS
    with os.scandir(dir_fd) as entries:
        for entry in entries:
            if not entry.name.startswith(PREFIX) or not entry.is_file(follow_symlinks=False):
                continue
            try:
                if entry.stat(follow_symlinks=False).st_mtime < horizon:
                    os.unlink(entry.name, dir_fd=dir_fd)
            except FileNotFoundError:
                pass  # another writer swept it first


def _write(dir_fd: int, data: bytes, mode: int, durable: bool) -> str:
    """A new file under a random name holding `data`, synced when `durable` (`tempfile` without
    `shutil` and `random`: O_EXCL makes a taken name fail, and a taken name is retried)."""
    for _ in range(100):
        name = PREFIX + os.urandom(8).hex()
        try:
            fd = os.open(name, _FLAGS, 0o600, dir_fd=dir_fd)
        except FileExistsError:
            continue
        try:
            os.fchmod(fd, mode)  # exact, whatever the umask
            view = memoryview(data)
            while view:
                view = view[write_some(fd, view) :]
            if durable:
                os.fsync(fd)
        except BaseException:
            os.unlink(name, dir_fd=dir_fd)
            raise
        finally:
            os.close(fd)
        return name
    raise Refused("no free temporary name after 100 attempts; nothing was written")


def write_some(fd: int, data: bytes | memoryview) -> int:
    """One write(); a write that stores nothing is a full disk."""
    written = os.write(fd, data)
    if written <= 0:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return written
