"""`mj-state facts --for finish`: what `mj-watch finish` judges, as one `finish` fact.

The task as the ledger records it and every fact of its contract (scope, state, blockers, the
note — a handover's or `--note`'s, its text included —, the profile's extras), judged by the
policy and profile as the task's head held them (`task.rules`); what the record's trust is
judged from (`trust`: the situation, the ledger's malformed lines); for `completed`, what the
`verification` stage runs (`verification`: the policy's section as the task's head held it,
`--verify-command`, the scope whose untracked files the verified tree holds). With no active
task, why not, and (for `--check`) the commits after a finish. It gathers: nothing is judged
and nothing is run here.
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
    contract = finishing.facts(
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

        contract["obligations"] = obligations.facts(layer, task, git.head(layer.root) or "")
    note_text = None
    fields: Record = {}
    if not check:
        if options.note:
            contract["note"], note_text = finishing.read_note(layer, options.note)
        elif contract["note"].get("path"):
            shown = contract["note"]["path"]
            note_text = yamlstrict.read_text(layer.root / shown, shown, limits.NOTE)
        if outcome == "completed":
            fields["verification"] = _verification(layer, task, options.verify_command)
    trust = _trust(Place.of(layer), situation)
    yield _fact(
        task=task,
        outcome=outcome,
        check=check,
        contract=contract,
        note_text=note_text,
        trust=trust,
        **fields,
    )


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

    own = situation.own
    commits: list[list[str]] = []
    if check and own is not None and own.outcome != "handed_over":
        code, out, _ = git.run("log", "--format=%H %T", f"{own.start_head}..HEAD", cwd=layer.root)
        commits = [line.split(" ", 1) for line in out.splitlines()] if code == 0 else []
    place = Place.of(layer)
    return _fact(
        task=None,
        check=check,
        trust=_trust(place, situation),
        situation=situation.fact(),
        place=place.fact(),
        commits=commits,
    )


def _trust(place: Place, situation: taskstate.Situation) -> Record:
    """What the record's trust is judged from (`mj_watch.finish.trust`): the situation
    without the task's lines, the ledger's malformed lines, the state directory. The line
    numbers that set the task's fields, which cost counting every ledger line before the
    task's, are gathered only for a copy that is missing or differs from the ledger: the
    findings that name them."""
    own = situation.own
    missing = situation.copy is None and situation.copy_problem is None
    numbered = own is not None and (missing or bool(situation.disagreements()))
    return {
        "state": place.state,
        "situation": situation.fact(rows=False, numbered=numbered),
        "ledger_problems": [[number, reason] for number, reason in situation.scan.problems],
    }


def _verification(layer: Layer, task: Record, given: str | None) -> Record:
    """What the `verification` stage runs: the policy's section as the task's head held it,
    the command given, and the scope whose untracked files the verified tree holds."""
    section = layer.policy.data.get("verification") or {}
    return {"policy": section, "given": given, "scope": [str(s) for s in task["scope"]]}
