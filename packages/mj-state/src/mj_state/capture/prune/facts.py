"""`mj-state capture-prune-facts [--dry-run]`: what `mj-state capture-prune-judge` judges, as one
`capture-prune` fact: the policy's `prompts.retention_max_days` and `retention_max_bytes` (or
their defaults), the clock, and each record of the archive oldest first with when it was
captured and its text's UTF-8 bytes (a record already pruned has none; the text itself is never
carried), or why a file is not a capture record. Nothing is judged here.
"""

from __future__ import annotations

from mj_core import clock
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
    days, most = store.limits(root)
    found: list[Record] = []
    for path, record, why in store.records(root):
        shown = path.relative_to(root).as_posix()
        if record is None:
            found.append({"path": shown, "problem": why})
        elif isinstance(record.get("prompt"), str):
            size = len(record["prompt"].encode("utf-8", "surrogatepass"))
            found.append({"path": shown, "captured_at": record["captured_at"], "bytes": size})
    return {"kind": "fact", "fact": "capture-prune", "dry_run": dry_run, "days": days,
            "most": most, "now": clock.now(), "records": found}  # fmt: skip


STAGES = {"capture-prune-facts": Stage(run)}
