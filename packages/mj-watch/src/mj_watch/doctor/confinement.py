"""Confinement judged: this checkout's state is a real directory tree inside `.ai/`, and no
projection target leads out of the repository or into the git directory.

The writer (`mj_core.write.confine`) refuses such writes when they happen; doctor names the cause
beforehand. `state_kinds` reads the facts (what each state path is, not followed), and
`state_findings` and `target_findings` judge them, so both judges run on hand-made facts.
"""

from __future__ import annotations

import os
import shlex
import stat

from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

LOCAL = ".ai/local"
STATE = f"{LOCAL}/state"
# The paths the writers create below `.ai/local/`: each a directory or a file, never a link.
DIRECTORIES = (
    *(".ai", LOCAL, STATE, f"{LOCAL}/tmp", f"{LOCAL}/cache", f"{LOCAL}/benchmarks"),
    *(f"{STATE}/{name}" for name in ("checkpoints", "handovers", "archive", "completed")),
    f"{STATE}/sessions-open",
)
FILES = tuple(
    f"{STATE}/{name}"
    for name in (
        "ledger.jsonl",
        "current.yaml",
        "open-questions.md",
        "decisions.md",
        "session-current.yaml",
    )
)
_KINDS = {stat.S_IFDIR: "directory", stat.S_IFREG: "file", stat.S_IFLNK: "link"}


def state_kinds(root: Path) -> dict[str, str]:
    """What each state path is, not followed: directory, file, link, hard link (a file with a
    second name), other or absent; every entry of a state directory that is a link is listed
    too."""
    kinds = {}
    for relative in (*DIRECTORIES, *FILES):
        try:
            found = os.lstat(os.path.join(root, relative))
        except OSError:  # absent, or below a component that is not a directory
            kinds[relative] = "absent"
            continue
        kind = _KINDS.get(stat.S_IFMT(found.st_mode), "other")
        kinds[relative] = "hard link" if kind == "file" and found.st_nlink > 1 else kind
    for relative in DIRECTORIES[2:]:
        if kinds[relative] == "directory":
            kinds.update(_links_in(root, relative))
    return kinds


def _links_in(root: Path, relative: str) -> Iterator[tuple[str, str]]:
    try:
        with os.scandir(os.path.join(root, relative)) as entries:
            for entry in entries:
                if entry.is_symlink():
                    yield f"{relative}/{entry.name}", "link"
    except OSError:
        return


def state_findings(kinds: dict[str, str]) -> Iterator[Finding]:
    """FAIL for a state path that is a link, or not the directory or file the writers make."""
    for relative, kind in kinds.items():
        want = "directory" if relative in DIRECTORIES else "file"
        if kind == "link":
            message = (
                "is a symbolic link — state never leaves .ai/, so every write through it is "
                f"refused (15); replace it with a real {want}"
            )
            yield Finding("FAIL", "layer", relative, message, f"ls -ld {shlex.quote(relative)}")
        elif kind == "hard link":
            message = (
                "is a hard link (a second name for the file, perhaps outside the repository) — "
                "every write to it is refused (15); replace it with a copy of its own"
            )
            yield Finding("FAIL", "layer", relative, message, f"ls -li {shlex.quote(relative)}")
        elif kind not in ("absent", want):
            message = f"is a {kind} where a {want} is expected — every write there is refused"
            yield Finding("FAIL", "layer", relative, message, f"ls -ld {shlex.quote(relative)}")


def target_finding(target: str, refusal: str) -> Finding:
    """The FAIL for a projection target a write would be refused at (the git directory, a
    link out of the repository, a link or a directory in the file's place)."""
    quoted = shlex.quote(target)
    return Finding(
        "FAIL",
        "projection",
        target,
        f"cannot be written: {refusal}",
        f"ls -ld {quoted}; realpath -m {quoted}",
    )
