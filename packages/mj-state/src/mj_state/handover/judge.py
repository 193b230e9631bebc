"""`mj-state handover-judge`: whether a handover may be written, over `mj-state handover-facts`.

A judge: it reads the facts on stdin (or a file) and never the repository. In the order a
person meets the faults: no active task without `--no-task` (12), a body that could not be
read or derived (its own code: 2 nothing piped, 10 a section `--derive` cannot fill), a
credential in the body (15 naming its line, unless `--redact`; a derived body is always
redacted), a line that sets identity (10), a required section missing or saying nothing (10).
A handover that may be written becomes one `verdict` naming what `mj-state handover-write`
writes: the task, whether it closes, the body as it will be stored. A `records-prune` fact is
judged by `mj_state.records.prune.judge`; any other record is passed on.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.exit_codes import ExitCode
from mj_core.stream.stage import Stage

from mj_state.records import bodies

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

STDIN = "<stdin>"  # the body's name in a refusal, as the record writers name it


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    for record in context.records(options.input):
        fact = record.get("fact") if record.get("kind") == "fact" else None
        if fact == "handover-request":
            yield judge(record)
        elif fact == "records-prune":
            from mj_state.records import prune

            yield prune.judge(record)
        else:
            yield record


def judge(fact: Record) -> Record:
    """The verdict of a handover that may be written; a refusal raised with its exit code."""
    task_id = fact.get("task_id")
    if task_id is None and not fact.get("no_task"):
        raise MissingArtifact(
            "no active task in this checkout — run `majordomus start`, or pass --no-task "
            "to hand over the episode without one"
        )
    problem = fact.get("body_problem")
    if problem:
        raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))
    redact = bool(fact.get("redact") or fact.get("derive"))  # a hook derives: nobody to refuse
    body = bodies.guarded(str(fact.get("body") or ""), STDIN, redact=redact)
    bodies.refuse_identity(body, STDIN)
    bodies.refuse_missing(body, [str(s) for s in fact.get("required") or []], STDIN)
    return {
        "kind": "verdict",
        "action": "handover",
        "task_id": task_id,
        "closed": bool(fact.get("close")) and task_id is not None,
        "body": body,
    }


STAGES = {"handover-judge": Stage(run)}
