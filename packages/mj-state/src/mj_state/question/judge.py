"""`mj-state question-add-judge` and `mj-state question-resolve-judge`: whether a question may
be opened or resolved, over `mj-state question-add-facts` or `question-resolve-facts`.

A judge: it reads its one fact on stdin (or a file) and never the repository. Adding, in the
order a person meets the faults: the text not one non-empty line (2), a credential in it (15,
unless `--redact`), ` — ` in it (2), no active task (12). Resolving: the answer not one line
(2), a credential in it (15, unless `--redact`), an index that cannot be read or is not UTF-8
or holds a malformed line (10), a selector naming no unresolved question, several, or one
already resolved (15, never a guess). The verdict names what the writer writes: the line's task
and text (with how many entries the index held), or the question resolved and its answer.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.exit_codes import ExitCode
from mj_core.stream.stage import Stage

from mj_state.records import bodies
from mj_state.records import questions
from mj_state.records.questions import Entry

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run_add(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield add(context.the_fact(options.input, "question-add", "mj-state question-add-facts"))


def run_resolve(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    gatherer = "mj-state question-resolve-facts"
    yield resolve(context.the_fact(options.input, "question-resolve", gatherer))


def add(fact: Record) -> Record:
    """The verdict of a question that may be opened; a refusal raised with its exit code."""
    asked = _one_line(str(fact.get("question") or ""), "question")
    text = bodies.guarded(asked, "question", redact=bool(fact.get("redact")))
    if questions.SEP in text:
        raise UsageError(f"question: the text may not contain {questions.SEP.strip()!r}")
    _raise(fact.get("task_problem"))
    return {"kind": "verdict", "action": "question-add", "task_id": fact.get("task_id"),
            "question": text, "seen": fact.get("seen")}  # fmt: skip


def resolve(fact: Record) -> Record:
    """The verdict of a question that may be resolved; a refusal raised with its exit code."""
    entry, answer = chosen(fact)
    return {"kind": "verdict", "action": "question-resolve", "number": entry.number,
            "task_id": entry.task_id, "question": entry.question, "answer": answer}  # fmt: skip


def chosen(fact: Record) -> tuple[Entry, str]:
    """The entry the selector names in the index's text, and the answer as it is stored."""
    said = _one_line(str(fact.get("answer") or ""), "--answer")
    answer = bodies.guarded(said, "--answer", redact=bool(fact.get("redact")))
    _raise(fact.get("problem"))
    shown, text = str(fact.get("path")), fact.get("text")
    if text is None:
        raise ContractUnmet(f"{shown}:1: is not UTF-8 — fix it first")
    entries, malformed = questions.parse(str(text))
    if malformed:
        raise ContractUnmet(
            f"{shown}:{malformed[0].lineno}: not one of the two question line shapes — fix it first"
        )
    return pick(entries, str(fact.get("selector"))), answer


def pick(entries: list[Entry], selector: str) -> Entry:
    """The one unresolved entry `selector` names (number or text); otherwise 15."""
    if selector.strip().isdigit():
        found = [e for e in entries if e.number == int(selector)]
        if not found:
            raise Refused(f"question resolve: no question number {selector}")
        if found[0].resolved:
            raise Refused(f"question resolve: question {selector} is already resolved")
        return found[0]
    open_ = [e for e in entries if not e.resolved]
    exact = [e for e in open_ if e.question == selector]
    found = exact or [e for e in open_ if selector.casefold() in e.question.casefold()]
    if len(found) != 1:
        which = "matches no" if not found else f"matches {len(found)}"
        raise Refused(
            f"question resolve: {selector!r} {which} unresolved question(s); use its number"
        )
    return found[0]


def _one_line(text: str, what: str) -> str:
    value = text.strip()
    if not value or "\n" in value or "\r" in value:
        raise UsageError(f"question: {what} is one non-empty line")
    return value


def _raise(problem: object) -> None:
    if isinstance(problem, dict):
        raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))


STAGES = {"question-add-judge": Stage(run_add), "question-resolve-judge": Stage(run_resolve)}
