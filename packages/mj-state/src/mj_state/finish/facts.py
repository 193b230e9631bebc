"""`mj-state facts --for finish`: what `mj-watch finish` judges, as one `finish` fact.

The task as the ledger records it and every fact of its contract (scope, state, the record's
trust, blockers, the note — a handover's or `--note`'s, its text included —, the profile's
extras), judged by the policy and profile as the task's head held them (`task.rules`); for
`completed`, the verification is run here (it is a fact about the world: what
the pinned commands said of this tree). With no active task, why not, what in the copy
contradicts the ledger, and (for `--check`) the commits after a finish no verification covered.
"""

from __future__ import annotations

from mj_core import limits
from mj_core.errors import UsageError
from mj_core.yaml import strict as yamlstrict
from mj_policy.layer.loader import load

from mj_state.finish import steps as finishing
from mj_state.task import state as taskstate
from mj_state.task.place import Place

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_policy.layer.loader import Layer

    Record = dict[str, Any]


def gather(root: Path, options: argparse.Namespace) -> Iterator[Record]:
    check = bool(getattr(options, "check", False))
    outcome = getattr(options, "outcome", None)
    if not check and not outcome:
        raise UsageError(
            "finish: --outcome is required (completed|partial|blocked|no_match|failed)"
        )
    from mj_state import state_id as stateid

    yield stateid.fact(root)  # whose state this is: judged before anything it says
    state = root / ".ai" / "local" / "state"
    if check and not any((state / n).exists() for n in ("current.yaml", "ledger.jsonl")):
        yield _fact(inert="no active task — nothing to check")
        return
    layer = load(root)
    situation = taskstate.read(layer)
    task = situation.active_record()
    if task is None:
        yield _without_task(layer, situation, check=check)
        return
    outcome = outcome or "completed"
    pushes = None
    if check:  # the pre-push hook's lines, when it is one (else a run by hand)
        from mj_state.finish import push_range as pushrange

        pushes = pushrange.from_stdin()
    layer, altered = _at_start(layer, situation)
    facts = finishing.facts(
        layer,
        task,
        outcome,
        check_only=check,
        situation=situation,
        pushes=pushes,
        altered=altered,
    )
    if task.get("requires") and not check:
        from mj_core.git import questions as git

        from mj_state.task import obligations

        facts["obligations"] = obligations.facts(layer, task, git.head(layer.root) or "")
    note_text = None
    if not check:
        if options.note:
            facts["note"], note_text = finishing.read_note(layer, options.note)
        elif facts["note"].get("path"):
            shown = facts["note"]["path"]
            note_text = yamlstrict.read_text(layer.root / shown, shown, limits.NOTE)
        if outcome == "completed":
            facts.update(_verified(layer, task, options.verify_command))
    yield _fact(task=task, outcome=outcome, check=check, contract=facts, note_text=note_text)


def _at_start(layer: Layer, situation: taskstate.Situation) -> tuple[Layer, list[str]]:
    """The layer as the task's head held it, and the rules' files changed since."""
    from mj_state.task import rules as startrules

    assert situation.active is not None  # the caller found an active task
    rules = startrules.at_start(layer, situation.active.fields)
    return rules.layer, rules.changed


def _fact(**fields: Any) -> Record:
    return {"kind": "fact", "fact": "finish", **fields}


def _without_task(layer: Layer, situation: taskstate.Situation, *, check: bool) -> Record:
    from mj_core.git import questions as git

    distrust = [f.record() for f in finishing.trust_findings(layer, situation)]
    own = situation.own
    commits: list[list[str]] = []
    if check and own is not None and own.outcome != "handed_over" and not distrust:
        code, out, _ = git.run("log", "--format=%H %T", f"{own.start_head}..HEAD", cwd=layer.root)
        commits = [line.split(" ", 1) for line in out.splitlines()] if code == 0 else []
    return _fact(
        task=None,
        check=check,
        distrust=distrust,
        situation=situation.fact(),
        place=Place.of(layer).fact(),
        commits=commits,
    )


def _verified(layer: Layer, task: Record, given: str | None) -> Record:
    """The verification facts: the pinned (or given) commands run, the tree they ran on."""
    from mj_state.finish import verification as verifying

    policy = layer.policy.data
    argvs, problem = verifying.plan(policy, given)
    if problem:
        return {"verify_problem": problem}
    tree = verifying.tree(layer.root, layer.state, [str(s) for s in task["scope"]])
    allow = verifying.allowed(verifying.allow_paths(policy))
    run = verifying.run(layer.root, argvs, verifying.timeout(policy), allow)
    run["tree"] = tree
    return {"verify": run}
