"""`mj-state plan-move-facts --action verify|evidence|done <id>`: what `mj-watch plan-move` judges
(`mj_state.plan.move_judge`), as one `plan-move` fact.

The request (the action, the issue, and for `evidence` the entry as given with the commit it is
recorded at); the plan's problems and the lifecycle markers neither git nor this checkout's
ledger holds (`mj_state.plan.markers`); the issue and every issue it depends on; the issue
file's text; the tip of this checkout's ledger; and for `done`, when this checkout's active task
works on the issue (`start --issue`), each obligation that task promised with its state.
Gathered under `.ai/local/state/plan.lock`, which the writer publishes the issue file and its
ledger line under: the two are read both or neither. Nothing is judged here.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load
from mj_policy.plan import model as planmodel

from mj_state.plan import start_facts as startfacts

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

GIVEN = ("covers", "type", "shown_by", "result", "artifact")  # `plan evidence`'s entry


def gather(root: Path, action: str, ident: str, given: Record | None) -> Record:
    """The fact, read as the plan, the ledger and the active task are now."""
    from mj_core.git import questions as git

    from mj_state.plan import markers as planmarkers

    lay = load(root)
    model = planmodel.load(lay)
    item = model.issues.get(ident)
    return {
        "kind": "fact",
        "fact": "plan-move",
        "action": action,
        "id": ident,
        "directory": model.directory,
        "problems": [{"where": p.where, "message": p.message} for p in model.problems],
        "unvouched": [
            {"subject": f.subject, "message": f.message, "reproduce": f.reproduce}
            for f in planmarkers.findings(lay)
        ],
        "issues": startfacts.closure(model, ident),
        "text": (
            (lay.root / item.path).read_bytes().decode("utf-8", "replace")
            if item is not None
            else None
        ),
        "tip": startfacts.tip(lay.state / "ledger.jsonl"),
        "given": given if action == "evidence" else None,
        "commit": (git.head(root) or "0000000") if action == "evidence" else None,
        "linked": _linked(lay, ident) if action == "done" else None,
    }


def _linked(lay: Any, ident: str) -> Record | None:
    """The active task working on the issue, with each obligation it promised and its state."""
    from mj_core.git import questions as git

    from mj_state.task import obligations
    from mj_state.task import state as taskstate

    task = taskstate.read(lay).active_record()
    if task is None or task.get("issue") != ident:
        return None
    entries = obligations.facts(lay, task, git.head(lay.root) or "")
    shown = [{"token": str(e["token"]), "state": str(e["state"]), "why": str(e["why"])}
             for e in entries]  # fmt: skip
    return {"task": str(task["id"]), "obligations": shown}


def given_of(options: argparse.Namespace) -> Record:
    return {name: getattr(options, name, None) for name in GIVEN}


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_core.write import atomic

    root = context.root()
    with atomic.locked(load(root).state / "plan.lock", root=root):  # see the module's text
        fact = gather(root, str(options.action), str(options.id), given_of(options))
    yield fact


STAGES = {"plan-move-facts": Stage(_run)}
