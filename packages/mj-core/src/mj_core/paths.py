"""The path guard: canonicalise a path argument and refuse escapes from the repository root."""

from __future__ import annotations

import os
from pathlib import Path

from mj_core.errors import Refused
from mj_core.errors import UsageError


def repo_relative(root: Path, argument: str, *, what: str = "path") -> str:
    """`argument` as a canonical repository-relative POSIX path; escapes → 15.

    A trailing `/` is stripped; `.` and `..` are resolved; symlinks are followed, so a link
    that leads out of the repository is an escape. The root itself is `.`.
    """
    text = argument.strip()
    if not text:
        raise UsageError(f"{what}: empty path")
    if "\x00" in text:
        raise UsageError(f"{what}: path contains a NUL byte")
    root_real = Path(os.path.realpath(root))
    candidate = Path(text) if os.path.isabs(text) else Path(os.getcwd()) / text
    real = Path(os.path.realpath(candidate))
    try:
        rel = real.relative_to(root_real)
    except ValueError:
        raise Refused(
            f"{what} {argument!r} resolves to {real}, outside the repository {root_real}"
        ) from None
    out = rel.as_posix()
    return "." if out in ("", ".") else out


def relative_from_root(root: Path, argument: str, *, what: str = "path") -> str:
    """Like `repo_relative`, but a relative `argument` is taken from the root, not the cwd."""
    if os.path.isabs(argument):
        return repo_relative(root, argument, what=what)
    return repo_relative(root, str(Path(root) / argument), what=what)


def guard_write(root: Path, target: Path) -> Path:
    """Refuse (15) a write whose real location is outside the repository root."""
    rel = repo_relative(root, str(target), what="write target")
    return Path(os.path.realpath(root)) / rel


def within(path: str, claim: str) -> bool:
    """True when `path` equals `claim` or lies below it, on path boundaries (`lib` ∌ `library`)."""
    if claim in (".", ""):
        return True
    return path == claim or path.startswith(claim.rstrip("/") + "/")


LAYER = ".ai"


def claimed(path: str, claims: list[str]) -> bool:
    """True when a claim contains `path`; a path of the layer (`.ai/`: the rules a task is
    judged by, the shared records) only when the claim names the layer too (`.` does not)."""
    layer = within(path, LAYER)
    return any(within(path, c) and (not layer or within(c, LAYER)) for c in claims)


def unclaimed_why(path: str) -> str:
    """What an unclaimed path of the layer is, for a scope finding's message ('' elsewhere)."""
    if not within(path, LAYER):
        return ""
    return "; the layer is in scope only for a claim naming it (start --scope .ai/…)"


def overlaps(a: str, b: str) -> bool:
    """Two claims overlap when either contains the other on path boundaries."""
    return within(a, b) or within(b, a)
