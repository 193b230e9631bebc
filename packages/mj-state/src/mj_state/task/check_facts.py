"""`mj-state facts --for check|explain|overlap`: what `mj-state check` judges, as facts.

The place and the policy, the task's situation (the ledger's record of it, its copy, the
chain over its lines), the profile, and then — for the plain check — git's answer (where HEAD
is, what was touched since the task's head, the divergence label), the task's malformed ledger
lines, the question file and the clock; for `--explain` every doctrine in force, for
`--overlap` the other worktrees' claims met. Everything read here; nothing judged.
"""

from __future__ import annotations

from mj_core import clock
from mj_core.git import where as gitwhere
from mj_policy.layer.loader import load

from mj_state import identity
from mj_state import mirror
from mj_state.records import questions
from mj_state.task import explain
from mj_state.task import overlap
from mj_state.task import start_facts
from mj_state.task import state as taskstate
from mj_state.task.place import Place

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path
    from typing import Any

    Record = dict[str, Any]


def fact(which: str, /, **fields: Any) -> Record:
    return {"kind": "fact", "fact": which, **fields}


def gather(root: Path, mode: str = "check") -> Iterator[Record]:
    layer = load(root)
    situation = taskstate.read(layer)
    record = situation.active_record()
    altered: list[str] = []  # the rules' files changed since the task's start
    if situation.active is not None:  # the task is judged by the rules as they stood then
        from mj_state.task import rules as startrules

        rules = startrules.at_start(layer, situation.active.fields)
        layer, altered = rules.layer, rules.changed
    yield Place.of(layer).fact()
    yield situation.fact()
    if record is not None:
        name = str(record["profile"])
        data = layer.profile(name).data
        yield fact("profile", name=name, data=data, interval=start_facts.interval(layer, name))
    if record is not None and mode == "explain":
        yield fact("doctrines", items=[list(d) for d in explain.doctrines(layer)])
        return
    told = mirror.fact(layer, clock.now()) if record is not None else None
    if told is not None:
        yield told  # other clones' claims as of the last sync: no network here
    if record is not None and mode == "overlap":
        found = [f.record() for f in overlap.report(root, list(record["scope"]))]
        yield fact("overlap", findings=found, others=len(overlap.other_worktrees(root)))
        return
    base = str(record["head"]) if record is not None else None
    with gitwhere.Snapshot(root, base) as pending:
        text, problem = questions.read(layer.state)
        where, status, changed = pending.result()
    if record is not None:
        from mj_state.task import scope

        here = identity.from_where(root, *where)
        touched = list(dict.fromkeys([*status, *changed, *altered]))
        writes = scope.writes(layer, base or "", here.get("head"), status, changed)
        label = identity.label(root, record, here)
        yield fact("git", here=here, touched=touched, label=label, **writes)
    scan = situation.scan  # the task's own lines: the whole ledger is doctor's to judge
    problems = [list(p) for p in scan.problems]
    yield fact("ledger", count=len(scan.rows), problems=problems)
    yield fact("questions", text=text, problem=problem)
    yield fact("clock", now=clock.now())
    from mj_policy.knowledge import notes  # a candidate record claiming `verified` (SCHEMAS)

    misplaced = notes.misplaced(root)
    yield fact("knowledge-records", records=len(misplaced), findings=misplaced)
