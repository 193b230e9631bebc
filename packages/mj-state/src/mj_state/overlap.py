"""Overlap with other worktrees: git is the registry, no sidecar file.

Every other worktree `git worktree list --porcelain` names is asked two things: the active task
its own `.ai/local/state/current.yaml` claims (containment either way on path boundaries, through
`mj_core.paths.overlaps`), and which files it has already touched (its porcelain status and
`git log <base>..HEAD --name-only`) that fall inside our scope. Everything here is INFO: overlap
is reported, never blocking; a corrupt record elsewhere is reported, never fatal.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from mj_core import git
from mj_core import paths
from mj_core.errors import MjError
from mj_core.findings import Finding

from mj_state import tasks

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

RECORD = Path(".ai/local/state/current.yaml")
REPRODUCE = "majordomus check --overlap"


def other_worktrees(root: Path) -> list[tuple[Path, str]]:
    """(path, HEAD's SHA) of every other worktree `git worktree list` names that exists."""
    here = os.path.realpath(root)
    found = []
    for item in git.worktrees(root):
        where = item.get("worktree")
        if not where or "bare" in item or os.path.realpath(where) == here:
            continue
        if Path(where).is_dir():
            found.append((Path(where), item.get("HEAD", "")))
    return found


def report(root: Path, scope: list[str]) -> Iterator[Finding]:
    """INFO findings for each other worktree whose claim or touched files meet `scope`."""
    others = []
    for other, head in other_worktrees(root):
        shown = _shown(root, other)
        record, problem = _record(other, shown)
        if problem:
            yield Finding("INFO", "overlap", shown, f"task record unreadable: {problem}", REPRODUCE)
        if record is not None:
            yield from _claims(shown, record, scope)
        base = str(record["head"]) if record else ""
        others.append((other, shown, base, base != head))
    touched = _touched_everywhere(others, scope)
    for (_, shown, base, _), files in zip(others, touched, strict=True):
        yield from _inside(shown, base, files, scope)


def _touched_everywhere(
    others: list[tuple[Path, str, str, bool]], scope: list[str]
) -> list[list[str]]:
    """Each worktree's status paths ∪ `git log <base>..HEAD --name-only`, asked all at once.

    Only paths inside `scope` are asked for; the log only where HEAD has moved from `base`.
    """
    within = ("--", *(f":(literal){mine}" for mine in scope))
    calls: list[tuple[tuple[str, ...], Path | str]] = []
    for other, _, base, moved in others:
        calls.append(((*git.STATUS_ARGS, *within), other))
        if base and moved:
            log = ("log", "--name-only", "-z", "--format=", f"{base}..HEAD", *within)
            calls.append((log, other))
    results = iter(git.run_many(calls))
    touched = []
    for _, _, base, moved in others:
        code, out, _ = next(results)
        files = dict.fromkeys(git.parse_status(out) if code == 0 else [])
        if base and moved:
            code, out, _ = next(results)
            if code == 0:
                files.update(dict.fromkeys(git.zsplit(out.replace("\n", "\0"))))
        touched.append(list(files))
    return touched


def _shown(root: Path, other: Path) -> str:
    return os.path.relpath(other, root)


def _record(other: Path, shown: str) -> tuple[dict[str, Any] | None, str | None]:
    target = other / RECORD
    if not target.exists():
        return None, None
    try:
        record = tasks.read_record(target, f"{shown}/{RECORD}")
    except MjError as exc:
        return None, exc.message
    return (record, None) if record.get("outcome") == "active" else (None, None)


def _claims(shown: str, record: dict[str, Any], scope: list[str]) -> Iterator[Finding]:
    for claim in record.get("scope") or []:
        for mine in scope:
            if not paths.overlaps(claim, mine):
                continue
            message = f"claims {claim} — {_relation(claim, mine)}"
            yield Finding("INFO", "overlap", shown, message, REPRODUCE)


def _relation(claim: str, mine: str) -> str:
    if claim == mine:
        return f"the same as your scope {mine}"
    if paths.within(claim, mine):
        return f"contained by your scope {mine}"
    return f"contains your scope {mine}"


def _inside(shown: str, base: str, files: list[str], scope: list[str]) -> Iterator[Finding]:
    inside = [f for f in files if any(paths.within(f, mine) for mine in scope)]
    if inside:
        listed = ", ".join(inside[:5]) + (f" (+{len(inside) - 5} more)" if len(inside) > 5 else "")
        quoted = " ".join(shlex.quote(mine) for mine in scope)
        where = shlex.quote(shown)
        reproduce = f"git -C {where} status --porcelain -- {quoted}"
        if base:
            reproduce += f"; git -C {where} log --name-only --format= {base[:7]}..HEAD -- {quoted}"
        message = f"has touched {listed} inside your scope"
        yield Finding("INFO", "overlap", shown, message, reproduce)
