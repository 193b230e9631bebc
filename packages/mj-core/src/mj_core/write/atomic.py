"""Atomic, confined writes: the one writer every command goes through.

Every target is reached through `mj_core.write.confine`: no write through a symbolic link, none out
of the repository, out of `.ai/` for state, or into the git directory. `create` publishes a
complete temporary file (`mj_core.write.temp_files`) by link or rename and never replaces an
existing
file unless asked; `publish_unique` retries a taken name with a new one; `append_line`,
`append_block`, `append` and `locked` (`mj_core.write.appends`) are one write() under an exclusive
lock, and a short or failed write is truncated away. A `then` callback (the ledger line that
goes with a record) runs after the publish; when it fails the write is undone, so a record and
its ledger line land together or not at all. A fault of the world (full disk, size limit,
read-only file system, no permission) is one line and 15, never 13.
"""

from __future__ import annotations

import os

from mj_core.errors import Refused
from mj_core.write import confine
from mj_core.write.appends import append
from mj_core.write.appends import append_block
from mj_core.write.appends import append_line
from mj_core.write.appends import locked
from mj_core.write.appends import write_at_end
from mj_core.write.temp_files import Kept
from mj_core.write.temp_files import Temp

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from mj_core.write.confine import Place

__all__ = [
    "append",
    "append_block",
    "append_line",
    "create",
    "locked",
    "make_dirs",
    "publish_unique",
    "write_at_end",
]

# Test-only fault injection point: called between the temporary file and the publish.
# Production code never sets it; it cannot weaken a rule, only simulate a crash.
_before_publish: Callable[[Path, Path], None] | None = None


def create(
    path: Path,
    data: bytes,
    *,
    mode: int = 0o644,
    replace: bool = False,
    root: Path | None = None,
    then: Callable[[], object] | None = None,
    durable: bool = True,
) -> None:
    """Publish `data` at `path` atomically; refuse (15) an existing file unless `replace`.

    `root` is the repository root (a path below `.ai/` names its own). The file gets `mode`
    exactly, at most 0700 below `.ai/local/`. `then` runs after the publish; when it raises,
    the previous file (or none) is put back and the error goes on. `durable=False` skips the
    fsync: for a small file rewritten often whose loss in a crash is recognised by its reader
    (the ledger's tip); readers still never see it half-written.
    """
    where = confine.opened(path, root)
    temp = kept = None
    try:
        with confine.Faults(where.shown):
            old = confine.final(where)
            if old is not None and not replace:
                raise Refused(f"{where.shown}: already exists; nothing was overwritten")
            temp = Temp(where, data, confine.file_mode(where, mode), durable=durable)
            if _before_publish is not None:
                _before_publish(temp.path, path)
            if old is not None and then is not None:
                kept = Kept(where, temp)
            _publish(where, temp, replace=replace)
        if then is not None:
            _then_or_undo(then, lambda: _undo(where, kept))
    finally:
        if kept is not None:
            kept.remove()
        if temp is not None:
            temp.remove()
        where.close()


def _publish(where: Place, temp: Temp, *, replace: bool) -> None:
    if replace:
        os.replace(temp.name, where.name, src_dir_fd=temp.dir_fd, dst_dir_fd=where.fd)
        return
    try:
        os.link(temp.name, where.name, src_dir_fd=temp.dir_fd, dst_dir_fd=where.fd)
    except FileExistsError:
        raise Refused(f"{where.shown}: already exists; nothing was overwritten") from None


def _undo(where: Place, kept: Kept | None) -> None:
    if kept is None:
        os.unlink(where.name, dir_fd=where.fd)
    else:
        kept.restore(where)


def _then_or_undo(then: Callable[[], object], undo: Callable[[], None]) -> None:
    try:
        then()
    except BaseException:
        undo()
        raise


def publish_unique(
    directory: Path,
    make_name: Callable[[], str],
    data: bytes,
    mode: int,
    *,
    root: Path | None = None,
    then: Callable[[Path], object] | None = None,
) -> Path:
    """Publish under a fresh name from `make_name`; a taken name is retried, never overwritten.
    `then(path)` runs after the publish; when it raises, the new file is removed."""
    where = confine.opened(directory / make_name(), root)
    temp = None
    try:
        with confine.Faults(where.shown):
            temp = Temp(where, data, confine.file_mode(where, mode))
            if _before_publish is not None:
                _before_publish(temp.path, directory)
            where.name = _link_fresh(where, temp, make_name)
        published = directory / where.name
        if then is not None:
            _then_or_undo(lambda: then(published), lambda: os.unlink(where.name, dir_fd=where.fd))
        return published
    finally:
        if temp is not None:
            temp.remove()
        where.close()


def _link_fresh(where: Place, temp: Temp, make_name: Callable[[], str]) -> str:
    name = where.name
    for _ in range(16):
        try:
            os.link(temp.name, name, src_dir_fd=temp.dir_fd, dst_dir_fd=where.fd)
        except FileExistsError:
            name = make_name()
            continue
        return name
    raise Refused(f"{where.shown}: no free record name after 16 attempts")


def make_dirs(directory: Path, *, root: Path | None = None) -> None:
    """Make `directory` and its missing parents under the rules of every write."""
    # Placing a (never created) file inside `directory` walks to it, making each level.
    confine.opened(directory / ".mj-dir", root).close()
