"""`mj-state evidence --covers <token> (--command <cmd> | --artifact <path>)` (CLI-REFERENCE
§2.12): a proof line against the active task — one `task.evidence` ledger line, nothing else.
`--artifact` alone names a file as the task's start commit holds it (one the task created or
changed is its work, not proof: 15); with `--command`, the command is run and the file it
wrote is hashed (one it left as it was is 15).

Evidence is never a claim: `--command` is run here (an argument vector, no shell, in the
repository root, under `verification.timeout`; a pinned policy admits only its
`verification.commands`) and its exit decides the result; `--artifact` names a file of this
repository, whose bytes are hashed into the line. Either way the line carries the token's
`inputs_hash` (`mj_state.task.obligations`) and the HEAD it was recorded at, so it counts only
while those files, or that commit, are unchanged. Refused: two kinds of proof or none (a
narrative is not evidence: 15), a token outside the vocabulary (2), a token the task did not
promise with `start --requires` (15), no active task (12).
"""

from __future__ import annotations

import argparse

from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.finish import verification as verifying
from mj_state.ledger import store as ledger
from mj_state.task import obligations
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    if not options.covers:
        raise UsageError("evidence: --covers <token> is required")
    (token,) = obligations.checked([options.covers], "evidence: --covers")
    if options.evidence_command is None and options.artifact is None:  # a usage error (2)
        raise UsageError(
            "evidence: name a --command to run or an --artifact to hash: a narrative is no proof"
        )
    if options.result is not None and options.evidence_command is not None:
        raise UsageError("evidence: --result goes with --artifact; a command's exit is its result")
    layer = load(context.root())
    situation = taskstate.read(layer)
    task = situation.active_record()
    if task is None or situation.active is None:
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
    if options.evidence_command is not None and options.artifact is not None:
        payload.update(_produced(layer, options.evidence_command, options.artifact))
    elif options.evidence_command is not None:
        payload.update(_ran(layer, options.evidence_command))
    else:
        payload.update(_artifact(layer, options.artifact, options.result))
        _refuse_work(layer, payload["artifact"], situation.active.start_head, str(task["id"]))
    payload["inputs_hash"] = inputs_hash
    line = ledger.append(layer.root, layer.state, "task.evidence", payload, task_id=str(task["id"]))
    kept = {k: line[k] for k in (*payload, "head")}
    yield {"kind": "record", "action": "evidence", "task_id": task["id"], "line": kept}


def _ran(layer: Layer, command: str) -> Record:
    argvs, why = verifying.plan(layer.policy.data, command, "evidence: --command")
    if why:
        raise Refused(f"evidence: {why}")
    policy = layer.policy.data
    allow = verifying.allowed(verifying.allow_paths(policy))
    done = verifying.run(layer.root, argvs, verifying.timeout(policy), allow)
    out: Record = {"command": done["command"], "exit": done["exit"], "seconds": done["seconds"]}
    out["result"] = "pass" if done["exit"] == 0 else "fail"
    return out


def _produced(layer: Layer, command: str, given: str) -> Record:
    """`--command` with `--artifact`: the command run here, then the file it wrote hashed; a
    file the run left as it was is not its product (15)."""
    shown = _artifact(layer, given, None, must_exist=False)["artifact"]
    before = _digest(layer, shown)
    out = _ran(layer, command)
    after = _digest(layer, shown)
    if after is None:
        raise MissingArtifact(f"evidence: --artifact {shown}: the command did not write it")
    if after == before:
        raise Refused(
            f"evidence: --artifact {shown}: the command left it as it was — not its product"
        )
    return {**out, "artifact": shown, "artifact_hash": after}


def _digest(layer: Layer, shown: str) -> str | None:
    return obligations.inputs_hash(layer.root, [shown]) if (layer.root / shown).is_file() else None


def _refuse_work(layer: Layer, shown: str, start: str, task_id: str) -> None:
    """A file the task created or changed since its start commit is its work, not its proof
    (15): only a file as the start commit holds it, or one a `--command` run here wrote."""
    from mj_core.git import questions as git

    code, blob, _ = git.run("rev-parse", "--verify", "-q", f"{start}:{shown}", cwd=layer.root)
    now = git.out("hash-object", "--", shown, cwd=layer.root)
    if code == 0 and now is not None and blob.strip() == now:
        return
    how = "created" if code != 0 else "changed"
    raise Refused(
        f"evidence: --artifact {shown}: task {task_id} {how} it since its start "
        f"({start[:7]}) — that is work, not proof; produce it with --command and --artifact "
        f"together  [git diff --stat {start[:7]} -- {shown}]"
    )


def _artifact(layer: Layer, given: str, result: str | None, *, must_exist: bool = True) -> Record:
    import os

    from mj_core import paths

    shown = paths.relative_from_root(layer.root, given, what="--artifact")  # an escape → 15
    named = os.path.relpath(os.path.normpath(os.path.join(layer.root, given)), layer.root)
    if named.replace(os.sep, "/") != shown:  # the canonical path is another: a link was followed
        raise Refused(f"evidence: --artifact {given}: reaches {shown} through a symbolic link")
    path = layer.root / shown
    if must_exist and not path.is_file():
        raise MissingArtifact(f"evidence: --artifact {shown}: no such file in this repository")
    digest = obligations.inputs_hash(layer.root, [shown]) if must_exist else ""
    return {"artifact": shown, "artifact_hash": digest, "result": result or "pass"}


STAGES = {"evidence": Stage(run)}
