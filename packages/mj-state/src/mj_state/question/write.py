"""`mj-state question-add-write` and `mj-state question-resolve-write`: the one write of
`question add` (a line added to the index, `question.opened` in the ledger) and of
`question resolve` (that one line rewritten, `question.resolved`), as the judge's verdict names
it. Each is `mj_state.records.write`'s: under the file's lock, the ledger line first, then the
whole file by one rename.

Each passes the judge's stream on; its own verdict becomes the write. Neither takes the verdict
on trust: under the file's lock it reads the index and this checkout's active task itself,
builds the request again from them and the verdict, and judges it again
(`mj_state.question.judge`): a refusal there is the command's (a resolve judged before
another resolve of the same question finds it resolved: 15), and a verdict that differs (another
task, another question, a redaction undone by hand) writes nothing (15). Nor does an opening
judged over more entries than the index holds, or whose line was added after it was judged.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import Refused
from mj_core.sanitise import undecodable
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.ledger import store as ledger
from mj_state.question import facts as questionfacts
from mj_state.question import judge as questionjudge
from mj_state.records import questions
from mj_state.records import write as recordwrite

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from collections.abc import Iterator
    from typing import Any
    from typing import NoReturn

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def run_add(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from _written(options, context, "question-add", add)


def run_resolve(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from _written(options, context, "question-resolve", resolve)


def _written(
    options: argparse.Namespace,
    context: Context,
    action: str,
    write: Callable[[Layer, Record], Record],
) -> Iterator[Record]:
    yield from context.carried(
        options.input, action, lambda verdict: (write(load(context.root()), verdict),)
    )


def add(layer: Layer, verdict: Record) -> Record:
    """The opening judged again under the index's lock, then its line added."""

    def change(now: str) -> tuple[str, Callable[[], object]]:
        text = questionfacts.decoded(now)
        task_id, problem = questionfacts.active(layer)
        seen = verdict.get("seen")
        entries = [] if text is None else questions.parse(text)[0]
        if type(seen) is not int or not 0 <= seen <= len(entries):
            _refuse("question add", "it was judged over entries the index does not hold")
        fact = questionfacts.add_request(str(verdict.get("question")), False, task_id, problem,
                                         seen)  # fmt: skip
        if questionjudge.add(fact) != verdict:
            _refuse("question add", "it is not what this checkout gives now")
        asked = str(verdict["question"])
        if any(not e.resolved and (e.task_id, e.question) == (task_id, asked)
               for e in entries[seen:]):  # fmt: skip
            _refuse("question add", "its line was added after it was judged (a replay)")
        line = questions.unresolved_line(str(task_id), asked, clock.day(clock.now()))

        def opened() -> object:
            return ledger.append(layer.root, layer.state, "question.opened",
                                 {"question": asked}, task_id=task_id)  # fmt: skip

        return recordwrite.appended(now, undecodable(line) + "\n", gap=False), opened

    recordwrite.rewrite(questions.path(layer.state), change)  # the ledger line first
    return {"kind": "record", "action": "opened", "task_id": verdict["task_id"],
            "question": verdict["question"]}  # fmt: skip


def resolve(layer: Layer, verdict: Record) -> Record:
    """The resolve judged again under the index's lock, then its one line rewritten."""

    def change(now: str) -> tuple[str, Callable[[], object]]:
        fact = questionfacts.resolve_request(layer, str(verdict.get("number")),
                                             str(verdict.get("answer")), False,
                                             text=questionfacts.decoded(now),
                                             problem=None)  # fmt: skip
        entry, answer = questionjudge.chosen(fact)
        if questionjudge.resolve(fact) != verdict:
            _refuse("question resolve", "it is not what this checkout gives now")
        lines = now.split("\n")
        lines[entry.lineno - 1] = questions.resolved_line(entry, clock.day(clock.now()), answer)
        payload = {"question": entry.question, "answer": answer}
        return "\n".join(lines), lambda: ledger.append(
            layer.root, layer.state, "question.resolved", payload, task_id=entry.task_id
        )

    recordwrite.rewrite(questions.path(layer.state), change)  # the ledger line first
    return {"kind": "record", "action": "resolved", "number": verdict["number"],
            "question": verdict["question"], "answer": verdict["answer"]}  # fmt: skip


def _refuse(command: str, why: str) -> NoReturn:
    raise Refused(f"{command}: the verdict is refused: {why}; nothing was written")


STAGES = {"question-add-write": Stage(run_add), "question-resolve-write": Stage(run_resolve)}
