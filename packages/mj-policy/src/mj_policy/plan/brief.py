"""`mj-policy plan-brief`: the briefing's facts in, the same facts out with a `plan-brief` fact
added when the repository keeps a plan: the issue the active task works on (`start --issue`)
with its derived status, its milestone's and each dependency's, the evidence it still lacks,
and the READY issues that come next in the order work takes them (USE-CASE context; the
section builders are `mj_context.plan_sections`).

The plan is the listings' (`plan.cache`, read and never written here: a briefing writes
nothing): from the cache while git vouches for the plan's directory, else parsed. Git is asked
before the upstream facts are read, so its answer comes while they are gathered. A plan with
defects is the fact's `problem` (the first, with `plan validate` to name them all), never the
briefing's failure; without a plan the stage passes the facts on and adds nothing.
"""

from __future__ import annotations

from mj_core.stream.stage import Stage

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator
    from typing import Any

    from mj_core.stream.stage import Context

    from mj_policy.plan.model import Model

    Record = dict[str, Any]

FACT = "plan-brief"


def brief(model: Model, issue: str | None, cap: int) -> Record:
    """The fact: the task's issue (when it names one the plan declares) and what is ready."""
    from mj_policy.plan import status as derive

    if model.problems:
        first = model.problems[0]
        said = f"{first.where}: {first.cls}: {first.message} — run `majordomus plan validate`"
        return {"kind": "fact", "fact": FACT, "directory": model.directory, "problem": said}
    statuses = derive.issue_statuses(model)
    ready = derive.ranked(model, [i for i, s in statuses.items() if s == "READY" and i != issue])
    return {
        "kind": "fact",
        "fact": FACT,
        "directory": model.directory,
        "problem": None,
        "issue": _issue(model, statuses, issue) if issue else None,
        "ready": [_row(model, statuses, i) for i in ready[:cap]],
        "ready_total": len(ready),
    }


def _row(model: Model, statuses: dict[str, str], ident: str) -> Record:
    data = model.issues[ident].data
    return {"id": ident, "status": statuses[ident], "title": data["title"],
            "milestone": data["milestone"], "priority": data["priority"]}  # fmt: skip


def _issue(model: Model, statuses: dict[str, str], ident: str) -> Record:
    from mj_policy.plan import status as derive

    item = model.issues.get(ident)
    if item is None:
        return {"id": ident, "declared": False}
    data = item.data
    of = derive.milestone_statuses(model, statuses, only=data["milestone"])
    covered = {e.get("covers") for e in data.get("evidence") or [] if isinstance(e, dict)}
    deps = [d for d in data["depends_on"] if d in model.issues]
    return {
        **_row(model, statuses, ident),
        "declared": True,
        "path": item.path,
        "milestone_status": of.get(data["milestone"]),
        "depends_on": [_row(model, statuses, d) for d in deps],
        "evidence_missing": [t for t in data["evidence_required"] if t not in covered],
    }


def _run(options: argparse.Namespace, context: Context) -> Iterator[Record]:
    from mj_core.errors import MjError
    from mj_core.git import questions as git
    from mj_core.yaml import strict as yamlstrict

    from mj_policy.layer import loader as layer_mod

    asked = None
    try:  # the manifest names the plan's section (judged by the facts stage, which fails the
        # briefing on a layer that does not load); the whole layer is read only for a plan
        root = context.root()
        said = yamlstrict.load_file(root / layer_mod.MANIFEST, layer_mod.MANIFEST)
        value = layer_mod.section_value(said, "project")
        section = (root / ".ai" / value).relative_to(root).as_posix()  # as `Layer.relative`
        if (root / section / "project.yaml").is_file():  # a plan: its modules, only then
            from mj_policy.plan import views as planviews

            lay = layer_mod.load(root)
            manifest = planviews.manifest_bytes(lay.root)
            running = git.start_many([(q, lay.root) for q in planviews.questions(section)])
            asked = (running, section, manifest, lay)
    except (MjError, OSError):
        asked = None  # no layer, no plan: the facts say what is wrong with the layer
    facts: dict[str, Record] = {}
    try:
        for record in context.records(getattr(options, "input", None)):
            if record.get("kind") == "fact":
                facts[str(record.get("fact"))] = record
            yield record
    finally:  # git is reaped whatever the upstream did
        answers = git.decoded(asked[0].wait()) if asked is not None else None
    if asked is None or answers is None:
        return
    from mj_policy.plan import cache as plancache
    from mj_policy.plan import views as planviews

    _, section, manifest, lay = asked
    key = planviews.key_of(answers, section, manifest)[1]
    task = (facts.get("task") or {}).get("task") or {}
    issue = str(task["issue"]) if task.get("outcome") == "active" and task.get("issue") else None
    cap = int((facts.get("policy") or {}).get("max_list_items", 20))
    try:
        yield brief(plancache.model(lay, key, store=False), issue, cap)
    except MjError as exc:
        yield {"kind": "fact", "fact": FACT, "directory": section, "problem": exc.message}


STAGES = {"plan-brief": Stage(_run)}
