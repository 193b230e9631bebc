"""`mj-state check`: is the active task consistent with policy, scope and git?

Read-only, except `--checkpoint`, which after the checks moves `checkpoint_at` and appends one
`task.checkpoint` line. No active task → 12; a record that does not parse → one FAIL.
"""

from __future__ import annotations

import argparse
import re

from mj_core import clock
from mj_core.cli import Context
from mj_core.cli import Stage
from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.findings import Finding
from mj_policy.layer import Layer
from mj_policy.layer import load

from mj_state import explain
from mj_state import identity
from mj_state import judge
from mj_state import ledger
from mj_state import overlap
from mj_state import start
from mj_state import tasks

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]

_WHERE = re.compile(r"^[^:]+:(\d+):")


def arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--explain", action="store_true", help="print the effective task setup")
    group.add_argument("--overlap", action="store_true", help="only the overlap report")
    group.add_argument(
        "--checkpoint", action="store_true", help="after the checks, move checkpoint_at"
    )


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    try:
        record = active(layer)
    except ContractUnmet as exc:
        yield unreadable(layer, exc.message).record()
        return
    if options.explain:
        yield from explain.sections(layer, record)
        return
    if options.overlap:
        yield from _overlap(layer, list(record["scope"]))
        return
    interval = start.interval(layer, str(record["profile"]))
    yield from (f.record() for f in judge.all_findings(layer, record, interval))
    if options.checkpoint:
        yield checkpoint(layer, record)


def _overlap(layer: Layer, scope: list[str]) -> Iterator[Record]:
    found = 0
    for finding in overlap.report(layer.root, scope):
        found += 1
        yield finding.record()
    if not found:
        others = len(overlap.other_worktrees(layer.root))
        message = f"none of {others} other worktree(s) claims or has touched it"
        yield Finding("OK", "overlap", ",".join(scope), message).record()


def active(layer: Layer) -> Record:
    """The active task record; none (or a terminal one) → 12."""
    record = tasks.read_current(layer)
    if record is None:
        raise MissingArtifact("no active task in this checkout — run `majordomus start`")
    if record["outcome"] != "active":
        raise MissingArtifact(
            f"no active task: {record['id']} ended {record['outcome']} — run `majordomus start`"
        )
    return record


def unreadable(layer: Layer, message: str) -> Finding:
    shown = layer.relative(tasks.current_path(layer))
    match = _WHERE.match(message)
    line = match.group(1) if match else "1"
    return Finding("FAIL", "state", shown, message, f"sed -n '{line}p' {shown}")


def checkpoint(layer: Layer, record: Record) -> Record:
    """Move `checkpoint_at` and append `task.checkpoint`; never into another checkout's record."""
    if identity.foreign(layer.root, record):
        raise Refused(f"task {record['id']} belongs to {record['worktree']}; nothing written")
    record = {**record, "checkpoint_at": clock.iso(clock.now())}
    path = tasks.write_current(
        layer,
        record,
        replace=True,
        then=lambda: ledger.append(
            layer.root, layer.state, "task.checkpoint", {}, task_id=str(record["id"])
        ),
    )
    return {
        "kind": "record",
        "action": "checkpoint",
        "path": layer.relative(path),
        "checkpoint_at": record["checkpoint_at"],
    }


STAGES = {"check": Stage("judge the active task against policy, scope and git", arguments, run)}
