"""This checkout's task as the judges see it: the ledger's word, the copy's, and where they differ.

`read` gathers it once (one ledger scan, one parse of `current.yaml`); `copy_findings` turns the
disagreements into one FAIL each, naming the field, both values and a command that shows them.
The judges — check, finish, finish --check, doctor, watch, context — take the task from the
ledger (`Situation.task`), never from the copy (CLI-REFERENCE Decision 15).
"""

from __future__ import annotations

from pathlib import Path

from mj_core.errors import ContractUnmet
from mj_core.findings import Finding

from mj_state import identity
from mj_state.ledger import chain
from mj_state.ledger import store as ledger
from mj_state.task import log as tasklog
from mj_state.task import record as tasks
from mj_state.task.place import Place

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.layer.loader import Layer

    from mj_state.records import questions

    Record = dict[str, Any]


class Situation:
    """What the ledger and `current.yaml` say about this checkout's task."""

    __slots__ = ("_scan", "copy", "copy_problem", "here_id", "root", "task")

    def __init__(
        self,
        root: Path,
        scan: ledger.Scan | None,
        task: tasklog.Task | None,
        copy: Record | None,
        copy_problem: str | None,
        *,
        here_id: str | None = None,
    ) -> None:
        self.root = root
        self._scan = scan  # None when read for the task alone (`read_task`)
        self.task = task  # the newest task the ledger started, whoever's it is
        self.copy = copy
        self.copy_problem = copy_problem  # why current.yaml does not parse
        # this checkout's worktree id: read from `.git` when gathered, carried by the fact
        self.here_id = identity.worktree_id(root) if here_id is None else here_id

    @property
    def scan(self) -> ledger.Scan:
        """The ledger's lines from the task's start, judged (not kept by `read_task`)."""
        if self._scan is None:
            from mj_core.errors import InternalError

            raise InternalError("taskstate: a situation read for its task alone has no scan")
        return self._scan

    @property
    def foreign(self) -> bool:
        """The ledger's task was started in another checkout (its `.ai/local` was copied)."""
        if self.task is None:
            return False
        started_in = self.task.fields.get("worktree_id")
        return started_in is not None and str(started_in) != self.here_id

    @property
    def own(self) -> tasklog.Task | None:
        """The ledger's task when it is this checkout's own."""
        return None if self.task is None or self.foreign else self.task

    @property
    def active(self) -> tasklog.Task | None:
        """This checkout's active task, as the ledger records it."""
        own = self.own
        return own if own is not None and own.active else None

    @property
    def copy_foreign(self) -> bool:
        """`current.yaml` names another checkout (and the ledger knows no task of this one)."""
        here = {"worktree": str(self.root), "worktree_id": self.here_id}
        return self.copy is not None and not identity.same_checkout(self.copy, here)

    def record(self, where: Record | None = None) -> Record | None:
        """The task as a `current.yaml` record, from the ledger (the copy fills what a line
        written before the chain does not carry)."""
        own = self.own
        if own is None:
            return None
        fallback = {**(self.copy or {}), **(where or {})}
        return tasklog.copy_of(own, fallback)

    def active_record(self) -> Record | None:
        """`record` of this checkout's active task, or None."""
        return self.record() if self.active is not None else None

    def fact(self, *, rows: bool = True, numbered: bool = True) -> Record:
        """This situation as a fact: what a judge needs of it, JSON-native (`rows`: with the
        task's ledger lines, which judging the record's trust alone does not need; `numbered`:
        with the line numbers that set the task's fields, `tasklog.Task.fact`)."""
        task = self.task
        scan = self.scan
        return {
            "kind": "fact",
            "fact": "situation",
            "root": str(self.root),
            "here_id": self.here_id,
            "task": None if task is None else task.fact(numbered=numbered),
            "copy": self.copy,
            "copy_problem": self.copy_problem,
            "rows": [[r[0], v] for r, v in zip(scan.rows, scan.values, strict=True)]
            if rows
            else [],
            "chain": scan.chain.fact(),
        }

    @classmethod
    def from_fact(cls, fact: Record) -> Situation:
        rows = [(int(n), b"", True) for n, _ in fact.get("rows") or []]
        values = [value for _, value in fact.get("rows") or []]
        verdict = chain.Verdict.from_fact(fact.get("chain") or {})
        scan = ledger.Scan(rows, values, [], verdict)
        task = fact.get("task")
        found = tasklog.Task.from_fact(task) if isinstance(task, dict) else None
        here_id = str(fact["here_id"])  # a judge never reads `.git` itself
        root = Path(str(fact["root"]))
        return cls(root, scan, found, fact.get("copy"), fact.get("copy_problem"), here_id=here_id)

    def disagreements(self) -> list[tuple[str, Any, Any]]:
        own = self.own
        if own is None or self.copy is None:
            return []
        return tasklog.disagreements(self.copy, own)


def read(layer: Layer, found: ledger.Scan | None = None) -> Situation:
    """The situation of `layer`'s checkout; `found` is a ledger scan already made."""
    scan = ledger.task_scan(ledger.path(layer.state)) if found is None else found
    return _with_copy(layer, scan, task_of(scan))


def task_of(scan: ledger.Scan) -> tasklog.Task | None:
    """The newest task of `scan`'s lines; the lines before them are counted only when one of
    its line numbers is read (a finding naming the line)."""
    rows = list(zip((row[0] for row in scan.local_rows), scan.values, strict=True))
    return tasklog.derive(rows, scan.lines_before)


def read_task(layer: Layer) -> Situation:
    """`read` for a caller that needs only the task (`start`): the ledger's few lines that
    can move it (`ledger.task_rows`), no scan of the tail."""
    return _with_copy(layer, None, tasklog.derive(ledger.task_rows(ledger.path(layer.state))))


def _with_copy(layer: Layer, scan: ledger.Scan | None, task: tasklog.Task | None) -> Situation:
    """The situation, with `current.yaml` read (or why it does not parse)."""
    copy, problem = None, None
    try:
        copy = tasks.read_current(layer)
    except ContractUnmet as exc:
        problem = exc.message
    return Situation(layer.root, scan, task, copy, problem)


def blockers(
    place: Place, task: str, situation: Situation, text: str | None, problem: str | None
) -> questions.Blockers:
    """`questions.blockers` for `task` over the question file's text and the ledger's lines."""
    from mj_state.records import (
        questions,  # its patterns are compiled only by a reader of questions
    )

    scan = situation.scan
    rows = [(row[0], value) for row, value in zip(scan.local_rows, scan.values, strict=True)]
    return questions.blockers(text, problem, rows, task, shown=place.questions,
                              ledger=place.ledger, before=scan.lines_before)  # fmt: skip


def copy_findings(place: Place, situation: Situation) -> Iterator[Finding]:
    """One FAIL per way `current.yaml` departs from the ledger (missing, unknown, differing)."""
    copy_path, ledger_path = place.copy, place.ledger
    own = situation.own
    if own is None:
        if situation.copy is not None and not situation.copy_foreign:
            task = situation.copy.get("id")
            message = f"current.yaml names task {task}, but the ledger never started it here"
            import shlex

            reproduce = (
                f"grep -n '^id:' {copy_path}; grep -c -e {shlex.quote(str(task))} {ledger_path}"
            )
            yield Finding("FAIL", "state", copy_path, message, reproduce)
        return
    if situation.copy is None and situation.copy_problem is None:
        message = (
            f"missing — the ledger records task {own.id} ({own.outcome}); "
            "`majordomus check --checkpoint` writes the copy again"
        )
        reproduce = f"ls -l {copy_path}; sed -n '{own.started_line}p' {ledger_path}"
        yield Finding("FAIL", "state", copy_path, message, reproduce)
        return
    for key, ours, theirs in situation.disagreements():
        message = (
            f"{key}: current.yaml says {_shown(ours)}, the ledger says {_shown(theirs)} — the "
            "ledger is the task's record (`majordomus check --checkpoint` rewrites the copy)"
        )
        line = own.lines.get(key, own.started_line)
        after = f" -A{len(ours)}" if isinstance(ours, list) else ""
        reproduce = f"grep -n{after} '^{key}:' {copy_path}; sed -n '{line}p' {ledger_path}"
        yield Finding("FAIL", "state", f"{copy_path}:{key}", message, reproduce)


def _shown(value: object) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(str(item) for item in value) + "]"
    return "nothing" if value is None else str(value)
