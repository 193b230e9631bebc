"""The task as the ledger records it — the authority; `current.yaml` is only a copy of it.

`task.started` carries the task's identity (id, text, profile, owner, scope, head and branch at
start, worktree id, working tree); `task.checkpoint`, `task.handed_over` and `task.finished`
move `checkpoint_at`, a closing handover or a finish sets the outcome, and a finish refreshes
head and working tree. `derive` reads that off the ledger's lines; `copy_of` is the
`current.yaml` those lines imply; `disagreements` names every field on which a copy on disk
says something else. Everything here is pure: values in, values out.
"""

from __future__ import annotations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Record = dict[str, Any]

TERMINAL = ("completed", "partial", "blocked", "no_match", "failed")
# current.yaml's keys, in its order, compared with the ledger's word (the absolute paths
# `repository_id` and `worktree` say where the copy was written and are not compared)
COMPARED = (
    "id",
    "task",
    "profile",
    "owner",
    "scope",
    "requires",
    "issue",
    "started_at",
    "checkpoint_at",
    "outcome",
    "worktree_id",
    "branch",
    "head",
    "working_tree",
)


class Task:
    """One task as its ledger lines tell it: the fields, and the line that set each."""

    __slots__ = ("_before", "_line", "_lines", "fields", "start_head")

    def __init__(
        self, fields: Record, started_line: int, before: Callable[[], int] | None = None
    ) -> None:
        self.start_head = str(fields.get("head") or "")  # `head` moves on at a finish
        self.fields = fields  # the keys of COMPARED the ledger knows (a line written before
        # a key existed leaves it out: nothing is compared on it)
        self._line = started_line
        self._lines: dict[str, int] = {key: started_line for key in fields}
        # what counts the ledger's lines before those numbered here, asked when a line number
        # is first read (None: the numbers are the ledger's)
        self._before = before

    def _numbered(self) -> None:
        """The ledger's own line numbers, once the lines before are counted."""
        if self._before is not None:
            shift, self._before = self._before(), None
            self._line += shift
            self._lines = {key: line + shift for key, line in self._lines.items()}

    @property
    def started_line(self) -> int:
        self._numbered()
        return self._line

    @property
    def lines(self) -> dict[str, int]:
        self._numbered()
        return self._lines

    @lines.setter
    def lines(self, lines: dict[str, int]) -> None:
        self._numbered()
        self._lines = lines

    @property
    def id(self) -> str:
        return str(self.fields["id"])

    @property
    def outcome(self) -> str:
        return str(self.fields["outcome"])

    @property
    def active(self) -> bool:
        return bool(self.fields["outcome"] == "active")

    def fact(self, *, numbered: bool = True) -> Record:
        """JSON-native; without `numbered`, no line numbers (0 and none), which spares counting
        the ledger's lines before the task's."""
        return {
            "fields": self.fields,
            "lines": self.lines if numbered else {},
            "started_line": self.started_line if numbered else 0,
            "start_head": self.start_head,
        }

    @classmethod
    def from_fact(cls, fact: Record) -> Task:
        task = cls(dict(fact["fields"]), int(fact["started_line"]))
        task.lines = {str(k): int(v) for k, v in (fact.get("lines") or {}).items()}
        task.start_head = str(fact.get("start_head") or "")
        return task

    def set(self, key: str, value: Any, line: int) -> None:
        """`key` set by the line numbered `line` as this task's lines are numbered."""
        self.fields[key] = value
        self._lines[key] = line


def derive(rows: list[tuple[int, Any]], before: Callable[[], int] | None = None) -> Task | None:
    """The newest task of (line number, value) ledger rows, as its lines tell it; None when no
    `task.started` line is there. Values that are not objects are skipped. With `before`, the
    rows are numbered from a later line than the ledger's first, and `before()` counts the
    lines before it when the task's line numbers are first read."""
    task: Task | None = None
    for number, value in rows:
        if type(value) is not dict:
            continue
        event = value.get("event")
        if event == "task.started":
            task = _started(value, number, before)
        elif task is not None and value.get("task_id") == task.id:
            _follow(task, value, number)
    return task


def _started(value: Record, number: int, before: Callable[[], int] | None) -> Task:
    fields: Record = {
        "id": value.get("task_id"),
        "profile": value.get("profile"),
        "owner": value.get("owner"),
        "scope": value.get("scope"),
        "started_at": value.get("ts"),
        "checkpoint_at": value.get("ts"),
        "outcome": "active",
        "branch": value.get("branch"),
        "head": value.get("head"),
    }
    for key in ("task", "worktree_id", "working_tree", "requires", "issue", "rules"):
        if key in value:  # written by every start since the chain (`requires`, `issue` when
            # given; `rules`, the object ids of the rules at the head, since it was recorded)
            fields[key] = value[key]
    return Task(fields, number, before)


def _follow(task: Task, value: Record, number: int) -> None:
    event = value.get("event")
    if event not in ("task.checkpoint", "task.handed_over", "task.finished"):
        return
    if not task.active:
        return  # nothing moves a task after it ended
    task.set("checkpoint_at", value.get("ts"), number)
    if event == "task.handed_over" and value.get("closed") is True:
        task.set("outcome", "handed_over", number)
    elif event == "task.finished":
        task.set("outcome", value.get("outcome"), number)
        task.set("head", value.get("head"), number)
        if "working_tree" in value:
            task.set("working_tree", value["working_tree"], number)


def copy_of(task: Task, where: Record) -> Record:
    """The `current.yaml` these lines imply; `where` gives the absolute paths of this checkout
    (and the fields a line written before them lacks)."""
    record = {key: task.fields.get(key) for key in COMPARED if key in task.fields}
    for key in ("repository_id", "worktree", "worktree_id", "working_tree", "task"):
        if key not in record and key in where:
            record[key] = where[key]
    return record


def disagreements(copy: Record, task: Task) -> list[tuple[str, Any, Any]]:
    """(key, the copy's value, the ledger's value) for each compared key they differ on."""
    out = []
    for key in COMPARED:
        if key not in task.fields:
            continue
        ours, theirs = copy.get(key), task.fields[key]
        if ours != theirs:
            out.append((key, ours, theirs))
    return out
