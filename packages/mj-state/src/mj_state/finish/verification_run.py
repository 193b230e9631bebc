"""`mj-state verification`: the verification a `completed` finish claims, run between the finish
facts and their judge.

It passes the stream on; after a `finish` fact that carries `verification` (a real finish of
`completed`), it plans the commands from the policy's section as the task's head held it and
`--verify-command` (`mj_state.finish.verification.plan`), records the tree of the working tree
they run on, runs them, and adds one `verification` fact: the run, or why nothing could run.
`mj-watch finish` judges `verification_ran` from it; a stream without it is a verification
that did not run.
"""

from __future__ import annotations

from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    for record in context.records(options.input):
        yield record
        if _claims_completion(record):
            yield _verified(context, record["verification"])


def _claims_completion(record: Record) -> bool:
    return (
        record.get("kind") == "fact"
        and record.get("fact") == "finish"
        and record.get("task") is not None
        and isinstance(record.get("verification"), dict)
    )


def _verified(context: Context, asked: Record) -> Record:
    from mj_policy.layer.loader import load

    from mj_state.finish import verification as verifying

    policy = {"verification": asked.get("policy") or {}}
    argvs, problem = verifying.plan(policy, asked.get("given"))
    if problem:
        return {"kind": "fact", "fact": "verification", "problem": problem}
    layer = load(context.root())
    tree = verifying.tree(layer.root, layer.state, [str(s) for s in asked.get("scope") or []])
    allow = verifying.allowed(verifying.allow_paths(policy))
    done = verifying.run(layer.root, argvs, verifying.timeout(policy), allow)
    done["tree"] = tree
    return {"kind": "fact", "fact": "verification", "verify": done}


STAGES = {"verification": Stage(run)}
