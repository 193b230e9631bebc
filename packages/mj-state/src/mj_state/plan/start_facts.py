"""`mj-state plan-start-facts <id> [--take-over]`: what `mj-watch plan-start` judges
(`mj_state.plan.start_judge`), as one `plan-start` fact.

The request; the plan's problems (`mj_policy.plan.model`); the lifecycle markers neither git nor
this checkout's ledger holds (`mj_state.plan.markers`); the issue and every issue it depends on,
directly or not (each one's path and data: its status and what it waits on are derived from
them); the issue file's text as it is; the claim another worktree of this clone holds on it
(`mj_state.plan.lock`); and the tip of this checkout's ledger (its size and the digest of its last
line), which the writer finds unchanged or writes nothing. Nothing is judged here; the remote's
claim is taken by the writer (a compare-and-swap there, not a fact read before).
"""

from __future__ import annotations

from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load
from mj_policy.plan import model as planmodel

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_state.plan.lock import CloneLock

    Record = dict[str, Any]


def gather(root: Path, ident: str, take_over: bool, shared: CloneLock | None = None) -> Record:
    """The fact; `shared`: the clone's plan lock when the writer holds it."""
    from mj_state.plan import markers as planmarkers
    from mj_state.plan.lock import CloneLock

    lay = load(root)
    model = planmodel.load(lay)
    item = model.issues.get(ident)
    fact: Record = {
        "kind": "fact",
        "fact": "plan-start",
        "id": ident,
        "take_over": take_over,
        "directory": model.directory,
        "problems": [{"where": p.where, "message": p.message} for p in model.problems],
        "unvouched": [
            {"subject": f.subject, "message": f.message, "reproduce": f.reproduce}
            for f in planmarkers.findings(lay)
        ],
        "issues": closure(model, ident),
        "text": None,
        "holder": None,
        "tip": tip(lay.state / "ledger.jsonl"),
    }
    if item is not None:
        fact["text"] = (lay.root / item.path).read_bytes().decode("utf-8", "replace")
        fact["holder"] = (shared or CloneLock(root)).holder(ident, item.path)
    return fact


def closure(model: planmodel.Model, ident: str) -> dict[str, Record]:
    """The issue and every declared issue it depends on, directly or not."""
    found: dict[str, Record] = {}
    todo = [ident]
    while todo:
        one = todo.pop()
        item = model.issues.get(one)
        if item is None or one in found:
            continue
        found[one] = {"path": item.path, "data": item.data}
        todo += [str(d) for d in item.data.get("depends_on") or []]
    return dict(sorted(found.items()))


def tip(ledger: Path) -> str:
    """The ledger's end, `<size>:<last line's digest>` (`mj_state.ledger.write.end`)."""
    from mj_state.ledger import write as ledgerwrite

    return ledgerwrite.end(ledger)


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_core.write import atomic

    root = context.root()
    # the writer publishes the issue file and its ledger line under this lock: read between
    # the two, the marker would look forged (10) to a start that merely lost the race (15)
    with atomic.locked(load(root).state / "plan.lock", root=root):
        fact = gather(root, str(options.id), bool(getattr(options, "take_over", False)))
    yield fact


STAGES = {"plan-start-facts": Stage(_run)}
