"""`mj-state capture-reconcile-write`: the one write of `capture reconcile` — each orphaned
record the verdict of `mj-state capture-reconcile-judge` links, rewritten with its episode and
how it was found (`episode`, `episode_link`), its rendering rebuilt to match.

It passes the judge's stream on; a `capture-reconcile` verdict becomes the write. It does not
take the verdict on trust: it gathers the orphans and the evidence again itself and judges
again: a verdict that links other records or other episodes (edited, replayed, or judged before
the evidence moved) links nothing (15).
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_state.capture import store
from mj_state.capture.reconcile import facts as reconcilefacts
from mj_state.capture.reconcile import judge as reconcilejudge

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
        options.input, "capture-reconcile", lambda verdict: reconcile(context.root(), verdict)
    )


def reconcile(root: Path, verdict: Record) -> Iterator[Record]:
    judged = reconcilejudge.judge(reconcilefacts.gather(root, dry_run=False))
    if judged != verdict.get("items"):
        raise Refused(
            "capture reconcile: the verdict links other records than the archive gives now; "
            "nothing was linked (run: majordomus capture reconcile --dry-run)"
        )
    records = store.by_path(root)
    for item in judged:
        if item.get("episode") is not None:
            record = records[str(item["path"])]
            changed = {**record, "episode": item["episode"], "episode_link": item["link"]}
            store.rewrite(root, root / str(item["path"]), changed)
        yield reconcilejudge.shown(item, done=item.get("episode") is not None)


STAGES = {"capture-reconcile-write": Stage(run)}
