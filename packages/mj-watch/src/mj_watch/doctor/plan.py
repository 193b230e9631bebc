"""Doctor's view of the plan (SCHEMAS: a `status:` key, or any defect, fails `plan validate`
and `doctor` alike): the model's defects as `plan validate` names them, and each lifecycle
marker that neither git nor this checkout's ledger holds (`mj_state.plan.markers`).

`fact` gathers; `plan_integrity` judges from the fact alone. A repository that keeps no plan
has nothing here (the model is opt-in). The model comes from the listing cache while git
vouches for it (`mj_policy.plan.cache`), read and never written: doctor writes nothing.
"""

from __future__ import annotations

from mj_core.findings import Finding

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from mj_policy.layer.loader import Layer

    from mj_watch.doctor.facts_view import Facts

CATEGORY = "plan"
VALIDATE = "majordomus plan validate"


def fact(lay: Layer | None) -> dict[str, Any]:
    """The plan's defects and unvouched markers; `kept: false` when there is no plan."""
    if lay is None or not (lay.section("project") / "project.yaml").is_file():
        return {"kind": "fact", "fact": "plan", "kept": False}
    from mj_policy.plan import cache as plancache
    from mj_state.plan import markers as planmarkers

    model = plancache.model(lay, plancache.key(lay), store=False)
    return {
        "kind": "fact",
        "fact": "plan",
        "kept": True,
        "directory": model.directory,
        "milestones": len(model.milestones),
        "issues": len(model.issues),
        "problems": [[p.cls, p.where, p.message] for p in model.problems],
        "markers": [f.record() for f in planmarkers.findings(lay)],
    }


def plan_integrity(facts: Facts) -> Iterator[Finding]:
    told = facts.facts.get("plan")
    if not told or not told.get("kept"):
        return
    for cls, where, message in told["problems"]:
        yield Finding("FAIL", CATEGORY, where, f"{cls}: {message}", VALIDATE)
    for record in told["markers"]:
        yield Finding("FAIL", CATEGORY, record["subject"], record["message"], VALIDATE)
    if not told["problems"] and not told["markers"]:
        counts = f"{told['milestones']} milestone(s), {told['issues']} issue(s)"
        said = f"{counts}; the model holds together, every marker git's or the ledger's"
        yield Finding("OK", CATEGORY, told["directory"], said)
