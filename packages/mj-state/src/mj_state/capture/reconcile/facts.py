"""`mj-state capture-reconcile-facts [--dry-run]`: what `mj-state capture-reconcile-judge`
judges, as one `capture-reconcile` fact: each orphaned record of the archive (`episode_link:
orphan`) with its provider session, or why a file is not a capture record, oldest first; and
for each provider session they name, the episodes the surviving evidence ties to it (a working
context under `session-contexts/`, or a `session.closed` line whose record names it). Nothing
is judged here.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

from mj_state.capture import store

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield gather(context.root(), dry_run=bool(options.dry_run))


def gather(root: Path, *, dry_run: bool) -> Record:
    found: list[Record] = []
    for path, record, why in store.records(root):
        shown = path.relative_to(root).as_posix()
        if record is None:
            found.append({"path": shown, "problem": why})
        elif record.get("episode_link") == "orphan":
            key = record.get("provider_session")
            found.append({"path": shown, "provider_session": key if isinstance(key, str) else None})
    keys = {str(f["provider_session"]) for f in found if f.get("provider_session")}
    evidence = store.evidence(root) if keys else {}
    return {"kind": "fact", "fact": "capture-reconcile", "dry_run": dry_run, "records": found,
            "evidence": {key: sorted([list(pair) for pair in evidence.get(key, set())])
                         for key in sorted(keys)}}  # fmt: skip


STAGES = {"capture-reconcile-facts": Stage(run)}
