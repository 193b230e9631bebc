"""`plan start` judged: a pure function from the `plan-start` fact (`mj_state.plan.start_facts`)
to the verdict `mj-state plan-start-write` writes, or the refusal.

It opens no file: `mj-watch plan-start` runs it over the facts on its stdin, and the writer runs
it again over the facts it gathers under the plan's lock. Refusals, in order: a plan with a
problem (10, naming the first), a marker neither git nor the ledger holds (10), no such issue
(12), an issue that is not READY (15, naming what it waits on), an append that would change
more than its own line (15), and another worktree's claim on it without `--take-over` (15,
naming the holder). The verdict names the issue, the claim it takes over, and what it was
judged on (the issue file's hash and the ledger's tip): the writer writes nothing when those
moved.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import Refused
from mj_policy.plan import model as planmodel
from mj_policy.plan import status as derive

from mj_state.plan import rules

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any

    Record = dict[str, Any]

STAMP = "1970-01-01T00:00:00Z"  # the marker's time while judging; the writer stamps its own


def judge(fact: Record) -> Record:
    ident = str(fact["id"])
    model, item = sound(fact)
    rules.allowed(model, derive.issue_statuses(model), "start", ident, set())
    text = str(fact["text"])
    rules.holds(item, rules.appended(text.encode("utf-8"), marker(STAMP)), "start")
    held = fact.get("holder")
    if held is not None and not fact["take_over"]:
        raise Refused(
            f"plan start {ident}: held by the worktree {held.get('worktree')} of this clone "
            f"(branch {held.get('branch')}, since {held.get('since')}) — finish it there, or "
            "take it with --take-over"
        )
    import hashlib  # only a plan start's verdict names the file it judged

    return {
        "kind": "verdict",
        "action": "plan-start",
        "id": ident,
        "path": item.path,
        "take_over": bool(fact["take_over"]),
        "holder": held,
        "file": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "tip": str(fact["tip"]),
    }


def sound(fact: Record) -> tuple[planmodel.Model, planmodel.Item]:
    """The plan a writer's fact carries and its issue, or the refusal every plan writer makes
    first: a plan with a problem (10, naming the first), a marker neither git nor the ledger
    holds (10), no such issue (12)."""
    if fact["problems"]:
        first = fact["problems"][0]
        raise ContractUnmet(
            f"{first['where']}: {first['message']} — run `majordomus plan validate`"
        )
    if fact["unvouched"]:
        first = fact["unvouched"][0]
        raise ContractUnmet(f"{first['subject']}: {first['message']} — run `{first['reproduce']}`")
    model = model_of(fact)
    item = model.issues.get(str(fact["id"]))
    if item is None or fact.get("text") is None:
        raise MissingArtifact(f"{fact['id']}: no such issue in {fact['directory']}")
    return model, item


def marker(stamp: str) -> str:
    return f"{rules.MARKER['start']}: {stamp}\n"


def model_of(fact: Record) -> planmodel.Model:
    """The plan as far as the fact carries it: the issue and what it depends on."""
    model = planmodel.Model(str(fact["directory"]))
    for ident, issue in fact["issues"].items():
        path = str(issue["path"])
        model.issues[ident] = planmodel.Flat("issue", path, dict(issue["data"]), path)
    return model
