"""`mj-policy plan --view validate|status|list|show|ready|blocked|waves|graph|next|body`: the
plan read back, with every status derived (nothing is written here).

`validate` names every defect (10; a warning alone is 0); every other view refuses a model
with defects (10, naming the first and `plan validate`), so a listing never rests on a model
that does not hold together. No plan at all, an unknown id or milestone, and `next` with
nothing ready are 12.
"""

from __future__ import annotations

from mj_core.errors import ContractUnmet
from mj_core.errors import MissingArtifact
from mj_core.errors import MjError
from mj_core.errors import UsageError
from mj_core.findings import Finding
from mj_core.stream.stage import Stage

from mj_policy.layer import loader as layer_mod
from mj_policy.plan import cache as plancache
from mj_policy.plan import model as planmodel
from mj_policy.plan import status as derive
from mj_policy.plan import views as planviews

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    Record = dict[str, Any]

VALIDATE = "majordomus plan validate"
NEEDS_ID = ("show", "body")


def validate(model: planmodel.Model) -> Iterator[Finding]:
    for problem in model.problems:
        yield Finding("FAIL", "plan", problem.where, f"{problem.cls}: {problem.message}", VALIDATE)
    for item in model.issues.values():
        if not item.data["validation"]:
            message = f"{item.id} names no validation command: nothing demonstrates it"
            yield Finding("WARN", "plan", item.where("validation"), message)
    if not model.problems:
        counts = f"{len(model.milestones)} milestone(s), {len(model.issues)} issue(s)"
        yield Finding("OK", "plan", model.directory, f"{counts}; the model holds together")


def _issue(model: planmodel.Model, statuses: dict[str, str], ident: str) -> Record:
    item = model.issues[ident]
    data = item.data
    return {"kind": "plan", "view": "issue", "id": ident, "milestone": data["milestone"],
            "title": data["title"], "priority": data["priority"], "status": statuses[ident],
            "depends_on": list(data["depends_on"]), "path": item.path,
            "blockers": derive.blockers(model, statuses, ident)}  # fmt: skip


def _milestone(model: planmodel.Model, milestone: str | None) -> None:
    if milestone is not None and milestone not in model.milestones:
        known = ", ".join(sorted(model.milestones)) or "none"
        raise MissingArtifact(f"--milestone {milestone}: not declared (milestones: {known})")


def views(model: planmodel.Model, options: argparse.Namespace) -> Iterator[Record]:
    view, milestone = options.view, getattr(options, "milestone", None)
    if view == "validate":
        yield from (f.record() for f in validate(model))
        return
    if model.problems:
        first = model.problems[0]
        raise ContractUnmet(f"{first.where}: {first.cls}: {first.message} — run `{VALIDATE}`")
    _milestone(model, milestone)
    statuses = derive.issue_statuses(model)
    chosen = [i.id for i in derive.in_milestone(model, milestone)]
    if view == "status":
        yield from _status(model, statuses)
    elif view in ("list", "ready", "blocked"):
        wanted = {"list": None, "ready": "READY", "blocked": "BLOCKED"}[view]
        for ident in derive.ranked(model, chosen):
            if wanted in (None, statuses[ident]):
                yield _issue(model, statuses, ident)
    elif view == "waves":
        for number, wave in enumerate(derive.waves(model, statuses, milestone), start=1):
            scopes = {
                i: list(model.issues[i].data["scope"]) for i in wave if statuses[i] == "READY"
            }
            yield {
                "kind": "plan",
                "view": "wave",
                "number": number,
                "issues": wave,
                "ready": scopes,
            }
    elif view == "graph":
        text = derive.mermaid(model, statuses, milestone)
        yield {"kind": "plan", "view": "graph", "milestone": milestone, "text": text}
    elif view == "next":
        ready = [i for i in derive.ranked(model, chosen) if statuses[i] == "READY"]
        if not ready:
            raise MissingArtifact("no issue is READY — `majordomus plan blocked` names what waits")
        yield _issue(model, statuses, ready[0])
    else:
        yield from _one(model, statuses, view, options)


def _status(model: planmodel.Model, statuses: dict[str, str]) -> Iterator[Record]:
    of = derive.milestone_statuses(model, statuses)
    ordered = sorted(model.milestones.values(), key=lambda m: (int(m.data["order"]), m.id))
    for item in ordered:
        own = [statuses[i] for i, x in model.issues.items() if x.data["milestone"] == item.id]
        counts = {s: own.count(s) for s in dict.fromkeys(own)}
        yield {"kind": "plan", "view": "milestone", "id": item.id, "title": item.data["title"],
               "status": of[item.id], "issues": counts, "path": item.path}  # fmt: skip
    active = next((m.id for m in ordered if of[m.id] == "ACTIVE"), None)
    active = active or next((m.id for m in ordered if of[m.id] not in derive.SETTLED), None)
    told = list(statuses.values())
    counts = {s: told.count(s) for s in sorted(set(told))}
    yield {"kind": "plan", "view": "summary", "active_milestone": active, "issues": counts}


def _one(
    model: planmodel.Model, statuses: dict[str, str], view: str, options: argparse.Namespace
) -> Iterator[Record]:
    ident = getattr(options, "id", None)
    if not ident:
        raise UsageError(f"plan {view}: name an issue or milestone id")
    item = model.issues.get(ident) or model.milestones.get(ident)
    if item is None:
        raise MissingArtifact(f"{ident}: no such issue or milestone in {model.directory}")
    if view == "show":
        of = derive.milestone_statuses(model, statuses)
        status = statuses.get(ident) or of[ident]
        yield {"kind": "plan", "view": "show", "id": ident, "path": item.path, "status": status,
               "data": item.data}  # fmt: skip
        return
    status = statuses.get(ident, "")
    yield {"kind": "plan", "view": "body", "id": ident, "text": body(item, status)}


def body(item: planmodel.Item, status: str) -> str:
    """The issue as a worker's brief: what, why, where, what done means and how it is shown."""
    data = item.data
    lines = [f"# {item.id} — {data['title']} ({status})", ""]
    for key in ("objective", "why", "current_state", "desired_state", "risk"):
        if data.get(key):
            lines.append(f"{key.replace('_', ' ').capitalize()}: {data[key]}")
    for key in ("scope", "non_scope", "depends_on", "acceptance_criteria", "validation",
                "evidence_required"):  # fmt: skip
        values = data.get(key) or []
        lines += ["", f"## {key.replace('_', ' ').capitalize()}"]
        lines += [f"- {v}" for v in values] if values else ["- none"]
    return "\n".join(lines) + "\n"


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    lay = layer_mod.load(context.root())
    if options.view not in plancache.CACHED_VIEWS:
        yield from views(planmodel.load(lay), options)
        return
    model, wanted = plancache.listed(lay, plancache.begin(lay))
    if wanted is None or options.view not in planviews.VIEWS:
        yield from views(model, options)
        return
    said: list[Record] = []
    stopped: MjError | None = None
    try:
        said.extend(views(model, options))
    except MjError as exc:
        stopped = exc
    error = (int(stopped.code), stopped.message) if stopped is not None else None
    section = lay.relative(lay.section("project"))
    milestone = getattr(options, "milestone", None)
    planviews.remember(
        lay.root, wanted, section, view=options.view, milestone=milestone, records=said, error=error
    )
    yield from said
    if stopped is not None:
        raise stopped


STAGES = {"plan": Stage(_run)}
