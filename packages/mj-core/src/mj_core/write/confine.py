"""Where a write may land: the directory reached from the repository root one step at a time.

The rules every write of the tool obeys (`mj_core.write.atomic` walks here before it writes):
- below `<root>/.ai/` (the layer and this checkout's state) no component is a symbolic link, so
  what is written there stays in `.ai/` whatever a clone carried;
- elsewhere (projection targets, `.gitignore`) a parent may be a symbolic link only when its real
  path stays inside the repository;
- nothing lands inside the git directory (a `.git` component, the real git dir or common dir);
- the final component is never followed: a symbolic link, a directory where a file is
  expected, or a file with a second name (a hard link: its link count above 1, so a write
  would land in a file elsewhere too) is refused (15).
Missing directories are made one at a time and opened without following links; below
`.ai/local/` they are 0700 whatever the umask.
"""

from __future__ import annotations

import errno
import os
import stat

from mj_core.errors import Refused
from mj_core.errors import world_fault

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path

AI = ".ai"
PRIVATE = (AI, "local")  # this checkout's own: directories 0700, files at most 0700
TMP = (AI, "local", "tmp")  # where temporary files live when the repository has a layer
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_NOFOLLOW_DIR = _DIR | os.O_NOFOLLOW
_GIT_DIRS: dict[str, list[str]] = {}  # root → its git directories, for writes outside .ai/


class Place:
    """An open directory a write lands in and the name the write takes in it."""

    __slots__ = ("fd", "name", "parts", "root")

    def __init__(self, root: Path, parts: tuple[str, ...], fd: int) -> None:
        self.root = root  # the repository root
        self.parts = parts  # the target below the root, component by component
        self.fd = fd  # the directory holding the target, opened without following links
        self.name = parts[-1]

    @property
    def shown(self) -> str:
        """The target as messages name it: repository-relative."""
        return "/".join(self.parts)

    @property
    def private(self) -> bool:
        return self.parts[:2] == PRIVATE

    def close(self) -> None:
        os.close(self.fd)


class Faults:
    """`with Faults(shown):` an OSError the world caused leaves as one-line Refused (15)."""

    __slots__ = ("shown",)

    def __init__(self, shown: str) -> None:
        self.shown = shown

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, trace: object) -> None:
        if isinstance(exc, OSError):
            mapped = world_fault(exc, self.shown, writing=True)
            if mapped is not None:
                raise mapped from None


def opened(target: Path, root: Path | None) -> Place:
    """`place(target, root)` with the world's faults as Refused: what every writer calls."""
    with Faults(str(target)):
        return place(target, root)


def split(target: Path, root: Path | None) -> tuple[Path, tuple[str, ...]]:
    """(root, the components of `target` below it).

    Without `root`, a path below a `.ai` directory names its own: the directory above its last
    `.ai` component. Any other path without a root (a library caller's or a test's scratch
    file; every command names its root or writes below `.ai/`) is taken from its deepest
    existing directory down.
    """
    parts = target.parts
    if root is None:
        if AI in parts[:-1]:
            index = len(parts) - 1 - parts[::-1].index(AI, 1)
        else:
            index = len(parts) - 1
            while index > 1 and not os.path.isdir(os.path.join(*parts[:index])):
                index -= 1
        root = type(target)(*parts[:index])
        below = parts[index:]
    else:
        try:
            below = target.relative_to(root).parts
        except ValueError:
            raise Refused(f"{target}: outside the repository {root}; nothing was written") from None
    if not below or any(part in ("", ".", "..") for part in below):
        raise Refused(f"{target}: not a file path inside the repository {root}")
    return root, below


def place(target: Path, root: Path | None = None, *, create: bool = True) -> Place:
    """The open parent directory of `target`, every rule above checked; the caller closes it."""
    top, parts = split(target, root)
    shown = "/".join(parts)
    _refuse_git(parts, shown)
    if parts[0] != AI:
        parts = _real_parts(top, parts, shown)
        _refuse_git(parts, shown)  # a link into a nested repository's `.git` too
    fd = walk(top, parts[:-1], shown, create=create)
    return Place(top, parts, fd)


def _refuse_git(parts: tuple[str, ...], shown: str) -> None:
    if any(part.casefold() == ".git" for part in parts):
        raise Refused(f"{shown}: inside a git directory; majordomus never writes there")


def walk(root: Path, parts: tuple[str, ...], shown: str, *, create: bool) -> int:
    """A descriptor on `root/parts...`, no component followed if it is a link; missing ones are
    made when `create` (0700 below `.ai/local/`), else FileNotFoundError. Other faults → 15."""
    fd = os.open(root, _DIR)
    for index, name in enumerate(parts):
        private = index >= 1 and parts[:2] == PRIVATE
        where = "/".join(parts[: index + 1])
        fd = _step(fd, name, private=private, where=where, shown=shown, create=create)
    return fd


def _step(fd: int, name: str, *, private: bool, where: str, shown: str, create: bool) -> int:
    """Open the directory `name` below `fd`, making it when absent; `fd` is closed either way."""
    try:
        return _open_or_make(fd, name, private, create)
    except FileNotFoundError:
        if not create:
            raise
        raise Refused(f"{shown}: {where} vanished while it was made; nothing was written") from None
    except OSError as exc:
        raise _refusal(fd, name, where, shown, exc) from None
    finally:
        os.close(fd)


def _open_or_make(fd: int, name: str, private: bool, create: bool) -> int:
    try:
        return os.open(name, _NOFOLLOW_DIR, dir_fd=fd)
    except FileNotFoundError:
        if not create:
            raise
    try:  # noqa: SIM105 - `contextlib` is not imported on the start-up path
        os.mkdir(name, 0o700 if private else 0o777, dir_fd=fd)
    except FileExistsError:
        pass  # a concurrent writer made it first; it is judged like any other
    made = os.open(name, _NOFOLLOW_DIR, dir_fd=fd)
    if private:
        try:
            os.fchmod(made, 0o700)  # the umask may only have narrowed it; make it exact
        except OSError:
            os.close(made)
            raise
    return made


def _refusal(fd: int, name: str, where: str, shown: str, exc: OSError) -> Refused:
    if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
        try:
            link = stat.S_ISLNK(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode)
        except OSError:
            link = False
        what = "is a symbolic link" if link else "is not a directory"
        return Refused(f"{shown}: {where} {what}; nothing was written through it")
    return Refused(f"{shown}: cannot create {where}: {exc.strerror}; nothing was written")


def _real_parts(root: Path, parts: tuple[str, ...], shown: str) -> tuple[str, ...]:
    """The target's components below the root's real path, its parents' links resolved: a
    parent may be a link that stays in the repository, never one that leaves it or enters the
    git directory. The final component is kept as named (it is never followed)."""
    real_root = os.path.realpath(root)
    parent = os.path.realpath(os.path.join(real_root, *parts[:-1]))
    if not _inside(parent, real_root):
        raise Refused(f"{shown}: its directory resolves to {parent}, outside the repository")
    target = os.path.join(parent, parts[-1])
    for git_dir in git_dirs(root):
        if _inside(target, git_dir):
            raise Refused(f"{shown}: resolves into the git directory {git_dir}; never written")
    below = os.path.relpath(parent, real_root)
    return (*([] if below == "." else below.split(os.sep)), parts[-1])


def git_dirs(root: Path) -> list[str]:
    """The real paths of the repository's git directory and common directory (asked once)."""
    key = os.fspath(root)
    if key not in _GIT_DIRS:
        from mj_core.git import questions as git

        named = [*(git.dirs(root) or ()), os.path.join(key, ".git")]
        _GIT_DIRS[key] = sorted({os.path.realpath(path) for path in named if path})
    return _GIT_DIRS[key]


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def final(where: Place) -> os.stat_result | None:
    """The target's own status (not followed), None when absent; a link (symbolic or hard)
    or a directory → 15."""
    try:
        found = os.stat(where.name, dir_fd=where.fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(found.st_mode):
        raise Refused(f"{where.shown}: is a symbolic link; nothing was written through it")
    if stat.S_ISDIR(found.st_mode):
        raise Refused(f"{where.shown}: is a directory where a file is expected")
    one_name(found, where.shown)
    return found


def one_name(found: os.stat_result, shown: str) -> None:
    """15 when the file `found` has more than one name: a hard link shares it with a path
    elsewhere (perhaps outside the repository), which a write would change too."""
    if found.st_nlink > 1:
        raise Refused(
            f"{shown}: is a hard link ({found.st_nlink} names for one file, one of them "
            "perhaps outside the repository); nothing was written through it"
        )


def check(root: Path, relative: str) -> str | None:
    """Why a write to `relative` would be refused now, or None (read-only: nothing is made).

    For judges and planners (`doctor`, `update`) that must refuse before the first write.
    """
    from pathlib import Path

    try:
        where = place(Path(root) / relative, Path(root), create=False)
    except FileNotFoundError:
        return None  # a missing parent is made at write time, without following anything
    except Refused as exc:
        return exc.message
    except OSError as exc:
        return f"{relative}: {exc.strerror}"
    try:
        final(where)
    except Refused as exc:
        return exc.message
    finally:
        where.close()
    return None


def file_mode(where: Place, mode: int) -> int:
    """`mode`, narrowed to the owner below `.ai/local/` (records and state are 0600)."""
    return mode & 0o700 if where.private else mode
