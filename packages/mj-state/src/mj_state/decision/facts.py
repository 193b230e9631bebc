"""`mj-state decision-add-facts "<title>" --why <text> [--rejected …] [--evidence …]
[--supersedes …] [--redact]`: what `mj-state decision-add-judge` judges, as one fact.

One `decision-add` fact: the fields as given, `--redact`, this checkout's active task as the
ledger records it (or none), git's HEAD, the titles of the decisions recorded so far in file
order (or what stopped reading the log, with its exit code). Nothing is judged here.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.git import questions as git
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.records import decisions
from mj_state.records import writing

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

GIVEN = ("title", "why", "rejected", "evidence", "supersedes")


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    given: Record = {key: getattr(options, key, None) for key in GIVEN}
    given["redact"] = bool(getattr(options, "redact", False))
    task = writing.active_here(layer)
    titles: list[str] = []
    problem: Record | None = None
    try:
        titles = [entry.title for entry in decisions.read(layer.state)]
    except MjError as exc:
        problem = {"code": int(exc.code), "message": exc.message}
    task_id = str(task["id"]) if task is not None else None
    yield request(given, task_id, git.head(layer.root), titles, problem)


def request(
    given: Record,
    task_id: str | None,
    head: str | None,
    titles: list[str],
    problem: Record | None,
) -> Record:
    """The `decision-add` fact (the writer builds it again from what it reads itself)."""
    return {
        "kind": "fact",
        "fact": "decision-add",
        **{key: given.get(key) for key in GIVEN},
        "redact": bool(given.get("redact")),
        "task_id": task_id,
        "head": head,
        "titles": list(titles),
        "problem": problem,
    }


STAGES = {"decision-add-facts": Stage(run)}
