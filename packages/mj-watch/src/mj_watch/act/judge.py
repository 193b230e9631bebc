"""The tool hook's judgement (pure): which of a call's writes are refused, and the reason the
model reads.

Always refused, task or none: a write into `.ai/local/` (the tool's own state: the ledger, the
task's copy, the prompt archive — written by majordomus commands only) and into the git
directory (`.git/`: its hooks and its configuration are the enforcement itself). While a task
is active: a write in the repository that no scope claim contains (`.ai/` is in every task's
scope, as `check` counts it), and a write out of the repository but for the system's
temporary directories. With no active task, nothing else is refused, unless the policy asks
for a task before any write (`client_hooks.require_task_for_writes`): then every write in the
repository is.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from mj_watch.act.facts import Place

ALWAYS = (".ai",)  # in every task's scope (mj_state.task.scope.always_allowed)
OWN_STATE = ".ai/local"
GIT_DIR = ".git"


def within(path: str, claim: str) -> bool:
    """`mj_core.paths.within`: equal, or below on a path boundary (`.` holds everything)."""
    if claim in (".", ""):
        return True
    return path == claim or path.startswith(claim.rstrip("/") + "/")


def refused(places: list[Place], scope: list[str] | None, *, require_task: bool = False,
            scratch: tuple[str, ...] = ()) -> list[tuple[Place, str]]:  # fmt: skip
    """(place, why) of each write refused; `scope` is the active task's claims (None: no task
    is active), `scratch` the temporary directories (real paths) a task may write in."""
    out: list[tuple[Place, str]] = []
    for place in places:
        why = _why(place, scope, require_task, scratch)
        if why is not None:
            out.append((place, why))
    return out


def _why(place: Place, scope: list[str] | None, require_task: bool,
         scratch: tuple[str, ...]) -> str | None:  # fmt: skip
    rel = place.rel
    if rel is not None and within(rel, OWN_STATE):
        return "it is inside .ai/local/, the tool's own state, which only majordomus commands write"
    if rel is not None and within(rel, GIT_DIR):
        return "it is inside the git directory, which no tool call writes by hand"
    if scope is None:
        if require_task and rel is not None:
            return "no task is active and the policy requires one before any write"
        return None
    if rel is None:
        if any(within(place.real, t) for t in scratch):
            return None
        return "it is outside the repository"
    if any(within(rel, claim) for claim in [*scope, *ALWAYS]):
        return None
    return "it is outside the active task's scope"


def reason(refusals: list[tuple[Place, str]], scope: list[str] | None, task: str | None) -> str:
    """One paragraph for the model: what was refused and why, the scope, and the way on."""
    first, why = refusals[0]
    shown = first.rel if first.rel is not None else first.real
    given = os.path.normpath(first.given)
    via = f" (the call names {given})" if given not in (first.real, shown) else ""
    text = f"majordomus refused this call: it writes {shown}{via}, and {why}."
    if len(refusals) > 1:
        text += f" {len(refusals) - 1} more write(s) of this call are refused as well."
    if scope is not None:
        claims = ", ".join(scope) or "(none)"
        text += f" The active task{f' {task!r}' if task else ''} claims: {claims} (and .ai/)."
        if why.endswith(("scope", "repository")):
            text += _widen(scope, shown if first.rel is not None else None)
    elif why.startswith("no task"):
        text += " Start one first: majordomus start <task> --scope <paths>."
    else:
        text += " Run the majordomus command that records what you mean instead."
    return text


def _widen(scope: list[str], path: str | None) -> str:
    """The legitimate way to a wider scope: end the task, start one that claims the path."""
    import shlex

    if path is None:
        return " Keep to the claimed paths."
    wider = shlex.quote(",".join([*scope, path]))
    return (
        " If the work truly needs this path, widen the scope legitimately: end this task "
        "(majordomus finish, or majordomus handover --close) and start one that claims it "
        f"(majordomus start <task> --scope {wider})."
    )
