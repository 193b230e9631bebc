"""`mj-state plan-start-write`: the one write of `plan start` — the verdict `mj-watch plan-start`
gave, written: `started_at` appended to the issue file with its `plan.started` ledger line, both
or neither, and the issue's claim taken.

It passes the judge's stream on; a `verdict` record (and only that) becomes the write. It takes
no verdict on trust: under the clone's plan lock and `.ai/local/state/plan.lock`
(`mj_state.plan.lock`) it gathers the facts again (`mj_state.plan.start_facts`) and judges them
again (`mj_state.plan.start_judge`): a refusal there is the command's own (so of N concurrent
starts of one READY issue exactly one wins; the others find it ACTIVE, or held by another
worktree of the clone), and a verdict other than the one judged now — the issue file, its claim
or the ledger moved since, or a verdict not this judge's — is refused (15), nothing written.
The time, the branch and the clone are the writer's own. The claim among this clone's worktrees
is written before the marker (a crash between the two leaves a claim whose worktree never
started the issue, which holds nothing); with a remote, the remote's claim is taken after it
(a compare-and-swap there: 15 naming the clone that holds it). It prints the next READY issue.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import Refused
from mj_core.git import questions as git
from mj_core.stream.stage import Stage
from mj_core.write import atomic
from mj_policy.layer.loader import load
from mj_policy.plan import model as planmodel

from mj_state.ledger import store as ledger
from mj_state.plan import rules
from mj_state.plan import start_facts as startfacts
from mj_state.plan import start_judge as startjudge
from mj_state.plan import write as planwrite

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    arrived = list(context.records(options.input))
    for record in arrived:
        if record.get("kind") == "verdict" and record.get("action") == "plan-start":
            yield from write(context.root(), record)
        else:
            yield record


def write(root: Path, verdict: Record) -> Iterator[Record]:
    from mj_state.plan.lock import CloneLock

    lay = load(root)
    ident = str(verdict["id"])
    with CloneLock(root) as shared, atomic.locked(lay.state / "plan.lock", root=root):
        yield from planwrite.stale(shared)
        fact = startfacts.gather(root, ident, bool(verdict["take_over"]), shared)
        if startjudge.judge(fact) != verdict:
            raise Refused(
                f"plan start {ident}: the issue file, its claim or the ledger moved since it was "
                "judged; nothing written — run `majordomus plan start` again"
            )
        item = startjudge.model_of(fact).issues[ident]
        path = lay.root / item.path
        old = path.read_bytes()
        if old.decode("utf-8", "replace") != fact["text"]:
            raise Refused(
                f"plan start {ident}: {item.path} moved while it was read; nothing written"
            )
        moment = clock.now()
        line = startjudge.marker(clock.iso(moment))
        new = rules.appended(old, line)
        rules.holds(item, new, "start")
        shared.claim(ident, git.branch(root), fact["holder"])
        payload: Record = {"issue": ident, "milestone": item.data["milestone"]}
        claim = _remote_claim(lay, item, bool(verdict["take_over"]))
        if claim is not None:
            payload["claim"] = claim
        atomic.create(path, new, mode=0o644, replace=True, root=root,
                      then=lambda: ledger.append(root, lay.state, "plan.started", payload,
                                                 moment=moment))  # fmt: skip
        yield {"kind": "plan", "view": "written", "id": ident, "action": "start",
               "path": item.path, "line": line.rstrip("\n")}  # fmt: skip
        after = planmodel.load(lay)
    yield from planwrite.next_ready(after)


def _remote_claim(lay: Any, item: planmodel.Item, take_over: bool) -> Record | None:
    """With a remote, the issue's claim taken there first (15 naming its holder): of N clones
    starting one issue, one goes on to write its marker."""
    if not planwrite.remote_of(lay):
        return None
    from mj_state.remote import hooks

    scope = [str(p) for p in item.data.get("scope") or []]
    return hooks.claim_issue(lay, item.id, scope, take_over=take_over)


STAGES = {"plan-start-write": Stage(run)}
