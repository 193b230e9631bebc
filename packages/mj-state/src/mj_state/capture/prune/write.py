"""`mj-state capture-prune-write`: the one write of `capture prune` — each text the verdict of
`mj-state capture-prune-judge` names dropped from its record, which keeps its fields and gains a
`tombstone` (when, why, how many bytes), its rendering rebuilt to match.

It passes the judge's stream on; a `capture-prune` verdict becomes the write. It does not take
the verdict on trust: it lists the archive again itself and judges again by its own clock: a
verdict that names other texts (edited, replayed, or judged before the archive or the policy
moved) prunes nothing (15).
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_state.capture import store
from mj_state.capture.prune import facts as prunefacts
from mj_state.capture.prune import judge as prunejudge

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
        options.input, "capture-prune", lambda verdict: prune(context.root(), verdict)
    )


def prune(root: Path, verdict: Record) -> Iterator[Record]:
    going = prunejudge.judge(prunefacts.gather(root, dry_run=False))
    if going != verdict.get("pruned"):
        raise Refused(
            "capture prune: the verdict names other texts than the archive gives now; nothing "
            "was pruned (run: majordomus capture prune --dry-run)"
        )
    records = store.by_path(root)
    for item in going:
        record = records[str(item["path"])]
        stone = {"pruned_at": clock.iso(clock.now()), "reason": item["reason"],
                 "bytes": item["bytes"]}  # fmt: skip
        rest = {k: v for k, v in record.items() if k != "prompt"}
        store.rewrite(root, root / str(item["path"]), {**rest, "tombstone": stone})
        yield prunejudge.entry(item, done=True)


STAGES = {"capture-prune-write": Stage(run)}
