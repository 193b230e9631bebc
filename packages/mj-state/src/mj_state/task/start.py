"""`mj-state start-write`: the one write of `start` — the verdict `mj-state start-judge` gave.

It trusts no verdict: under the plan's lock (with an issue the plan keeps) it gathers the facts
the verdict rests on again and judges them again (`start_judge.decide`); a verdict that is not
that judgement — a task became active meanwhile, the ledger moved, the issue was claimed, or
the verdict was written by hand — is refused (15) with nothing written. Then, identity asked of
git here: the state bound to this checkout, a previous terminal record archived, the task's
claims taken on the remote when there is one, one `task.started` line, the copy
`state/current.yaml`. It passes every other record on (the overlap, the claims naming nothing).
"""

from __future__ import annotations

import argparse

from mj_core import clock
from mj_core import ids
from mj_core.errors import Refused
from mj_core.findings import Finding
from mj_core.git import questions as git
from mj_core.stream.stage import Context
from mj_core.stream.stage import Stage
from mj_policy.layer.loader import Layer
from mj_policy.layer.loader import load

from mj_state import identity
from mj_state.ledger import store as ledger
from mj_state.task import record as tasks
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import contextlib
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from write(context.root(), list(context.records(options.input)))


def write(root: Path, arrived: list[Record]) -> Iterator[Record]:
    """The one `start` verdict on the stream written; every other record passed on, in the
    order a person reads them: the task started, the overlap, what the remote said, the rest."""
    verdicts = [r for r in arrived if r.get("kind") == "verdict"]
    if len(verdicts) != 1 or verdicts[0].get("action") != "start":
        raise Refused("start: the stream carries no one start verdict; nothing written")
    rest = [r for r in arrived if r is not verdicts[0]]
    record, said = _started(root, verdicts[0])
    yield record
    cut = next((i for i, r in enumerate(rest) if r.get("category") == "scope"), len(rest))
    yield from rest[:cut]
    yield from (finding.record() for finding in said)
    yield from rest[cut:]


def _started(root: Path, verdict: Record) -> tuple[Record, list[Finding]]:
    """Judged again under the plan's lock (with an issue the plan keeps) from facts gathered
    again: a verdict that is not the judgement of what is here now writes nothing (15)."""
    from mj_state import state_id as stateid
    from mj_state.task import start_facts as startfacts
    from mj_state.task import start_judge as startjudge
    from mj_state.task.place import Place

    layer = load(root)
    asked = _request(verdict)
    with _locked(layer, verdict) as lock:
        facts = startfacts.decisive(layer, asked)
        told = stateid.fact(root)
        decided = startjudge.decide(told, Place.of(layer).fact(), facts)
        moved = [k for k in startjudge.DECIDED if decided[k] != verdict.get(k)]
        if moved:
            raise Refused(
                f"start: the verdict is not the judgement of this checkout now ({', '.join(moved)}"
                " differ); nothing written"
            )
        if lock is not None:
            lock.claim(str(decided["promised"]["issue"]), git.branch(root), facts["holder"])
        record, archived, said = begin(layer, decided)
    return {
        "kind": "record",
        "action": "started",
        "path": decided["path"],
        "archived": archived,
        "task": record,
        "checkpoint_interval": decided["checkpoint_interval"],
        "instructions": decided["instructions"],
    }, said


def _request(verdict: Record) -> Record:
    """The request the verdict judged, each field of the shape `start` takes; else 15."""
    from mj_state.task import start_facts as startfacts

    asked = verdict.get("request")
    if not isinstance(asked, dict) or not _shaped(asked, startfacts.REQUEST):
        raise Refused("start: the verdict's request is not one `start` takes; nothing written")
    return dict(asked)


def _shaped(asked: Record, names: tuple[str, ...]) -> bool:
    """Exactly `names`: each text or nothing, the last (`take_over`) true or false."""
    if set(asked) != set(names) or not isinstance(asked[names[-1]], bool):
        return False
    return all(asked[name] is None or isinstance(asked[name], str) for name in names[:-1])


def _locked(layer: Layer, verdict: Record) -> contextlib.AbstractContextManager[Any]:
    """The clone's plan lock while the task starts on an issue the plan keeps, as `plan start`
    takes it; nothing otherwise."""
    import contextlib

    if not verdict.get("issue_path"):
        return contextlib.nullcontext()
    from mj_state.plan import lock as planlock

    return planlock.CloneLock(layer.root)


def begin(layer: Layer, decided: Record) -> tuple[Record, str | None, list[Finding]]:
    """Bind the state, archive what the previous task left, append `task.started`, write the
    copy. Identity is git's, asked here; the ledger's line is written first, the copy after.
    With a remote, the task's claims are taken there before anything is written (`_remote`).
    """
    from mj_state import state_id as stateid

    stateid.bind(layer)  # judged this checkout's state just now; bound to it when unbound
    git.ahead(identity.calls(layer.root))  # git answers while the ledger is read
    try:
        situation = taskstate.read_task(layer)
        if situation.active is not None:  # judged none just now: a start beside this one
            raise Refused(f"start: task {situation.active.id} became active; nothing written")
        previous = situation.record() if situation.own is not None else situation.copy
        where = identity.identity(layer.root)
    finally:
        git.settle()
    name, promised = str(decided["profile"]), dict(decided["promised"])
    moment = clock.now()
    record: Record = {
        "id": ids.task_id(),
        "task": decided["task"],
        "profile": name,
        "owner": decided["owner"],
        "scope": list(decided["scope"]),
        **promised,
        "started_at": clock.iso(moment),
        "checkpoint_at": clock.iso(moment),
        "outcome": "active",
        **where,
    }
    claim, said = _remote(layer, record, bool(decided["take_over"]))
    archived = None
    if previous is not None:
        archived = layer.relative(tasks.archive(layer, previous, stray=situation.own is None))
    from mj_state.task import rules as startrules

    payload = {
        "task": record["task"],
        "profile": name,
        "scope": record["scope"],
        "owner": record["owner"],
        "worktree_id": where["worktree_id"],
        "working_tree": where["working_tree"],
        **promised,
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


STAGES = {"start-write": Stage(run)}
