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

from mj_core import paths
from mj_core.errors import MjError
from mj_core.findings import Finding
from mj_core.git import questions as git

from mj_state.task import record as tasks

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
    with Survey(root, scope) as survey:
        yield from survey.findings()


class Survey:
    """The overlap report, begun early: git reads the other worktrees while the caller works.

    Made at once: the worktree list, each other worktree's task record and the findings its
    claim gives. Started, not awaited: each one's status and log inside `scope`. `findings`
    waits for git; leaving the `with` block reaps git even when `findings` was never asked.
    """

    __slots__ = ("_early", "_others", "_running", "_scope")

    def __init__(self, root: Path, scope: list[str]) -> None:
        self._scope = scope
        self._early: list[Finding] = []
        self._others: list[tuple[Path, str, str, bool]] = []
        for other, head in other_worktrees(root):
            shown = shown_path(root, other)
            record, problem = record_of(other, shown)
            if problem:
                message = f"task record unreadable: {problem}"
                self._early.append(Finding("INFO", "overlap", shown, message, REPRODUCE))
            if record is not None:
                self._early.extend(_claims(shown, record, scope))
            base = str(record["head"]) if record else ""
            self._others.append((other, shown, base, base != head))
        self._running = git.start_many(_touched_calls(self._others, scope))

    def findings(self) -> Iterator[Finding]:
        yield from self._early
        touched = _touched(self._others, git.decoded(self._running.wait()))
        for (_, shown, base, _), files in zip(self._others, touched, strict=True):
            yield from _inside(shown, base, files, self._scope)

    def __enter__(self) -> Survey:
        return self

    def __exit__(self, *exc: object) -> None:
        self._running.wait()


def _touched_calls(
    others: list[tuple[Path, str, str, bool]], scope: list[str]
) -> list[tuple[tuple[str, ...], Path | str]]:
    """Each worktree's status and, where HEAD has moved from `base`, `git log <base>..HEAD`;
    only inside `scope` (literal pathspecs: no glob in a claim)."""
    within = ("--", *(f":(literal){mine}" for mine in scope))
    calls: list[tuple[tuple[str, ...], Path | str]] = []
    for other, _, base, moved in others:
        calls.append(((*git.STATUS_ARGS, *within), other))
        if base and moved:
            log: tuple[str, ...] = ("log", *git.NO_DRIVERS, "--name-only", "-z", "--format=")
            log += (f"{base}..HEAD", *within)
            calls.append((log, other))
    return calls


def _touched(
    others: list[tuple[Path, str, str, bool]], answers: list[tuple[int, str, str]]
) -> list[list[str]]:
    """Each worktree's status paths ∪ its log's names, from the answers to `_touched_calls`."""
    results = iter(answers)
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


def shown_path(root: Path, other: Path) -> str:
    return os.path.relpath(other, root)


def record_of(other: Path, shown: str) -> tuple[dict[str, Any] | None, str | None]:
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
