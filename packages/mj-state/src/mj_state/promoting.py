"""`mj-state knowledge-promote <id> [--class <c>]` (the evidence on stdin): a person's promotion
of a candidate to `status: verified`, refused (15) while a task is active in this checkout — a
task's worker does not verify its own knowledge. The write is `mj_knowledge.review.promote`'s;
its `knowledge.promoted` line, written by `mj-state log`, names who promoted it as git knows
them (`promoted_by`), and that writer refuses it too while a task is active here.
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stage import Context

    Record = dict[str, Any]


def refuse_while_active(root: Path, what: str) -> None:
    """15 while this checkout has an active task (the ledger's word, as every writer asks)."""
    from mj_policy.layer import load

    from mj_state import writing

    task = writing.active_here(load(root))
    if task is not None:
        raise Refused(
            f"{what}: task {task['id']} is active in this checkout — knowledge is verified by a "
            "person with no task active, never by the task's worker; nothing was written"
        )


def promoter(root: Path) -> str:
    """Who promotes, as git knows them (`git var GIT_COMMITTER_IDENT` without its time)."""
    from mj_core import git

    ident = git.out("var", "GIT_COMMITTER_IDENT", cwd=root)
    if not ident or "<" not in ident:
        raise Refused("knowledge promote: git knows no committer (user.name, user.email)")
    return ident.rsplit(" ", 2)[0]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_knowledge import review

    root = context.root()
    review.awaiting(root, options.id)  # a missing or judged candidate is told first
    refuse_while_active(root, "knowledge promote")
    yield from review.promote(root, options, review.evidence(context))


STAGES = {"knowledge-promote": Stage(run)}
