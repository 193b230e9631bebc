"""Scope claims: normalised at `start`, compared on path boundaries with `mj_core.paths.within`.

Touched files are what git says changed since the task's head: porcelain status (staged,
unstaged, untracked) plus `git diff --name-only <base>..HEAD`. Paths under `.ai/` and the
declared projection targets are always in scope.
"""

from __future__ import annotations

from pathlib import Path

from mj_core import git
from mj_core import paths
from mj_core.errors import Refused
from mj_core.errors import UsageError

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


def normalise(root: Path, argument: str) -> list[str]:
    """`--scope a,b/,./c` → canonical repository-relative claims; an escape → 15."""
    claims: list[str] = []
    for part in argument.split(","):
        if not part.strip():
            raise UsageError(f"--scope {argument!r}: empty path in the list")
        try:
            claim = paths.relative_from_root(root, part.strip(), what="--scope")
        except Refused:
            raise Refused(f"--scope {part.strip()!r} leads outside the repository {root}") from None
        if claim not in claims:
            claims.append(claim)
    return claims


def touched(root: Path, base_head: str) -> list[str]:
    """Files changed since `base_head`: porcelain status ∪ `git diff --name-only base..HEAD`."""
    found = dict.fromkeys(git.status_paths(root))
    if base_head:
        found.update(dict.fromkeys(git.changed_since(root, base_head)))
    return list(found)


def always_allowed(policy: dict[str, Any]) -> list[str]:
    """`.ai` and every projection target the policy declares."""
    allowed = [".ai"]
    for projection in policy.get("projections") or []:
        if isinstance(projection, dict) and isinstance(projection.get("target"), str):
            allowed.append(projection["target"].rstrip("/"))
    return allowed


def outside(touched_paths: Iterable[str], scope: list[str], allowed: list[str]) -> list[str]:
    """The touched paths no claim and no always-allowed path contains."""
    claims = [*scope, *allowed]
    return [p for p in touched_paths if not any(paths.within(p, c) for c in claims)]
