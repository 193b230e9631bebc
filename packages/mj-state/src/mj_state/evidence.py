"""`mj-state evidence --covers <token> (--command <cmd> | --artifact <path>)` (CLI-REFERENCE
§2.12): a proof line against the active task — one `task.evidence` ledger line, nothing else.

Evidence is never a claim: `--command` is run here (an argument vector, no shell, in the
repository root, under `verification.timeout`; a pinned policy admits only its
`verification.commands`) and its exit decides the result; `--artifact` names a file of this
repository, whose bytes are hashed into the line. Either way the line carries the token's
`inputs_hash` (`mj_state.obligations`) and the HEAD it was recorded at, so it counts only
while those files, or that commit, are unchanged. Refused: two kinds of proof or none (a
narrative is not evidence: 15), a token outside the vocabulary (2), a token the task did not
promise with `start --requires` (15), no active task (12).
"""

from __future__ import annotations

import argparse

from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.stage import Context
from mj_core.stage import Stage
from mj_policy.layer import load

from mj_state import ledger
from mj_state import obligations
from mj_state import taskstate
from mj_state import verifying

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.layer import Layer

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    if not options.covers:
        raise UsageError("evidence: --covers <token> is required")
    (token,) = obligations.checked([options.covers], "evidence: --covers")
    if options.evidence_command is not None and options.artifact is not None:
        raise UsageError("evidence: --command or --artifact, not both")
    if options.evidence_command is None and options.artifact is None:  # a usage error (2)
        raise UsageError(
            "evidence: name a --command to run or an --artifact to hash: a narrative is no proof"
        )
    if options.result is not None and options.evidence_command is not None:
        raise UsageError("evidence: --result goes with --artifact; a command's exit is its result")
    layer = load(context.root())
    task = taskstate.read(layer).active_record()
    if task is None:
        raise MissingArtifact("evidence: no active task here — `majordomus start` first")
    promised = task.get("requires") or []
    if token not in promised:
        said = ", ".join(promised) or "none"
        raise Refused(
            f"evidence: task {task['id']} did not promise {token!r} (start --requires: {said})"
        )
    payload: Record = {
        "covers": token,
        "kind": options.kind or ("command" if options.evidence_command else "artifact"),
    }
    # the inputs as the proof found them: a command that changes them leaves its own proof stale
    bound = "inputs" in obligations.vocabulary()[token]
    inputs_hash = obligations.current_hash(layer, task, token) if bound else None
    if options.evidence_command is not None:
        payload.update(_ran(layer, options.evidence_command))
    else:
        payload.update(_artifact(layer, options.artifact, options.result))
    payload["inputs_hash"] = inputs_hash
    line = ledger.append(layer.root, layer.state, "task.evidence", payload, task_id=str(task["id"]))
    kept = {k: line[k] for k in (*payload, "head")}
    yield {"kind": "record", "action": "evidence", "task_id": task["id"], "line": kept}


def _ran(layer: Layer, command: str) -> Record:
    argvs, why = verifying.plan(layer.policy.data, command, "evidence: --command")
    if why:
        raise Refused(f"evidence: {why}")
    done = verifying.run(layer.root, argvs, verifying.timeout(layer.policy.data))
    out: Record = {"command": done["command"], "exit": done["exit"], "seconds": done["seconds"]}
    out["result"] = "pass" if done["exit"] == 0 else "fail"
    return out


def _artifact(layer: Layer, given: str, result: str | None) -> Record:
    import os

    from mj_core import paths

    shown = paths.relative_from_root(layer.root, given, what="--artifact")  # an escape → 15
    named = os.path.relpath(os.path.normpath(os.path.join(layer.root, given)), layer.root)
    if named.replace(os.sep, "/") != shown:  # the canonical path is another: a link was followed
        raise Refused(f"evidence: --artifact {given}: reaches {shown} through a symbolic link")
    path = layer.root / shown
    if not path.is_file():
        raise MissingArtifact(f"evidence: --artifact {shown}: no such file in this repository")
    digest = obligations.inputs_hash(layer.root, [shown])
    return {"artifact": shown, "artifact_hash": digest, "result": result or "pass"}


STAGES = {"evidence": Stage(run)}
