"""`mj-state checkpoint-judge`: whether a checkpoint may be written, over
`mj-state checkpoint-facts`.

A judge: it reads the facts on stdin (or a file) and never the repository. In the order a
person meets the faults: a body that could not be read or derived (its own code: 2 nothing
piped), a credential in it (15 naming its line, unless `--redact`; a derived body is always
redacted: a hook derives, nobody is there to be refused), more lines than
`checkpoint.max_body_lines` (10, with advice to write a handover; never truncated), a line that
sets identity (10). A checkpoint that may be written becomes one `verdict` naming what
`mj-state checkpoint-write` writes: the task (or none) and the body as it will be stored (an
empty body writes no file: only the task's `checkpoint_at` moves). A `records-prune` fact is
judged by `mj_state.records.prune.judge`; any other record is passed on.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
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
    judged, foreign = False, False
    for record in context.records(options.input):
        fact = record.get("fact") if record.get("kind") == "fact" else None
        if fact == "checkpoint-request":
            judged = True
            yield judge(record)
        elif fact == "records-prune":
            from mj_state.records import prune

            judged = True
            yield prune.judge(record)
        else:
            foreign = foreign or fact is not None
            yield record  # a reading (--show, --list) passes on
    if foreign and not judged:  # another stage's facts: nothing to judge with (as `the_fact`)
        raise MissingArtifact(
            "the facts carry no checkpoint-request fact — `mj-state checkpoint-facts`"
        )


def judge(fact: Record) -> Record:
    """The verdict of a checkpoint that may be written; a refusal raised with its exit code."""
    problem = fact.get("body_problem")
    if problem:
        raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))
    redact = bool(fact.get("redact") or fact.get("derive"))
    body = bodies.guarded(str(fact.get("body") or ""), STDIN, redact=redact)
    cap, count = int(fact["max_body_lines"]), bodies.line_count(body)
    if count > cap:
        raise ContractUnmet(
            f"{STDIN}: {count} lines, over checkpoint.max_body_lines {cap} — nothing "
            "written; a note this long is a handover: `majordomus handover < body.md`"
        )
    if count:
        bodies.refuse_identity(body, STDIN)  # as publishing the record refuses it
    return {"kind": "verdict", "action": "checkpoint", "task_id": fact.get("task_id"),
            "body": body}  # fmt: skip


STAGES = {"checkpoint-judge": Stage(run)}
