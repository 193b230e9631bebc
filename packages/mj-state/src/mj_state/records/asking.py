"""`mj-state question-add|question-resolve|question-list`: the open-questions index.

`add` stamps the active task (none → 12) and adds one line; `resolve` rewrites that one line;
an unknown or ambiguous selector → 15, never a guess; a credential in the text refuses it (15)
unless `--redact`. Each write is `mj_state.records.write`'s: under the file's lock, its ledger
event (question.opened / question.resolved) first, then the whole file by one rename.
"""

from __future__ import annotations

import argparse

from mj_core import clock
from mj_core.errors import ContractUnmet
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.sanitise import undecodable
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import Layer
from mj_policy.layer.loader import load

from mj_state.ledger import store as ledger
from mj_state.records import bodies
from mj_state.records import questions
from mj_state.records import write as recordwrite
from mj_state.records import writing
from mj_state.records.questions import Entry

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def add(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    asked = _one_line(options.question, "question")
    text = bodies.guarded(asked, "question", redact=options.redact)
    if questions.SEP in text:
        raise UsageError(f"question: the text may not contain {questions.SEP.strip()!r}")
    task = writing.required_active(layer)
    line = questions.unresolved_line(str(task["id"]), text, clock.day(clock.now()))

    def change(now: str) -> tuple[str, Callable[[], object]]:
        def opened() -> object:
            payload = {"question": text}
            return ledger.append(layer.root, layer.state, "question.opened", payload,
                                 task_id=task["id"])  # fmt: skip

        return recordwrite.appended(now, undecodable(line) + "\n", gap=False), opened

    recordwrite.rewrite(questions.path(layer.state), change)  # the ledger line first
    yield {"kind": "record", "action": "opened", "task_id": task["id"], "question": text}


def resolve(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    said = _one_line(options.answer, "--answer")
    answer = bodies.guarded(said, "--answer", redact=options.redact)
    shown: dict[str, Any] = {}

    def change(now: str) -> tuple[str, Callable[[], object]]:
        entry = pick(_refuse_malformed(layer, now), options.selector)
        lines = now.split("\n")
        lines[entry.lineno - 1] = questions.resolved_line(entry, clock.day(clock.now()), answer)
        payload = {"question": entry.question, "answer": answer}
        shown.update(number=entry.number, **payload)
        return "\n".join(lines), lambda: ledger.append(
            layer.root, layer.state, "question.resolved", payload, task_id=entry.task_id
        )

    recordwrite.rewrite(questions.path(layer.state), change)  # the ledger line first
    yield {"kind": "record", "action": "resolved", **shown}


def listing(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    entries, _ = questions.load(layer.state)
    for entry in entries:
        if (entry.resolved and not options.all) or (options.task and entry.task_id != options.task):
            continue
        yield {
            "kind": "record",
            "number": entry.number,
            "state": "resolved" if entry.resolved else "unresolved",
            "task_id": entry.task_id,
            "question": entry.question,
            "date": entry.date,
            "answer": entry.answer,
        }


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


def _refuse_malformed(layer: Layer, text: str) -> list[Entry]:
    if any("\udc80" <= char <= "\udcff" for char in text):
        shown = layer.relative(questions.path(layer.state))
        raise ContractUnmet(f"{shown}:1: is not UTF-8 — fix it first")
    entries, malformed = questions.parse(text)
    if malformed:
        shown = layer.relative(questions.path(layer.state))
        raise ContractUnmet(
            f"{shown}:{malformed[0].lineno}: not one of the two question line shapes — fix it first"
        )
    return entries


STAGES = {
    "question-add": Stage(add),
    "question-resolve": Stage(resolve),
    "question-list": Stage(listing),
}
