"""`mj-watch finish`: judge the finish contract over the task's facts; write only if all pass.

Facts come from `mj_state.finishing`, judgement from `mj_watch.contract`, and the write goes back
through `mj_state.finishing.record` — only when no line failed and not under `--check`. Every
line is yielded as a finding; the last record names the verdict and the blocking doctrines.
`--check` writes nothing and is inert (exit 0) with no active task, a finished one, or a record
that belongs to another worktree.
"""

from __future__ import annotations

from mj_core import limits
from mj_core import yamlstrict
from mj_core.cli import Context
from mj_core.cli import Stage
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.findings import Finding

from mj_watch import contract

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]

OUTCOMES = ("completed", "partial", "blocked", "no_match", "failed")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--outcome", choices=OUTCOMES, help="the typed outcome claimed")
    parser.add_argument("--verify-command", help="the verification the tool runs (no shell)")
    parser.add_argument("--note", help="completion note file (else the newest handover)")
    parser.add_argument("--check", action="store_true", help="evaluate scope and state; no write")


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_policy.layer import load
    from mj_state import tasks

    root = context.root()  # outside a repository, that is the usage error reported
    if not options.check and not options.outcome:
        raise UsageError(
            "finish: --outcome is required (completed|partial|blocked|no_match|failed)"
        )
    if options.check and not (root / ".ai" / "local" / "state" / "current.yaml").exists():
        yield from _inert("no active task — nothing to check")
        return
    layer = load(root)
    task = tasks.read_current(layer)
    reason = _not_finishable(layer, task)
    if reason and options.check:
        yield from _inert(reason)
        return
    if task is None or reason:
        raise (MissingArtifact if task is None else Refused)(f"finish: {reason}")
    yield from _judge(layer, task, options)


def _not_finishable(layer: Any, task: Record | None) -> str | None:
    from mj_state import identity

    if task is None:
        return "no task in this checkout — run `majordomus start`"
    if task["outcome"] != "active":
        return f"task {task['id']} already finished ({task['outcome']}); nothing written"
    if identity.foreign(layer.root, task):
        return f"task {task['id']} belongs to {task['worktree']}; nothing enforced or written here"
    return None


def _inert(reason: str) -> Iterator[Record]:
    yield Finding("INFO", "task", "finish --check", reason).record()
    yield {"kind": "record", "action": "checked", "blocking": []}


def _judge(layer: Any, task: Record, options: argparse.Namespace) -> Iterator[Record]:
    from mj_state import finishing

    outcome = options.outcome or "completed"
    facts = finishing.facts(layer, task, outcome, check_only=options.check)
    note_text = None
    if not options.check:
        if options.note:
            facts["note"], note_text = finishing.read_note(layer, options.note)
        if options.verify_command:
            facts["verify"] = finishing.verify(layer.root, options.verify_command)
    lines = contract.evaluate(facts)
    yield from (line.finding.record() for line in lines)
    blocking = contract.blocking(lines)
    if options.check or blocking:
        yield {"kind": "record", "action": "checked" if options.check else "refused",
               "blocking": blocking}  # fmt: skip
        return
    if note_text is None:
        shown = facts["note"]["path"]
        note_text = yamlstrict.read_text(layer.root / shown, shown, limits.NOTE)
    written = finishing.record(
        layer, task, outcome=outcome, contract=contract.verdicts(lines),
        run=facts.get("verify"), note_text=note_text,
    )  # fmt: skip
    yield {"kind": "record", "action": "finished", "task_id": task["id"], "outcome": outcome,
           "blocking": [], **written}  # fmt: skip


STAGES = {"finish": Stage("evaluate the finish contract; record the outcome", arguments, run)}
