"""`mj-state facts --for context`: the durable state a briefing is built from, as `fact` records.

One record per fact, in authority order: clock and git, policy, task, profile, context
documents, open questions, decisions, the task's reasoning records (when it has a directory of
them), the newest compatible checkpoint and handover (only those two record files are read),
touched files, recent history, and the prompt asked for. Facts
carry data, not decisions: what to show and what to drop is `mj-context build`'s business, and
it alone reads the profile's `context` block.
"""

from __future__ import annotations

from pathlib import Path

from mj_core import clock
from mj_core import timing
from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.git import where as gitwhere
from mj_policy.layer import loader as layer_mod
from mj_policy.layer.loader import Layer

from mj_state import identity
from mj_state.context_reads import documents
from mj_state.context_reads import history
from mj_state.context_reads import prompt
from mj_state.context_reads import reasoning
from mj_state.records import decisions
from mj_state.records import questions
from mj_state.records import resolve as resolver
from mj_state.task import state as taskstate

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    Record = dict[str, Any]


WORKSPACES = ".ai/repo/workspaces"  # `mj_policy.layer.declarations.KINDS["workspace"]`


def fact(which: str, /, **fields: Any) -> Record:
    return {"kind": "fact", "fact": which, **fields}


def collect(root: Path, prompt_name: str | None = None) -> Iterator[Record]:
    """Every fact for the checkout at `root`, in authority order.

    Git is asked first (one round of processes, at once) and answers while the facts that do
    not depend on it are read; the order they are given in is unchanged.
    """
    lay = layer_mod.load(root)
    situation = taskstate.read(lay)
    task = situation.record()  # the ledger's word; current.yaml is only compared with it
    active = task is not None and task.get("outcome") == "active"
    base = str(task.get("head") or "") if active and task is not None else None
    with gitwhere.Snapshot(root, base) as pending:
        policy = fact("policy", **_policy(lay))
        profile = _profile(lay, task)
        chain = None
        if active and task is not None:
            claims = [str(s) for s in task.get("scope") or []]
            chain = fact("documents", chain=documents(lay, claims))
        asked = _questions(lay, task, situation)
        decided = fact("decisions", entries=[_decision(e) for e in decisions.read(lay.state)])
        where, status, changed = pending.result()
    here = {**identity.from_where(root, *where), "working_tree": "dirty" if status else "clean"}
    yield fact("git", generated_at=clock.iso(clock.now()), repository=str(root), **here)
    yield policy
    yield _task(root, task, here, situation)
    yield profile
    if chain is not None:
        yield chain
    yield asked
    yield decided
    limit = int(lay.policy.data["context"]["max_list_items"])
    if active and task is not None:
        thought = reasoning(lay, str(task.get("id") or ""), limit)
        if thought is not None:
            yield fact("reasoning", **thought)
    for kind in ("checkpoint", "handover"):
        with timing.phase(f"facts: {kind}"):
            yield _record(lay, kind, here)
    if active and task is not None:
        yield fact("touched", files=list(dict.fromkeys([*status, *changed])))
        if (root / WORKSPACES).is_dir():  # none declared: their reader is not even loaded
            from mj_policy.layer import declarations

            found = declarations.workspaces_for(root, [str(s) for s in task.get("scope") or []])
            if found is not None:
                yield found
    yield fact("history", **history(lay.state / "ledger.jsonl", limit))
    if prompt_name:
        yield fact("prompt", **prompt(lay, prompt_name))


def _policy(lay: Layer) -> Record:
    data = lay.policy.data
    from mj_policy.providers import loaded_always

    projections = [  # always loaded: as the provider loads it (share/providers.yaml)
        {
            "provider": p.get("provider"),
            "target": p.get("target"),
            "always_loaded": loaded_always(p),
        }
        for p in data.get("projections") or []
    ]
    context = data["context"]
    return {
        "builder_budget_lines": context["builder_budget_lines"],
        "recent_decisions": context["recent_decisions"],
        "max_list_items": context["max_list_items"],
        "checkpoint_interval_default": data["profiles"]["checkpoint_interval_default"],
        "projections": projections,
    }


def _task(root: Path, task: Record | None, here: Record, situation: taskstate.Situation) -> Record:
    """The task as the ledger records it, its label, and the fields its copy departs on."""
    if task is None:
        return fact("task", task=None, label=None, disagreements=[])
    differ = [key for key, _, _ in situation.disagreements()]
    if situation.copy is None or situation.copy_problem is not None:
        differ.insert(0, "current.yaml")
    return fact("task", task=task, label=identity.label(root, task, here), disagreements=differ)


def _profile(lay: Layer, task: Record | None) -> Record:
    if task is None:
        return fact("profile", name=None, exists=False, data=None)
    name = str(task.get("profile"))
    try:
        return fact("profile", name=name, exists=True, data=lay.profile(name).data)
    except MissingArtifact:
        return fact("profile", name=name, exists=False, data=None)


def _questions(lay: Layer, task: Record | None, situation: taskstate.Situation) -> Record:
    """The task's open questions, the file's and the ledger's together (`task.state.blockers`)."""
    if task is None:
        return fact("questions", unresolved=[])
    from mj_state.task.place import Place

    text, problem = questions.read(lay.state)
    found = taskstate.blockers(Place.of(lay), str(task["id"]), situation, text, problem)
    entries, _ = questions.load(lay.state)
    dates = {e.question: e.date for e in entries if not e.resolved}
    mine = [{"question": q, "date": dates.get(q, "")} for q, _ in found.open]
    return fact("questions", unresolved=mine)


def _decision(entry: decisions.Entry) -> Record:
    return {
        "date": entry.date,
        "title": entry.title,
        "task": entry.fields.get("Task", "-"),
        "text": entry.text(),
    }


def _record(lay: Layer, kind: str, here: Record) -> Record:
    try:
        found = resolver.resolve(lay.root, lay.state, kind, here)
    except MjError as exc:
        return fact(kind, record=None, problem=exc.message)
    if found is None:
        return fact(kind, record=None, problem=None)
    front = found.front
    return fact(
        kind,
        record={
            "path": lay.relative(found.path),
            "created_at": str(front.get("created_at")),
            "task_id": str(front.get("task_id")),
            "head": str(front.get("head")),
            "label": found.label,
            "body": found.body,
        },
        problem=None,
    )
