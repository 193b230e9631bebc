"""`mj-knowledge reject-write`: the one write of `knowledge reject` — the candidate rewritten in
place (atomically) as the verdict of `mj-knowledge reject-judge` names it, and the
`knowledge.rejected` line it owes asked of `mj-state log`.

It passes the judge's stream on; a `knowledge-reject` verdict becomes the write. It does not
take the verdict on trust: it reads the candidate again itself and judges again with the
verdict's own reason and `--by`: a refusal there is the command's (a replay finds the candidate
judged already: 15), and a verdict that differs (another text, a candidate that changed since
judging) writes nothing (15).
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_knowledge.reject import facts as rejectfacts
from mj_knowledge.reject import judge as rejectjudge

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input, "knowledge-reject", lambda verdict: reject(context.root(), verdict)
    )


def reject(root: Path, verdict: Record) -> Iterator[Record]:
    """The rejection judged again over the candidate as it is now, then written."""
    by = verdict.get("by")
    fact = rejectfacts.gather(root, str(verdict.get("id")), str(verdict.get("reason")),
                              by if isinstance(by, str) else None)  # fmt: skip
    if rejectjudge.judge(fact) != verdict:
        raise Refused(
            f"knowledge reject {verdict.get('id')}: the verdict is not what the candidate gives "
            "now; nothing was written"
        )
    from mj_core.write import atomic

    path = str(verdict["path"])
    atomic.create(root / path, str(verdict["content"]).encode(), mode=0o644, replace=True,
                  root=root)  # fmt: skip
    yield {"kind": "candidate", "action": "rejected", "id": verdict["id"], "path": path,
           "title": verdict["title"], "reason": verdict["reason"]}  # fmt: skip
    line: Record = {"kind": "append", "event": "knowledge.rejected", "knowledge": verdict["id"],
                    "reason": verdict["reason"]}  # fmt: skip
    if by:
        line["rejected_by"] = by
    yield line


STAGES = {"reject-write": Stage(run)}
