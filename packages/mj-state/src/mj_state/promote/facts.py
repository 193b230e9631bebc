"""`mj-state knowledge-promote-facts <id> [--class <c>]` (the evidence on stdin): what
`mj-state knowledge-promote-judge` judges, as one `knowledge-promote` fact: the candidate as
read (`mj_policy.knowledge.awaiting.found`), this checkout's active task as the ledger records
it (or none), the evidence as piped (or what stopped reading it, with its exit code) and
`--class` as given. Nothing is judged here.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.stream.stage import Stage
from mj_policy.knowledge import awaiting

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_state.records import promote

    evidence, problem = None, None
    try:
        evidence = promote.evidence(context)
    except MjError as exc:
        problem = {"code": int(exc.code), "message": exc.message}
    yield gather(context.root(), str(options.id), options.knowledge_class, evidence, problem)


def gather(
    root: Path, ident: str, knowledge_class: str | None, evidence: str | None,
    problem: Record | None,
) -> Record:  # fmt: skip
    """The `knowledge-promote` fact (the writer gathers it again, with the verdict's evidence)."""
    from mj_policy.layer.loader import load

    from mj_state.records import writing

    task = writing.active_here(load(root))
    return {
        "kind": "fact",
        "fact": "knowledge-promote",
        "class": knowledge_class,
        "task_id": str(task["id"]) if task is not None else None,
        "evidence": evidence,
        "evidence_problem": problem,
        "candidate": awaiting.found(root, ident),
    }


STAGES = {"knowledge-promote-facts": Stage(run)}
