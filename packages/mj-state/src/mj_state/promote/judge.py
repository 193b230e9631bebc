"""`mj-state knowledge-promote-judge`: whether a candidate may be promoted, over `mj-state
knowledge-promote-facts`.

A judge: it reads the one `knowledge-promote` fact on stdin (or a file) and never the
repository. In the order a person meets the faults: the candidate (`mj_policy.knowledge.
awaiting.checked`: a malformed id 2, promoted already 15, no such candidate 12, one that does
not read 10, one judged already 15); a task active in this checkout (15: a task's worker does
not verify its own knowledge); the evidence (nothing piped 2, empty 2, a conversation 15); a
`--class` that is not lower-case letters, digits and `-` (2). A promotion that may be written
becomes one `verdict`: the curated record's whole text (`status: verified`, `--class` when
given, the body and a `# Evidence` section), for `mj-state knowledge-promote-write`.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.exit_codes import ExitCode
from mj_core.stream.stage import Stage
from mj_policy.knowledge import awaiting
from mj_policy.knowledge import notes

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield judge(
        context.the_fact(options.input, "knowledge-promote", "mj-state knowledge-promote-facts")
    )


def judge(fact: Record) -> Record:
    """The verdict of a promotion; a refusal raised with its exit code."""
    from mj_state.records import promote

    found = fact["candidate"]
    awaiting.checked(found)
    if fact.get("task_id") is not None:
        raise Refused(
            f"knowledge promote: task {fact['task_id']} is active in this checkout — knowledge is "
            "verified by a person with no task active, never by the task's worker; nothing was "
            "written"
        )
    problem = fact.get("evidence_problem")
    if problem:
        raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))
    said = awaiting.said(str(fact.get("evidence") or ""), f"{promote.STDIN} (the evidence)")
    front = dict(found["front"], status="verified")
    given = fact.get("class")
    if given is not None:
        if not promote.CLASS.match(str(given)):
            raise UsageError(f"--class {given!r}: lower-case letters, digits, -")
        front["class"] = given
    body = f"{str(found['body']).strip(chr(10))}\n\n# Evidence\n\n{said}\n"
    title = found["front"].get("title")
    return {
        "kind": "verdict",
        "action": "knowledge-promote",
        "id": found["id"],
        "candidate": found["path"],
        "path": f"{notes.CURATED}/{found['id']}.md",
        "title": title if isinstance(title, str) else "",
        "class": front.get("class"),
        "evidence": fact.get("evidence"),
        "content": notes.render(front, body).decode(),
    }


STAGES = {"knowledge-promote-judge": Stage(run)}
