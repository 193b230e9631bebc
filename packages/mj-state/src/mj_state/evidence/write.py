"""`mj-state evidence-write`: the one write of `evidence` — the verdict `mj-state
evidence-judge` gave, carried out: its command run here (an argument vector, no shell, in the
repository root, under `verification.timeout`, from the directories verification admits) and
its exit the result, or its file hashed; then one `task.evidence` ledger line.

It passes the judge's stream on; an `evidence` verdict becomes the run and the line. It does
not take the verdict on trust: before anything runs it gathers the facts again itself
(`mj_state.evidence.facts`: the active task, the artifact, the token's inputs as they are now)
for the verdict's own options and judges them again (`mj_state.evidence.judge`): a refusal
there is the command's, and a verdict that differs (another task or token, a command or file
the judge did not admit, a hash or result written in) runs nothing and writes nothing (15).
With `--command` and `--artifact` together, a file the run did not write is 12, one it left as
it was 15: the run's own outcome, found after it.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import load

from mj_state.evidence import facts as evidencefacts
from mj_state.evidence import judge as evidencejudge
from mj_state.ledger import store as ledger
from mj_state.task import obligations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context
    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from context.carried(
        options.input, "evidence", lambda verdict: (evidence(load(context.root()), verdict),)
    )


def evidence(layer: Layer, verdict: Record) -> Record:
    """The verdict judged again over this checkout now; then run or hashed, and recorded."""
    given = verdict.get("given")
    again = None
    if isinstance(given, dict) and set(given) == set(evidencejudge.GIVEN):
        again = evidencejudge.judge(evidencefacts.gather(layer, given))
    if again != verdict:
        raise Refused(
            f"evidence: the verdict is not what this checkout gives now (its active task: "
            f"{_here(layer)}); nothing was run or written"
        )
    payload: Record = {"covers": verdict["given"]["covers"], "kind": verdict["type"]}
    if verdict["command"] is not None and verdict["artifact"] is not None:
        payload.update(_produced(layer, verdict["argvs"], str(verdict["artifact"])))
    elif verdict["command"] is not None:
        payload.update(_ran(layer, verdict["argvs"]))
    else:
        payload.update({"artifact": verdict["artifact"], "artifact_hash": verdict["artifact_hash"],
                        "result": verdict["result"]})  # fmt: skip
    payload["inputs_hash"] = verdict["inputs_hash"]
    task_id = str(verdict["task_id"])
    line = ledger.append(layer.root, layer.state, "task.evidence", payload, task_id=task_id)
    kept = {k: line[k] for k in (*payload, "head")}
    return {"kind": "record", "action": "evidence", "task_id": task_id, "line": kept}


def _here(layer: Layer) -> str:
    from mj_state.task import state as taskstate

    situation = taskstate.read(layer)
    task = situation.active_record() if situation.active is not None else None
    return str(task["id"]) if task is not None else "none"


def _ran(layer: Layer, argvs: list[list[str]]) -> Record:
    from mj_state.finish import verification as verifying

    policy = layer.policy.data
    allow = verifying.allowed(verifying.allow_paths(policy))
    done = verifying.run(layer.root, argvs, verifying.timeout(policy), allow)
    out: Record = {"command": done["command"], "exit": done["exit"], "seconds": done["seconds"]}
    out["result"] = "pass" if done["exit"] == 0 else "fail"
    return out


def _produced(layer: Layer, argvs: list[list[str]], shown: str) -> Record:
    """`--command` with `--artifact`: the command run here, then the file it wrote hashed; a
    file the run left as it was is not its product (15)."""
    before = _digest(layer, shown)
    out = _ran(layer, argvs)
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


STAGES = {"evidence-write": Stage(run)}
