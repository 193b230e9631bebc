"""`mj-state evidence-facts --covers <token> (--command <cmd> | --artifact <path>)`: what
`mj-state evidence-judge` judges, as one fact.

One `evidence` fact: the options as given (`--type` as `type`); this checkout's active task as
the ledger records it (its id, start commit and promised tokens, or none); the token's inputs
hashed as they are now (a token bound to inputs); with `--artifact`, the path as named and as
it resolves (or why it cannot be resolved, with its exit code), whether it is a file, its hash,
and git's object ids for it in the task's start commit and in the working tree; the policy's
`verification`.
Nothing is judged here, and nothing is run. The options' own usage errors (2) are raised first,
as the parser raises them, before the layer is read.
"""

from __future__ import annotations

from mj_core.errors import MjError
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.evidence import judge as evidencejudge
from mj_state.task import obligations
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    given = {key: getattr(options, option) for key, option in OPTIONS.items()}
    evidencejudge.usage(given)
    yield gather(load(context.root()), given)


OPTIONS = {"covers": "covers", "type": "kind", "command": "evidence_command",
           "artifact": "artifact", "result": "result"}  # fmt: skip


def gather(layer: Layer, given: Record) -> Record:
    """The `evidence` fact for options `given` (the writer gathers it again, the same way)."""
    situation = taskstate.read(layer)
    task = situation.active_record()
    if situation.active is None:
        task = None
    token = given.get("covers")
    inputs_hash = None
    promised = task is not None and token in (task.get("requires") or [])
    if task is not None and promised and "inputs" in obligations.vocabulary()[str(token)]:
        inputs_hash = obligations.current_hash(layer, task, str(token))
    return {
        "kind": "fact",
        "fact": "evidence",
        **{key: given.get(key) for key in evidencejudge.GIVEN},
        "task": None if task is None else {
            "id": str(task["id"]),
            "requires": [str(t) for t in task.get("requires") or []],
            "start_head": situation.active.start_head if situation.active else None,
        },
        "inputs_hash": inputs_hash,
        "artifact_found": None if given.get("artifact") is None else _artifact(
            layer, str(given["artifact"]), task, situation
        ),
        "verification": layer.policy.data.get("verification"),
    }  # fmt: skip


def _artifact(layer: Layer, given: str, task: Record | None, situation: Any) -> Record:
    """The artifact as named and as it resolves, whether it is a file, its hash, and git's ids
    for it in the task's start commit and the working tree."""
    import os

    from mj_core import paths

    try:
        shown = paths.relative_from_root(layer.root, given, what="--artifact")
    except MjError as exc:
        return {"problem": {"code": int(exc.code), "message": exc.message}}
    named = os.path.relpath(os.path.normpath(os.path.join(layer.root, given)), layer.root)
    is_file = (layer.root / shown).is_file()
    found: Record = {
        "shown": shown,
        "named": named.replace(os.sep, "/"),
        "is_file": is_file,
        "hash": obligations.inputs_hash(layer.root, [shown]) if is_file else None,
        "start_blob": None,
        "blob": None,
    }
    start = situation.active.start_head if task is not None and situation.active else None
    if start:
        from mj_core.git import questions as git

        code, blob, _ = git.run("rev-parse", "--verify", "-q", f"{start}:{shown}", cwd=layer.root)
        found["start_blob"] = blob.strip() if code == 0 else None
        found["blob"] = git.out("hash-object", "--", shown, cwd=layer.root)
    return found


STAGES = {"evidence-facts": Stage(run)}
