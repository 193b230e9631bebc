"""`mj-state plan-move-write`: the one write of `plan verify`, `plan evidence` and `plan done` —
the verdict `mj-watch plan-move` gave, written: one marker (or evidence entry) appended to the
issue file with its ledger line (`plan.verified`, `plan.evidence`, `plan.done`), both or
neither; `done` also releases the issue's claims.

It passes the judge's stream on; a `plan-move` verdict (and only that) becomes the write. It
takes no verdict on trust: under the clone's plan lock and `.ai/local/state/plan.lock` it
gathers the facts again (`mj_state.plan.move_facts`, for the request the verdict repeats) and
judges them again (`mj_state.plan.move_judge`): a refusal there is the command's own, and a
verdict other than the one judged now — the issue file or the ledger moved since, or a verdict
not this judge's — is refused (15), nothing written. The time is the writer's own. The
`plan.evidence` line carries the entry it appended, so an entry edited afterwards is told from
the one written. It prints the next READY issue.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.errors import Refused
from mj_core.stream.stage import Stage
from mj_core.write import atomic
from mj_policy.layer.loader import load
from mj_policy.plan import model as planmodel

from mj_state.ledger import store as ledger
from mj_state.plan import move_facts as movefacts
from mj_state.plan import move_judge as movejudge
from mj_state.plan import rules
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

EVENT = {"verify": "plan.verified", "evidence": "plan.evidence", "done": "plan.done"}


def run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    arrived = list(context.records(options.input))
    for record in arrived:
        if record.get("kind") == "verdict" and record.get("action") == "plan-move":
            yield from write(context.root(), record)
        else:
            yield record


def write(root: Path, verdict: Record) -> Iterator[Record]:
    from mj_state.plan.lock import CloneLock

    lay = load(root)
    ident, action = str(verdict["id"]), str(verdict.get("move"))
    if action not in EVENT:
        _refuse(ident, action)
    with CloneLock(root) as shared, atomic.locked(lay.state / "plan.lock", root=root):
        yield from planwrite.stale(shared)
        fact = movefacts.gather(root, action, ident, verdict.get("given"))
        if movejudge.judge(fact) != verdict:
            _refuse(ident, action)
        item = startjudge.model_of(fact).issues[ident]
        path = lay.root / item.path
        old = path.read_bytes()
        if old.decode("utf-8", "replace") != fact["text"]:
            raise Refused(
                f"plan {action} {ident}: {item.path} moved while it was read; nothing written"
            )
        moment = clock.now()
        line, entry = movejudge.addition(item, action, fact["given"], fact["commit"],
                                         clock.iso(moment))  # fmt: skip
        new = rules.appended(old, line)
        rules.holds(item, new, action)
        payload: Record = {"issue": ident, "milestone": item.data["milestone"]} | (entry or {})
        atomic.create(path, new, mode=0o644, replace=True, root=root,
                      then=lambda: ledger.append(root, lay.state, EVENT[action], payload,
                                                 moment=moment))  # fmt: skip
        yield {"kind": "plan", "view": "written", "id": ident, "action": action,
               "path": item.path, "line": line.rstrip("\n")}  # fmt: skip
        if action == "done":
            shared.release(ident)
        after = planmodel.load(lay)
    if action == "done" and planwrite.remote_of(lay):
        from mj_state.remote import hooks

        hooks.release_issue(lay, ident)
    yield from planwrite.next_ready(after)


def _refuse(ident: str, action: str) -> None:
    raise Refused(
        f"plan {action} {ident}: the issue file or the ledger moved since it was judged, or the "
        "verdict is not this judgement; nothing written — run the command again"
    )


STAGES = {"plan-move-write": Stage(run)}
