"""`mj-state plan-write --action verify|evidence|done <id>`: move one issue through its
lifecycle — one marker added to one issue file and one ledger line, under one lock (`start`
is facts | judge | writer: `mj_state.plan.start_facts`, `start_judge`, `start_write`).

Every writer takes the clone's plan lock (`mj_state.plan.lock`, in git's common directory,
shared by the clone's worktrees) and `.ai/local/state/plan.lock`, reads the plan again under
them, judges the issue's derived status, then appends its line to the issue file (every other
byte stays as written) and publishes the file atomically with its ledger line (`plan.verified`,
`plan.evidence`, `plan.done`): both land or neither.
No writer acts on a plan holding a lifecycle marker that neither git nor this checkout's ledger
holds (`plan.markers`, 10): a status moved by hand moves nothing further. The `plan.evidence`
line carries the entry it appended (type, command, result, artifact, commit), so an entry
edited afterwards is told from the one written.

`verify` needs ACTIVE; `evidence` a token the issue requires (15) and a `--command` or
`--artifact` (2); `done` ACTIVE or VERIFY, every dependency DONE (15) and every required token
covered (10), and, when this checkout's active task works on the issue (`start --issue`), each
obligation that task promised met (10) (`mj_state.plan.rules`). Each prints the next READY
issue.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_core.errors import UsageError
from mj_core.git import questions as git
from mj_core.stream.stage import Stage
from mj_core.write import atomic
from mj_core.yaml import write as yamlwrite
from mj_policy.layer.loader import load
from mj_policy.plan import model as planmodel
from mj_policy.plan import status as derive

from mj_state.ledger import store as ledger
from mj_state.plan import rules

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_state.plan.lock import CloneLock

    Record = dict[str, Any]

EVENT = {"verify": "plan.verified", "evidence": "plan.evidence", "done": "plan.done"}


def write(root: Any, options: argparse.Namespace) -> Iterator[Record]:
    from mj_state.plan.lock import CloneLock

    lay = load(root)
    action, ident = options.action, options.id
    with CloneLock(root) as shared, atomic.locked(lay.state / "plan.lock", root=root):
        yield from stale(shared)
        model = planmodel.load(lay)
        if model.problems:
            first = model.problems[0]
            raise ContractUnmet(f"{first.where}: {first.message} — run `majordomus plan validate`")
        vouched(lay)
        item = model.issues.get(ident)
        if item is None:
            raise MissingArtifact(f"{ident}: no such issue in {model.directory}")
        statuses = derive.issue_statuses(model)
        met = _linked_task(lay, ident) if action == "done" else set()
        rules.allowed(model, statuses, action, ident, met)
        moment = clock.now()
        line, payload = _addition(item, action, options, root, moment)
        path = lay.root / item.path
        old = path.read_bytes()
        new = rules.appended(old, line)
        rules.holds(item, new, action)
        atomic.create(path, new, mode=0o644, replace=True, root=root,
                      then=lambda: ledger.append(root, lay.state, EVENT[action], payload,
                                                 moment=moment))  # fmt: skip
        yield {"kind": "plan", "view": "written", "id": ident, "action": action,
               "path": item.path, "line": line.rstrip("\n")}  # fmt: skip
        if action == "done":
            shared.release(ident)
        after = planmodel.load(lay)
    if action == "done" and remote_of(lay):
        from mj_state.remote import hooks

        hooks.release_issue(lay, ident)
    yield from next_ready(after)


def stale(shared: CloneLock) -> Iterator[Record]:
    """A WARN when the clone's plan lock was last held by a process killed while holding it."""
    from mj_core.findings import Finding

    left = shared.stale
    if left is not None:
        message = (
            f"the last holder (pid {left.get('pid')}, started {left.get('started') or '?'}, "
            f"worktree {left.get('worktree')}, since {left.get('since')}) ended without "
            "releasing it: taken over"
        )
        yield Finding("WARN", "plan", str(shared.home / "plan.lock"), message).record()


def remote_of(lay: Any) -> bool:
    from mj_state import mirror

    return mirror.configured(lay.policy.data)


def vouched(lay: Any) -> None:
    """No writer acts on a plan with a marker neither git nor this checkout's ledger holds
    (`plan.markers`): a status moved by hand moves nothing further (10)."""
    from mj_state.plan import markers as planmarkers

    forged = planmarkers.findings(lay)
    if forged:
        first = forged[0]
        raise ContractUnmet(f"{first.subject}: {first.message} — run `{first.reproduce}`")


def _linked_task(lay: Any, ident: str) -> set[str]:
    """`done` of the issue this checkout's active task works on (`start --issue`): refused (10)
    while an obligation the task promised is uncovered, failed, stale or unsettled; the tokens
    its fresh evidence covers need no entry in the issue file."""
    from mj_state.task import obligations
    from mj_state.task import state as taskstate

    task = taskstate.read(lay).active_record()
    if task is None or task.get("issue") != ident:
        return set()
    entries = obligations.facts(lay, task, git.head(lay.root) or "")
    open_ = [e for e in entries if e["state"] not in ("covered", "settled", "verify")]
    if open_:
        said = "; ".join(f"{e['token']} {e['state']} ({e['why']})" for e in open_)
        raise ContractUnmet(
            f"plan done {ident}: task {task['id']} has obligations not met: {said} — "
            "`majordomus check --rule majordomus.obligations-covered`"
        )
    return {str(e["token"]) for e in entries if e["state"] == "covered"}


def _addition(
    item: planmodel.Item, action: str, options: argparse.Namespace, root: Any, moment: int
) -> tuple[str, Record]:
    """The line(s) the action appends to the issue file, and its ledger payload."""
    stamp = clock.iso(moment)
    payload: Record = {"issue": item.id, "milestone": item.data["milestone"]}
    if action in rules.MARKER:
        return f"{rules.MARKER[action]}: {stamp}\n", payload
    token = options.covers
    for flag in ("covers", "type", "result"):
        if not getattr(options, flag, None):
            raise UsageError(f"plan evidence: --{flag} is required")
    if token not in item.data["evidence_required"]:
        required = ", ".join(item.data["evidence_required"]) or "none"
        raise Refused(f"plan evidence {item.id}: {token!r} is not a token it requires ({required})")
    if not (options.shown_by or options.artifact):
        raise UsageError("plan evidence: give --command or --artifact: what shows it")
    entry = {
        "covers": token,
        "type": options.type,
        "command": options.shown_by or "-",
        "result": options.result,
    }
    if options.artifact:
        entry["artifact"] = options.artifact
    entry |= {"commit": git.head(root) or "0000000", "recorded_at": stamp}
    said = {k: v for k, v in entry.items() if k != "recorded_at"}  # the ledger vouches for it
    lines = "".join(
        f"{'  - ' if index == 0 else '    '}{key}: {yamlwrite.scalar(value)}\n"
        for index, (key, value) in enumerate(entry.items())
    )
    if "evidence" not in item.data:
        return "evidence:\n" + lines, payload | said
    if list(item.data)[-1] != "evidence":
        raise Refused(f"{item.path}: evidence: is not its last key; move it last to append to it")
    return lines, payload | said


def next_ready(model: planmodel.Model) -> Iterator[Record]:
    statuses = derive.issue_statuses(model)
    ready = [i for i in derive.ranked(model, list(model.issues)) if statuses[i] == "READY"]
    if ready:
        item = model.issues[ready[0]]
        yield {"kind": "plan", "view": "next", "id": item.id, "title": item.data["title"]}


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    yield from write(context.root(), options)


STAGES = {"plan-write": Stage(_run)}
