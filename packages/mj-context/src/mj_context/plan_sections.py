"""The plan's sections, from the `plan-brief` fact (`mj-policy plan-brief`): PLAN ISSUE, the issue
the active task works on with its dependencies' state, and READY NEXT, the issues that can be
started now.

PLAN ISSUE stands after PROFILE: the issue is the task's contract, and a dependency that is not
DONE is a blocker (`plan done` refuses it). Over the budget it degrades to its first line and a
pointer to `majordomus plan body <id>`, after the decisions. READY NEXT is a derived listing,
dropped among the first, after the files. Without a plan neither exists; a plan with defects is
one line that says so and names `plan validate`.
"""

from __future__ import annotations

from mj_context.sections import Excluded
from mj_context.sections import Section
from mj_context.sections import View
from mj_context.sections import capped

TYPE_CHECKING = False  # `typing` is not imported at run time on a start-up path
if TYPE_CHECKING:
    from typing import Any


READY_SHOWN = 5  # the next few: the whole list is `plan ready`'s


def _fact(view: View) -> dict[str, Any] | None:
    found: dict[str, Any] | None = view.facts.get("plan-brief")
    return found


def issue(view: View) -> Section | Excluded | None:
    told = _fact(view)
    task = view.task or {}
    if told is None or not view.active or not task.get("issue"):
        return None
    if told.get("problem"):
        return Section(
            "plan-issue", "## PLAN ISSUE", [f"the plan does not hold: {told['problem']}"]
        )
    about = told["issue"]
    if not about.get("declared"):
        said = f"{about['id']} is not in {told['directory']} — `majordomus plan list`"
        return Excluded("plan issue", said)
    head = f"{about['id']} {about['status']}  {about['title']}"
    milestone = f"milestone    {about['milestone']} {about.get('milestone_status') or ''}".rstrip()
    deps = about["depends_on"]
    waiting = [d for d in deps if d["status"] != "DONE"]
    rows = [f"- {d['id']} {d['status']}  {d['title']}" for d in deps]
    body = [head, milestone, f"record       {about['path']}"]
    if deps:
        state = f"waits on {len(waiting)} of {len(deps)}" if waiting else "all DONE"
        body.append(f"depends on   {state}")
        body += capped(rows, view.cap, f"majordomus plan show {about['id']}")
    else:
        body.append("depends on   nothing")
    missing = about["evidence_missing"]
    body.append(
        f"evidence     {'missing ' + ', '.join(missing) if missing else 'every token covered'}"
    )
    more = f"body omitted for budget — majordomus plan body {about['id']}"
    title = f"## PLAN ISSUE (the task's; majordomus plan body {about['id']})"
    return Section("plan-issue", title, body, drop="plan-issue", degraded=[head, more])


def ready(view: View) -> Section | Excluded | None:
    told = _fact(view)
    if told is None or told.get("problem"):
        return None
    found, total = told["ready"], int(told["ready_total"])
    if not total:
        return Excluded("ready next", "no other issue is READY — majordomus plan blocked")
    rows = [f"- {r['id']} {r['priority']} {r['milestone']}  {r['title']}" for r in found]
    shown = rows[: min(view.cap, READY_SHOWN)]
    if total > len(shown):
        shown.append(f"… {total - len(shown)} more: majordomus plan ready")
    title = f"## READY NEXT ({total} READY, in the order work takes them)"
    return Section("plan-ready", title, shown, drop="plan-ready")
