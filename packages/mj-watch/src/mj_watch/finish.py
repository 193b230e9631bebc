"""`mj-watch finish`: judge the finish contract over the task's facts; write only if all pass.

Facts come from `mj_state.finishing`, judgement from `mj_watch.contract`, and the write goes back
through `mj_state.finishing.record` — only when no line failed and not under `--check`. Every
line is yielded as a finding; the last record names the verdict and the blocking doctrines.
`--check` writes nothing and is inert (exit 0) with no active task, a finished one, or a record
that belongs to another worktree.
"""

from __future__ import annotations

from mj_core import limits
from mj_core import yamlstrict
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.findings import Finding
from mj_core.stage import Context
from mj_core.stage import Stage

from mj_watch import contract

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]

OUTCOMES = ("completed", "partial", "blocked", "no_match", "failed")


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_policy.layer import load
    from mj_state import taskstate

    root = context.root()  # outside a repository, that is the usage error reported
    if not options.check and not options.outcome:
        raise UsageError(
            "finish: --outcome is required (completed|partial|blocked|no_match|failed)"
        )
    state = root / ".ai" / "local" / "state"
    if options.check and not any((state / n).exists() for n in ("current.yaml", "ledger.jsonl")):
        yield from _inert("no active task — nothing to check")
        return
    layer = load(root)
    situation = taskstate.read(layer)
    task = situation.active_record()
    if task is None:
        yield from _without_task(layer, situation, options)
        return
    yield from _judge(layer, task, options, situation)


def _without_task(layer: Any, situation: Any, options: argparse.Namespace) -> Iterator[Record]:
    """No active task here by the ledger: a copy that says otherwise fails (10); otherwise
    `--check` is inert (reporting commits no verification covered) and a finish is refused."""
    from mj_state import finishing

    distrust = finishing.trust_findings(layer, situation)
    if distrust:
        yield from (finding.record() for finding in distrust)
        action = "checked" if options.check else "refused"
        yield {"kind": "record", "action": action, "blocking": ["majordomus.state-freshness"]}
        return
    own = situation.own
    if options.check:
        yield from (f.record() for f in _uncovered(layer, situation))
        yield from _inert(_reason(situation))
        return
    if own is None and not situation.foreign:
        raise MissingArtifact(f"finish: {_reason(situation)}")
    raise Refused(f"finish: {_reason(situation)}")


def _reason(situation: Any) -> str:
    if situation.foreign:
        where = situation.task.fields.get("worktree_id")
        return (
            f"task {situation.task.id} belongs to the checkout {where}; "
            "nothing enforced or written here"
        )
    own = situation.own
    if own is None:
        return "no task in this checkout — run `majordomus start`"
    return f"task {own.id} already finished ({own.outcome}); nothing written"


def _uncovered(layer: Any, situation: Any) -> Iterator[Finding]:
    """INFO for each commit since the finished task's start whose tree no verification of the
    task covered (the verified tree is recorded on `task.finished`)."""
    from mj_core import git

    own = situation.own
    if own is None or own.outcome == "handed_over":
        return
    trees = {
        str((value.get("verify") or {}).get("tree"))
        for value in situation.scan.values
        if type(value) is dict
        and value.get("event") == "task.finished"
        and value.get("task_id") == own.id
    }
    base = own.start_head
    code, out, _ = git.run("log", "--format=%H %T", f"{base}..HEAD", cwd=layer.root)
    if code != 0:
        return
    for line in out.splitlines():
        commit, _, tree = line.partition(" ")
        if tree not in trees:
            message = (
                f"commit {commit[:7]} (tree {tree[:7]}) was made after {own.id} finished; "
                "no verification covered its tree"
            )
            reproduce = (
                f"git log --format='%h %T' {base[:7]}..HEAD; "
                f"majordomus history --task {own.id} --event task.finished --json"
            )
            yield Finding("INFO", "verification", commit[:7], message, reproduce)


def _inert(reason: str) -> Iterator[Record]:
    yield Finding("INFO", "task", "finish --check", reason).record()
    yield {"kind": "record", "action": "checked", "blocking": []}


def _judge(
    layer: Any, task: Record, options: argparse.Namespace, situation: Any
) -> Iterator[Record]:
    from mj_state import finishing

    outcome = options.outcome or "completed"
    facts = finishing.facts(layer, task, outcome, check_only=options.check, situation=situation)
    note_text = None
    if not options.check:
        if options.note:
            facts["note"], note_text = finishing.read_note(layer, options.note)
        if outcome == "completed":
            facts.update(_verified(layer, task, options.verify_command))
    lines = contract.evaluate(facts)
    yield from (line.finding.record() for line in lines)
    blocking = contract.blocking(lines)
    if options.check or blocking:
        yield {"kind": "record", "action": "checked" if options.check else "refused",
               "blocking": blocking}  # fmt: skip
        return
    if note_text is None:
        shown = facts["note"]["path"]
        note_text = yamlstrict.read_text(layer.root / shown, shown, limits.NOTE)
    written = finishing.record(
        layer, task, outcome=outcome, contract=contract.verdicts(lines),
        run=facts.get("verify"), note_text=note_text,
    )  # fmt: skip
    yield {"kind": "record", "action": "finished", "task_id": task["id"], "outcome": outcome,
           "blocking": [], **written}  # fmt: skip


def _verified(layer: Any, task: Record, given: str | None) -> Record:
    """The verification facts: the pinned (or given) commands run, the tree they ran on."""
    from mj_state import verifying

    policy = layer.policy.data
    argvs, problem = verifying.plan(policy, given)
    if problem:
        return {"verify_problem": problem}
    tree = verifying.tree(layer.root, layer.state, [str(s) for s in task["scope"]])
    run = verifying.run(layer.root, argvs, verifying.timeout(policy))
    run["tree"] = tree
    return {"verify": run}


STAGES = {"finish": Stage(run)}
