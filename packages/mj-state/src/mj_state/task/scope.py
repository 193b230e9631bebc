"""Scope claims: normalised at `start`, compared on path boundaries with `mj_core.paths.within`.

Touched files are what git says changed since the task's head: porcelain status (staged,
unstaged, untracked) plus `git diff --name-only <base>..HEAD`. The records the tool keeps
(`.ai/local/`, and the record stores under `.ai/repo/`: `RECORDS`) are always in scope, and so
is every file a majordomus command wrote exactly as it writes it (`mj_state.task.own_writes`: a
projection, a capture hook, an MCP configuration) — an edited one is not. Any other path under
`.ai/` (the policy, profiles and rules a task is judged by, and the rest of the canonical
layer) is in scope only for a claim that names `.ai/` itself (`mj_core.paths.claimed`).
"""

from __future__ import annotations

from pathlib import Path

from mj_core import paths
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.git import questions as git

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


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


def touched_and_writes(layer: Layer, base_head: str) -> tuple[list[str], Record]:
    """`touched`, and the tool's own writes among them (`writes`)."""
    status = git.status_paths(layer.root)
    changed = git.changed_since(layer.root, base_head) if base_head else []
    return list(dict.fromkeys([*status, *changed])), writes(
        layer, base_head, "HEAD", status, changed
    )


# The record stores the tool writes into (each judged by its own check: doctor, `adr check`,
# `knowledge check`, `plan validate`, the ratchet's vouched baseline); the rest of `.ai/` —
# the manifest, policy, profiles, rules, prompts, skills, providers, context documents — is
# what a task is judged by, in scope only for a claim naming it.
RECORDS = (
    ".ai/local",
    ".ai/repo/sessions",
    ".ai/repo/adrs",
    ".ai/repo/knowledge",
    ".ai/repo/project",
    ".ai/repo/ratchet-baseline.yaml",
)


def always_allowed(policy: dict[str, Any]) -> list[str]:
    """The record stores of `.ai/` (`RECORDS`). (A projection target is in scope only as
    `update` writes it: `writes`; the rest of `.ai/` only when claimed.)"""
    return list(RECORDS)


def writes(layer: Layer, base: str, head: str | None, status: list[str],
           changed: list[str]) -> Record:  # fmt: skip
    """The tool's own writes among the touched paths (`task.own_writes.recognise`): a path the
    working tree changed is judged as it is on disk, one the task's commits changed as HEAD
    (`head`) holds it — both, when both changed it."""
    from mj_state.task import own_writes as ownwrites

    places: list[tuple[str | None, list[str]]] = [(None, status)]
    if head and changed:
        places.append((head, changed))
    return ownwrites.recognise(layer, base, places)


def outside(
    touched_paths: Iterable[str], scope: list[str], allowed: list[str], own: Iterable[str] = ()
) -> list[str]:
    """The touched paths no claim, no always-allowed path and no own write contains."""
    claims = [*scope, *allowed]
    mine = set(own)
    return [p for p in touched_paths if p not in mine and not paths.claimed(p, claims)]
