"""A busy checkout's history, written in the stored formats by the owners' own builders.

Past tasks with their ledger lines (start, checkpoints, handovers, finish), checkpoint and
handover records (a quarter on another branch), decisions and questions. Everything is built
in-process from one git identity, with timestamps spread over the past thirty days, so a large
fixture takes seconds, not one process per record.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

from mj_core import clock
from mj_core import ids
from mj_core.stream import jsonl
from mj_state import identity
from mj_state.ledger import chain
from mj_state.ledger import store as ledger
from mj_state.records import decisions
from mj_state.records import questions
from mj_state.records import store as records

TYPE_CHECKING = False  # `typing` is imported for annotations only
if TYPE_CHECKING:
    from typing import Any

DAY = 86400  # seconds
HANDOVER = (
    "# Objective\nKeep the fixture busy.\n# Current State\nHalf done.\n# Next Action\nGo on.\n"
)


class Sizes:
    """How much history the fixture writes, record kind by record kind."""

    __slots__ = ("checkpoints", "decisions", "handovers", "ledger_lines", "questions")

    def __init__(
        self, ledger_lines: int, handovers: int, checkpoints: int, decisions: int, questions: int
    ) -> None:
        self.ledger_lines = ledger_lines
        self.handovers = handovers
        self.checkpoints = checkpoints
        self.decisions = decisions
        self.questions = questions

    def _fields(self) -> tuple[int, ...]:
        return (self.ledger_lines, self.handovers, self.checkpoints, self.decisions, self.questions)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sizes):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    @classmethod
    def large(cls, scale: int) -> Sizes:
        return cls(5000 * scale, 200 * scale, 500 * scale, 100 * scale, 50 * scale)


class _Clock:
    """Strictly increasing moments from thirty days ago, one per call."""

    def __init__(self, count: int) -> None:
        self.start = clock.now() - 30 * DAY
        self.step = 29 * DAY / max(count, 1)
        self.ticks = itertools.count()

    def next(self) -> int:
        return self.start + int(self.step * next(self.ticks))


def write(root: Path, state: Path, sizes: Sizes) -> None:
    where = identity.identity(root)
    tasks = [ids.task_id(clock.now() - 31 * DAY - i) for i in range(50)]
    moments = _Clock(2 * sizes.ledger_lines)  # more ticks than lines: never in the future
    lines: list[dict[str, Any]] = []
    lines += _records(state, where, tasks, "checkpoint", count=sizes.checkpoints, moments=moments)
    lines += _records(state, where, tasks, "handover", count=sizes.handovers, moments=moments)
    lines += _decisions(state, where, tasks, sizes.decisions, moments)
    lines += _questions(state, tasks, sizes.questions, moments)
    lines += _lifecycle(tasks, moments)
    while len(lines) < sizes.ledger_lines:
        lines.append(_line(moments, "task.checkpoint", {}, tasks[len(lines) % len(tasks)]))
    lines.sort(key=lambda line: str(line["ts"]))
    _ledger(state, where, lines[: sizes.ledger_lines])


def _line(moments: _Clock, event: str, payload: dict[str, Any], task: str | None) -> dict[str, Any]:
    return {"ts": clock.iso(moments.next()), "event": event, "task_id": task, **payload}


def _ledger(state: Path, where: dict[str, Any], lines: list[dict[str, Any]]) -> None:
    """The lines as the tool writes them: the envelope, each chained to the one before, and
    the tip that vouches for the last (a history is measured as it is really kept)."""
    envelope = {"head": where["head"], "branch": where["branch"], "by": "majordomus/bench"}
    target = ledger.path(state)
    prev = chain.GENESIS
    written: list[bytes] = []
    for line in lines:
        task = line.pop("task_id")
        full = {"ts": line.pop("ts"), "event": line.pop("event"), **envelope}
        full.update({"task_id": task} if task else {})
        encoded = jsonl.encode({**full, **line, "prev": prev})
        prev = chain.digest(encoded)
        written.append(encoded + b"\n")
    data = b"".join(written)
    target.write_bytes(data)
    last = chain.digest(written[-1][:-1]) if written else ""
    target.with_name(chain.TIP).write_bytes(chain.Tip(len(data), last).render())


def _records(
    state: Path,
    where: dict[str, Any],
    tasks: list[str],
    kind: str,
    *,
    count: int,
    moments: _Clock,
) -> list[dict[str, Any]]:
    folder = records.directory(state, kind)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for index in range(count):
        moment = moments.next()
        branch = "feature" if index % 4 == 3 else str(where["branch"])
        front = {
            "schema_version": 1,
            "created_at": clock.iso(moment),
            "task_id": tasks[index % len(tasks)],
            "profile": "implementation",
            "owner": "bench",
            **{**where, "branch": branch},
            "changed_files": [],
        }
        body = HANDOVER if kind == "handover" else f"Checkpoint {index}: still going.\n"
        name = ids.record_name(moment, branch, str(where["head"]))
        target = folder / name
        target.write_bytes(records.render(front, body))
        os.chmod(target, records.MODE)
        shown = f".ai/local/state/{records.KINDS[kind]}/{name}"
        if kind == "handover":
            payload = {"handover_path": shown, "closed": False}
            out.append(_line(moments, "task.handed_over", payload, front["task_id"]))
        else:
            out.append(
                _line(moments, "task.checkpoint", {"checkpoint_path": shown}, front["task_id"])
            )
    return out


def _decisions(
    state: Path, where: dict[str, Any], tasks: list[str], count: int, moments: _Clock
) -> list[dict[str, Any]]:
    out = []
    with decisions.path(state).open("a", encoding="utf-8") as handle:
        for index in range(count):
            moment = moments.next()
            fields = {"Task": tasks[index % len(tasks)], "Head": str(where["head"])[:12]}
            fields["Why"] = f"reason {index}"
            entry = decisions.Entry(0, clock.iso(moment)[:10], f"decision {index}", fields)
            handle.write("\n" + entry.text())
            out.append(
                _line(moments, "decision.recorded", {"decision": entry.title}, fields["Task"])
            )
    return out


def _questions(state: Path, tasks: list[str], count: int, moments: _Clock) -> list[dict[str, Any]]:
    out = []
    with questions.path(state).open("a", encoding="utf-8") as handle:
        for index in range(count):
            task = tasks[index % len(tasks)]
            text = f"question {index}?"
            date = clock.iso(moments.next())[:10]
            out.append(_line(moments, "question.opened", {"question": text}, task))
            if index % 2:
                entry = questions.Entry(index + 1, 0, False, task, text, date, None)
                handle.write(questions.resolved_line(entry, date, f"answer {index}") + "\n")
                answer = {"question": text, "answer": f"answer {index}"}
                out.append(_line(moments, "question.resolved", answer, task))
            else:
                handle.write(questions.unresolved_line(task, text, date) + "\n")
    return out


def _lifecycle(tasks: list[str], moments: _Clock) -> list[dict[str, Any]]:
    out = []
    for task in tasks:
        started = {"task": "a past task", "profile": "implementation", "scope": ["src"]}
        started.update(owner="bench", worktree_id=".", working_tree="clean")
        out.append(_line(moments, "task.started", started, task))
        finished: dict[str, Any] = {"outcome": "completed", "contract": {}, "verify": None}
        finished.update(checkpoints=1, working_tree="clean")
        out.append(_line(moments, "task.finished", finished, task))
    return out
