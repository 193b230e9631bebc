"""`mj-knowledge derive-write`: the writes of `knowledge derive` — each new candidate its
verdict names, `.ai/repo/knowledge/candidates/<id>.md`, with the ledger line it owes
(`knowledge.derived`, appended by the `mj-state log` stage after it).

It passes the judge's stream on; a `derive` verdict becomes the writes. It does not take the
verdict on trust: it gathers the fact again for the verdict's episodes (what git tracks of their
scopes, the records already there) and judges again, and a verdict that differs (a candidate
added or edited, one derived since judging, a replay) writes nothing (15). The episodes are
the stream's, as `mj-knowledge derive-facts` took them.
"""

from __future__ import annotations

from mj_core.errors import Refused
from mj_core.stream.stage import Stage
from mj_policy.knowledge import notes

from mj_knowledge.derive import facts as derivefacts
from mj_knowledge.derive import judge as derivejudge

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
        getattr(options, "input", None), "derive", lambda v: derive(context.root(), v)
    )


def derive(root: Path, verdict: Record) -> Iterator[Record]:
    """The candidates judged again over the repository as it is now, then written."""
    from mj_core.write import atomic

    given = verdict.get("episodes")
    episodes: list[Record] = (
        [e for e in given if isinstance(e, dict)] if isinstance(given, list) else []
    )
    again = derivejudge.judge(derivefacts.gather(root, episodes), dry_run=False)
    if [r for r in again if r.get("kind") == "verdict"] != [verdict]:
        raise Refused(
            "knowledge derive: the verdict is not what the episodes and the records give now; "
            "nothing was written"
        )
    for new in verdict["candidates"]:
        shown = {key: new[key] for key in ("id", "path", "title", "episode")}
        atomic.make_dirs(root / notes.CANDIDATES, root=root)
        atomic.create(root / new["path"], notes.render(new["front"], new["body"]), mode=0o644,
                      root=root)  # fmt: skip
        yield {"kind": "candidate", "action": "derived", **shown}
        yield {"kind": "append", "event": "knowledge.derived", "knowledge": new["id"],
               "path": new["path"], "episode": new["episode"]}  # fmt: skip


STAGES = {"derive-write": Stage(run)}
