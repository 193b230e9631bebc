"""`mj-state start`: begin the one scoped task of this checkout.

Writes `state/current.yaml` (identity from git), archives a previous terminal record first, and
appends one `task.started` line; then reports overlap with other worktrees as INFO.
"""

from __future__ import annotations

import argparse
import os

from mj_core import clock
from mj_core import ids
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.findings import Finding
from mj_core.git import questions as git
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import Layer
from mj_policy.layer.loader import load

from mj_state import identity
from mj_state.ledger import store as ledger
from mj_state.task import overlap
from mj_state.task import record as tasks
from mj_state.task import scope
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import contextlib
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    layer = load(context.root())
    text = task_line(options.task)
    promised = _promised(options)
    found = _from_issue(layer, promised) if "issue" in promised else None
    seeded = found[0] if found is not None else None
    if not options.scope and seeded is None:
        raise UsageError("start: --scope is required (or --issue, whose scope seeds it)")
    claims = scope.normalise(layer.root, options.scope or ",".join(seeded or []))
    take_over = bool(getattr(options, "take_over", False))
    with overlap.Survey(layer.root, claims) as survey, _issue_claim(layer, promised, found,
                                                                   take_over):  # fmt: skip
        record, archived, shared = begin(
            layer, text, claims, options.profile, options.owner, promised=promised,
            take_over=take_over,
        )  # fmt: skip
        yield {
            "kind": "record",
            "action": "started",
            "path": layer.relative(tasks.current_path(layer)),
            "archived": archived,
            "task": record,
            "checkpoint_interval": interval(layer, record["profile"]),
            "instructions": instructions(layer.policy.data),
        }
        for finding in survey.findings():
            yield finding.record()
        for finding in shared:
            yield finding.record()
        for claim in claims:
            yield from _claims_nothing(layer.root, claim)


def _claims_nothing(root: Path, claim: str) -> Iterator[Record]:
    """A WARN for a scope path that is neither on disk nor tracked (a typo claims nothing);
    git is asked only about a path that is not on disk."""
    if os.path.lexists(root / claim) or git.ls_files(root, f":(literal){claim}"):
        return
    import shlex

    quoted = shlex.quote(claim)
    yield Finding(
        "WARN",
        "scope",
        claim,
        "neither tracked nor present: this scope claims nothing that exists (a typo?)",
        f"git ls-files -- {quoted} | head -n 1; ls -d {quoted}",
    ).record()


def task_line(task: str) -> str:
    """The task as one non-empty line; anything else → 2."""
    text = task.strip()
    if not text or "\n" in text or "\r" in text:
        raise UsageError("start: the task is one non-empty line")
    return text


def _promised(options: argparse.Namespace) -> Record:
    """`requires` (tokens of share/obligations.yaml; unknown → 2) and `issue`, when given."""
    out: Record = {}
    if getattr(options, "requires", None):
        from mj_state.task import obligations

        out["requires"] = obligations.checked(options.requires, "start: --requires")
    issue = getattr(options, "issue", None)
    if issue is not None:
        if not issue.strip() or any(c in issue for c in "\n\r\t /"):
            raise UsageError(f"start: --issue {issue!r}: an issue id is one word")
        out["issue"] = issue.strip()
    return out


def _issue_claim(
    layer: Layer, promised: Record, found: tuple[list[str], str] | None, take_over: bool
) -> contextlib.AbstractContextManager[None]:
    """The plan issue's claim among this clone's worktrees (`plan.lock`), as `plan start` takes
    it, held while the task starts; nothing for an issue no plan here keeps."""
    import contextlib

    if found is None:
        return contextlib.nullcontext()
    from mj_state.plan import lock as planlock

    return planlock.issue_claim(layer.root, str(promised["issue"]), found[1], take_over)


def _from_issue(layer: Layer, promised: Record) -> tuple[list[str], str] | None:
    """The plan issue `--issue` names: its scope (what `--scope` defaults to) and its file, and
    its `evidence_required` obligation tokens, added to `requires`; 12 when the plan lacks it,
    None when this repository keeps no plan."""
    from mj_policy.plan import model as planmodel

    from mj_state.task import obligations

    try:
        model = planmodel.load(layer)
    except MissingArtifact:
        return None  # no plan kept here: the id names an issue elsewhere (a tracker's)
    item = model.issues.get(promised["issue"])
    if item is None:
        raise MissingArtifact(
            f"start: --issue {promised['issue']}: no such issue in {model.directory}"
        )
    tokens = [t for t in item.data.get("evidence_required") or [] if t in obligations.vocabulary()]
    if tokens:
        promised["requires"] = list(dict.fromkeys([*(promised.get("requires") or []), *tokens]))
    return [str(p) for p in item.data.get("scope") or []], str(item.path)


def begin(
    layer: Layer,
    text: str,
    claims: list[str],
    profile: str | None,
    owner: str | None,
    *,
    promised: Record | None = None,
    take_over: bool = False,
) -> tuple[Record, str | None, list[Finding]]:
    """Validate, archive what the previous task left, append `task.started`, write the copy.

    The ledger decides whether a task is active here, never `current.yaml` (an edited copy
    neither blocks a start nor lets one through); its line is written first, the copy after.
    With a remote, the task's claims are taken there before anything is written (`_remote`).
    """
    name = profile or str(layer.policy.data["profiles"]["default"])
    layer.profile(name)  # absent → 12 naming profiles/
    from mj_state import state_id as stateid

    stateid.bind(layer)  # a state that is not this checkout's is refused; else bound to it
    git.ahead(identity.calls(layer.root))  # git answers while the ledger is read
    try:
        situation = taskstate.read_task(layer)
        previous = _previous(layer, situation)
        where = identity.identity(layer.root)
    finally:
        git.settle()
    if not where["head"]:
        raise MissingArtifact(
            "start: this repository has no commit yet — a task is anchored to a commit; "
            "commit once (e.g. the adopted .ai/ layer), then start"
        )
    moment = clock.now()
    record: Record = {
        "id": ids.task_id(),
        "task": text,
        "profile": name,
        "owner": owner or tasks.default_owner(),
        "scope": claims,
        **(promised or {}),
        "started_at": clock.iso(moment),
        "checkpoint_at": clock.iso(moment),
        "outcome": "active",
        **where,
    }
    claim, said = _remote(layer, record, take_over)
    archived = None
    if previous is not None:
        archived = layer.relative(tasks.archive(layer, previous, stray=situation.own is None))
    from mj_state.task import rules as startrules

    payload = {
        "task": text,
        "profile": name,
        "scope": claims,
        "owner": record["owner"],
        "worktree_id": where["worktree_id"],
        "working_tree": where["working_tree"],
        **(promised or {}),
        "rules": startrules.record(layer, str(where["head"]), name),
    }
    if claim is not None:
        payload["claim"] = claim
    ledger.append(
        layer.root,
        layer.state,
        "task.started",
        payload,
        task_id=record["id"],
        where=where,
        moment=moment,
    )
    tasks.write_current(layer, record, replace=True)
    return record, archived, said


def _remote(layer: Layer, record: Record, take_over: bool) -> tuple[Record | None, list[Finding]]:
    """With a remote: the task's claims taken there (15 naming a holder, 12 unreachable when
    required, else kept here unshared with a WARN), and the overlap with other clones' claims
    as of the last sync (WARN). Without one: nothing, no connection."""
    from mj_state import mirror

    if not mirror.configured(layer.policy.data):
        return None, []
    from mj_state.remote import hooks

    claim, said = hooks.claim_task(layer, record, take_over=take_over)
    met = mirror.overlap(mirror.read(layer), list(record["scope"]), clock.now())
    return claim, [*said, *met]


def _previous(layer: Layer, situation: taskstate.Situation) -> Record | None:
    """What to archive before starting: the ledger's ended task (as the ledger tells it), or a
    copy the ledger does not know (another checkout's, or a stray); an active task here → 15."""
    active = situation.active
    if active is not None:
        shown = layer.relative(ledger.path(layer.state))
        raise Refused(
            f"{shown}: task {active.id} is active (finish it with `majordomus finish` or "
            "`majordomus handover --close`; no flag discards it)"
        )
    if situation.own is not None:
        return situation.record()
    return situation.copy


def interval(layer: Layer, profile: str) -> str:
    """The profile's checkpoint interval, else the policy default."""
    data = layer.profile(profile).data
    value = data.get("checkpoint_interval") if isinstance(data, dict) else None
    return str(value or layer.policy.data["profiles"]["checkpoint_interval_default"])


def instructions(policy: dict[str, Any]) -> str | None:
    """The always-loaded projection target: what a worker reads first."""
    for projection in policy.get("projections") or []:
        if projection.get("always_loaded"):
            return str(projection["target"])
    return None


STAGES = {"start": Stage(run)}
