"""`mj-state plan-claims`: the waves of `mj-policy plan --view waves`, passed on, then a WARN
for each READY issue whose scope meets an active task's claim — this checkout's or another
worktree's (`mj_state.task.overlap`, containment either way on path boundaries) — so two workers
are not sent into the same files. Git is the registry: the claims are the active tasks'
records, read where each worktree keeps its own.
"""

from __future__ import annotations

from mj_core import paths
from mj_core.findings import Finding
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.task import overlap
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def claims(context: Context) -> list[tuple[str, str, str]]:
    """(where, task id, claimed path) of every active task: here first, then each worktree."""
    layer = load(context.root())
    found: list[tuple[str, str, str]] = []
    own = taskstate.read(layer).active_record()
    if own is not None:
        found += [(".", str(own["id"]), str(p)) for p in own.get("scope") or []]
    for other, _ in overlap.other_worktrees(layer.root):
        shown = overlap.shown_path(layer.root, other)
        record, _problem = overlap.record_of(other, shown)  # an unreadable one is check's to say
        if record is not None:
            found += [(shown, str(record.get("id")), str(p)) for p in record.get("scope") or []]
    return found


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    arrived = list(context.records(options.input))
    yield from arrived
    ready: dict[str, list[str]] = {}
    for record in arrived:
        if record.get("view") == "wave":
            ready.update(record.get("ready") or {})
    if not ready:
        return
    active = claims(context)
    for ident, scope in ready.items():
        for where, task, claim in active:
            meets = [p for p in scope if paths.overlaps(p, claim)]
            if meets:
                message = (
                    f"READY, but its scope {', '.join(meets)} meets the claim {claim} of "
                    f"task {task} ({'this checkout' if where == '.' else where})"
                )
                yield Finding(
                    "WARN", "overlap", ident, message, "majordomus check --overlap"
                ).record()


STAGES = {"plan-claims": Stage(run)}
