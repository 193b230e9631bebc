"""A closed episode's reference lists, derived from the ledger lines stamped with it.

Never a time window: a line belongs to the episode exactly when its envelope's `session` names
it (SCHEMAS, the session record). A line without one belongs to no episode. Order is the
ledger's, which is the order the lines were written. Each list carries the identity its kind
has: a task's id, a checkpoint's or handover's record name — never a path under `.ai/local/`,
which the shared record's readers in other checkouts could not open.
"""

from __future__ import annotations

from mj_core.stream import jsonl

from mj_state.ledger import store as ledger

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]

LISTS = (
    "tasks",
    "issues",
    "milestones",
    "checkpoints",
    "handovers",
    "decisions",
    "questions",
    "evidence",
)


def stamped(state: Path, session_id: str) -> list[Record]:
    """The ledger lines whose envelope names `session_id` (a line that does not parse, or
    whose first `session` key is another, is not the episode's)."""
    needle = f'"session":"{session_id}"'.encode()
    out = []
    for _, raw, _ in ledger.raw_lines(ledger.path(state)):
        if needle not in raw:
            continue
        try:
            value = jsonl.loads_line(raw)
        except ValueError:
            continue
        if isinstance(value, dict) and value.get("session") == session_id:
            out.append(value)
    return out


def lists(lines: list[Record]) -> dict[str, list[str]]:
    """Each reference list of the record, in ledger order, without repeats."""
    found: dict[str, list[str]] = {name: [] for name in LISTS}

    def add(name: str, value: object) -> None:
        if isinstance(value, str) and value and value not in found[name]:
            found[name].append(value)

    for line in lines:
        event = str(line.get("event"))
        add("tasks", line.get("task_id"))
        if event.startswith("plan_"):
            add("issues", line.get("issue"))
        add("milestones", line.get("milestone"))
        if event == "task.checkpoint":
            add("checkpoints", identity(line.get("checkpoint_path")))
        elif event == "task.handed_over":
            add("handovers", identity(line.get("handover_path")))
        elif event == "decision.recorded":
            add("decisions", line.get("decision"))
        elif event == "question.opened":
            add("questions", line.get("question"))
        elif event == "task.evidence":
            add("evidence", line.get("artifact") or line.get("command"))
    return found


def identity(path: object) -> object:
    """A checkpoint's or a handover's identity: its record's name without `.md` (the ledger
    line holds its path under `.ai/local/`, which no other checkout can open; the shared
    session record names it, as the record names itself)."""
    if not isinstance(path, str) or not path.endswith(".md"):
        return path
    return path.rsplit("/", 1)[-1][: -len(".md")]


def started(lines: list[Record]) -> Record | None:
    """The newest `task.started` line of the episode (its task's title and profile)."""
    found = [line for line in lines if line.get("event") == "task.started"]
    return found[-1] if found else None


def task_started(state: Path, task_id: str) -> Record | None:
    """The `task.started` line of `task_id`, wherever in the ledger it is: the task an episode
    worked on that began before it (its title and profile)."""
    needle = f'"task_id":"{task_id}"'.encode()
    for _, raw, _ in ledger.raw_lines(ledger.path(state)):
        if needle not in raw or b'"event":"task.started"' not in raw:
            continue
        try:
            value = jsonl.loads_line(raw)
        except ValueError:
            continue
        if not isinstance(value, dict) or value.get("event") != "task.started":
            continue
        if value.get("task_id") == task_id:
            return dict(value)
    return None


def last_seen(lines: list[Record]) -> str | None:
    """The newest `ts` among the episode's lines."""
    stamps = [str(line["ts"]) for line in lines if isinstance(line.get("ts"), str)]
    return max(stamps) if stamps else None
