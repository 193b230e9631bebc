"""`mj-state evidence-judge`: whether a proof may be recorded, over `mj-state evidence-facts`.

A judge: it reads the one `evidence` fact on stdin (or a file) and never the repository, and
runs nothing. In the order a person meets the faults: no `--covers` or a token outside the
vocabulary, no proof or two results (2); no active task (12); a token the task did not promise
with `start --requires` (15); an `--artifact` outside the repository or reached through a
symbolic link (15), or, alone, missing (12) or the task's own work since its start (15); a
`--command` that is shell syntax (2) or that a pinned policy does not admit (15). A proof that
may be recorded becomes one `verdict` naming what `mj-state evidence-write` runs or hashes and
the line it appends.
"""

from __future__ import annotations

from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.exit_codes import ExitCode
from mj_core.stream.stage import Stage

from mj_state.task import obligations

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield judge(context.the_fact(options.input, "evidence", "mj-state evidence-facts"))


GIVEN = ("covers", "type", "command", "artifact", "result")  # the options, as `facts` names them


def usage(given: Record) -> str:
    """The options' own faults (2), before anything is read; the token they name."""
    if not given.get("covers"):
        raise UsageError("evidence: --covers <token> is required")
    (token,) = obligations.checked([str(given["covers"])], "evidence: --covers")
    if given.get("command") is None and given.get("artifact") is None:
        raise UsageError(
            "evidence: name a --command to run or an --artifact to hash: a narrative is no proof"
        )
    if given.get("result") is not None and given.get("command") is not None:
        raise UsageError("evidence: --result goes with --artifact; a command's exit is its result")
    return token


def judge(fact: Record) -> Record:
    """The verdict of a proof that may be recorded; a refusal raised with its exit code."""
    token = usage(fact)
    task = fact.get("task")
    if not isinstance(task, dict):
        raise MissingArtifact("evidence: no active task here — `majordomus start` first")
    promised = [str(t) for t in task.get("requires") or []]
    if token not in promised:
        said = ", ".join(promised) or "none"
        raise Refused(
            f"evidence: task {task['id']} did not promise {token!r} (start --requires: {said})"
        )
    command, given = fact.get("command"), fact.get("artifact")
    artifact = None if given is None else _artifact(fact, str(given), alone=command is None)
    argvs: list[list[str]] = []
    if command is not None:
        from mj_state.finish import verification as verifying

        argvs, why = verifying.plan({"verification": fact.get("verification")}, str(command),
                                    "evidence: --command")  # fmt: skip
        if why:
            raise Refused(f"evidence: {why}")
    found = fact.get("artifact_found") or {}
    return {
        "kind": "verdict",
        "action": "evidence",
        "task_id": str(task["id"]),
        "given": {key: fact.get(key) for key in GIVEN},
        "type": fact.get("type") or ("command" if command is not None else "artifact"),
        "command": command,
        "argvs": argvs,
        "artifact": artifact,
        "artifact_hash": found.get("hash") if command is None else None,
        "result": None if command is not None else fact.get("result") or "pass",
        "inputs_hash": fact.get("inputs_hash"),
    }


def _artifact(fact: Record, given: str, *, alone: bool) -> str:
    """The artifact's path as the line names it; a refusal for one the proof cannot name."""
    found = fact.get("artifact_found") or {}
    problem = found.get("problem")
    if problem:
        raise MjError(str(problem["message"]), ExitCode(int(problem["code"])))
    shown = str(found.get("shown"))
    if found.get("named") != shown:  # the canonical path is another: a link was followed
        raise Refused(f"evidence: --artifact {given}: reaches {shown} through a symbolic link")
    if not alone:
        return shown
    if not found.get("is_file"):
        raise MissingArtifact(f"evidence: --artifact {shown}: no such file in this repository")
    start, blob = str((fact.get("task") or {}).get("start_head") or ""), found.get("start_blob")
    if blob is not None and found.get("blob") == blob:
        return shown
    how = "created" if blob is None else "changed"
    raise Refused(
        f"evidence: --artifact {shown}: task {fact['task']['id']} {how} it since its start "
        f"({start[:7]}) — that is work, not proof; produce it with --command and --artifact "
        f"together  [git diff --stat {start[:7]} -- {shown}]"
    )


STAGES = {"evidence-judge": Stage(run)}
