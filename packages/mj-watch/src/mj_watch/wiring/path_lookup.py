"""Does an enforcement entry's `path` name something that runs here?

On `PATH`, repository-relative, absolute, or an executable path written on the hook line itself
(`.venv/bin/majordomus doctor`), each must be an executable file.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def which(name: str) -> str | None:
    """`shutil.which(name)` on POSIX, without importing shutil (and bz2, lzma) on every run:
    the first executable, non-directory `name` in a `PATH` directory, or `name` itself when it
    holds a slash."""
    if os.path.dirname(name):
        return name if _executable(name) else None
    path = os.environ.get("PATH")
    if path is None:
        try:
            path = os.confstr("CS_PATH")
        except (AttributeError, ValueError):
            path = os.defpath
    if not path:
        return None
    seen = set()
    for directory in path.split(os.pathsep):
        if directory not in seen:
            seen.add(directory)
            candidate = os.path.join(directory, name)
            if _executable(candidate):
                return candidate
    return None


def _executable(candidate: str) -> bool:
    return (
        os.path.exists(candidate)
        and os.access(candidate, os.F_OK | os.X_OK)
        and not os.path.isdir(candidate)
    )


def _on_line(root: Path, name: str, line: str) -> bool:
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        words = line.split()
    for word in words:
        if "/" in word and Path(word).name == Path(name).name:
            candidate = Path(word) if os.path.isabs(word) else root / word
            if _runnable(candidate):
                return True
    return False


def resolves(root: Path, name: str, line: str = "") -> bool:
    if "/" in name:
        candidate = Path(name) if os.path.isabs(name) else root / name
        return _runnable(candidate)
    return which(name) is not None or _on_line(root, name, line)


def lookups(root: Path, names: list[str], texts: list[str]) -> dict[str, Any]:
    """What `resolved` needs, looked up here: `which` for each bare name, and `runnable` for
    each path name and each word with a slash that a hook or CI text gives the same name; and
    for each of them named `majordomus`, the file it is (`programs`: its absolute path, or None
    when it does not resolve) and whether that is the file this process runs as (`self`)."""
    from mj_core import self_exe as selfexe

    which_of: dict[str, bool] = {}
    runnable: dict[str, bool] = {}
    programs: dict[str, Record] = {}
    own = selfexe.program()
    for name in dict.fromkeys(names):
        if "/" in name:
            runnable[name] = _runnable(Path(name) if os.path.isabs(name) else root / name)
            _program(programs, own, name, root / name)
            continue
        found = which(name)
        which_of[name] = found is not None
        _program(programs, own, name, Path(os.path.abspath(found)) if found else None)
        for text in texts:
            for line in text.splitlines():
                for word in _named(name, line):
                    candidate = Path(word) if os.path.isabs(word) else root / word
                    runnable[word] = _runnable(candidate)
                    _program(programs, own, word, candidate)
    return {"which": which_of, "runnable": runnable, "self": own, "programs": programs}


def _program(programs: dict[str, Record], own: str | None, word: str, path: Path | None) -> None:
    """What `word` runs, when it names majordomus: the file, and whether it is `own`."""
    from mj_core import self_exe as selfexe

    if Path(word).name != selfexe.NAME:
        return
    there = path is not None and _runnable(path)
    shown = str(path) if path is not None and there else None
    same = selfexe.same(shown, own) if shown and own else None
    programs[word] = {"path": shown, "same": same}


def _named(name: str, line: str) -> list[str]:
    """The words of `line` with a slash whose last component is `name`'s."""
    if Path(name).name not in line:
        return []
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        words = line.split()
    return [w for w in words if "/" in w and Path(w).name == Path(name).name]


def resolved(found: dict[str, Any], name: str, line: str = "") -> bool:
    """`resolves` answered from the looked-up facts (a name not looked up does not resolve)."""
    runnable = found.get("runnable") or {}
    if "/" in name:
        return bool(runnable.get(name))
    return bool((found.get("which") or {}).get(name)) or any(
        runnable.get(word) for word in _named(name, line)
    )


def program_word(names: list[str], line: str) -> str | None:
    """The first word of `line` that names one of `names` (a bare name, or a path ending in
    it): the program the line runs."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        words = line.split()
    bare = {Path(name).name for name in names}
    return next((w for w in words if w in names or ("/" in w and Path(w).name in bare)), None)


def another_program(told: Record, names: list[str], line: str) -> tuple[str, str] | None:
    """(why, reproduce) when the hook line runs a majordomus that is not the file this doctor
    runs as (`self` in the facts): a look-alike first on PATH, another installation."""
    own = told.get("self")
    programs = told.get("programs") or {}
    word = program_word(names, line)
    found = programs.get(word) if word is not None else None
    if word is None or not own or not found or found.get("same") is not False:
        return None
    how = f"`{word}` is {found['path']} on this PATH" if "/" not in word else found["path"]
    why = (
        f"runs {how}, not the majordomus this doctor is ({own}): the hook would run another "
        "program — name this one on the hook line (`majordomus init --extend` prints it)"
    )
    reproduce = (
        f"command -v {shlex.quote(word)}" if "/" not in word else f"ls -l {shlex.quote(word)}"
    )
    return why, reproduce
