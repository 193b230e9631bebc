"""`mj-state knowledge-promote-write`: the one write of `knowledge promote` — the curated record
the verdict of `mj-state knowledge-promote-judge` names, created (never over another), then
the candidate removed, and the `knowledge.promoted` line it owes asked of `mj-state log` (which
names who promoted it as git knows them).

It passes the judge's stream on; a `knowledge-promote` verdict becomes the write. It does not
take the verdict on trust: it reads the candidate and this checkout's active task again itself
and judges again with the verdict's own evidence and class: a refusal there is the command's
(a task started since, a replay that finds the record promoted already: 15), and a verdict
that differs (another text, class or path) writes nothing (15).
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_state.promote import facts as promotefacts
from mj_state.promote import judge as promotejudge

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
        options.input, "knowledge-promote", lambda verdict: promote(context.root(), verdict)
    )


def promote(root: Path, verdict: Record) -> Iterator[Record]:
    """The promotion judged again over the candidate and the task as they are now, then made."""
    evidence, given = verdict.get("evidence"), verdict.get("class")
    fact = promotefacts.gather(
        root, str(verdict.get("id")), None, evidence if isinstance(evidence, str) else None, None
    )
    candidate = fact["candidate"].get("front") or {}
    if given is not None and given != candidate.get("class"):
        fact["class"] = given  # a `--class` that changed it; one the candidate had says nothing
    if promotejudge.judge(fact) != verdict:
        raise Refused(
            f"knowledge promote {verdict.get('id')}: the verdict is not what the candidate gives "
            "now; nothing was written"
        )
    from mj_core.write import atomic
    from mj_policy.knowledge import notes

    target = str(verdict["path"])
    atomic.make_dirs(root / notes.CURATED, root=root)
    atomic.create(root / target, str(verdict["content"]).encode(), mode=0o644, root=root)
    (root / str(verdict["candidate"])).unlink()
    yield {"kind": "candidate", "action": "promoted", "id": verdict["id"], "path": target,
           "title": verdict["title"], "class": verdict["class"]}  # fmt: skip
    yield {"kind": "append", "event": "knowledge.promoted", "knowledge": verdict["id"],
           "path": target, "class": verdict["class"]}  # fmt: skip


STAGES = {"knowledge-promote-write": Stage(run)}
