"""`mj-state decision-add-judge`: whether a decision may be recorded, over
`mj-state decision-add-facts`.

A judge: it reads the one `decision-add` fact on stdin (or a file) and never the repository.
In the order a person meets the faults: a credential in a field (15 naming it, unless
`--redact`), a log that could not be read (its own code), a title or `--why` missing or not one
line (2), `--supersedes` naming no recorded decision or several (15). A decision that may be
recorded becomes one `verdict`: the entry as `mj-state decision-add-write` writes it (its date
aside, taken when it is written) and how many entries the log held when it was judged.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.exit_codes import ExitCode
from mj_core.stream.stage import Stage

from mj_state.records import bodies
from mj_state.records import decisions

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

GUARDED = {"title": "the title", "why": "--why", "rejected": "--rejected",
           "evidence": "--evidence"}  # fmt: skip


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield judge(context.the_fact(options.input, "decision-add", "mj-state decision-add-facts"))


def judge(fact: Record) -> Record:
    """The verdict of a decision that may be recorded; a refusal raised with its exit code."""
    fields = {
        key: None if fact.get(key) is None
        else bodies.guarded(str(fact[key]), f"decision add {flag}", redact=bool(fact["redact"]))
        for key, flag in GUARDED.items()
    }  # fmt: skip
    problem = fact.get("problem")
    if problem:
        raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))
    titles = [str(title) for title in fact.get("titles") or []]
    supersedes = fact.get("supersedes")
    entry = decisions.build(
        [decisions.Entry(0, "", title, {}) for title in titles],
        title=str(fields["title"] or ""),
        why=fields["why"],
        rejected=fields["rejected"],
        evidence=fields["evidence"],
        supersedes=None if supersedes is None else str(supersedes),
        task_id=fact.get("task_id"),
        head=fact.get("head"),
        moment=0,  # the date is the writer's: a judge has no clock
    )
    return {
        "kind": "verdict",
        "action": "decision-add",
        "title": entry.title,
        **{key.lower(): entry.fields[key] for key in decisions.FIELDS},
        "seen": len(titles),
    }


STAGES = {"decision-add-judge": Stage(run)}
