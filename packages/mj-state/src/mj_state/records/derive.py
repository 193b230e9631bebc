"""Bodies derived from facts — git, the task record, open questions, the newest checkpoint.

No model and no network: every line states something the tool can show. A required handover
section these facts cannot fill is refused by name, never written empty. The next action is
the one the facts name (an open question, a checkpoint's `Next:` line), else, with a task
active, what the task itself asks: to go on with it within its scope until its finish
contract is met.
"""

from __future__ import annotations

import re

from mj_core.errors import ContractUnmet
from mj_core.git import questions as git
from mj_policy.layer.loader import Layer

from mj_state.finish import steps as finishing
from mj_state.records import bodies
from mj_state.records import questions
from mj_state.records import resolve
from mj_state.records import writing

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

_NEXT = re.compile(r"^\s*next(?: action)?\s*[:—-]\s*(\S.*)$", re.IGNORECASE)
_LIST = 5


def facts(layer: Layer, task: Record | None) -> list[str]:
    """One line per fact: commit, tree, commits since start, blockers, ledger checkpoints, files."""
    root = layer.root
    last = git.out("log", "-1", "--format=%h %s", cwd=root) or "no commit yet"
    changed = writing.changed_files(root, task)
    tree = "dirty" if git.is_dirty(root) else "clean"
    lines = [f"At commit {last} on {git.branch(root) or 'a detached HEAD'}; the tree is {tree}."]
    if task is not None:
        lines.append(f"Task {task['id']} ({task['task']}), started {task['started_at']}.")
        base = str(task["head"])
        count = git.out("rev-list", "--count", f"{base}..HEAD", cwd=root) or "0"
        lines.append(f"Commits since start: {count}.")
        lines.append(f"Open blockers: {len(blockers(layer, task))}.")
        recorded = finishing.checkpoints(layer, str(task["id"]))
        lines.append(f"Checkpoints in the ledger for this task: {recorded}.")
    shown = ", ".join(changed[:_LIST]) + (" …" if len(changed) > _LIST else "")
    lines.append(f"Files changed: {len(changed)}" + (f" — {shown}." if changed else "."))
    return lines


def blockers(layer: Layer, task: Record) -> list[questions.Entry]:
    entries, _ = questions.load(layer.state)
    return questions.unresolved_for(entries, str(task["id"]))


def checkpoint(layer: Layer, task: Record | None) -> str:
    cap = int(layer.policy.data["checkpoint"]["max_body_lines"])
    return "\n".join(facts(layer, task)[:cap]) + "\n"


def handover(layer: Layer, task: Record | None) -> str:
    """Sections in policy order; a required one the facts cannot fill → 10 naming it."""
    latest = resolve.resolve(layer.root, layer.state, "checkpoint")
    note = latest.body if latest is not None else ""
    filled = {
        "Objective": _objective(layer, task),
        "Current State": _state(layer, task, note),
        "Next Action": _next(layer, task, note),
    }
    required = [str(s) for s in layer.policy.data["handover"]["required_sections"]]
    missing = [name for name in required if not filled.get(name)]
    if missing:
        listed = ", ".join(f"# {name}" for name in missing)
        raise ContractUnmet(
            f"handover --derive: cannot fill {listed} from the task, ledger, git, questions or "
            "checkpoints — nothing written; write the handover yourself (body on stdin)"
        )
    order = required + [name for name in filled if name not in required and filled[name]]
    return "\n".join(f"# {name}\n{filled[name]}\n" for name in order)


def _objective(layer: Layer, task: Record | None) -> str:
    if task is not None:
        return str(task["task"])
    previous = resolve.resolve(layer.root, layer.state, "handover")
    found = bodies.sections(previous.body).get("Objective", "") if previous else ""
    if not bodies.is_empty(found):
        return found.strip()
    # no task and no earlier objective (the SessionEnd path without a task): say exactly that
    branch = git.branch(layer.root) or "a detached HEAD"
    return f"No task is declared in this checkout; the work on {branch} continues from here."


def _state(layer: Layer, task: Record | None, note: str) -> str:
    lines = facts(layer, task)
    if note.strip():
        lines.append("Newest checkpoint:")
        lines += [f"> {line}" if line else ">" for line in note.strip("\n").split("\n")]
    return "\n".join(lines)


def _next(layer: Layer, task: Record | None, note: str) -> str:
    if task is not None:
        open_ = blockers(layer, task)
        if open_:
            asked = "; ".join(entry.question for entry in open_)
            return f"Resolve the open question(s) for {task['id']}: {asked}"
    for line in reversed(note.split("\n")):
        match = _NEXT.match(line)
        if match:
            return match.group(1).strip()
    if task is not None:  # a derived checkpoint (PreCompact) names none: an earlier one may
        return _earlier_next(layer, str(task["started_at"])) or _continue(task)
    return 'Declare the next task (`majordomus start "<task>" --scope <paths>`).'


def _continue(task: Record) -> str:
    """The active task's own next step, from its record: go on within the scope, then the
    judges that end it (the obligations it promised named)."""
    scope = ", ".join(str(path) for path in task.get("scope") or []) or "its scope"
    said = f"Continue {task['id']} ({task['task']}) within {scope}"
    promised = [str(token) for token in task.get("requires") or []]
    if promised:
        said += f", covering what it promises ({', '.join(promised)})"
    return (
        f"{said}: `majordomus check` judges the work so far; `majordomus finish --outcome "
        "completed` ends the task once its contract is met."
    )


def _earlier_next(layer: Layer, since: str) -> str:
    """The `Next:` line of the newest earlier checkpoint of this worktree since the task began."""
    for found in resolve.this_worktree(layer.root, layer.state, "checkpoint")[1:]:
        if str(found.front.get("created_at") or "") < since:
            break
        for line in reversed(found.body.split("\n")):
            match = _NEXT.match(line)
            if match:
                return match.group(1).strip()
    return ""
