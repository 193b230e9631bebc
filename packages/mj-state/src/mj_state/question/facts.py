"""`mj-state question-add-facts "<question>" [--redact]` and `mj-state question-resolve-facts
<selector> --answer <text> [--redact]`: what `mj-state question-add-judge` and
`mj-state question-resolve-judge` judge, as one fact each.

A `question-add` fact: the text as given, this checkout's active task as the ledger records it
(or what stopped finding one, with its exit code) and how many entries the index holds. A
`question-resolve` fact: the selector and answer as given and the index's text (None when it
is not UTF-8; '' when it is missing), or what stopped reading it. Nothing is judged here.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.records import questions
from mj_state.records import writing

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def add(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    text, _ = _read(layer)
    task_id, problem = active(layer)
    yield add_request(str(options.question), bool(options.redact), task_id, problem, count(text))


def resolve(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    text, problem = _read(layer)
    yield resolve_request(layer, str(options.selector), str(options.answer),
                          bool(options.redact), text=text, problem=problem)  # fmt: skip


def active(layer: Layer) -> tuple[str | None, Record | None]:
    """This checkout's active task id, or what stops `question add` without one (12)."""
    try:
        return str(writing.required_active(layer)["id"]), None
    except MjError as exc:
        return None, {"code": int(exc.code), "message": exc.message}


def count(text: str | None) -> int:
    """How many entries the index's text holds (none when it is not UTF-8)."""
    return 0 if text is None else len(questions.parse(text)[0])


def add_request(
    question: str, redact: bool, task_id: str | None, problem: Record | None, seen: int
) -> Record:
    """The `question-add` fact (the writer builds it again from what it reads itself)."""
    return {"kind": "fact", "fact": "question-add", "question": question, "redact": redact,
            "task_id": task_id, "task_problem": problem, "seen": seen}  # fmt: skip


def resolve_request(
    layer: Layer,
    selector: str,
    answer: str,
    redact: bool,
    *,
    text: str | None,
    problem: Record | None,
) -> Record:
    """The `question-resolve` fact (the writer builds it again from the file under its lock)."""
    return {"kind": "fact", "fact": "question-resolve", "selector": selector,
            "answer": answer, "redact": redact,
            "path": layer.relative(questions.path(layer.state)), "text": text,
            "problem": problem}  # fmt: skip


def decoded(text: str) -> str | None:
    """The index's text as read (surrogate-escaped), or None when it is not UTF-8."""
    return None if any("\udc80" <= char <= "\udcff" for char in text) else text


def _read(layer: Layer) -> tuple[str | None, Record | None]:
    """The index's text as its writer reads it under the lock, or what stops reading it."""
    from mj_core import limits

    target = questions.path(layer.state)
    try:
        data = target.read_bytes()
    except FileNotFoundError:
        return "", None
    except OSError as exc:
        return "", {"code": 10, "message": f"{target.name}: cannot be read ({exc.strerror})"}
    if len(data) > limits.LOG[0]:
        message = f"{target.name}: over {limits.LOG[0]} bytes, the limit for this file"
        return "", {"code": 10, "message": message}
    return decoded(data.decode("utf-8", "surrogateescape")), None


STAGES = {"question-add-facts": Stage(add), "question-resolve-facts": Stage(resolve)}
