"""`mj-policy update-write`: the writes of `update` — each projection its verdict says changes,
written atomically, each orphan removed — then its `projections.updated` line asked of
`mj-state log`.

It passes the judge's stream on; an `update` verdict becomes the writes. It does not take the
verdict on trust: it renders and reads every target again itself and judges again, and a
verdict that differs from that judgement (a `--force` the judge did not see, a file edited or
a policy changed since judging, an edited or replayed verdict) writes nothing (15). What it
writes is its own rendering, never text from the stream.
"""

from __future__ import annotations

import os

from mj_core import timing
from mj_core.errors import Refused
from mj_core.stream.stage import Stage

from mj_policy.projection import targets
from mj_policy.projection import update_facts as updatefacts
from mj_policy.projection import update_judge as updatejudge
from mj_policy.projection import update_plan as updateplan

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.projection.targets import Judged

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(options.input, "update", lambda v: update(context.root(), v))


def update(root: Path, verdict: Record) -> Iterator[Record]:
    """The writes judged again over the tree as it is now, then made."""
    flags = {name: False for name in updatefacts.FLAGS}
    flags["force"] = verdict.get("force") is True
    with timing.phase("projections: render and judge"):
        fact, found = updatefacts.gather(root, flags, writing=True)
    if updatejudge.judge(fact) != [verdict]:
        raise Refused(
            "update: the verdict is not what the policy and the projection targets give now; "
            "nothing was written"
        )
    changed = [item for item in found.judged if item.state != targets.CURRENT]
    with timing.phase("projections: write"):
        _ask_where_ahead(root)  # begun now, answered while the files are written
        for item in changed:
            _write(root, item)
        for orphan in found.orphans:
            os.unlink(updateplan.confined(root, orphan.target))
    for written in verdict["targets"]:
        yield {key: value for key, value in written.items() if key not in ("old", "new")}
    yield from verdict["orphans"]
    yield {  # the ledger line this run owes: `mj-state log` appends it (mj-state owns it)
        "kind": "append",
        "event": "projections.updated",
        "policy_sha256": found.data.policy_sha256,
        "targets": len(changed) + len(found.orphans),
    }  # (`mj_core.funnel` reaps the question begun)


def _write(root: Path, item: Judged) -> None:
    """Publish one projection atomically. A whole generated file is not synced: it is derived
    from the policy and stamped, so one a crash lost or left empty is `missing` to `update
    --check` and doctor, and `update` writes it again. A region's host holds the person's own
    text around it, which nothing could rebuild: it is synced, as records are."""
    from mj_core.write import (
        atomic,  # tempfile and its imports: paid only when something is written
    )

    projection = item.rendered.projection
    path = root / projection.target
    mode = os.lstat(path).st_mode & 0o777 if path.exists() else 0o644
    data = item.new.encode("utf-8")
    durable = projection.mode == "region"
    atomic.create(path, data, mode=mode, replace=True, root=root, durable=durable)


def _ask_where_ahead(root: Path) -> None:
    """Begin `git.where.where`'s question for the ledger line this run owes (`git.ahead`):
    writing the working tree's files leaves git's directories, HEAD and branch as they are."""
    from mj_core.git import questions as git
    from mj_core.git import where as gitwhere

    git.ahead([(gitwhere.WHERE_ARGS, root)])


STAGES = {"update-write": Stage(run)}
