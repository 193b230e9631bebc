"""The client hooks that failed open, judged at the boundary (CLI-REFERENCE Decision 21; pure).

A provider hook that cannot judge (`capture tool`, `capture stop`: a malformed payload, an
internal error) lets the call or the stop through and leaves a `hook.unjudged` line, so a broken
hook never bricks a session. What the task did then was never judged, so `verify` FAILs the
task: each such line of a published ledger whose task covers a commit of the range (or would:
unfinished, or a stray), or that was written at a commit of the range, is a FAIL naming the
task and the hook.
"""

from __future__ import annotations

from mj_core.findings import Finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_watch.verify.cover import Covered

    Record = dict[str, Any]


def judge(seen: Record, found: list[Covered]) -> Iterator[Finding]:
    involved: set[str] = set()
    for one in found:
        tasks = [one.task, one.unfinished, *one.strays]
        involved.update(str(t["task_id"]) for t in tasks if t is not None)
    starts = seen["starts"]
    for ledger in seen["ledgers"]:
        for row in ledger["unjudged"]:
            task = row["task_id"]
            at = starts.get(str(row["head"]))
            if task not in involved and (at is None or at < 0):
                continue
            subject = task or str(row["head"])[:12]
            whose = f"task {task}" if task else "no task"
            message = (f"the {row['provider']} {row['hook']} hook could not judge and let the "
                       f"call through ({row['why']}; clone {ledger['clone']} ledger line "
                       f"{row['line']}, {whose}): what was done then was never judged")  # fmt: skip
            yield Finding("FAIL", "layer", subject, message, f"git log -p {ledger['commit']}")
