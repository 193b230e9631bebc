"""`mj-knowledge reject <id> --reason <why> [--by <id>]`: a person's judgement against a
candidate, one write and the ledger line it owes (`knowledge.rejected`, appended by `mj-state
log`). Its counterpart, promote, is `mj-state knowledge-promote` (`mj_state.records.promote`).

Reject rewrites the candidate in place (atomically) as `status: rejected` with a `# Rejected`
section giving the reason and who gave it. Only a candidate awaiting review is judged
(`mj_policy.knowledge.awaiting`: no such candidate is 12, one already rejected or promoted is
15, a record that does not read is 10), a reason that carries a conversation is 15, and an
empty one is 2. Nothing is written then.
"""

from __future__ import annotations

import re

from mj_core.errors import UsageError
from mj_core.stream.stage import Stage
from mj_policy.knowledge import awaiting
from mj_policy.knowledge import notes

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def reject(root: Path, options: argparse.Namespace) -> Iterator[Record]:
    from mj_core.write import atomic

    note = awaiting.candidate(root, options.id)
    reason = awaiting.said(options.reason or "", "--reason")
    if "\n" in reason:
        raise UsageError("--reason: one line")
    by = (options.by or "").strip()
    if by and not re.match(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$", by):
        raise UsageError(f"--by {by!r}: one word (a person's or an episode's id)")
    front = dict(note.data, status="rejected")
    body = f"{note.body.strip(chr(10))}\n\n# Rejected\n\n{reason}\n\nBy: {by or '-'}\n"
    atomic.create(root / note.path, notes.render(front, body), mode=0o644, replace=True,
                  root=root)  # fmt: skip
    yield {"kind": "candidate", "action": "rejected", "id": options.id, "path": note.path,
           "title": note.text("title"), "reason": reason}  # fmt: skip
    line: Record = {"kind": "append", "event": "knowledge.rejected", "knowledge": options.id,
                    "reason": reason}  # fmt: skip
    if by:
        line["rejected_by"] = by
    yield line


def _reject(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from reject(context.root(), options)


STAGES = {"reject": Stage(_reject)}  # promote's stage is `mj-state knowledge-promote`
